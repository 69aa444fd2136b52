// The snapshot's offers (rewards and points products), read record by record: every field of an
// offer and its time windows, checked and echoed for its entity. The defaults that depend on the
// rest of the snapshot (the user, the merchant, the balances) are the loader's
// (snapshot_reader.cpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/offer.hpp"
#include "model/offer_entity.hpp"
#include "readers/record_reader.hpp"

namespace lq {

// An offer record as read, before defaults that depend on the rest of the
// snapshot.
struct offer_record {
  offer item;
  std::optional<std::string> user_id;
  std::optional<std::string> merchant_id;
  std::optional<std::string> points_experience_id;
  std::vector<std::string> categories;
  entity_text text;  // the entity's echo of the record
  std::string item_kind = "free_item";
  bool discount_unknown = false;  // the record says its discount is left to the service
  bool has_id = false;
};

class offer_reader : protected record_reader {
 protected:
  using record_reader::record_reader;

  /// Reads the offer at the reader into `record`, whose kind the caller has set.
  bool read_offer(const field_path& path, offer_record& record);

 private:
  bool read_time_window(const field_path& path, time_window& window);
};

}  // namespace lq
