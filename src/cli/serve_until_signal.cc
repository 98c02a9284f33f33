#include "cli/serve_until_signal.h"

#include <signal.h>

namespace lakeqa::cli {

Status ServeUntilSignal(server::HttpServer& http, const std::function<void()>& announce) {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);  // a closed terminal: stop cleanly too, instead of dying with the folders left
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  LAKEQA_RETURN_IF_ERROR(http.Start());
  announce();
  int sig = 0;
  sigwait(&set, &sig);
  http.Stop();
  return Status();
}

}  // namespace lakeqa::cli
