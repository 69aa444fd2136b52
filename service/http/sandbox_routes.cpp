#include "http/sandbox_routes.hpp"

#include <optional>
#include <string>
#include <string_view>

#include "front/http/http_messages.hpp"
#include "http/query_filters.hpp"

namespace lq::service {

namespace {

constexpr const char* kGrantPath = "/rewards/grant";
constexpr const char* kPurchasesPath = "/purchases";
constexpr const char* kRewardsPath = "/rewards";
// The emulator's own helpers (the fraud rule's inputs), not operations of the API spec.
constexpr const char* kCardsPath = "/emulator/cards";
constexpr const char* kFraudReportPath = "/emulator/fraud_report";
constexpr const char* kJson = "application/json";
constexpr size_t kMaxPurchasesLimit = 1000;

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// Authentication (401), then the version (406), then the media type (406).
std::optional<caller> admit(const credentials& auth, const httplib::Request& req,
                            httplib::Response& res) {
  result<caller> who = auth.authenticate_consumer(front::header(req, "Authorization"),
                                                  front::header(req, "X-ClientId"));
  if (!who) {
    front::send_error(res, who.err());
    return std::nullopt;
  }
  std::optional<std::string_view> version = front::header(req, "Accept-Version");
  if (!version || trimmed(*version) != kConsumerApiVersion) {
    front::send_error(
        res, error{406, std::string("the Accept-Version header must be ") + kConsumerApiVersion +
                            " (consumer API sandbox operations)"});
    return std::nullopt;
  }
  if (!front::accepts_media_type(req, kJson)) {
    front::send_error(res, error{406, "the Accept header must be application/json"});
    return std::nullopt;
  }
  return std::move(who.value());
}

std::optional<instant> instant_param(const httplib::Request& req, const char* name,
                                     httplib::Response& res, bool& failed) {
  std::optional<std::string> text = scalar_param(req.params, name);
  if (!text) return std::nullopt;
  std::optional<instant> at = parse_rfc3339(*text);
  if (!at) {
    front::send_error(
        res, error{400, std::string(name) + " must be an ISO 8601 timestamp with offset, e.g. "
                                            "2026-11-24T08:15:00-05:00"});
    failed = true;
  }
  return at;
}

std::optional<purchase_filters> read_purchase_filters(const httplib::Request& req,
                                                      httplib::Response& res) {
  purchase_filters filters;
  filters.ids = array_filter(req.params, "ids");
  filters.location_ids = array_filter(req.params, "location_ids");
  filters.sources = array_filter(req.params, "sources");
  bool failed = false;
  filters.purchased_since = instant_param(req, "purchased_since", res, failed);
  if (failed) return std::nullopt;
  filters.purchased_before = instant_param(req, "purchased_before", res, failed);
  if (failed) return std::nullopt;
  if (std::optional<std::string> limit = scalar_param(req.params, "limit")) {
    size_t value = 0;
    bool valid = !limit->empty() && limit->size() <= 4;
    for (char c : *limit) {
      valid = valid && c >= '0' && c <= '9';
      if (valid) value = value * 10 + static_cast<size_t>(c - '0');
    }
    if (!valid || value < 1 || value > kMaxPurchasesLimit) {
      front::send_error(res, error{400, "limit must be an integer from 1 to 1000"});
      return std::nullopt;
    }
    filters.limit = value;
  }
  return filters;
}

void disabled_in_production(httplib::Server& server, const char* path) {
  auto handler = [](const httplib::Request& req, httplib::Response& res) {
    front::send_error(res, error{404, req.method + " " + req.path +
                                          " is a sandbox operation, disabled in production mode"});
  };
  server.Get(path, handler);
  server.Post(path, handler);
  server.Put(path, handler);
  server.Patch(path, handler);
  server.Delete(path, handler);
}

}  // namespace

void install_sandbox_routes(httplib::Server& server, const credentials& auth,
                            sandbox_service* sandbox) {
  if (sandbox == nullptr) {
    for (const char* path :
         {kGrantPath, kPurchasesPath, kRewardsPath, kCardsPath, kFraudReportPath}) {
      disabled_in_production(server, path);
    }
    return;
  }

  server.Post(kGrantPath, [&auth, sandbox](const httplib::Request& req, httplib::Response& res) {
    std::optional<caller> who = admit(auth, req, res);
    if (!who) return;
    result<std::string> granted = sandbox->grant(*who, req.body);
    if (!granted) return front::send_error(res, granted.err());
    front::send_json(res, 201, granted.value(), kJson);
  });

  server.Post(kPurchasesPath,
              [&auth, sandbox](const httplib::Request& req, httplib::Response& res) {
                std::optional<caller> who = admit(auth, req, res);
                if (!who) return;
                result<int64_t> queued = sandbox->simulate_purchase(*who, req.body);
                if (!queued) return front::send_error(res, queued.err());
                // Processed asynchronously: no JSON body (API spec 4.3).
                res.status = 202;
              });

  server.Get(kPurchasesPath, [&auth, sandbox](const httplib::Request& req, httplib::Response& res) {
    std::optional<caller> who = admit(auth, req, res);
    if (!who) return;
    std::optional<purchase_filters> filters = read_purchase_filters(req, res);
    if (!filters) return;
    front::send_json(res, 200, sandbox->list_purchases(*who, *filters), kJson);
  });

  server.Get(kRewardsPath, [&auth, sandbox](const httplib::Request& req, httplib::Response& res) {
    std::optional<caller> who = admit(auth, req, res);
    if (!who) return;
    reward_filters filters;
    filters.states = array_filter(req.params, "states");
    filters.ids = array_filter(req.params, "ids");
    filters.campaign_ids = array_filter(req.params, "campaign_ids");
    front::send_json(res, 200, sandbox->list_rewards(*who, filters), kJson);
  });

  server.Post(kCardsPath, [&auth, sandbox](const httplib::Request& req, httplib::Response& res) {
    std::optional<caller> who = admit(auth, req, res);
    if (!who) return;
    result<std::string> registered = sandbox->register_card(*who, req.body);
    if (!registered) return front::send_error(res, registered.err());
    front::send_json(res, 201, registered.value(), kJson);
  });

  server.Get(kFraudReportPath, [&auth, sandbox](const httplib::Request& req,
                                                httplib::Response& res) {
    std::optional<caller> who = admit(auth, req, res);
    if (!who) return;
    result<std::string> report = sandbox->fraud_report(*who, scalar_param(req.params, "user_id"));
    if (!report) return front::send_error(res, report.err());
    front::send_json(res, 200, report.value(), kJson);
  });

  front::reject_other_methods(server, kCardsPath, false, true);
  front::reject_other_methods(server, kFraudReportPath, true, false);
  front::reject_other_methods(server, kGrantPath, false, true);
  front::reject_other_methods(server, kPurchasesPath, true, true);
  front::reject_other_methods(server, kRewardsPath, true, false);
}

}  // namespace lq::service
