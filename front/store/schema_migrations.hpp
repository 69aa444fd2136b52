// Migrating a SQLite schema forward by version: the pattern of the loyalty service's schema
// (migrations.hpp) and of the store hub's. A schema is a list of steps, each bringing it from
// version i to i + 1; the version a file has is kept in a table of its own.
#pragma once

#include <cstddef>

#include "front/store/sqlite.hpp"

namespace lq::front {

struct schema_steps {
  const char* version_table;  // e.g. "schema_version": one row, the file's version
  const char* const* steps;   // steps[i] brings the schema from version i to version i + 1
  size_t count;               // the version this build writes
  const char* owner;          // names the program in errors: "this service"
};

/// Applies every step newer than the file's version, each in its own transaction; returns the
/// version the file had. Throws database_error for a file newer than this build.
int apply_migrations(database& db, const schema_steps& schema);

}  // namespace lq::front
