#include "domain/baskets/baskets.hpp"

#include <optional>
#include <utility>

#include "domain/baskets/basket_check.hpp"
#include "domain/purchases/purchase_ledger.hpp"
#include "lq/json/json_writer.hpp"
#include "lq/qualifier.hpp"
#include "lq/render.hpp"
#include "lq/request_reader.hpp"

namespace lq::service {

namespace {

constexpr size_t kMaxBasketIdBytes = 200;
constexpr const char* kStates[] = {"checkout",  "placed", "billed",
                                   "completed", "voided", "refunded"};

struct basket_fields {
  std::string id;
  std::string state = "checkout";
  std::optional<offer_ref> selected;
};

const char* kind_name(offer_kind kind) {
  return kind == offer_kind::reward ? "reward" : "points product";
}

// The members of a basket body beyond the qualifying request, read by the engine's reader with
// the request (so one parser decides whether the body is valid) and checked here.
const std::vector<std::string_view> kBasketKeys = {"id", "state", "rewards", "points_products"};

const extra_member* member(const basket_request& request, std::string_view key) {
  auto it = request.extras.find(key);
  return it == request.extras.end() ? nullptr : &it->second;
}

// Reads `rewards` or `points_products`: an array of id strings, absent or null = none.
std::optional<error> read_ids(const basket_request& request, const char* key, offer_kind kind,
                              std::vector<offer_ref>& out) {
  const extra_member* ids = member(request, key);
  if (!ids || ids->kind == extra_member::shape::null) return std::nullopt;
  if (ids->kind != extra_member::shape::array) {
    return error{400, std::string(key) + " must be an array of ids"};
  }
  for (size_t i = 0; i < ids->elements.size(); ++i) {
    const std::optional<std::string>& id = ids->elements[i];
    if (!id || id->empty()) {
      return error{400,
                   std::string(key) + "[" + std::to_string(i) + "] must be a non-empty string"};
    }
    out.push_back({kind, *id});
  }
  return std::nullopt;
}

result<basket_fields> read_fields(const basket_request& request) {
  basket_fields fields;
  const extra_member* id = member(request, "id");
  if (!id || id->kind != extra_member::shape::string || id->text.empty()) {
    return error{400, "id is required (a non-empty string)"};
  }
  fields.id = id->text;
  if (fields.id.size() > kMaxBasketIdBytes) return error{400, "id is longer than 200 bytes"};

  const extra_member* state = member(request, "state");
  if (state && state->kind != extra_member::shape::null) {
    bool known = false;
    if (state->kind == extra_member::shape::string) {
      for (const char* name : kStates) known = known || state->text == name;
    }
    if (!known) {
      return error{400,
                   "state must be one of: checkout, placed, billed, completed, voided, refunded"};
    }
    fields.state = state->text;
  }

  std::vector<offer_ref> selected;
  if (auto bad = read_ids(request, "rewards", offer_kind::reward, selected)) return *bad;
  if (auto bad = read_ids(request, "points_products", offer_kind::points_product, selected)) {
    return *bad;
  }
  if (selected.size() > 1) {
    return error{400, "at most one reward or points product per order (rewards + points_products)"};
  }
  if (!selected.empty()) fields.selected = std::move(selected.front());
  return fields;
}

// The basket as stored: its fields, then the request as the engine validated it.
std::string stored_body(const basket_fields& fields, const basket_request& request) {
  std::string out = "{\"id\":";
  append_json_string(out, fields.id);
  out += ",\"state\":";
  append_json_string(out, fields.state);
  for (offer_kind kind : {offer_kind::reward, offer_kind::points_product}) {
    out += kind == offer_kind::reward ? ",\"rewards\":[" : "],\"points_products\":[";
    if (fields.selected && fields.selected->kind == kind)
      append_json_string(out, fields.selected->id);
  }
  out += "],";
  out += render_request(request).substr(1);  // the canonical request is never `{}`
  return out;
}

// Whether `fields` and `request` are the order stored as `stored` (a stored_body), whatever
// state either names: a basket's state moves on (billed, completed, ...), its order does not.
bool same_order(const std::string& stored, basket_fields fields, const basket_request& request) {
  std::string prefix = "{\"id\":";
  append_json_string(prefix, fields.id);
  prefix += ",\"state\":\"";
  if (stored.compare(0, prefix.size(), prefix) != 0) return false;
  const size_t end = stored.find('"', prefix.size());
  if (end == std::string::npos) return false;
  fields.state = stored.substr(prefix.size(), end - prefix.size());
  return stored_body(fields, request) == stored;
}

// The stored offer of a basket row.
std::optional<offer_ref> offer_of(const basket_row& row) {
  if (row.reward_id) return offer_ref{offer_kind::reward, *row.reward_id};
  if (row.points_product_id) return offer_ref{offer_kind::points_product, *row.points_product_id};
  return std::nullopt;
}

// A points product in state `unredeemable` is shown (contract 3.2) but never sold.
bool unredeemable(const qualifier& engine, const offer_ref& selected) {
  if (selected.kind != offer_kind::points_product) return false;
  const std::optional<offer_view> item = engine.find_offer(selected);
  return item && !item->redeemable;
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

}  // namespace

std::string render_basket(const basket_outcome& outcome) {
  std::string out = "{\"id\":";
  append_json_string(out, outcome.id);
  out += ",\"state\":";
  append_json_string(out, outcome.state);
  out += ",\"discount\":\"" + format_cents(outcome.discount_cents) + "\",\"offer\":";
  if (outcome.offer) {
    out += outcome.offer->kind == offer_kind::reward ? "{\"kind\":\"reward\",\"id\":"
                                                     : "{\"kind\":\"points_product\",\"id\":";
    append_json_string(out, outcome.offer->id);
    out += '}';
  } else {
    out += "null";
  }
  out += '}';
  return out;
}

result<basket_outcome> basket_service::submit(const caller& who, std::string_view body) {
  if (auto too_large = check_basket_body_size(body)) return *too_large;
  // One read of the body, by the engine's reader: the basket fields exactly as the qualifying
  // endpoint reads them (the same errors), and the basket's own members with them.
  result<basket_request> request = parse_request(body, kBasketKeys);
  if (!request) return request.err();
  result<basket_fields> fields = read_fields(*request);
  if (!fields) return fields.err();

  result<std::shared_ptr<const account_view>> view = accounts_.get(who.user_id);
  if (!view) return view.err();
  const qualifier& engine = (**view).engine;
  const instant now = clock_.now();
  const std::string now_text = format_rfc3339_ms(now);
  const bool selects = fields->state != "voided" && fields->selected;
  result<basket_check> check =
      check_basket(engine, *request, now, selects ? fields->selected : std::nullopt);
  if (!check) return check.err();
  const bool unsellable = selects && unredeemable(engine, *fields->selected);

  basket_outcome outcome;
  outcome.id = fields->id;
  outcome.state = fields->state;
  bool billed_now = false;
  {
    auto lock = db_.lock();
    front::transaction tx(db_.db());
    if (is_open(fields->state)) drop_stale_open_baskets(db_, who.user_id, now);
    std::optional<basket_row> existing = db_.basket(who.user_id, fields->id);
    if (!transition_allowed(existing, fields->state)) {
      return error{409, transition_message(existing, fields->id, fields->state)};
    }
    outcome.created = !existing;

    if (existing && !is_open(existing->state)) {
      // Billed (and later) baskets are frozen: a re-send changes at most the state and never
      // redeems, debits or accrues again. Its id names that order: another body is refused.
      if (!same_order(existing->body, *fields, *request)) {
        return error{409, "basket " + fields->id + " was " +
                              (existing->billed_at ? std::string("billed") : existing->state) +
                              " with another body; a basket id names one order (send another "
                              "order under a new id)"};
      }
      outcome.discount_cents = existing->discount_cents;
      outcome.offer = offer_of(*existing);
      if (existing->state != fields->state) {
        existing->state = fields->state;
        existing->updated_at = now_text;
        db_.save_basket(*existing);
      }
      tx.commit();
      return outcome;
    }

    // What is stored (and billed) must be what the basket holds: never a subtotal above it.
    if (auto inflated = check_declared_subtotal(*request, *check)) return *inflated;
    if (fields->state == "billed") {
      if (auto outside = check_order_time(window_, check->order_time, now)) return *outside;
    }

    basket_row row;
    row.user_id = who.user_id;
    row.id = fields->id;
    row.merchant_id = who.merchant_id;
    row.state = fields->state;
    row.body = stored_body(*fields, *request);
    row.created_at = existing ? existing->created_at : now_text;
    row.updated_at = now_text;
    if (auto too_large = check_basket_size(db_, open_limits_, row, existing)) return *too_large;

    if (selects) {
      const offer_ref& selected = *fields->selected;
      const offer_check& verdict = check->offer;
      if (!verdict.qualifies) {
        return error{400, std::string(kind_name(selected.kind)) + " " + selected.id +
                              " does not qualify for this basket"};
      }
      if (unsellable) return error{400, "points product " + selected.id + " is unredeemable"};
      row.discount_cents = verdict.discount_cents;
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
                : verdict.points == 0 || db_.debit_points(who.user_id, verdict.points_experience_id,
                                                          verdict.points, fields->id, now_text);
        if (!taken) {
          return error{400, std::string(kind_name(selected.kind)) + " " + selected.id +
                                " does not qualify for this basket"};
        }
      }
    }

    if (fields->state == "billed") {
      std::optional<merchant_row> merchant = db_.merchant(who.merchant_id);
      if (!merchant) return error{500, "the caller's merchant is missing"};
      decimal amount = check->base - decimal::from_cents(row.discount_cents);
      if (amount.is_negative()) amount = decimal();
      purchase_entry entry;
      entry.source = "basket";
      entry.user_id = who.user_id;
      entry.amount = amount;
      entry.purchased_at = format_rfc3339_ms(check->order_time);
      entry.location_id = check->location_id;
      entry.basket_id = fields->id;
      entry.amount_field = "subtotal";
      entry.unrepresentable_message = "the points this basket accrues are out of range";
      result<int64_t> recorded = record_purchase(db_, *merchant, entry, processing_delay_ms_);
      if (!recorded) return recorded.err();
      row.billed_at = now_text;
      billed_now = true;
    }

    db_.save_basket(row);
    outcome.discount_cents = row.discount_cents;
    outcome.offer = offer_of(row);
    tx.commit();
  }
  if (billed_now) {
    accounts_.invalidate(who.user_id);
    purchase_queued_();
  }
  return outcome;
}

}  // namespace lq::service
