// The store hub's decisions over its database: each claim, spend and release is decided by the
// rules (claim_rules.hpp) inside a transaction shared with the writes that arrived meanwhile
// (group_commit.hpp) and answered only once that transaction has committed. Reads (a guest's
// claims) go through a second connection and see committed claims only. Thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

#include "front/store/sqlite.hpp"
#include "hub/domain/claim_rules.hpp"
#include "hub/store/claim_store.hpp"
#include "hub/store/group_commit.hpp"

namespace lq::hub {

/// The hub's clock: milliseconds since the epoch.
using hub_clock = std::function<int64_t()>;

/// The system clock.
int64_t wall_clock_ms();

/// A guest's claims that hold now (at most kMaxListedClaims, the most recent), and where their
/// points stand (at most kMaxPointsExperiencesPerGuest experiences, the most recently reported;
/// counting every claim that holds, listed or not).
struct guest_claims {
  std::vector<claim> claims;
  bool truncated = false;  // more claims hold, or more balances are kept, than are listed
  std::vector<points_position> points;  // by points experience
};

class claim_service {
 public:
  /// `writer` and `reader`: two connections to the same migrated file. `default_ttl_ms`: the TTL
  /// of a claim that asks for none; claims are forgotten that long after they stop holding.
  claim_service(front::database& writer, front::database& reader, int64_t default_ttl_ms,
                hub_clock clock = wall_clock_ms);

  /// Decides a claim; answered once committed.
  claim_decision claim(const claim_request& request);
  /// Spends or releases the claim of `basket`; nullopt when it has none.
  std::optional<settle_decision> settle(const basket_key& basket, settlement how,
                                        std::optional<int64_t> billed_at_ms);
  /// The guest's claims that hold now and their points positions.
  guest_claims guest(const guest_key& guest);

  int64_t now_ms() const { return clock_(); }
  int64_t default_ttl_ms() const { return default_ttl_ms_; }

 private:
  /// Forgets old claims at most once a minute.
  void forget_when_due(int64_t now);

  group_commit writes_;
  front::database& reader_;
  std::mutex reader_mutex_;
  const int64_t default_ttl_ms_;
  hub_clock clock_;
  std::atomic<int64_t> next_forget_ms_{0};
};

}  // namespace lq::hub
