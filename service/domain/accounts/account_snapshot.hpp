// A user's account snapshot (contract section 1): what GET /api/account returns and what the
// qualifying endpoint loads into the engine, so the two can never disagree. The same body also
// carries the fields of the loyalty service's own account read (`id`, `email`,
// `points_balances`, `cost` on points products), so code written against either shape reads it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lq/qualifier.hpp"
#include "store/store.hpp"

namespace lq::service {

/// The account body of a user, or nullopt for an unknown user: the snapshot, which lists only
/// the user's merchant, its locations (each with its own or the merchant's zone), the user's
/// points and rewards of that merchant, and the merchant's points products (`tz_rule`s from the
/// system tzdata), plus the account-read fields. The caller holds db.lock().
std::optional<std::string> build_account_snapshot(store& db, const std::string& user_id,
                                                  instant generated_at);

/// The account read's query parameters (read from the URL by http/query_filters). Without any
/// of them the body is the whole snapshot.
struct account_read_query {
  std::optional<std::string> location_uid;
  std::optional<std::string> location_id;  // a location's hashid
  std::optional<std::string> redemption_venue;
  std::optional<std::vector<std::string>> reward_states;

  bool narrows() const { return location_uid || location_id || redemption_venue || reward_states; }
};

/// The account body narrowed as the loyalty service's account read is: only the rewards in one
/// of `reward_states` (default redeemable) and the rewards and points products usable `now` at
/// the location and venue (default online), as the engine's rules tell; everything else, and
/// every kept record, unchanged. 400 for a venue other than instore or online.
result<std::string> build_account_read(const std::string& account_json, const qualifier& engine,
                                       const account_read_query& query, instant now);

/// The POSIX TZ footer of an IANA zone, read once per zone; nullopt when the system lacks it.
std::optional<std::string> tz_rule_for(const std::string& time_zone);

}  // namespace lq::service
