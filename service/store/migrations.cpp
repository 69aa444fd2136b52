#include "store/migrations.hpp"

#include "front/store/schema_migrations.hpp"

namespace lq::service {

namespace {

// migrations[i] brings the schema from version i to version i + 1. Never edit a shipped entry:
// append a new one.
constexpr const char* kMigrations[] = {
    // 1: merchants, users, offers, baskets and the purchases that accrue points.
    R"sql(
CREATE TABLE merchants (
  id TEXT PRIMARY KEY,
  merchant_key TEXT NOT NULL UNIQUE,
  time_zone TEXT NOT NULL,
  points_per_dollar TEXT NOT NULL,       -- exact decimal text
  points_experience_id TEXT NOT NULL     -- where purchases accrue
);
CREATE TABLE locations (
  uid TEXT PRIMARY KEY,
  id TEXT NOT NULL,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  time_zone TEXT                         -- NULL: the merchant's
);
CREATE INDEX locations_by_merchant ON locations(merchant_id);
CREATE TABLE clients (
  client_id TEXT PRIMARY KEY,
  merchant_id TEXT REFERENCES merchants(id)
);
CREATE TABLE users (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  access_token TEXT NOT NULL UNIQUE
);
CREATE TABLE points_balances (
  user_id TEXT NOT NULL REFERENCES users(id),
  points_experience_id TEXT NOT NULL,
  balance INTEGER NOT NULL,
  position INTEGER NOT NULL,             -- order in the snapshot's `points`
  PRIMARY KEY (user_id, points_experience_id)
);
CREATE TABLE campaigns (
  id INTEGER PRIMARY KEY,                -- the numeric program id
  external_uid_hashid TEXT NOT NULL UNIQUE,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  reward_template TEXT NOT NULL          -- JSON reward record without id/user_id
);
CREATE TABLE rewards (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id),
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  state TEXT NOT NULL,
  record TEXT NOT NULL,                  -- contract 1.1 record as JSON; `state` is the column
  campaign_id INTEGER REFERENCES campaigns(id),
  redeemed_basket_id TEXT,
  redeemed_at TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX rewards_by_user ON rewards(user_id);
CREATE TABLE points_products (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  record TEXT NOT NULL                   -- contract 1.2 record as JSON
);
CREATE INDEX points_products_by_merchant ON points_products(merchant_id);
CREATE TABLE baskets (
  user_id TEXT NOT NULL REFERENCES users(id),
  id TEXT NOT NULL,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  state TEXT NOT NULL,
  body TEXT NOT NULL,                    -- the last accepted request body
  reward_id TEXT,
  points_product_id TEXT,
  discount_cents INTEGER NOT NULL,
  billed_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (user_id, id)
);
CREATE TABLE purchases (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  source TEXT NOT NULL,                  -- 'basket' (billed basket) or 'sandbox' (POST /purchases)
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  location_id TEXT,
  user_id TEXT NOT NULL REFERENCES users(id),
  basket_id TEXT,
  amount TEXT NOT NULL,                  -- exact decimal dollars
  points INTEGER NOT NULL,               -- accrued when the purchase lands
  points_experience_id TEXT NOT NULL,
  purchased_at TEXT NOT NULL,
  received_at INTEGER NOT NULL,          -- ms since the epoch, real time
  due_at INTEGER NOT NULL,               -- received_at + processing delay
  landed_at INTEGER,                     -- NULL while pending
  UNIQUE (user_id, basket_id)
);
CREATE INDEX purchases_pending ON purchases(due_at) WHERE landed_at IS NULL;
CREATE TABLE points_ledger (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id TEXT NOT NULL REFERENCES users(id),
  points_experience_id TEXT NOT NULL,
  delta INTEGER NOT NULL,
  reason TEXT NOT NULL,                  -- 'redemption' or 'accrual'
  basket_id TEXT,
  purchase_id INTEGER REFERENCES purchases(id),
  at TEXT NOT NULL
);
CREATE INDEX points_ledger_by_user ON points_ledger(user_id);
)sql",
    // 2: the sandbox operations (API spec 4.2-4.5): purchase-triggered campaigns, and which
    // purchase issued a triggered reward.
    R"sql(
ALTER TABLE campaigns ADD COLUMN purchase_trigger TEXT;   -- JSON (docs/service.md) or NULL
ALTER TABLE rewards ADD COLUMN trigger_purchase_id INTEGER REFERENCES purchases(id);
CREATE INDEX rewards_by_campaign ON rewards(user_id, campaign_id);
CREATE INDEX purchases_by_user ON purchases(user_id, landed_at);
)sql",
    // 3: a user's open baskets, counted and pruned on every new one (open_baskets.hpp).
    R"sql(
CREATE INDEX IF NOT EXISTS baskets_open ON baskets(user_id, updated_at)
  WHERE state IN ('checkout', 'placed');
)sql",
    // 4: the sandbox fraud rule (fraud_rule.hpp): a campaign's reward type, and the cards a user
    // has registered (the emulator's own helper; the API spec shows no registration).
    R"sql(
ALTER TABLE campaigns ADD COLUMN reward_type TEXT NOT NULL DEFAULT 'promotion';
CREATE TABLE user_cards (
  user_id TEXT NOT NULL REFERENCES users(id),
  number TEXT NOT NULL,                  -- digits only
  registered_at TEXT NOT NULL,
  PRIMARY KEY (user_id, number)
);
CREATE INDEX user_cards_by_number ON user_cards(number);
)sql",
};

static_assert(sizeof kMigrations / sizeof kMigrations[0] == kSchemaVersion,
              "one migration per schema version");

}  // namespace

int migrate(front::database& db) {
  return front::apply_migrations(db,
                                 {"schema_version", kMigrations, kSchemaVersion, "this service"});
}

}  // namespace lq::service
