// The database schema, created on first start and migrated forward by version.
#pragma once

#include "front/store/sqlite.hpp"

namespace lq::service {

/// The schema version this build writes.
constexpr int kSchemaVersion = 4;

/// Applies every migration newer than the file's schema_version, each in its own transaction;
/// returns the version the file had. Throws database_error for a file newer than this build.
int migrate(front::database& db);

}  // namespace lq::service
