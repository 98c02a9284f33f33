// VerifyTaskFiles (verify.h): the task files of `lakeqa tasks verify` loaded, filtered and verified.
#include <sys/stat.h>

#include <fmt/format.h>

#include "lakeqa/agent/verify.h"
#include "lakeqa/common/fs.h"

namespace lakeqa::agent {
namespace {

void Say(const VerifyFilesOptions& o, const std::string& line) {
  if (o.on_note) o.on_note(line);
}

// Loads the tasks; questions that cannot apply to a lake are reported in one line each and counted.
eval::LoadResult LoadApplicable(const VerifyFilesOptions& o, VerifyFilesReport& r) {
  eval::LoadResult loaded = eval::LoadTasks(o.paths);
  for (const auto& e : loaded.errors) {
    r.not_applicable += e.status.code() == ErrorCode::kUnsupported;
    Say(o, "skipped: " + e.status.message());
  }
  r.load_failures = loaded.errors.size() - r.not_applicable;
  // A task whose gold names no lake file (a question that asks where to look) has nothing to ground.
  std::erase_if(loaded.tasks, [&](const eval::Task& t) {
    std::string why = t.extension ? t.extension->NoLakeFileReason() : "";
    if (why.empty()) return false;
    Say(o, fmt::format("skipped: {} [{}]: not applicable: {}", t.Where(), t.id, why));
    ++r.not_applicable;
    return true;
  });
  return loaded;
}

}  // namespace

Json VerifyFilesReport::ToJson() const {
  return {{"tasks", verify.tasks},        {"tasks_grounded", verify.tasks_grounded},
          {"nodes", verify.nodes},        {"nodes_grounded", verify.nodes_grounded},
          {"load_errors", load_failures}, {"not_applicable", not_applicable},
          {"results", verify.results}};
}

Result<VerifyFilesReport> VerifyTaskFiles(const VerifyFilesOptions& o) {
  VerifyFilesReport r;
  eval::LoadResult loaded = LoadApplicable(o, r);
  if (loaded.tasks.empty()) {
    if (r.load_failures == 0 && r.not_applicable > 0)
      return Unsupported(
          fmt::format("none of the {} question(s) applies to a lake (reasons above)", r.not_applicable));
    return NotFound("no task could be loaded from the given paths");
  }
  ToolEnvOptions eo = o.env;
  if (eo.work_dir.empty()) {
    LAKEQA_ASSIGN_OR_RETURN(eo.work_dir, MakeTempDir("lakeqa-verify-"));
    // The Python sandbox runs as an unprivileged user, which must be able to reach the sandboxes inside.
    ::chmod(eo.work_dir.c_str(), 0755);
  }
  auto envs = MakeToolEnvFactory(eo);
  if (envs.ok()) {
    if (o.progress) o.progress->SetTotal(loaded.tasks.size());
    r.verify = VerifyTasks(loaded.tasks, *envs, [&o] {
      if (o.progress) o.progress->Add(1);
    });
    if (o.progress) o.progress->Finish();
  }
  if (o.env.work_dir.empty()) (void)RemoveAll(eo.work_dir);
  if (!envs.ok()) return envs.status();
  return r;
}

}  // namespace lakeqa::agent
