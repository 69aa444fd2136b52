#include "http/query_filters.hpp"

namespace lq::service {

std::optional<std::vector<std::string>> array_filter(const httplib::Params& params,
                                                     const std::string& name) {
  const std::string bracketed = name + "[]";
  std::optional<std::vector<std::string>> values;
  // Params is a multimap: values of one name keep their order in the query.
  for (const auto& [key, value] : params) {
    if (key == bracketed || key == name) {
      if (!values) values.emplace();
      values->push_back(value);
    }
  }
  return values;
}

std::optional<std::string> scalar_param(const httplib::Params& params, const std::string& name) {
  std::optional<std::string> found;
  auto [first, last] = params.equal_range(name);
  for (auto it = first; it != last; ++it) found = it->second;
  return found;
}

account_read_query account_read_query_of(const httplib::Params& params) {
  account_read_query query;
  query.location_uid = scalar_param(params, "location_uid");
  query.location_id = scalar_param(params, "location_id");
  query.redemption_venue = scalar_param(params, "redemption_venue");
  query.reward_states = array_filter(params, "reward_states");
  return query;
}

}  // namespace lq::service
