#include "hub_emulator.hpp"

#include "hub/store/hub_schema.hpp"

namespace lq::emulator {

namespace {

// The writer connection, migrated before the reader opens the file (as hub/main.cpp does).
front::database& migrated(front::database& writer) {
  writer.quick_check();
  hub::migrate_hub(writer);
  return writer;
}

}  // namespace

hub_emulator::hub_emulator(const hub::hub_options& opts)
    : writer_(opts.db_path),
      reader_((migrated(writer_), opts.db_path)),
      claims_(writer_, reader_, opts.claim_ttl_ms),
      context_{claims_, opts.store_key, opts.cors},
      server_(front::limits_of(opts).framing) {
  hub::install_hub_routes(server_, context_);
}

}  // namespace lq::emulator
