#include "hub/domain/claim_service.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <string>
#include <utility>

namespace lq::hub {

namespace {

constexpr int64_t kForgetEveryMs = 60'000;

guest_key guest_of(const basket_key& basket) {
  return {basket.merchant_id, basket.user_id};
}

// A read of several statements from one snapshot of the file (BEGIN, not IMMEDIATE: a reader
// never takes the write lock).
class read_snapshot {
 public:
  explicit read_snapshot(front::database& db) : db_(db) { db_.exec("BEGIN"); }
  read_snapshot(const read_snapshot&) = delete;
  read_snapshot& operator=(const read_snapshot&) = delete;
  ~read_snapshot() {
    try {
      db_.exec("COMMIT");
    } catch (const front::database_error&) {
      // A read-only transaction has nothing to lose; the connection rolls back on its own.
    }
  }

 private:
  front::database& db_;
};

}  // namespace

int64_t wall_clock_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

claim_service::claim_service(front::database& writer, front::database& reader,
                             int64_t default_ttl_ms, hub_clock clock)
    : writes_(writer), reader_(reader), default_ttl_ms_(default_ttl_ms), clock_(std::move(clock)) {}

void claim_service::forget_when_due(int64_t now) {
  int64_t due = next_forget_ms_.load();
  if (now < due || !next_forget_ms_.compare_exchange_strong(due, now + kForgetEveryMs)) return;
  writes_.run([&](front::database& db) { claim_store(db).forget_before(now - default_ttl_ms_); });
}

claim_decision claim_service::claim(const claim_request& request) {
  const int64_t now = clock_();
  forget_when_due(now);
  claim_decision decision;
  writes_.run([&](front::database& db) {
    claim_store store(db);
    const guest_key guest = guest_of(request.basket);
    const std::optional<hub::claim> basket_claim = store.find(request.basket);
    guest_load load;
    if (!basket_claim) load.live_claims = store.count_holding(guest, now);
    std::optional<balance_report> stored;
    std::optional<balance_report> newest;
    if (request.offer.is_points() && request.balance) {
      stored = store.balance(guest, request.offer.points_experience_id);
      newest = newest_balance(stored, *request.balance);
      load.new_experience = !stored;
      if (!stored) load.experiences = store.count_balances(guest);
    }
    const std::vector<hub::claim> others =
        request.offer.is_points()
            ? store.holding_points(request.basket, request.offer.points_experience_id, now)
            : store.holding_reward(request.basket, *request.offer.reward_id, now);
    decision = decide_claim(request, basket_claim, others, newest, default_ttl_ms_, now, load);
    // A refusal keeps the balance report too (a retry is decided against it), within the bound.
    if (newest && keeps_balance_report(load) &&
        (!stored || stored->balance != newest->balance || stored->as_of_ms != newest->as_of_ms)) {
      store.put_balance(guest, request.offer.points_experience_id, *newest, now);
    }
    if (decision.what == claim_decision::outcome::granted) store.insert(*decision.answer);
  });
  return decision;
}

std::optional<settle_decision> claim_service::settle(const basket_key& basket, settlement how,
                                                     std::optional<int64_t> billed_at_ms) {
  const int64_t now = clock_();
  std::optional<settle_decision> decision;
  writes_.run([&](front::database& db) {
    claim_store store(db);
    const std::optional<hub::claim> stored = store.find(basket);
    if (!stored) return;
    decision = decide_settlement(*stored, how, billed_at_ms, now);
    if (decision->what == settle_decision::outcome::settled) {
      store.update_settlement(decision->answer);
    }
  });
  return decision;
}

guest_claims claim_service::guest(const guest_key& guest) {
  const int64_t now = clock_();
  guest_claims out;
  std::vector<stored_balance> balances;
  std::vector<hub::claim> points_claims;
  {
    std::lock_guard<std::mutex> lock(reader_mutex_);
    read_snapshot snapshot(reader_);
    claim_store store(reader_);
    out.claims = store.holding(guest, now, kMaxListedClaims + 1);
    points_claims = store.holding_points_of(guest, now);
    balances = store.balances(guest, kMaxPointsExperiencesPerGuest + 1);
  }
  if (out.claims.size() > kMaxListedClaims) {
    out.truncated = true;
    out.claims.erase(out.claims.begin());  // the oldest one beyond the cap
  }
  // More balances than the bound: kept by a hub before it (claims never add one beyond it).
  if (balances.size() > static_cast<size_t>(kMaxPointsExperiencesPerGuest)) {
    out.truncated = true;
    balances.pop_back();  // the least recently reported one beyond the cap
  }
  std::sort(balances.begin(), balances.end(), [](const stored_balance& a, const stored_balance& b) {
    return a.points_experience_id < b.points_experience_id;
  });
  for (const stored_balance& each : balances) {
    std::vector<hub::claim> of_experience;
    for (const hub::claim& c : points_claims) {
      if (c.offer.is_points() && c.offer.points_experience_id == each.points_experience_id) {
        of_experience.push_back(c);
      }
    }
    out.points.push_back(
        {each.points_experience_id, each.report, points_held(of_experience, each.report, now)});
  }
  return out;
}

}  // namespace lq::hub
