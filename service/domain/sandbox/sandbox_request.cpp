#include "domain/sandbox/sandbox_request.hpp"

#include <algorithm>

namespace lq::service {

result<std::string> required_text(const json& object, const char* key, const std::string& path) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_string() || it->get_ref<const std::string&>().empty()) {
    return error{400, path + " is required (a non-empty string)"};
  }
  return it->get<std::string>();
}

error not_the_token_user(const std::string& path, const std::string& user_id) {
  return error{403, path + " " + user_id + " is not the user of this access token"};
}

bool filter_admits(const std::optional<std::vector<std::string>>& filter,
                   const std::string& value) {
  return !filter || std::find(filter->begin(), filter->end(), value) != filter->end();
}

}  // namespace lq::service
