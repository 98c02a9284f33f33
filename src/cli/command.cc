#include "cli/command.h"

#include <unistd.h>

#include <cstdio>
#include <string_view>

namespace lakeqa::cli {

CLI::App* Commands::Group(CLI::App& parent, const std::string& name, const std::string& description) {
  for (CLI::App* sub : parent.get_subcommands([](CLI::App*) { return true; })) {
    if (sub->get_name() == name) return sub;
  }
  CLI::App* g = parent.add_subcommand(name, description);
  g->require_subcommand(1);
  return g;
}

const Handler* Commands::Parsed(CLI::App& root) const {
  CLI::App* cur = &root;
  const Handler* found = nullptr;
  for (;;) {
    auto it = handlers_.find(cur);
    if (it != handlers_.end()) found = &it->second;
    auto subs = cur->get_subcommands();
    if (subs.empty()) return found;
    cur = subs.front();
  }
}

Registration::Registration(SetupFn fn) { All().push_back(fn); }

std::vector<SetupFn>& Registration::All() {
  static std::vector<SetupFn> all;
  return all;
}

void AddOutputOptions(CLI::App* cmd, OutputOptions& out) {
  cmd->add_flag("--json", out.json, "Print the result as JSON on stdout");
  cmd->add_flag("-q,--quiet", out.quiet, "No progress bars");
}

int Fail(const Status& status, const OutputOptions& out) {
  if (out.json) {
    PrintJson(ErrorJson(status));
  } else {
    std::fprintf(stderr, "lakeqa: %s\n", status.ToString().c_str());
  }
  return ExitCodeFor(status.code());
}

int PartialFailure(const std::string& message, const OutputOptions& out, Json* json_result) {
  if (out.json && json_result != nullptr) {
    (*json_result)["error"] = {{"code", "partial_failure"}, {"message", message}};
  } else {
    std::fprintf(stderr, "lakeqa: partial_failure: %s\n", message.c_str());
  }
  return kExitPartialFailure;
}

void PrintJson(const Json& j) {
  std::string s = DumpJson(j, isatty(STDOUT_FILENO) ? 2 : -1);
  std::fwrite(s.data(), 1, s.size(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

bool WantsJson(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a == "--") return false;
    if (a == "--json") return true;
  }
  return false;
}

}  // namespace lakeqa::cli
