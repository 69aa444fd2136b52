// Reading request headers and writing responses, shared by the loyalty API and sandbox routes.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <httplib.h>

#include "lq/qualifier.hpp"

namespace lq::front {

/// The API spec 2.5 error body `{"code": <status>, "message": ...}` as application/json; a 401
/// also gets `WWW-Authenticate: Bearer`.
void send_error(httplib::Response& res, const error& e);

/// A JSON body with its status and media type.
void send_json(httplib::Response& res, int status, const std::string& body, const char* media_type);

/// A request header's value (names are case-insensitive); valid while `req` lives.
std::optional<std::string_view> header(const httplib::Request& req, const char* name);

/// ASCII case-insensitive equality.
bool equals_ignoring_case(std::string_view a, std::string_view b);

/// True when one media range of the Accept header (parameters aside) is `media_type`.
bool accepts_media_type(const httplib::Request& req, std::string_view media_type);

/// Answers every method of `path` other than GET / POST (when allowed) with 405 and `Allow`.
/// Install it after the path's own handlers.
void reject_other_methods(httplib::Server& server, const std::string& path, bool get_allowed,
                          bool post_allowed);

}  // namespace lq::front
