#include "front/store/schema_migrations.hpp"

#include <string>

namespace lq::front {

namespace {

int current_version(database& db, const schema_steps& schema) {
  statement query = db.prepare(std::string("SELECT max(version) FROM ") + schema.version_table);
  return query.step() && !query.is_null(0) ? static_cast<int>(query.integer(0)) : 0;
}

}  // namespace

int apply_migrations(database& db, const schema_steps& schema) {
  const std::string table = schema.version_table;
  db.exec(("CREATE TABLE IF NOT EXISTS " + table + " (version INTEGER NOT NULL)").c_str());
  const int found = current_version(db, schema);
  const int newest = static_cast<int>(schema.count);
  if (found > newest) {
    throw database_error("the database has schema version " + std::to_string(found) +
                         ", newer than " + schema.owner + " (" + std::to_string(newest) + ")");
  }
  for (int version = found; version < newest; ++version) {
    transaction step(db);
    if (current_version(db, schema) != version) continue;  // another process migrated meanwhile
    db.exec(schema.steps[version]);
    db.exec(("DELETE FROM " + table).c_str());
    db.prepare("INSERT INTO " + table + " (version) VALUES (?)")
        .bind(1, int64_t{version + 1})
        .run();
    step.commit();
  }
  return found;
}

}  // namespace lq::front
