#include "snapshot.hpp"

namespace lq {

std::optional<uint32_t> snapshot::symbol_of(std::string_view name) const {
  if (symbols.empty()) return std::nullopt;
  auto it = symbols.find(std::string(name));
  if (it == symbols.end()) return std::nullopt;
  return it->second;
}

uint32_t snapshot::intern(const std::string& name) {
  return symbols.emplace(name, static_cast<uint32_t>(symbols.size())).first->second;
}

void snapshot::index_offers() {
  offers_by_product.assign(symbols.size(), {});
  offers_by_category.assign(symbols.size(), {});
  for (uint32_t g = 0; g < offer_count(); ++g) {
    const offer& item = offer_at(g);
    for (uint32_t symbol : item.product_symbols) offers_by_product[symbol].push_back(g);
    for (uint32_t symbol : item.category_symbols) offers_by_category[symbol].push_back(g);
  }
}

}  // namespace lq
