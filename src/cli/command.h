// The CLI's verb registry. Each verb lives in its own file (src/cli/<group>_<verb>.cc) and registers
// itself with a static Registration, so adding a verb never edits main.cc. A verb's Setup adds its
// subcommand and options to CLI11 and binds a handler that returns the process exit code.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "lakeqa/common/json.h"
#include "lakeqa/common/status.h"

namespace lakeqa::cli {

using Handler = std::function<int()>;

class Commands {
 public:
  // Returns the subcommand `name` of `parent`, creating it (as a group that needs a verb) if missing.
  static CLI::App* Group(CLI::App& parent, const std::string& name, const std::string& description);
  void Bind(CLI::App* cmd, Handler handler) { handlers_[cmd] = std::move(handler); }
  // The handler of the deepest parsed subcommand, or nullptr.
  const Handler* Parsed(CLI::App& root) const;

 private:
  std::map<const CLI::App*, Handler> handlers_;
};

using SetupFn = void (*)(CLI::App& root, Commands& commands);

struct Registration {
  explicit Registration(SetupFn fn);
  static std::vector<SetupFn>& All();
};

// Options every result-printing verb shares.
struct OutputOptions {
  bool json = false;
  bool quiet = false;  // no progress bars
};
void AddOutputOptions(CLI::App* cmd, OutputOptions& out);

// Prints a failure the way every verb does: a JSON error object on stdout under --json, otherwise
// "lakeqa: <code>: <message>" on stderr; returns the exit code for the status.
int Fail(const Status& status, const OutputOptions& out);
// Prints a JSON value to stdout (pretty when stdout is a terminal).
void PrintJson(const Json& j);
// Whether the command line asks for JSON output: a `--json` before any `--`. Used before (or when)
// CLI11 fails to parse, so that usage errors follow --json too.
bool WantsJson(int argc, const char* const* argv);

// The exit code of a verb that ran to the end while some of its items failed: `run` with failed tasks (or
// stopped by --max-failures), `eval --judge` with answers the judge gave no verdict for. Not an ErrorCode:
// the command as a whole did its work and wrote its results. docs/cli.md lists it with the others.
inline constexpr int kExitPartialFailure = 12;
// Says so: "lakeqa: partial_failure: <message>" on stderr, or under --json the error object
// {"code": "partial_failure", "message"} for the caller to add to its result; returns kExitPartialFailure.
int PartialFailure(const std::string& message, const OutputOptions& out, Json* json_result);

}  // namespace lakeqa::cli
