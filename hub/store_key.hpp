// The store key: how strong it must be and where it may come from (docs/hub.md, "The store key").
// At least 128 bits of key material, measured by its length in the smallest alphabet it is written
// in: 32 hex digits, 22 base64 (or base64url) characters with its `=` padding aside, or 20 visible
// ASCII characters of any other kind; at most 512 characters, none of them a space or a control
// character. The package's launcher checks the same rule (web/service/store_key.js).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "lq/result.hpp"

namespace lq::hub {

/// nullopt when `key` is strong enough, else the problem, naming the key as `name`
/// ("--store-key must be ...", with how to make one).
std::optional<std::string> store_key_problem(std::string_view key, const std::string& name);

/// A key file's contents, and whether users other than its owner may read it (a warning).
struct store_key_file {
  std::string key;
  bool others_may_read = false;
};

/// The store key in `path` (`--store-key-file`): the file's text without trailing white space,
/// so `openssl rand -hex 16 > FILE` makes one. Errors (code 2) name the file.
result<store_key_file> read_store_key_file(const std::string& path);

}  // namespace lq::hub
