// A real S3 server for integration tests: @20minutes/s3rver (which verifies SigV4) started on
// 127.0.0.1 with a free port and a fresh data folder, stopped (with its whole process group) when the
// object goes away. Header-only so that any module's tests can use it.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "lakeqa/common/build_paths.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/status.h"

namespace lakeqa::testing {

class S3TestServer {
 public:
  static constexpr const char* kAccessKey = "S3RVER";
  static constexpr const char* kSecretKey = "S3RVER";

  // Starts the server with the given buckets; an error (with the reason) when node or the package is
  // missing, so tests can GTEST_SKIP.
  static Result<std::unique_ptr<S3TestServer>> Start(const std::vector<std::string>& buckets) {
    std::string src = lakeqa::build_paths::SourceDir();
    std::string pkg = src + "/.deps/s3rver/node_modules/@20minutes/s3rver";
    if (const char* d = std::getenv("LAKEQA_DEPS_DIR"))
      pkg = std::string(d) + "/s3rver/node_modules/@20minutes/s3rver";
    if (!PathExists(pkg)) return NotFound("s3rver is not installed at " + pkg + " (run scripts/setup)");
    if (std::system("command -v node >/dev/null 2>&1") != 0) return NotFound("node is not on PATH");
    auto dir = MakeTempDir("lakeqa-s3rver-");
    if (!dir.ok()) return dir.status();
    int out[2], in[2];
    if (pipe(out) != 0 || pipe(in) != 0) return IoError("pipe");
    pid_t pid = fork();
    if (pid < 0) return IoError("fork");
    if (pid == 0) {
      setpgid(0, 0);
      dup2(in[0], 0);
      dup2(out[1], 1);
      close(in[1]);
      close(out[0]);
      // s3rver encrypts continuation tokens with DES, which OpenSSL 3 only offers through its legacy
      // provider.
      std::vector<std::string> args = {"node", "--openssl-legacy-provider", src + "/tests/support/s3rver.js",
                                       pkg, *dir};
      for (const auto& b : buckets) args.push_back(b);
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execvp("node", argv.data());
      _exit(127);
    }
    close(in[0]);
    close(out[1]);
    auto server = std::unique_ptr<S3TestServer>(new S3TestServer(pid, in[1], *dir));
    FILE* f = fdopen(out[0], "r");
    char line[128] = {0};
    if (f == nullptr || fgets(line, sizeof line, f) == nullptr ||
        std::sscanf(line, "PORT %d", &server->port_) != 1) {
      if (f) fclose(f);
      return Status(ErrorCode::kUnavailable, "s3rver did not start");
    }
    fclose(f);
    return server;
  }

  ~S3TestServer() {
    close(stdin_fd_);  // the launcher exits on EOF
    kill(-pid_, SIGKILL);
    int st = 0;
    waitpid(pid_, &st, 0);
    (void)RemoveAll(dir_);
  }

  int port() const { return port_; }
  std::string endpoint() const { return "http://127.0.0.1:" + std::to_string(port_); }

 private:
  S3TestServer(pid_t pid, int stdin_fd, std::string dir)
      : pid_(pid), stdin_fd_(stdin_fd), dir_(std::move(dir)) {}
  pid_t pid_;
  int stdin_fd_;
  std::string dir_;
  int port_ = 0;
};

}  // namespace lakeqa::testing
