#include "http/conditional_get.hpp"

#include <string>

#include "domain/accounts/account_etag.hpp"

namespace lq::service {

bool answer_not_modified(const httplib::Request& req, httplib::Response& res,
                         std::string_view body) {
  std::string etag = strong_etag(body);
  res.set_header("ETag", etag);
  res.set_header("Cache-Control", "private, no-cache");
  // Several If-None-Match fields form one list (RFC 9110 5.3).
  auto [first, last] = req.headers.equal_range("If-None-Match");
  for (auto it = first; it != last; ++it) {
    if (if_none_match_hits(it->second, etag)) {
      res.status = 304;
      return true;
    }
  }
  return false;
}

}  // namespace lq::service
