// A guarded_server in the foreground of its process, for the loyalty service and the store hub
// alike: SIGTERM and SIGINT stop it cleanly, the end of the process that started it (the
// package's launcher) stops it too, and the first line on stdout is its base URL, printed once it
// serves, so that a launcher reading that line may stop it at once.
#pragma once

#include <functional>
#include <string>

#include "front/http/connection/guarded_server.hpp"

namespace lq::front {

/// Blocks SIGTERM and SIGINT for every thread started from here on (one thread takes them with
/// sigwait), ignores SIGPIPE and SIGXFSZ (a write past a file size limit fails with EFBIG
/// instead), and stops the process with SIGTERM when the process named by LQ_SERVICE_PARENT_PID
/// ends. Call first, before any thread starts. False when that process has ended already.
bool prepare_foreground_process();

/// `http://host:port`, an IPv6 host in brackets.
std::string base_url(const std::string& host, int port);

/// Binds `server` to host:port (0: a free port), serves on a thread of its own, calls
/// `on_serving(url)` once it serves (for a start-up report on stderr), prints the URL on
/// stdout and serves until SIGTERM or SIGINT. 0 after a clean stop, 1 when it could not listen
/// (said on stderr, prefixed with `program`).
int serve_in_foreground(guarded_server& server, const std::string& host, int port,
                        const char* program,
                        const std::function<void(const std::string&)>& on_serving);

}  // namespace lq::front
