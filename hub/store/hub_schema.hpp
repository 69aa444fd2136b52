// The store hub's database schema, created on first start and migrated forward by version (the
// pattern of the loyalty service's, store/schema_migrations.hpp, in a version table of its own).
#pragma once

#include "front/store/sqlite.hpp"

namespace lq::hub {

/// The schema version this build writes.
constexpr int kHubSchemaVersion = 2;

/// Migrates `db` to kHubSchemaVersion; returns the version the file had (0: new).
int migrate_hub(front::database& db);

}  // namespace lq::hub
