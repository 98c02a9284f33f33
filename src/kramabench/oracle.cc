// The KramaBench solutions oracle (kramabench/oracle.h).
#include "lakeqa/kramabench/oracle.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <map>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/eval/em.h"
#include "lakeqa/ingest/convert.h"
#include "lakeqa/kramabench/kramabench.h"
#include "lakeqa/kramabench/names.h"

namespace lakeqa::kramabench {
namespace {

// Runs solution.py like a notebook cell: the last statement, when an expression, is the answer (str()'d,
// as KramaBench's evaluator casts answers); otherwise the last line printed. Written to a file, so that a
// solution printing megabytes cannot push it out of the kept output.
constexpr const char* kRunner = R"PY(
import ast as _ast, io as _io, json as _json, sys as _sys
_src = open("solution.py", encoding="utf-8").read()
_tree = _ast.parse(_src, "solution.py")
_last = _tree.body.pop() if _tree.body and isinstance(_tree.body[-1], _ast.Expr) else None
class _Tee(_io.TextIOBase):
    def __init__(self, inner):
        self.inner, self.tail = inner, ""
    def write(self, text):
        self.inner.write(text)
        self.tail = (self.tail + text)[-65536:]
        return len(text)
    def flush(self):
        self.inner.flush()
_tee = _Tee(_sys.stdout)
_sys.stdout = _tee
_g = {"__name__": "__main__", "__file__": "solution.py"}
exec(compile(_tree, "solution.py", "exec"), _g)
_result = {"kind": None}
if _last is not None:
    _v = eval(compile(_ast.Expression(_last.value), "solution.py", "eval"), _g)
    if _v is not None:
        _result = {"kind": "expression", "answer": str(_v)}
if _result["kind"] is None:
    _lines = [l for l in _tee.tail.splitlines() if l.strip()]
    if _lines:
        _result = {"kind": "print", "answer": _lines[-1]}
_sys.stdout = _tee.inner
with open("_lakeqa_answer.json", "w") as _f:
    _json.dump(_result, _f)
)PY";

struct LakeFile {
  std::string path;  // under data/<domain>/input/
  std::string key;   // <ns>/<folder>/<file>
};

// The domain's files as the lake holds them, from each dataset's metadata.json.
Result<std::vector<LakeFile>> DomainFiles(const std::string& lake, const std::string& ns) {
  std::string dir = lake + "/" + ns;
  DIR* d = ::opendir(dir.c_str());
  if (!d) return ErrnoStatus(errno, "namespace " + ns + " in the lake (" + dir + ")");
  std::vector<std::string> folders;
  while (dirent* e = ::readdir(d)) {
    std::string n = e->d_name;
    if (n != "." && n != "..") folders.push_back(n);
  }
  ::closedir(d);
  std::vector<LakeFile> out;
  for (const auto& f : folders) {
    auto text = ReadFile(dir + "/" + f + "/metadata.json", 1 << 20);
    if (!text.ok()) continue;  // a dataset whose build failed has no metadata.json
    auto meta = ParseJson(*text, dir + "/" + f + "/metadata.json");
    if (!meta.ok() || !(*meta)["path"].is_string() || !(*meta)["file"].is_string()) continue;
    out.push_back(
        {(*meta)["path"].get<std::string>(), ns + "/" + f + "/" + (*meta)["file"].get<std::string>()});
  }
  return out;
}

Status MakeParents(const std::string& root, const std::string& rel) {
  size_t p = rel.rfind('/');
  if (p == std::string::npos) return Status::Ok();
  return MakeDirs(root + "/" + rel.substr(0, p));
}

// The last line of a traceback: "FileNotFoundError: [Errno 2] No such file ...: './data/...'".
std::string LastLine(std::string_view text) {
  std::string last;
  for (auto line : Split(text, '\n')) {
    auto t = Trim(line);
    if (!t.empty()) last = std::string(t);
  }
  return std::string(TruncateUtf8(last, 500));
}

bool Contains(std::string_view hay, std::string_view needle) {
  return !needle.empty() && ToLowerAscii(hay).find(ToLowerAscii(needle)) != std::string::npos;
}

// Lays out one task's sandbox folder as KramaBench's solutions expect: solution.py beside
// data/<domain>/input/, whose files are symlinks into the lake mounted at /lake.
Status PrepareSolutionBox(const std::string& box, const std::string& domain, const std::string& code,
                          const std::vector<LakeFile>& files) {
  (void)RemoveAll(box);
  LAKEQA_RETURN_IF_ERROR(MakeDirs(box + "/data/" + domain + "/input"));
  LAKEQA_RETURN_IF_ERROR(WriteFileAtomic(box + "/solution.py", code));
  for (const auto& f : files) {
    std::string rel = "data/" + domain + "/input/" + f.path;
    LAKEQA_RETURN_IF_ERROR(MakeParents(box, rel));
    if (::symlink(("/lake/" + f.key).c_str(), (box + "/" + rel).c_str()) != 0) return ErrnoStatus(errno, rel);
  }
  return Status::Ok();
}

}  // namespace

