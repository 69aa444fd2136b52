#include "front/http/http_messages.hpp"

#include "lq/qualifier.hpp"
#include "lq/render.hpp"

namespace lq::front {

namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

}  // namespace

void send_error(httplib::Response& res, const error& e) {
  res.status = e.code;
  if (e.code == 401) res.set_header("WWW-Authenticate", "Bearer");
  res.set_content(render_error(e), "application/json");
}

void send_json(httplib::Response& res, int status, const std::string& body,
               const char* media_type) {
  res.status = status;
  res.set_content(body, media_type);
}

std::optional<std::string_view> header(const httplib::Request& req, const char* name) {
  if (!req.has_header(name)) return std::nullopt;
  // The value lives in req.headers, which outlives this request's handling.
  auto it = req.headers.find(name);
  return std::string_view(it->second);
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i];
    char y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

bool accepts_media_type(const httplib::Request& req, std::string_view media_type) {
  for (const auto& [name, value] : req.headers) {
    if (!equals_ignoring_case(name, "Accept")) continue;
    std::string_view rest = value;
    while (!rest.empty()) {
      const size_t comma = rest.find(',');
      std::string_view range = rest.substr(0, comma);
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      range = trim(range.substr(0, range.find(';')));
      if (equals_ignoring_case(range, media_type)) return true;
    }
  }
  return false;
}

void reject_other_methods(httplib::Server& server, const std::string& path, bool get_allowed,
                          bool post_allowed) {
  std::string allowed;
  if (get_allowed) allowed = "GET";
  if (post_allowed) allowed += allowed.empty() ? "POST" : ", POST";
  auto handler = [allowed](const httplib::Request& req, httplib::Response& res) {
    res.set_header("Allow", allowed);
    send_error(res, error{405, req.method + " is not allowed here (allowed: " + allowed + ")"});
  };
  if (!get_allowed) server.Get(path, handler);
  if (!post_allowed) server.Post(path, handler);
  server.Put(path, handler);
  server.Patch(path, handler);
  server.Delete(path, handler);
}

}  // namespace lq::front
