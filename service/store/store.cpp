#include "store/store.hpp"

#include "store/migrations.hpp"

namespace lq::service {

store_file::store_file(const std::string& path) : database_(path) {
  database_.quick_check();
  opened_version_ = migrate(database_);
}

store::store(const std::string& path)
    : store_file(path),
      account_store(database_),
      basket_store(database_),
      purchase_store(database_),
      sandbox_store(database_) {}

}  // namespace lq::service
