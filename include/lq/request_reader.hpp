// The request reader (readers/request_reader.cpp): JSON text to a validated basket_request.
#pragma once

#include <string_view>
#include <vector>

#include "lq/request.hpp"
#include "lq/result.hpp"

namespace lq {

/// Parses and validates a request body; errors (code 400) name the field path, e.g.
/// `items[2].price`. Members named in `extra_keys` are kept in `extras`.
result<basket_request> parse_request(std::string_view json,
                                     const std::vector<std::string_view>& extra_keys = {});

}  // namespace lq
