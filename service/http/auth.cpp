#include "http/auth.hpp"

#include <mutex>

namespace lq::service {

void credentials::load(store& db) {
  std::vector<user_secret> users;
  for (user_row& row : db.users()) {
    users.push_back({std::move(row.access_token), std::move(row.id), std::move(row.merchant_id)});
  }
  std::vector<merchant_secret> merchants;
  for (merchant_row& row : db.merchants()) {
    merchants.push_back({std::move(row.merchant_key), std::move(row.id)});
  }
  std::vector<client_entry> clients;
  for (client_row& row : db.clients()) {
    clients.push_back({std::move(row.client_id), std::move(row.merchant_id)});
  }
  std::unique_lock<std::shared_mutex> lock(mutex_);
  users_ = std::move(users);
  merchants_ = std::move(merchants);
  clients_ = std::move(clients);
}

namespace {

// The token of `Bearer <token>` (scheme case-insensitive, RFC 7235); empty when malformed.
std::string_view bearer_token(std::string_view header) {
  constexpr std::string_view kScheme = "bearer ";
  if (header.size() <= kScheme.size()) return {};
  for (size_t i = 0; i < kScheme.size(); ++i) {
    char c = header[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != kScheme[i]) return {};
  }
  std::string_view token = header.substr(kScheme.size());
  while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
  while (!token.empty() && (token.back() == ' ' || token.back() == '\t')) token.remove_suffix(1);
  return token;
}

}  // namespace

const credentials::user_secret* credentials::user_of(
    std::optional<std::string_view> authorization) const {
  const std::string_view token = authorization ? bearer_token(*authorization) : std::string_view();
  // Every secret is compared (no early exit) so the timing does not tell which one matched.
  const user_secret* user = nullptr;
  for (const user_secret& candidate : users_) {
    if (front::constant_time_equal(token, candidate.token) && !token.empty()) user = &candidate;
  }
  return user;
}

result<caller> credentials::authenticate(std::optional<std::string_view> authorization,
                                         std::optional<std::string_view> merchant_key) const {
  const error bad_token{401, "the Authorization bearer token is missing or invalid"};
  const error bad_key{401, "the Merchant-Key header is missing or invalid"};

  std::shared_lock<std::shared_mutex> lock(mutex_);
  const user_secret* user = user_of(authorization);
  if (!user) return bad_token;

  const std::string_view key = merchant_key.value_or(std::string_view());
  const merchant_secret* merchant = nullptr;
  for (const merchant_secret& candidate : merchants_) {
    if (front::constant_time_equal(key, candidate.key) && !key.empty()) merchant = &candidate;
  }
  if (!merchant || merchant->merchant_id != user->merchant_id) return bad_key;
  return caller{user->user_id, user->merchant_id};
}

result<caller> credentials::authenticate_consumer(std::optional<std::string_view> authorization,
                                                  std::optional<std::string_view> client_id) const {
  const error bad_token{401, "the Authorization bearer token is missing or invalid"};
  const error bad_client{401, "the X-ClientId header is missing or invalid"};

  std::shared_lock<std::shared_mutex> lock(mutex_);
  const user_secret* user = user_of(authorization);
  if (!user) return bad_token;

  std::string_view id = client_id.value_or(std::string_view());
  while (!id.empty() && (id.back() == ' ' || id.back() == '\t')) id.remove_suffix(1);
  const client_entry* client = nullptr;
  for (const client_entry& candidate : clients_) {
    if (front::constant_time_equal(id, candidate.client_id) && !id.empty()) client = &candidate;
  }
  if (!client || (client->merchant_id && *client->merchant_id != user->merchant_id)) {
    return bad_client;
  }
  return caller{user->user_id, user->merchant_id};
}

}  // namespace lq::service
