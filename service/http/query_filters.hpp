// Query parameters of the consumer API. An array filter uses the bracket convention of API spec
// 4.5: `states[]=a&states[]=b`, one `name[]` per value. A name without brackets is read as ONE
// string: `states=a,b` is the single value "a,b", never split at commas.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <httplib.h>

#include "domain/accounts/account_snapshot.hpp"

namespace lq::service {

/// The values of the array filter `name`: every `name[]` value and every plain `name` value
/// (as one string each), in order; nullopt when neither is present (no filter).
std::optional<std::vector<std::string>> array_filter(const httplib::Params& params,
                                                     const std::string& name);

/// The value of a scalar parameter (the last one when repeated); nullopt when absent.
std::optional<std::string> scalar_param(const httplib::Params& params, const std::string& name);

/// The account read's query (GET /api/account): location_uid, location_id, redemption_venue and
/// the array filter reward_states.
account_read_query account_read_query_of(const httplib::Params& params);

}  // namespace lq::service
