#include "baskets.hpp"

#include <optional>
#include <utility>

#include "decimal.hpp"
#include "evaluation.hpp"
#include "json_body.hpp"
#include "json_writer.hpp"
#include "money.hpp"
#include "points_bounds.hpp"
#include "qualify.hpp"
#include "request.hpp"

namespace lq::service {

namespace {

constexpr size_t kMaxBasketIdBytes = 200;
constexpr const char* kStates[] = {"checkout",  "placed", "billed",
                                   "completed", "voided", "refunded"};

struct selection {
  offer_kind kind = offer_kind::reward;
  std::string id;
};

struct basket_fields {
  std::string id;
  std::string state = "checkout";
  std::optional<selection> selected;
};

const char* kind_name(offer_kind kind) {
  return kind == offer_kind::reward ? "reward" : "points product";
}

// Reads `rewards` or `points_products`: an array of id strings, absent or null = none.
std::optional<error> read_ids(const json& body, const char* key, offer_kind kind,
                              std::vector<selection>& out) {
  auto it = body.find(key);
  if (it == body.end() || it->is_null()) return std::nullopt;
  if (!it->is_array()) return error{400, std::string(key) + " must be an array of ids"};
  for (size_t i = 0; i < it->size(); ++i) {
    const json& id = (*it)[i];
    if (!id.is_string() || id.get_ref<const std::string&>().empty()) {
      return error{400,
                   std::string(key) + "[" + std::to_string(i) + "] must be a non-empty string"};
    }
    out.push_back({kind, id.get<std::string>()});
  }
  return std::nullopt;
}

result<basket_fields> read_fields(const json& body) {
  basket_fields fields;
  auto id = body.find("id");
  if (id == body.end() || !id->is_string() || id->get_ref<const std::string&>().empty()) {
    return error{400, "id is required (a non-empty string)"};
  }
  fields.id = id->get<std::string>();
  if (fields.id.size() > kMaxBasketIdBytes) return error{400, "id is longer than 200 bytes"};

  auto state = body.find("state");
  if (state != body.end() && !state->is_null()) {
    bool known = false;
    if (state->is_string()) {
      for (const char* name : kStates) known = known || *state == name;
    }
    if (!known) {
      return error{400,
                   "state must be one of: checkout, placed, billed, completed, voided, refunded"};
    }
    fields.state = state->get<std::string>();
  }

  std::vector<selection> selected;
  if (auto bad = read_ids(body, "rewards", offer_kind::reward, selected)) return *bad;
  if (auto bad = read_ids(body, "points_products", offer_kind::points_product, selected)) {
    return *bad;
  }
  if (selected.size() > 1) {
    return error{400, "at most one reward or points product per order (rewards + points_products)"};
  }
  if (!selected.empty()) fields.selected = std::move(selected.front());
  return fields;
}

bool is_open(const std::string& state) {
  return state == "checkout" || state == "placed";
}

// Open baskets move freely among checkout and placed, and on to billed or voided. Billing is
// final: a billed basket may only be re-sent, completed or refunded.
bool transition_allowed(const std::optional<basket_row>& existing, const std::string& to) {
  if (!existing) return is_open(to) || to == "billed";
  const std::string& from = existing->state;
  if (is_open(from)) return is_open(to) || to == "billed" || to == "voided";
  if (from == "billed") return to == "billed" || to == "completed" || to == "refunded";
  if (from == "completed") return to == "completed" || to == "refunded";
  return to == from;
}

std::string transition_message(const std::optional<basket_row>& existing, const std::string& id,
                               const std::string& to) {
  if (!existing) {
    return "basket " + id + " does not exist yet; a new basket must be checkout, placed or billed";
  }
  return "basket " + id + " is " + existing->state + " and cannot become " + to;
}

// The points experience a points product spends (contract 1.2 default: the first of `points`).
std::string points_experience_of(const account_view& view, const std::string& product_id) {
  const json snapshot = json::parse(view.snapshot_json);
  for (const json& product : snapshot["points_products"]) {
    if (product.value("id", "") != product_id) continue;
    auto it = product.find("points_experience_id");
    if (it != product.end() && it->is_string()) return it->get<std::string>();
    break;
  }
  const json& points = snapshot["points"];
  return points.empty() ? std::string() : points.front().value("points_experience_id", "");
}

// How the selected offer fares on this basket.
struct offer_check {
  bool qualifies = false;
  int64_t discount_cents = 0;
  int64_t points = 0;  // points products: the cost
};

offer_check check_offer(const snapshot& snap, const explain_result& explained,
                        const selection& selected) {
  for (const explanation& entry : explained.entries) {
    if (entry.kind != selected.kind) continue;
    const offer& item = entry.kind == offer_kind::reward ? snap.rewards[entry.index]
                                                         : snap.points_products[entry.index];
    if (item.id != selected.id) continue;
    return offer_check{entry.qualifies, entry.discount_cents, item.points};
  }
  return offer_check{};
}

}  // namespace

std::string render_basket(const basket_outcome& outcome) {
  std::string out = "{\"id\":";
  append_json_string(out, outcome.id);
  out += ",\"state\":";
  append_json_string(out, outcome.state);
  out += ",\"discount\":\"" + format_cents(outcome.discount_cents) + "\"}";
  return out;
}

result<basket_outcome> basket_service::submit(const caller& who, std::string_view body) {
  result<json> parsed = parse_json_limited(body);
  if (!parsed) return parsed.err();
  if (!parsed->is_object()) return error{400, "request body must be a JSON object"};
  // The basket fields are read by the engine, exactly as the qualifying endpoint reads them.
  result<basket_request> request = parse_request(body);
  if (!request) return request.err();
  result<basket_fields> fields = read_fields(*parsed);
  if (!fields) return fields.err();

  result<std::shared_ptr<const account_view>> view = accounts_.get(who.user_id);
  if (!view) return view.err();
  const account_view& account = **view;
  const snapshot& snap = account.engine.current();
  const instant now = clock_.now();
  const std::string now_text = format_rfc3339(now);

  basket_outcome outcome;
  outcome.id = fields->id;
  outcome.state = fields->state;
  bool billed_now = false;
  {
    auto lock = db_.lock();
    transaction tx(db_.db());
    std::optional<basket_row> existing = db_.basket(who.user_id, fields->id);
    if (!transition_allowed(existing, fields->state)) {
      return error{409, transition_message(existing, fields->id, fields->state)};
    }
    outcome.created = !existing;

    if (existing && !is_open(existing->state)) {
      // Billed (and later) baskets are frozen: a re-send changes at most the state and never
      // redeems, debits or accrues again.
      outcome.discount_cents = existing->discount_cents;
      if (existing->state != fields->state) {
        existing->state = fields->state;
        existing->updated_at = now_text;
        db_.save_basket(*existing);
      }
      tx.commit();
      return outcome;
    }

    basket_row row;
    row.user_id = who.user_id;
    row.id = fields->id;
    row.merchant_id = who.merchant_id;
    row.state = fields->state;
    row.body = std::string(body);
    row.created_at = existing ? existing->created_at : now_text;
    row.updated_at = now_text;

    if (fields->state != "voided" && fields->selected) {
      const selection& selected = *fields->selected;
      const offer_check check = check_offer(snap, lq::explain(snap, *request, now), selected);
      if (!check.qualifies) {
        return error{400, std::string(kind_name(selected.kind)) + " " + selected.id +
                              " does not qualify for this basket"};
      }
      row.discount_cents = check.discount_cents;
      if (selected.kind == offer_kind::reward) {
        row.reward_id = selected.id;
      } else {
        row.points_product_id = selected.id;
      }

      if (fields->state == "billed") {
        // The conditional updates are the arbiter when two baskets race for one offer.
        const bool taken =
            selected.kind == offer_kind::reward
                ? db_.redeem_reward(selected.id, who.user_id, fields->id, now_text)
                : check.points == 0 ||
                      db_.debit_points(who.user_id, points_experience_of(account, selected.id),
                                       check.points, fields->id, now_text);
        if (!taken) {
          return error{400, std::string(kind_name(selected.kind)) + " " + selected.id +
                                " does not qualify for this basket"};
        }
      }
    }

    if (fields->state == "billed") {
      std::optional<merchant_row> merchant = db_.merchant(who.merchant_id);
      if (!merchant) return error{500, "the caller's merchant is missing"};
      basket_context context;
      build_context(snap, *request, now, context);
      decimal amount = context.base - decimal_from_cents(row.discount_cents);
      if (amount.is_negative()) amount = decimal();
      std::optional<int64_t> points = accrued_points(amount, merchant->points_per_dollar);
      if (!points) return error{400, "the points this basket accrues are out of range"};
      auto range =
          points_out_of_range(db_, who.user_id, merchant->points_experience_id, points, "subtotal");
      if (range) return *range;

      purchase_row purchase;
      purchase.source = "basket";
      purchase.merchant_id = who.merchant_id;
      if (context.place && context.place->of_snapshot_merchant) {
        purchase.location_id = context.place->id;
      }
      purchase.user_id = who.user_id;
      purchase.basket_id = fields->id;
      purchase.amount = decimal_text(amount);
      purchase.points = *points;
      purchase.points_experience_id = merchant->points_experience_id;
      purchase.purchased_at = format_rfc3339(request->order_timestamp.value_or(now));
      purchase.received_at = service_clock::wall_ms();
      purchase.due_at = purchase.received_at + processing_delay_ms_;
      db_.insert_purchase(purchase);
      row.billed_at = now_text;
      billed_now = true;
    }

    db_.save_basket(row);
    outcome.discount_cents = row.discount_cents;
    tx.commit();
  }
  if (billed_now) {
    accounts_.invalidate(who.user_id);
    purchase_queued_();
  }
  return outcome;
}

}  // namespace lq::service
