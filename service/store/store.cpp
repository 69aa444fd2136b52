#include "store/store.hpp"

#include "store/migrations.hpp"

namespace lq::service {

store_file::store_file(const std::string& path, file_origin origin) : database_(path) {
  if (origin == file_origin::unknown) database_.quick_check();
  opened_version_ = migrate(database_);
}

store::store(const std::string& path, file_origin origin)
    : store_file(path, origin),
      account_store(database_),
      basket_store(database_),
      purchase_store(database_),
      sandbox_store(database_) {}

}  // namespace lq::service
