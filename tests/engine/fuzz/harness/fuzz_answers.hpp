// Checks that hold for every answer the engine gives (contract sections 3.4 and 4), shared by the
// request and snapshot targets.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_check.hpp"
#include "lq/decimal.hpp"
#include "lq/qualifier.hpp"
#include "lq/request_reader.hpp"
#include "render/render.hpp"

namespace lq_fuzz {

/// RFC 8259 validity as judged by nlohmann::json: true, false, or nullopt where nlohmann is
/// stricter than the grammar (a number beyond the range of a double, which the engine reads as
/// text and may rightly accept). A NUL byte, never valid JSON, would stop nlohmann's reader.
/// A leading UTF-8 byte-order mark, which nlohmann skips, is not JSON: RFC 8259 lets a reader
/// ignore or refuse it, and the engine refuses it (docs/decisions.md, "byte-order mark").
inline std::optional<bool> is_json(std::string_view text) {
  if (text.find('\0') != std::string_view::npos) return false;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") return false;
  if (nlohmann::json::accept(text.begin(), text.end())) return true;
  try {
    (void)nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::exception& e) {  // out_of_range 406: "number overflow parsing"
    if (std::string_view(e.what()).find("number overflow") != std::string_view::npos) {
      return std::nullopt;
    }
  }
  return false;
}

/// "12.34" as cents; -1 when it is not a non-negative cents string.
inline long long cents_of(const std::string& text) {
  const size_t dot = text.find('.');
  if (dot == std::string::npos || dot == 0 || text.size() != dot + 3) return -1;
  long long cents = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (i == dot) continue;
    if (text[i] < '0' || text[i] > '9') return -1;
    cents = cents * 10 + (text[i] - '0');
  }
  return cents;
}

/// qualify and explain agree on `request` (whatever it is) and are well-formed.
inline void check_answers(const lq::qualifier& engine, std::string_view request) {
  const auto parsed = lq::parse_request(request);
  const auto qualified = engine.qualify_json(request, fixed_now());
  const auto explained = engine.explain_json(request, fixed_now());
  LQ_FUZZ_CHECK(qualified.ok() == parsed.ok());
  LQ_FUZZ_CHECK(explained.ok() == parsed.ok());
  if (!parsed.ok()) {
    LQ_FUZZ_CHECK(qualified.err().code == 400 && explained.err().code == 400);
    LQ_FUZZ_CHECK(qualified.err().message == parsed.err().message);
    LQ_FUZZ_CHECK(!parsed.err().message.empty());
    const auto body = nlohmann::json::parse(lq::render_error(parsed.err()), nullptr, false);
    LQ_FUZZ_CHECK(body.is_object() && body["code"] == 400);
    return;
  }
  const auto answer = nlohmann::json::parse(*qualified, nullptr, false);
  const auto explanation = nlohmann::json::parse(*explained, nullptr, false);
  LQ_FUZZ_CHECK(answer.is_object() && answer["rewards"].is_array() &&
                answer["points_products"].is_array());
  LQ_FUZZ_CHECK(explanation.is_object() && explanation["entries"].is_array());

  const lq::snapshot& snap = engine.current();
  const auto& entries = explanation["entries"];
  LQ_FUZZ_CHECK(entries.size() == snap.offer_count());
  std::vector<std::string> qualifying_rewards, qualifying_products;
  long long best_cents = -1;
  for (size_t i = 0; i < entries.size(); ++i) {
    const auto& entry = entries[i];
    const bool reward = i < snap.rewards.size();
    LQ_FUZZ_CHECK(entry["kind"] == (reward ? "reward" : "points_product"));
    LQ_FUZZ_CHECK(entry["id"] == snap.offer_at(static_cast<uint32_t>(i)).id);
    const bool qualifies = entry["qualifies"].get<bool>();
    LQ_FUZZ_CHECK(qualifies == entry["reasons"].empty());
    const long long cents = cents_of(entry["discount"].get<std::string>());
    LQ_FUZZ_CHECK(cents >= 0);
    if (!qualifies) continue;
    LQ_FUZZ_CHECK(cents > 0);
    if (cents > best_cents) best_cents = cents;
    (reward ? qualifying_rewards : qualifying_products).push_back(entry["id"]);
  }
  auto ids_of = [](const nlohmann::json& list) {
    std::vector<std::string> ids;
    for (const auto& entity : list) ids.push_back(entity["id"]);
    return ids;
  };
  LQ_FUZZ_CHECK(ids_of(answer["rewards"]) == qualifying_rewards);
  LQ_FUZZ_CHECK(ids_of(answer["points_products"]) == qualifying_products);
  const auto& best = explanation["best"];
  LQ_FUZZ_CHECK(best.is_null() == (best_cents < 0));
  if (!best.is_null()) {
    bool found = false;
    for (const auto& entry : entries) {
      if (entry["qualifies"].get<bool>() && entry["id"] == best) {
        found = found || cents_of(entry["discount"].get<std::string>()) == best_cents;
      }
    }
    LQ_FUZZ_CHECK(found);
  }
}

}  // namespace lq_fuzz