Result<Json> RunKramaBenchSolutions(const std::vector<eval::Task>& tasks, const KramaBenchOracleOptions& o,
                                    const std::function<void(const Json&)>& on_task) {
  struct stat st;
  if (::stat((o.checkout + "/solutions").c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return NotFound(o.checkout + "/solutions: not a KramaBench checkout (no solutions/ folder)");
  }
  if (::stat(o.lake_root.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return NotFound("lake " + o.lake_root + ": not a local folder (the oracle needs a local lake)");
  }
  std::string work = o.work_dir;
  bool temp = work.empty();
  if (temp) {
    LAKEQA_ASSIGN_OR_RETURN(work, MakeTempDir("lakeqa-kramabench-"));
  } else {
    LAKEQA_RETURN_IF_ERROR(MakeDirs(work));
  }
  ::chmod(work.c_str(), 0755);  // the sandbox user must reach the per-task folders
  exec::PythonOptions po = o.python;
  po.lake = exec::LakeMount{o.lake_root, {}};
  std::map<std::string, Result<std::vector<LakeFile>>> domains;
  std::vector<KramaBenchRow> rows;
  Json results = Json::array();
  std::map<std::string, size_t> counts;
  for (const eval::Task& t : tasks) {
    const KramaBenchTask* kb = Of(t);
    if (!kb) continue;
    Json r = {
        {"task_id", t.id}, {"domain", kb->domain}, {"answer_type", kb->answer_type}, {"gold", t.answer}};
    Json missing = Json::array();
    for (const auto& s : kb->sources)
      if (s.files.empty()) missing.push_back(s.entry);
    if (!missing.empty()) r["missing_sources"] = missing;
    auto finish = [&](const std::string& status, const std::string& reason) {
      r["status"] = status;
      if (!reason.empty()) r["reason"] = reason;
      ++counts[status];
      if (on_task) on_task(r);
      results.push_back(r);
    };
    std::string solution = o.checkout + "/solutions/" + kb->domain + "/" + t.id + ".py";
    auto code = ReadFile(solution, 4 << 20);
    if (!code.ok()) {
      finish("no_solution", "no " + solution);
      continue;
    }
    if (!IsKramaBenchAnswerType(kb->answer_type)) {
      finish("unscored", "unknown answer_type '" + kb->answer_type + "'");
      continue;
    }
    std::string ns = KramaBenchNamespace(kb->domain, o.ns_prefix);
    auto dom = domains.find(kb->domain);
    if (dom == domains.end()) dom = domains.emplace(kb->domain, DomainFiles(o.lake_root, ns)).first;
    if (!dom->second.ok()) {
      finish("no_lake_files", dom->second.status().message());
      continue;
    }
    // A fresh sandbox per task: solution.py, the runner, and data/<domain>/input/ linked into /lake.
    std::string box = work + "/" + ingest::NameToFolder(t.id);
    Status s = PrepareSolutionBox(box, kb->domain, *code, *dom->second);
    if (!s.ok()) {
      finish("failed", "setting up the sandbox: " + s.message());
      continue;
    }
    auto run = exec::RunPython(box, kRunner, po);
    if (!run.ok()) {
      (void)RemoveAll(box);
      if (temp) (void)RemoveAll(work);
      return run.status().WithContext("running " + t.id + "'s solution");
    }
    r["elapsed_ms"] = run->elapsed_ms;
    std::string err = LastLine(run->stderr_text);
    if (run->timed_out) {
      finish("timeout", "wall-time limit of " + std::to_string(po.limits.wall_ms / 1000) + " s");
    } else if (run->memory_exceeded) {
      finish("failed", "memory limit");
    } else if (run->exit_code != 0) {
      if (err.find("ModuleNotFoundError") != std::string::npos ||
          err.find("ImportError") != std::string::npos) {
        finish("missing_library", err);
      } else if (err.find("FileNotFoundError") != std::string::npos) {
        finish("missing_file", err);
      } else {
        finish("failed", err.empty() ? "exit code " + std::to_string(run->exit_code) : err);
      }
    } else {
      auto text = ReadFile(box + "/_lakeqa_answer.json", 1 << 20);
      auto ans = text.ok() ? ParseJson(*text, "answer") : Result<Json>(text.status());
      if (!ans.ok() || !(*ans)["answer"].is_string()) {
        finish("no_answer", "printed nothing and ended on no expression");
      } else {
        std::string answer = (*ans)["answer"].get<std::string>();
        r["answer"] = answer;
        r["answer_from"] = (*ans)["kind"];
        r["gold_in_output"] = Contains(answer, eval::PythonStr(t.answer));
        auto m = KramaBenchMetrics(kb->answer_type, Json(answer), t.answer);
        Json mj = Json::object();
        for (const auto& [k, v] : *m) mj[k] = v ? Json(*v) : Json(nullptr);
        r["metrics"] = mj;
        std::string main;
        auto sc = KramaBenchMainScore(kb->answer_type, *m, &main);
        r["main_metric"] = main.empty() ? Json(nullptr) : Json(main);
        r["score"] = sc ? Json(*sc) : Json(nullptr);
        rows.push_back({t.id, kb->domain, kb->answer_type, false, std::move(*m)});
        finish("scored", "");
      }
    }
    (void)RemoveAll(box);
  }
  if (temp) (void)RemoveAll(work);
  Json c = Json::object();
  for (const auto& [k, v] : counts) c[k] = v;
  return Json{{"tasks", results}, {"counts", c}, {"leaderboard", AggregateKramaBench(rows).ToJson()}};
}

}  // namespace lakeqa::kramabench
