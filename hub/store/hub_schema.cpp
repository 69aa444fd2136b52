#include "hub/store/hub_schema.hpp"

#include "front/store/schema_migrations.hpp"

namespace lq::hub {

namespace {

// kMigrations[i] brings the schema from version i to version i + 1. Never edit a shipped entry:
// append a new one. Times are milliseconds since the epoch.
constexpr const char* kMigrations[] = {
    // 1: claims, and the newest balance any kiosk reported per guest and points experience.
    R"sql(
CREATE TABLE claims (
  merchant_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  basket_id TEXT NOT NULL,
  kiosk_id TEXT NOT NULL,
  reward_id TEXT,                        -- exactly one of reward_id, points_product_id
  points_product_id TEXT,
  points INTEGER NOT NULL DEFAULT 0,     -- a points product's points
  points_experience_id TEXT NOT NULL DEFAULT '',
  state TEXT NOT NULL CHECK (state IN ('held', 'spent', 'released')),
  claimed_at INTEGER NOT NULL,           -- the hub's clock
  ttl_ms INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,           -- held: expiry; spent: remembered until
  settled_at INTEGER,                    -- the hub's clock
  billed_at INTEGER,                     -- the loyalty service's clock
  PRIMARY KEY (merchant_id, user_id, basket_id),
  CHECK ((reward_id IS NULL) <> (points_product_id IS NULL))
) WITHOUT ROWID;
CREATE INDEX claims_by_reward ON claims(merchant_id, user_id, reward_id)
  WHERE reward_id IS NOT NULL;
CREATE INDEX claims_by_experience ON claims(merchant_id, user_id, points_experience_id)
  WHERE points_product_id IS NOT NULL;
CREATE INDEX claims_by_expiry ON claims(expires_at);
CREATE TABLE balances (
  merchant_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  points_experience_id TEXT NOT NULL,
  balance INTEGER NOT NULL,
  as_of INTEGER NOT NULL,                -- the loyalty service's clock
  reported_at INTEGER NOT NULL,          -- the hub's clock
  PRIMARY KEY (merchant_id, user_id, points_experience_id)
) WITHOUT ROWID;
)sql",
    // 2: a points claim's floor for its billed_at: the as_of of the balance it was granted against.
    R"sql(
ALTER TABLE claims ADD COLUMN balance_as_of INTEGER;  -- the loyalty service's clock
)sql",
};

static_assert(sizeof kMigrations / sizeof kMigrations[0] == kHubSchemaVersion,
              "one migration per schema version");

}  // namespace

int migrate_hub(front::database& db) {
  return front::apply_migrations(
      db, {"hub_schema_version", kMigrations, kHubSchemaVersion, "this store hub"});
}

}  // namespace lq::hub
