#include "domain/sandbox/test_cards.hpp"

#include <cstdint>

namespace lq::service {

namespace {

constexpr size_t kPrefixDigits = 6;
constexpr size_t kSuffixDigits = 4;

bool same_family(const std::string& digits, const std::string& standard) {
  return digits.size() == standard.size() &&
         digits.compare(0, kPrefixDigits, standard, 0, kPrefixDigits) == 0 &&
         digits.compare(digits.size() - kSuffixDigits, kSuffixDigits, standard,
                        standard.size() - kSuffixDigits, kSuffixDigits) == 0;
}

uint64_t fnv1a(const std::string& text) {
  uint64_t hash = 1469598103934665603ULL;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ULL;
  }
  return hash;
}

}  // namespace

const std::vector<test_card>& standard_test_cards() {
  static const std::vector<test_card> cards = {
      {"4111111111111111", "Visa"},
      {"4242424242424242", "Visa"},
      {"4012888888881881", "Visa"},
      {"4000056655665556", "Visa debit"},
      {"5555555555554444", "Mastercard"},
      {"5105105105105100", "Mastercard"},
      {"2223003122003222", "Mastercard (2-series)"},
      {"378282246310005", "American Express"},
      {"371449635398431", "American Express"},
      {"6011111111111117", "Discover"},
      {"6011000990139424", "Discover"},
      {"3056930009020004", "Diners Club"},
      {"3566002020360505", "JCB"},
      {"6200000000000005", "UnionPay"},
  };
  return cards;
}

std::optional<std::string> card_digits(std::string_view text) {
  std::string digits;
  for (char c : text) {
    if (c >= '0' && c <= '9') {
      digits += c;
    } else if (c != ' ' && c != '-') {
      return std::nullopt;
    }
  }
  if (digits.size() < 12 || digits.size() > 19) return std::nullopt;
  return digits;
}

const test_card* standard_test_card(const std::string& digits) {
  for (const test_card& card : standard_test_cards()) {
    if (digits == card.number) return &card;
  }
  return nullptr;
}

const test_card* test_card_family(const std::string& digits) {
  for (const test_card& card : standard_test_cards()) {
    if (same_family(digits, card.number)) return &card;
  }
  return nullptr;
}

std::string masked_card(const std::string& digits) {
  if (digits.size() <= kPrefixDigits + kSuffixDigits) return digits;
  return digits.substr(0, kPrefixDigits) +
         std::string(digits.size() - kPrefixDigits - kSuffixDigits, '*') +
         digits.substr(digits.size() - kSuffixDigits);
}

std::string unique_card_for(const test_card& family, const std::string& user_id) {
  const std::string standard = family.number;
  const size_t middle = standard.size() - kPrefixDigits - kSuffixDigits;
  uint64_t hash = fnv1a(user_id);
  for (int attempt = 0;; ++attempt) {
    std::string digits = standard.substr(0, kPrefixDigits);
    uint64_t source = hash + static_cast<uint64_t>(attempt);
    for (size_t i = 0; i < middle; ++i) {
      digits += static_cast<char>('0' + source % 10);
      source /= 10;
    }
    digits += standard.substr(standard.size() - kSuffixDigits);
    if (standard_test_card(digits) == nullptr) return digits;
  }
}

std::string card_number_problem(const std::string& field) {
  return field +
         " must be 12 to 19 digits (spaces and dashes allowed) that begin with the first 6 and "
         "end with the last 4 digits of a standard test card of the same length, e.g. 4111 11xx "
         "xxxx 1111 or 3782 82xx xxx0 005 (the middle digits are your own)";
}

}  // namespace lq::service
