// The snapshot reader (snapshot_reader.cpp): JSON text to a loaded, indexed snapshot.
#pragma once

#include <string_view>

#include "lq/result.hpp"
#include "model/snapshot.hpp"

namespace lq {

/// Loads a snapshot from JSON; errors (code 422) name the record path, e.g. `rewards[3].id`.
result<snapshot> load_snapshot(std::string_view json);

}  // namespace lq
