// The emulator's card helpers of the sandbox (sandbox.hpp): the fraud rule's inputs, a card
// registered for the user (POST /emulator/cards) and the report of what the rule would withhold
// (GET /emulator/fraud_report).
#include <optional>
#include <string>
#include <utility>

#include "domain/json_document.hpp"
#include "domain/sandbox/fraud_rule.hpp"
#include "domain/sandbox/sandbox.hpp"
#include "domain/sandbox/sandbox_request.hpp"
#include "domain/sandbox/test_cards.hpp"

namespace lq::service {

result<std::string> sandbox_service::register_card(const caller& who, std::string_view body) {
  result<json> parsed = parse_json_limited(body);
  if (!parsed) return parsed.err();
  if (!parsed->is_object()) return error{400, "request body must be a JSON object"};
  const json& request = *parsed;
  auto number_field = request.find("card_number");
  if (number_field == request.end() || !number_field->is_string()) {
    return error{400, "card_number is required (a string of digits)"};
  }
  std::optional<std::string> digits = card_digits(number_field->get<std::string>());
  if (!digits || test_card_family(*digits) == nullptr) {
    return error{400, card_number_problem("card_number")};
  }
  bool replace = false;
  auto replace_field = request.find("replace");
  if (replace_field != request.end() && !replace_field->is_null()) {
    if (!replace_field->is_boolean()) return error{400, "replace must be a boolean"};
    replace = replace_field->get<bool>();
  }
  auto user_field = request.find("user_id");
  if (user_field != request.end() && !user_field->is_null()) {
    result<std::string> user_id = required_text(request, "user_id", "user_id");
    if (!user_id) return user_id.err();
    if (*user_id != who.user_id) return not_the_token_user("user_id", *user_id);
  }
  const std::string now_text = format_rfc3339_ms(clock_.now());
  {
    auto lock = db_.lock();
    front::transaction tx(db_.db());
    if (replace) db_.delete_cards_of(who.user_id);
    db_.insert_card(who.user_id, card_row{*digits, now_text});
    tx.commit();
  }
  // As neutral as a card processor's answer: whether the card is high-risk is the doctor's.
  json card = json::object();
  card["card"] = masked_card(*digits);
  card["brand"] = test_card_family(*digits)->brand;
  card["user_id"] = who.user_id;
  card["registered_at"] = now_text;
  json out = json::object();
  out["card"] = std::move(card);
  return out.dump();
}

result<std::string> sandbox_service::fraud_report(const caller& who,
                                                  const std::optional<std::string>& user_id) {
  if (user_id && *user_id != who.user_id) return not_the_token_user("user_id", *user_id);
  auto lock = db_.lock();
  std::optional<user_row> user = db_.user(who.user_id);
  if (!user) return error{500, "the caller's user is missing"};
  return lq::service::fraud_report(db_, *user).dump();
}

}  // namespace lq::service
