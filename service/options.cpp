#include "options.hpp"

#include "front/command_line_numbers.hpp"

namespace lq::service {

namespace {

error bad(const std::string& message) {
  return error{2, message};
}

// A decimal integer from 0 to `max`.
std::optional<int> parse_count(const std::string& text, int max) {
  if (text.empty() || text.size() > 9) return std::nullopt;
  int count = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    count = count * 10 + (c - '0');
  }
  if (count > max) return std::nullopt;
  return count;
}

}  // namespace

int64_t options::effective_processing_delay_ms() const {
  if (processing_delay_ms) return *processing_delay_ms;
  return mode == service_mode::sandbox ? 15 * 60 * 1000 : 0;
}

result<options> parse_options(const std::vector<std::string>& args) {
  options parsed;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& name = args[i];
    if (name == "--help" || name == "-h") {
      parsed.help = true;
      return parsed;
    }
    if (name.rfind("--", 0) != 0) return bad("unexpected argument: " + name);
    if (i + 1 >= args.size()) return bad(name + " needs a value");
    const std::string& value = args[++i];
    result<bool> front_option = front::read_front_option(name, value, parsed);
    if (!front_option) return front_option.err();
    if (*front_option) continue;
    if (name == "--fixture") {
      parsed.fixture_path = value;
    } else if (name == "--mode") {
      if (value == "sandbox") {
        parsed.mode = service_mode::sandbox;
      } else if (value == "production") {
        parsed.mode = service_mode::production;
      } else {
        return bad("--mode must be one of: sandbox, production");
      }
    } else if (name == "--processing-delay") {
      std::optional<int64_t> delay = front::parse_seconds_ms(value);
      if (!delay) return bad("--processing-delay must be a non-negative number of seconds");
      parsed.processing_delay_ms = delay;
    } else if (name == "--now") {
      std::optional<instant> now = parse_rfc3339(value);
      if (!now) return bad("--now must be an RFC 3339 instant, e.g. 2026-11-24T13:15:00Z");
      parsed.fixed_now = now;
    } else if (name == "--max-order-age") {
      std::optional<int64_t> age = front::parse_duration_ms(value);
      if (!age) {
        return bad(
            "--max-order-age must be a duration such as 7d, 36h, 90m or 600s (whole units, "
            "1 s to 3650 d)");
      }
      parsed.max_order_age_ms = *age;
    } else if (name == "--max-open-baskets") {
      std::optional<int> count = parse_count(value, 100'000);
      if (!count || *count < 1) {
        return bad("--max-open-baskets must be an integer from 1 to 100000");
      }
      parsed.max_open_baskets = *count;
    } else {
      return bad("unknown option: " + name);
    }
  }
  if (std::optional<error> missing = front::missing_front_option(parsed)) return *missing;
  return parsed;
}

const char* usage() {
  return "usage: loyalty_service --port P --db FILE [--fixture FILE] [--mode sandbox|production]\n"
         "                       [--processing-delay SECONDS] [--host ADDRESS] [--now RFC3339]\n"
         "                       [--access-log FILE|-|off] [--max-connections N] [--workers N]\n"
         "                       [--request-timeout SECONDS] [--max-order-age DURATION]\n"
         "                       [--max-open-baskets N] [--max-connections-per-peer N]\n"
         "                       [--cors-origin ORIGIN]...\n"
         "  --port 0 picks a free port; the first line on stdout is the base URL.\n"
         "  --db :memory: uses a throwaway database, removed when the service stops.\n"
         "  --fixture seeds a new (empty) database; an existing one is left as it is.\n"
         "  --processing-delay defaults to 900 in sandbox mode and 0 in production mode.\n"
         "  --now fixes the service clock (the default order time) for tests.\n"
         "  --access-log FILE|-|off: access-log lines to FILE (rotated at 10 MiB), stderr (-,\n"
         "    the default) or nowhere.\n"
         "  --max-connections N (default 256): connections beyond get 503.\n"
         "  --max-connections-per-peer N (default 128): connections one client (remote address)\n"
         "    may hold at once; beyond: 503, while other clients are still served.\n"
         "  --workers N (default 4 x hardware threads, at least 4): requests handled at once.\n"
         "  --request-timeout S (default 10): the time a request may take to arrive (408).\n"
         "  --max-order-age D (default 7d): a billed order's order_timestamp may lie at most D\n"
         "    before the service clock (and 5 minutes after); D is 600s, 90m, 36h, 7d or seconds.\n"
         "  --max-open-baskets N (default 50): open baskets per user; beyond: 429.\n"
         "  --cors-origin ORIGIN (repeatable): pages of ORIGIN (e.g. http://localhost:5173) may\n"
         "    call the service from a browser; an exact origin, never *. Default: none.\n";
}

}  // namespace lq::service
