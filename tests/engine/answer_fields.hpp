// The members of a reward and of a points product in an answer (contract 3.4), as the tests
// expect them: the Catch2 output tests and the snapshot fuzzer check every entity against these.
#pragma once

#include <initializer_list>
#include <set>
#include <string>

namespace lq_test {

/// The members every offer has in an answer.
inline const std::set<std::string> kOfferFields = {
    "id",    "value", "minimum",  "maximum",    "label",
    "state", "type",  "products", "fine_print", "restriction_location_ids"};

inline std::set<std::string> offer_fields_and(std::initializer_list<std::string> more) {
  std::set<std::string> fields = kOfferFields;
  fields.insert(more);
  return fields;
}

/// A reward's: the offer's and its retire_at.
inline const std::set<std::string> kRewardFields = offer_fields_and({"retire_at"});

/// A points product's: the offer's and its price in points.
inline const std::set<std::string> kPointsProductFields = offer_fields_and({"points"});

}  // namespace lq_test
