// Compose: tasks in the project file, running a node's fact through the tools, status steps, export to a
// LakeQA task file (validated and verified as `tasks validate` and `tasks verify` do) and import.
#include <chrono>
#include <filesystem>

#include <fmt/format.h>

#include "lakeqa/agent/fact.h"
#include "lakeqa/agent/verify.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/eval/task_format.h"
#include "lakeqa/eval/validate.h"

#include "workbench/internal.h"

namespace lakeqa::workbench {
namespace {

namespace fs = std::filesystem;

// A save or status change that lost the race: 409 with the task as it is now, so the page can show it.
ApiReply ConflictReply(Workbench::Impl& w, const Status& st, int64_t id) {
  ApiReply r = ErrorReply(st);
  if (st.code() == ErrorCode::kAlreadyExists && st.message().rfind("conflict:", 0) == 0) {
    r.body["error"]["code"] = "conflict";
    if (auto cur = w.project->GetTask(id); cur.ok()) {
      if (auto view = w.TaskView(*cur); view.ok()) r.body["current"] = *view;
    }
  }
  return r;
}

Result<ApiReply> ListTasks(Workbench::Impl& w, const ApiRequest&) {
  LAKEQA_ASSIGN_OR_RETURN(auto tasks, w.project->ListTasks());
  LAKEQA_ASSIGN_OR_RETURN(auto policy, w.project->Policy());
  Json rows = Json::array();
  for (const ProjectTask& t : tasks) {
    Structure s = AnalyzeStructure(t);
    LAKEQA_ASSIGN_OR_RETURN(auto reviews, w.project->Reviews(t.id));
    LAKEQA_ASSIGN_OR_RETURN(auto authors, w.project->Authors(t.id));
    Json state = w.ReviewState(t, reviews, policy, authors);
    rows.push_back({{"id", t.id},
                    {"question_id", t.question_id},
                    {"question", t.question},
                    {"status", t.status},
                    {"version", t.content_version},
                    {"nodes", t.nodes.size()},
                    {"k", s.k},
                    {"d", s.d},
                    {"reviews", state["reviews"]},
                    {"review_message", state["message"]},
                    {"updated_by", t.updated_by},
                    {"updated_at", t.updated_at},
                    {"origin", t.origin}});
  }
  LAKEQA_ASSIGN_OR_RETURN(Json counts, w.project->ReviewerCounts());
  return ApiReply{200, {{"tasks", rows}, {"reviewers", counts}, {"policy", policy.ToJson()}}};
}

Result<ApiReply> CreateTask(Workbench::Impl& w, const ApiRequest& req) {
  ProjectTask t;
  if (req.body.contains("task")) {
    LAKEQA_ASSIGN_OR_RETURN(t, ProjectTask::FromJson(req.body["task"]));
  }
  if (req.body.contains("question_id") && req.body["question_id"].is_string())
    t.question_id = req.body["question_id"].get<std::string>();
  if (t.nodes.empty()) t.nodes.push_back(ProjectNode{"1", "", "", "", Json(), 0, "", Json()});
  t.origin.clear();
  LAKEQA_ASSIGN_OR_RETURN(ProjectTask created, w.project->CreateTask(t, req.who));
  LAKEQA_ASSIGN_OR_RETURN(Json view, w.TaskView(created));
  return ApiReply{201, view};
}

Result<ApiReply> GetTask(Workbench::Impl& w, const ApiRequest& req) {
  LAKEQA_ASSIGN_OR_RETURN(ProjectTask t, w.LoadTask(req.args[0]));
  LAKEQA_ASSIGN_OR_RETURN(Json view, w.TaskView(t));
  return ApiReply{200, view};
}

Result<ApiReply> SaveTask(Workbench::Impl& w, const ApiRequest& req) {
  LAKEQA_ASSIGN_OR_RETURN(ProjectTask saved, w.LoadTask(req.args[0]));
  LAKEQA_ASSIGN_OR_RETURN(int64_t base, RequireInt(req.body, "base_version"));
  if (!req.body.contains("task")) return InvalidArgument("\"task\" (the edited task) is required");
  LAKEQA_ASSIGN_OR_RETURN(ProjectTask t, ProjectTask::FromJson(req.body["task"]));
  t.id = saved.id;
  auto r = w.project->SaveTask(t, base, req.who);
  if (!r.ok()) return ConflictReply(w, r.status(), saved.id);
  LAKEQA_ASSIGN_OR_RETURN(Json view, w.TaskView(*r));
  return ApiReply{200, view};
}

// Structure, findings and leakage of unsaved content, as the editor changes it.
Result<ApiReply> CheckTaskContent(Workbench::Impl& w, const ApiRequest& req) {
  LAKEQA_ASSIGN_OR_RETURN(ProjectTask saved, w.LoadTask(req.args[0]));
  ProjectTask t = saved;
  if (req.body.contains("task")) {
    LAKEQA_ASSIGN_OR_RETURN(t, ProjectTask::FromJson(req.body["task"]));
    t.id = saved.id;
  }
  Json findings = Json::array(), leaks = Json::array();
  for (const auto& f : w.Findings(t)) findings.push_back(f.ToJson());
  for (const auto& l : w.Leakage(t)) leaks.push_back(l.ToJson());
  return ApiReply{200,
                  {{"structure", AnalyzeStructure(t).ToJson()},
                   {"findings", findings},
                   {"leakage", leaks},
                   {"lakeqa", ToLakeQaJson(t)}}};
}

Result<ApiReply> RunNode(Workbench::Impl& w, const ApiRequest& req) {
  LAKEQA_ASSIGN_OR_RETURN(ProjectTask saved, w.LoadTask(req.args[0]));
  LAKEQA_ASSIGN_OR_RETURN(std::string key, RequireString(req.body, "node"));
  ProjectTask t = saved;
  if (req.body.contains("task")) {
    LAKEQA_ASSIGN_OR_RETURN(t, ProjectTask::FromJson(req.body["task"]));
  }
  const ProjectNode* node = nullptr;
  std::map<std::string, std::string> answers;
  for (const auto& n : t.nodes) {
    if (n.key == key) node = &n;
    else if (!n.answer.is_null())
      answers[n.key] = n.answer.is_string() ? n.answer.get<std::string>() : n.answer.dump();
  }
  if (!node) return NotFound("task " + t.question_id + " has no node \"" + key + "\"");
  Json run = {{"node", key}, {"source", node->source}, {"ran_by", req.who}, {"ran_at", NowIso()}};
  std::string code = agent::FillNodePlaceholders(node->fact, answers);
  run["code"] = code;
  run["code_hash"] = CodeHash(code);
  std::vector<std::string> missing;
  for (const std::string& d : NodeDependencies(*node)) {
    if (!answers.count(d)) missing.push_back(d);
  }
  if (node->fact.find_first_not_of(" \t\r\n") == std::string::npos) {
    run["ok"] = false;
    run["error"] =
        "node " + key + " has no fact to run: write Python that sets `answer` (the source is at local_path)";
    run["error_code"] = "invalid_argument";
  } else if (!missing.empty()) {
    std::string list;
    for (const auto& m : missing) list += (list.empty() ? "" : ", ") + m;
    run["ok"] = false;
    run["error"] =
        "node " + key + " uses the answer of node " + list + ", which has none yet: run that node first";
    run["error_code"] = "invalid_argument";
  } else {
    LAKEQA_ASSIGN_OR_RETURN(auto session, w.env->sessions->Create());
    auto t0 = std::chrono::steady_clock::now();
    agent::FactRun fr = agent::RunFact(
        [&](const std::string& tool, const Json& args) { return w.env->tools->Call(*session, tool, args); },
        node->source, code);
    run["elapsed_ms"] =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    (void)w.env->sessions->Close(session->id());
    run["sentence"] = !fr.code;
    run["dataset"] = fr.dataset;
    run["output"] = fr.output;
    run["stderr"] = fr.execution.is_object() ? fr.execution.value("stderr", "") : "";
    bool ok = fr.error.empty() && (!fr.code || !fr.answer.empty());
    run["ok"] = ok;
    run["answer"] = fr.code ? Json(fr.answer) : node->answer;
    if (!fr.error.empty()) {
      run["error"] = fr.error;
      run["error_code"] = fr.error_code;
    } else if (fr.code && fr.answer.empty()) {
      run["error"] = "the code ran but produced no answer: assign `answer = ...` (or print it last)";
      run["error_code"] = "no_answer";
    }
  }
  // The run is kept on the saved node (the task's content is untouched whatever happened).
  Status st = w.project->SetLastRun(saved.id, key, run, req.who);
  run["recorded"] = st.ok();
  return ApiReply{200, {{"run", run}}};
}

Result<ApiReply> SetStatus(Workbench::Impl& w, const ApiRequest& req) {
  LAKEQA_ASSIGN_OR_RETURN(ProjectTask t, w.LoadTask(req.args[0]));
  LAKEQA_ASSIGN_OR_RETURN(int64_t base, RequireInt(req.body, "base_version"));
  LAKEQA_ASSIGN_OR_RETURN(std::string to, RequireString(req.body, "to"));
  std::string from = t.status;
  Json detail = Json::object();
  if (req.body.contains("note") && req.body["note"].is_string()) detail["note"] = req.body["note"];
  if (to == "in_review") {
    if (from != "draft" && from != "revised")
      return InvalidArgument("only a draft or a revised task can be sent to review (task " + t.question_id +
                             " is " + from + ")");
    std::vector<Finding> f = w.Findings(t);
    if (HasErrors(f)) {
      Json fj = Json::array();
      std::string first;
      size_t n = 0;
      for (const auto& x : f) {
        fj.push_back(x.ToJson());
        if (x.severity == "error" && n++ == 0) first = x.message;
      }
      ApiReply r =
          ErrorReply(InvalidArgument(fmt::format("cannot send {} to review: {}{}", t.question_id, first,
                                                 n > 1 ? fmt::format(" (and {} more)", n - 1) : "")));
      r.body["findings"] = fj;
      return r;
    }
  } else if (to == "draft") {
    if (from == "draft") return InvalidArgument("task " + t.question_id + " is already a draft");
  } else {
    return InvalidArgument("'" + to +
                           "' is not a status one sets by hand: send a task to review (in_review) or back to "
                           "draft; reviews decide accepted, revised and rejected");
  }
  auto r = w.project->SetStatus(t.id, to, base, req.who, detail);
  if (!r.ok()) return ConflictReply(w, r.status(), t.id);
  LAKEQA_ASSIGN_OR_RETURN(Json view, w.TaskView(*r));
  return ApiReply{200, view};
}

std::string FileSafe(const std::string& s) {
  std::string out;
  for (char c : s)
    out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.') ? c : '_';
  return out.empty() ? "task" : out;
}

Result<ApiReply> Export(Workbench::Impl& w, const ApiRequest& req) {
  LAKEQA_ASSIGN_OR_RETURN(ProjectTask t, w.LoadTask(req.args[0]));
  std::vector<Finding> findings = w.Findings(t);
  Json fj = Json::array();
  for (const auto& f : findings) fj.push_back(f.ToJson());
  if (HasErrors(findings)) {
    std::string first;
    size_t n = 0;
    for (const auto& f : findings) {
      if (f.severity == "error" && n++ == 0) first = f.message;
    }
    ApiReply r = ErrorReply(InvalidArgument(fmt::format("export of {} refused: {}{}", t.question_id, first,
                                                        n > 1 ? fmt::format(" (and {} more)", n - 1) : "")));
    r.body["findings"] = fj;
    return r;
  }
  Structure s = AnalyzeStructure(t);
  Json doc = ToLakeQaJson(t);
  std::string folder = StructureFolder(s);
  std::string name = FileSafe(t.question_id) + ".json";
  std::string path = w.export_dir + "/" + folder + "/" + name;
  LAKEQA_RETURN_IF_ERROR(MakeDirs(w.export_dir + "/" + folder));
  LAKEQA_RETURN_IF_ERROR(WriteFileAtomic(path, DumpJson(doc, 4) + "\n"));
  // An earlier export in another k-d folder (the structure changed since) would be a second copy.
  std::error_code ec;
  for (auto it = fs::directory_iterator(w.export_dir, ec); !ec && it != fs::directory_iterator();
       it.increment(ec)) {
    fs::path other = it->path() / name;
    if (it->path().filename() != folder && fs::exists(other, ec)) fs::remove(other, ec);
  }
  // What `lakeqa tasks validate` and `lakeqa tasks verify` say of the written file.
  eval::LoadResult loaded = eval::LoadTasks({path});
  eval::ValidationReport validation = eval::Validate(loaded);
  std::vector<std::string> opened;
  agent::ToolEnvFactory factory = [&](const eval::Task&) -> Result<std::unique_ptr<agent::ToolEnv>> {
    LAKEQA_ASSIGN_OR_RETURN(auto session, w.env->sessions->Create());
    opened.push_back(session->id());
    return agent::MakeToolSetEnv(*w.env->tools, session);
  };
  agent::VerifyReport verify = agent::VerifyTasks(loaded.tasks, factory);
  for (const auto& id : opened) (void)w.env->sessions->Close(id);
  Json verify_j = {{"tasks", verify.tasks},
                   {"tasks_grounded", verify.tasks_grounded},
                   {"nodes", verify.nodes},
                   {"nodes_grounded", verify.nodes_grounded},
                   {"results", verify.results}};
  bool grounded = verify.tasks > 0 && verify.all_grounded();
  (void)w.project->Log(
      t.id, req.who, "exported",
      {{"path", path}, {"version", t.content_version}, {"valid", validation.ok()}, {"grounded", grounded}});
  return ApiReply{
      200,
      {{"path", path},
       {"folder", folder},
       {"lakeqa", doc},
       {"findings", fj},
       {"validate", validation.ToJson()},
       {"verify", verify_j},
       {"ok", validation.ok() && grounded},
       {"commands",
        {"lakeqa tasks validate " + path, "lakeqa tasks verify " + path + " --lake " + w.options.lake_uri +
                                              " --index " + w.options.index_dir}}}};
}

Result<ApiReply> LakeQaJson(Workbench::Impl& w, const ApiRequest& req) {
  LAKEQA_ASSIGN_OR_RETURN(ProjectTask t, w.LoadTask(req.args[0]));
  return ApiReply{200, ToLakeQaJson(t)};
}

Result<ApiReply> Import(Workbench::Impl& w, const ApiRequest& req) {
  LAKEQA_ASSIGN_OR_RETURN(std::string text, RequireString(req.body, "text"));
  std::string name = req.body.value("name", std::string("upload.json"));
  eval::LoadResult loaded = name.size() > 6 && name.substr(name.size() - 6) == ".jsonl"
                                ? eval::ParseTaskLines(text, name)
                                : eval::ParseTaskDocument(text, name);
  Json imported = Json::array(), errors = Json::array();
  for (const auto& e : loaded.errors) errors.push_back(e.status.message());
  for (const eval::Task& task : loaded.tasks) {
    if (task.format != eval::kLakeQaFormat) {
      const eval::TaskFormatSpec* format = eval::FindTaskFormat(task.format);
      errors.push_back(task.Where() + ": a " + (format != nullptr ? format->title : task.format) +
                       " question, not a LakeQA task: only LakeQA tasks can be edited");
      continue;
    }
    ProjectTask pt = FromEvalTask(task);
    auto created = w.project->CreateTask(pt, req.who, "imported");
    if (!created.ok()) {
      errors.push_back(task.Where() + ": " + created.status().message());
      continue;
    }
    imported.push_back({{"id", created->id}, {"question_id", created->question_id}});
  }
  if (imported.empty() && !errors.empty()) {
    ApiReply r =
        ErrorReply(InvalidArgument("nothing imported from " + name + ": " + errors[0].get<std::string>()));
    r.body["errors"] = errors;
    return r;
  }
  return ApiReply{200, {{"imported", imported}, {"errors", errors}}};
}

}  // namespace

void AddTaskRoutes(std::vector<Route>& routes) {
  routes.push_back({"GET", "/api/tasks", ListTasks});
  routes.push_back({"POST", "/api/tasks", CreateTask, true});
  routes.push_back({"GET", "/api/tasks/{}", GetTask});
  routes.push_back({"PUT", "/api/tasks/{}", SaveTask, true});
  routes.push_back({"POST", "/api/tasks/{}/check", CheckTaskContent});
  routes.push_back({"POST", "/api/tasks/{}/run", RunNode, true});
  routes.push_back({"POST", "/api/tasks/{}/status", SetStatus, true});
  routes.push_back({"POST", "/api/tasks/{}/export", Export, true});
  routes.push_back({"GET", "/api/tasks/{}/lakeqa", LakeQaJson});
  routes.push_back({"POST", "/api/import", Import, true});
}

}  // namespace lakeqa::workbench
