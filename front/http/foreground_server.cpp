#include "front/http/foreground_server.hpp"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace lq::front {

namespace {

sigset_t stop_signals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  return signals;
}

}  // namespace

bool prepare_foreground_process() {
  const sigset_t signals = stop_signals();
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  signal(SIGPIPE, SIG_IGN);
  signal(SIGXFSZ, SIG_IGN);
  // Started by the package's launcher (web/service/), which passes its pid: the process stops
  // (SIGTERM) when the thread that started it ends, even by kill -9.
  const char* parent = std::getenv("LQ_SERVICE_PARENT_PID");
  if (parent == nullptr || *parent == '\0') return true;
#ifdef __linux__
  prctl(PR_SET_PDEATHSIG, SIGTERM);
#endif
  return std::to_string(getppid()) == parent;
}

std::string base_url(const std::string& host, int port) {
  const bool ipv6 = host.find(':') != std::string::npos;
  return "http://" + (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

int serve_in_foreground(guarded_server& server, const std::string& host, int port,
                        const char* program,
                        const std::function<void(const std::string&)>& on_serving) {
  const int asked = port;
  if (port == 0) {
    port = server.bind_to_any_port(host);
  } else if (!server.bind_to_port(host, port)) {
    port = -1;
  }
  if (port <= 0) {
    std::fprintf(stderr, "%s: cannot listen on %s:%d\n", program, host.c_str(), asked);
    return 1;
  }
  server.widen_listen_backlog();

  // The server runs on its own thread; this one waits for SIGTERM or SIGINT. The base URL is
  // printed once the server runs, so a stop request can never come before it can take effect.
  std::atomic<bool> listener_done{false};
  bool listened = false;
  const pthread_t main_thread = pthread_self();
  std::thread listener([&] {
    listened = server.listen_after_bind();
    listener_done = true;
    pthread_kill(main_thread, SIGTERM);  // wakes sigwait below
  });
  while (!server.is_running() && !listener_done) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (!listener_done) {
    const std::string url = base_url(host, port);
    on_serving(url);
    std::printf("%s\n", url.c_str());
    std::fflush(stdout);
    const sigset_t signals = stop_signals();
    int received = 0;
    sigwait(&signals, &received);
    if (!listener_done) {
      std::fprintf(stderr, "%s: signal %d, stopping\n", program, received);
      server.stop();
    }
  }
  listener.join();
  return listened ? 0 : 1;
}

}  // namespace lq::front
