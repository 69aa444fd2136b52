// A user's account snapshot (contract section 1): what GET /api/account returns and what the
// qualifying endpoint loads into the engine, so the two can never disagree.
#pragma once

#include <optional>
#include <string>

#include "qualifier.hpp"
#include "store.hpp"

namespace lq::service {

/// The snapshot JSON of a user, or nullopt for an unknown user. Lists only the user's merchant,
/// its locations (each with its own or the merchant's zone), the user's points and rewards of
/// that merchant, and the merchant's points products; `tz_rule`s come from the system tzdata.
/// The caller holds db.lock().
std::optional<std::string> build_account_snapshot(store& db, const std::string& user_id,
                                                  instant generated_at);

/// The POSIX TZ footer of an IANA zone, read once per zone; nullopt when the system lacks it.
std::optional<std::string> tz_rule_for(const std::string& time_zone);

}  // namespace lq::service
