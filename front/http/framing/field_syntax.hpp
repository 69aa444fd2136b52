// The syntax of HTTP header fields (RFC 9110 5), as the request framing and the chunked decoder
// read it: token characters, names compared without case, values trimmed of optional white space.
#pragma once

#include <string_view>

namespace lq::front::field_syntax {

/// A character of a token (a method, a field name): RFC 9110 5.6.2's tchar.
bool is_token_char(unsigned char c);

/// ASCII lower case; other bytes as they are.
char lower(char c);

/// Field names (and the few values compared as names) are case-insensitive.
bool same_name(std::string_view a, std::string_view b);

/// `text` without leading and trailing spaces and tabs (RFC 9110 5.6.3's OWS).
std::string_view trim(std::string_view text);

}  // namespace lq::front::field_syntax
