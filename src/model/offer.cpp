#include "model/offer.hpp"

namespace lq {

discount_rule discount_rule_of(std::string_view type, std::string_view item_kind) {
  if (type == "amount") return discount_rule::amount;
  if (type == "percent") return discount_rule::percent;
  if (type == "fixed_price") return discount_rule::fixed_price;
  if (type == "item") {
    if (item_kind == "free_item") return discount_rule::free_item;
    if (item_kind == "bogo") return discount_rule::bogo;
    if (item_kind == "modifier") return discount_rule::modifier;
  }
  return discount_rule::unsupported;
}

}  // namespace lq
