#include "model/snapshot.hpp"

namespace lq {

std::optional<uint32_t> snapshot::symbol_of(std::string_view name) const {
  if (symbols.empty()) return std::nullopt;
  auto it = symbols.find(name);
  if (it == symbols.end()) return std::nullopt;
  return it->second;
}

uint32_t snapshot::intern(const std::string& name) {
  if (auto it = symbols.find(name); it != symbols.end()) return it->second;
  const auto symbol = static_cast<uint32_t>(symbols.size());
  symbol_names.push_back(std::make_unique<const std::string>(name));
  symbols.emplace(*symbol_names.back(), symbol);
  return symbol;
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
