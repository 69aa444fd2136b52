// Payment cards in the sandbox: the standard test card numbers that every integrator shares (and
// the sandbox therefore flags as high-risk, fraud_rule.hpp), and the checks on a card a test user
// registers: its first 6 and last 4 digits must be those of a standard test card of the same
// length, the middle digits are the user's own (no Luhn check: the workaround leaves them
// arbitrary).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lq::service {

/// A test number published by the card networks' processors (Stripe, Braintree, Adyen docs).
struct test_card {
  const char* number;
  const char* brand;
};

/// The standard test card numbers the emulator knows, in a fixed order.
const std::vector<test_card>& standard_test_cards();

/// Digits only ("4111 1111-1111 1111" -> "4111111111111111"); nullopt unless 12 to 19 digits
/// remain and nothing but digits, spaces and dashes was given.
std::optional<std::string> card_digits(std::string_view text);

/// The standard test card with exactly this number, or nullptr.
const test_card* standard_test_card(const std::string& digits);

/// The standard test card whose length, first 6 and last 4 digits this number has, or nullptr
/// (such a number is valid for registration).
const test_card* test_card_family(const std::string& digits);

/// "411111******1111": the first 6 and last 4 digits, the middle masked.
std::string masked_card(const std::string& digits);

/// A unique number of `family` for one user: its first 6 and last 4 digits, middle digits
/// derived from the user id (the same every time), never the standard number itself.
std::string unique_card_for(const test_card& family, const std::string& user_id);

/// The message of a card number that cannot be registered, naming `field`.
std::string card_number_problem(const std::string& field);

}  // namespace lq::service
