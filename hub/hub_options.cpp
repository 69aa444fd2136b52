#include "hub/hub_options.hpp"

#include <arpa/inet.h>

#include <optional>

#include "front/command_line_numbers.hpp"
#include "hub/store_key.hpp"

namespace lq::hub {

namespace {

error bad(const std::string& message) {
  return error{2, message};
}

constexpr const char* kKeyOnCommandLine =
    "WARNING: --store-key puts the store key on the command line, where every user of this "
    "machine can read it (ps, /proc/PID/cmdline); give it in LQ_HUB_STORE_KEY or with "
    "--store-key-file FILE instead";

}  // namespace

bool is_loopback(const std::string& host) {
  std::string text = host;
  if (text.size() >= 2 && text.front() == '[' && text.back() == ']') {
    text = text.substr(1, text.size() - 2);
  }
  if (text == "localhost") return true;
  in_addr v4{};
  if (inet_pton(AF_INET, text.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (inet_pton(AF_INET6, text.c_str(), &v6) != 1) return false;
  if (IN6_IS_ADDR_LOOPBACK(&v6)) return true;
  if (IN6_IS_ADDR_V4MAPPED(&v6)) return v6.s6_addr[12] == 127;
  return false;
}

result<hub_options> parse_hub_options(const std::vector<std::string>& args,
                                      const char* environment_key) {
  hub_options parsed;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& name = args[i];
    if (name == "--help" || name == "-h") {
      parsed.help = true;
      return parsed;
    }
    if (name == "--expose-on-network") {
      parsed.expose_on_network = true;
      continue;
    }
    if (name.rfind("--", 0) != 0) return bad("unexpected argument: " + name);
    if (i + 1 >= args.size()) return bad(name + " needs a value");
    const std::string& value = args[++i];
    result<bool> front_option = front::read_front_option(name, value, parsed);
    if (!front_option) return front_option.err();
    if (*front_option) continue;
    if (name == "--store-key" || name == "--store-key-file") {
      if (!parsed.store_key.empty()) {
        return bad("give the store key once: --store-key-file FILE or LQ_HUB_STORE_KEY");
      }
      if (name == "--store-key-file") {
        result<store_key_file> file = read_store_key_file(value);
        if (!file) return file.err();
        if (file->others_may_read) {
          parsed.warnings.push_back("WARNING: " + value +
                                    " (--store-key-file) is readable by every user of this "
                                    "machine: chmod 600 it");
        }
        parsed.store_key = file->key;
      } else {
        if (std::optional<std::string> problem = store_key_problem(value, "--store-key")) {
          return bad(*problem);
        }
        parsed.warnings.emplace_back(kKeyOnCommandLine);
        parsed.store_key = value;
      }
    } else if (name == "--claim-ttl") {
      std::optional<int64_t> ttl = front::parse_duration_ms(value);
      if (!ttl || *ttl > kMaxClaimTtlMs) {
        return bad("--claim-ttl must be a duration such as 7d, 36h, 90m or 600s (1 s to 366 d)");
      }
      parsed.claim_ttl_ms = *ttl;
    } else {
      return bad("unknown option: " + name);
    }
  }
  if (std::optional<error> missing = front::missing_front_option(parsed)) return *missing;
  if (parsed.store_key.empty() && environment_key != nullptr && *environment_key != '\0') {
    if (std::optional<std::string> problem =
            store_key_problem(environment_key, "LQ_HUB_STORE_KEY")) {
      return bad(*problem);
    }
    parsed.store_key = environment_key;
  }
  if (parsed.store_key.empty()) {
    return bad(
        "the store key is required: LQ_HUB_STORE_KEY in the environment or --store-key-file FILE "
        "(every call must carry it; make one with: openssl rand -hex 16)");
  }
  if (!is_loopback(parsed.host) && !parsed.expose_on_network) {
    return bad("--host " + parsed.host +
               " is not a loopback address: the hub would be reachable from the network; add "
               "--expose-on-network to do that anyway");
  }
  return parsed;
}

const char* hub_usage() {
  return "usage: loyalty_hub --port P --db FILE [--store-key-file FILE] [--host ADDRESS]\n"
         "                   [--expose-on-network] [--claim-ttl DURATION]\n"
         "                   [--access-log FILE|-|off] [--max-connections N]\n"
         "                   [--max-connections-per-peer N] [--workers N]\n"
         "                   [--request-timeout SECONDS] [--cors-origin ORIGIN]...\n"
         "  --port 0 picks a free port; the first line on stdout is the base URL.\n"
         "  --db :memory: uses a throwaway database, removed when the hub stops.\n"
         "  The store key (every request carries it in its Store-Key header): LQ_HUB_STORE_KEY\n"
         "    in the environment, or --store-key-file FILE (the file's text, trailing white\n"
         "    space aside). At least 128 bits: 32 hex digits, 22 base64 characters or 20 other\n"
         "    visible ASCII characters; make one with: openssl rand -hex 16.\n"
         "    --store-key KEY still works but warns: other users can read a command line.\n"
         "  --host ADDRESS (default 127.0.0.1); an address beyond loopback needs\n"
         "    --expose-on-network.\n"
         "  --claim-ttl D (default 7d): a claim that asks for no ttl_ms expires after D.\n"
         "  --access-log FILE|-|off: access-log lines to FILE (rotated at 10 MiB), stderr (-,\n"
         "    the default) or nowhere.\n"
         "  --max-connections N (default 256): connections beyond get 503.\n"
         "  --max-connections-per-peer N (default 128): connections one client may hold.\n"
         "  --workers N (default 64): requests handled at once.\n"
         "  --request-timeout S (default 10): the time a request may take to arrive (408).\n"
         "  --cors-origin ORIGIN (repeatable): pages of ORIGIN (e.g. http://localhost:5173) may\n"
         "    call the hub from a browser (they then hold the store key); never *.\n";
}

}  // namespace lq::hub
