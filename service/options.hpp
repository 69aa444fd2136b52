// Command line of the service:
//   loyalty_service --port P --db FILE [--fixture FILE] [--mode sandbox|production]
//                   [--processing-delay SECONDS] [--host ADDRESS] [--now RFC3339]
//                   [--access-log FILE|-|off] [--max-connections N] [--workers N]
//                   [--request-timeout SECONDS] [--max-order-age DURATION]
//                   [--max-open-baskets N] [--max-connections-per-peer N]
//                   [--cors-origin ORIGIN]...
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "domain/baskets/open_baskets.hpp"
#include "domain/baskets/order_window.hpp"
#include "front/http/front_options.hpp"
#include "lq/qualifier.hpp"

namespace lq::service {

enum class service_mode { sandbox, production };

/// The HTTP front's options (front_options: host, port, database, access log, caps) and the
/// service's own.
struct options : front::front_options {
  std::optional<std::string> fixture_path;
  service_mode mode = service_mode::sandbox;
  /// Delay between billing and accrual, in milliseconds; nullopt = the mode's default.
  std::optional<int64_t> processing_delay_ms;
  /// A fixed service clock (default order time); nullopt = the system clock.
  std::optional<instant> fixed_now;
  /// How long before the service clock a billed order's order_timestamp may lie (order_window).
  int64_t max_order_age_ms = kDefaultMaxOrderAgeMs;
  /// Open (checkout, placed) baskets a user may hold at once; beyond: 429 (open_baskets.hpp).
  int max_open_baskets = kDefaultMaxOpenBaskets;
  bool help = false;

  /// The delay in force: the given one, else 15 minutes in sandbox (API spec 8), 0 in production.
  int64_t effective_processing_delay_ms() const;
};

/// Parses argv (without the program name); errors name the offending option.
result<options> parse_options(const std::vector<std::string>& args);

/// The usage text printed by --help and after a command line error.
const char* usage();

}  // namespace lq::service
