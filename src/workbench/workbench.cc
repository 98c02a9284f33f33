// Opening the workbench (tool environment, project file, catalogue, text index, runs, model) and the
// helpers every endpoint group shares.
#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <sys/stat.h>

#include "lakeqa/catalog/index_dir.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/eval/task.h"
#include "lakeqa/index/searcher.h"
#include "lakeqa/llm/providers.h"

#include "workbench/internal.h"

namespace lakeqa::workbench {

namespace {

ErrorCode CodeFromName(const std::string& name) {
  for (int c = 1; c <= static_cast<int>(ErrorCode::kInternal); ++c) {
    if (CodeName(static_cast<ErrorCode>(c)) == name) return static_cast<ErrorCode>(c);
  }
  return ErrorCode::kInternal;
}

// A data file of the lake being served (the first readable, non-metadata file of the first datasets in
// id order), so that the composer's source placeholder names a path of this lake.
std::string ExampleSource(catalog::Catalog& catalog) {
  auto datasets = catalog.ListDatasets("", 50);
  if (!datasets.ok()) return "";
  for (const auto& d : *datasets) {
    auto files = catalog.ListFiles(d.ns + "/" + d.dataset_id);
    if (!files.ok()) continue;
    for (const auto& f : *files) {
      if (!f.is_metadata && f.error.empty() && !f.path.empty()) return f.key;
    }
  }
  return "";
}

}  // namespace

Workbench::Impl::~Impl() {
  if (explore && env && env->sessions) (void)env->sessions->Close(explore->id());
  explore.reset();
  env.reset();
  if (!owned_dir.empty()) (void)RemoveAll(owned_dir);
}

Workbench::~Workbench() = default;

server::SessionManager& Workbench::sessions() { return *impl_->env->sessions; }

Result<std::unique_ptr<Workbench>> Workbench::Open(std::unique_ptr<lake::Store> store,
                                                   const WorkbenchOptions& options) {
  std::unique_ptr<Workbench> wb(new Workbench());
  wb->impl_ = std::make_unique<Impl>();
  Impl& w = *wb->impl_;
  w.options = options;
  if (options.project_path.empty()) return InvalidArgument("--project: the project file is required");
  if (options.index_dir.empty()) return InvalidArgument("--index is required");
  std::string work = options.work_dir;
  if (work.empty()) {
    LAKEQA_ASSIGN_OR_RETURN(w.owned_dir, MakeTempDir("lakeqa-ui-"));
    work = w.owned_dir;
  }
  LAKEQA_RETURN_IF_ERROR(MakeDirs(work));
  // The Python sandbox runs as an unprivileged user that must reach the sandboxes inside.
  ::chmod(work.c_str(), 0755);
  server::EnvOptions eo;
  eo.index_dir = options.index_dir;
  eo.sessions_dir = work + "/sessions";
  eo.cache_dir = work + "/cache";
  eo.limits = options.limits;
  // Deep result pages: the explore session asks search_keyword for up to page × size hits.
  eo.limits.max_search_results = std::max<size_t>(eo.limits.max_search_results, 1000);
  LAKEQA_ASSIGN_OR_RETURN(w.env, server::OpenEnv(std::move(store), eo));
  LAKEQA_ASSIGN_OR_RETURN(w.project, Project::Open(options.project_path));
  const catalog::IndexDir index_dir(options.index_dir);
  LAKEQA_ASSIGN_OR_RETURN(w.catalog, catalog::Catalog::Open(index_dir.Catalog(), /*read_only=*/true));
  auto text = index::IndexReader::Open(index_dir.Text());
  if (text.ok()) {
    w.text = *text;
  } else if (text.status().code() != ErrorCode::kNotFound) {
    return text.status().WithContext(index_dir.Text());
  }
  Impl* self = &w;
  w.runs = std::make_unique<RunLibrary>(options.runs,
                                        [self](const std::string& d) { return self->CategoryOf(d); });
  if (!options.model.empty()) {
    LAKEQA_ASSIGN_OR_RETURN(llm::ModelSpec spec, llm::ParseModelSpec(options.model));
    llm::ClientOptions co;
    co.base_url = options.base_url;
    co.stream = false;
    LAKEQA_ASSIGN_OR_RETURN(w.llm, llm::MakeClient(spec, co));
    w.model_name = spec.Name();
    w.model_id = spec.model;
  }
  w.export_dir = options.export_dir.empty() ? options.project_path + ".export" : options.export_dir;
  w.example_source = ExampleSource(*w.catalog);
  if (std::string schema = index_dir.GraphSchema(); PathExists(schema)) {
    LAKEQA_ASSIGN_OR_RETURN(std::string text, ReadFile(schema, 64ull << 20));
    LAKEQA_ASSIGN_OR_RETURN(Json j, ParseJson(text, schema));
    LAKEQA_ASSIGN_OR_RETURN(graph::Schema gs, graph::Schema::FromJson(j));
    w.graph_schema = std::move(gs);
  }
  LAKEQA_ASSIGN_OR_RETURN(w.explore, w.env->sessions->Create());
  AddExploreRoutes(w.routes);
  AddTaskRoutes(w.routes);
  AddReviewRoutes(w.routes);
  AddRunRoutes(w.routes);
  AddDraftRoutes(w.routes);
  return wb;
}

Result<Json> Workbench::Impl::Tool(tools::Session& session, const std::string& tool, const Json& args) {
  Json r = env->tools->Call(session, tool, args);
  if (r.is_object() && r.contains("error") && r["error"].is_object()) {
    return Status(CodeFromName(r["error"].value("code", "internal")),
                  tool + ": " + r["error"].value("message", std::string("failed")));
  }
  return r;
}

std::optional<uint64_t> Workbench::Impl::DatasetsWith(const std::string& word) {
  if (!text) return std::nullopt;
  index::Searcher searcher(text);
  index::SearchOptions so;
  so.k = 1;
  so.count_total = true;
  so.snippets = false;
  // As a phrase, so that query syntax in the word (a colon, a star) is read as text.
  std::string q = "\"" + word + "\"";
  auto r = searcher.Search(q, so);
  if (!r.ok() || r->total < 0) return std::nullopt;
  return static_cast<uint64_t>(r->total);
}

uint64_t Workbench::Impl::TotalDatasets() { return text ? text->num_docs() : 0; }

Result<catalog::DatasetRecord> Workbench::Impl::Dataset(const std::string& full_id) {
  std::lock_guard<std::mutex> lock(catalog_mu);
  return catalog->GetDataset(full_id);
}

std::string Workbench::Impl::CategoryOf(const std::string& dataset) {
  auto d = Dataset(dataset);
  return d.ok() ? d->category : "";
}

bool Workbench::Impl::FileExists(const std::string& lake_path) {
  std::lock_guard<std::mutex> lock(catalog_mu);
  return catalog->GetFile(lake_path).ok();
}

std::vector<LeakFlag> Workbench::Impl::Leakage(const ProjectTask& task) {
  std::vector<LeakSource> sources;
  for (const auto& n : task.nodes) {
    auto ref = eval::ParseDatasetPath(n.source);
    if (!ref.ok()) continue;
    LeakSource s;
    s.node = n.key;
    s.ns = ref->ns;
    s.dataset_id = ref->id;
    s.file_path = n.source.size() > ref->Key().size() + 1 ? n.source.substr(ref->Key().size() + 1) : "";
    if (auto d = Dataset(ref->Key()); d.ok()) {
      s.title = d->metadata.title;
      s.columns = d->columns;
    }
    sources.push_back(std::move(s));
  }
  // Intermediate answers: the nodes outside the last hop (its nodes' answers make the final one).
  Structure st = AnalyzeStructure(task);
  int last = 0;
  for (const auto& [k, h] : st.hop_of) last = std::max(last, h);
  std::vector<LeakAnswer> answers;
  for (const auto& n : task.nodes) {
    if (st.hop_of[n.key] == last || n.answer.is_null()) continue;
    answers.push_back({n.key, n.answer.is_string() ? n.answer.get<std::string>() : n.answer.dump()});
  }
  if (!task.answer.is_null())
    answers.push_back({"", task.answer.is_string() ? task.answer.get<std::string>() : task.answer.dump()});
  LeakOptions lo;
  lo.total_datasets = TotalDatasets();
  return CheckLeakage(
      task.question, sources, answers, [this](const std::string& w) { return DatasetsWith(w); }, lo);
}

std::vector<Finding> Workbench::Impl::Findings(const ProjectTask& task) {
  std::vector<Finding> f = CheckTask(task, [this](const std::string& p) { return FileExists(p); });
  for (const LeakFlag& l : Leakage(task))
    f.push_back({"warning", l.node, "question", "leakage: " + l.message});
  return f;
}

Json Workbench::Impl::ReviewState(const ProjectTask& task, const std::vector<Review>& reviews,
                                  const ReviewPolicy& policy, const std::vector<std::string>& authors) {
  // The latest review of each reviewer since the content last changed counts (a status change is not a
  // change of what was reviewed) — unless the reviewer is an author: nobody reviews their own work.
  auto is_author = [&](const std::string& name) {
    return std::find(authors.begin(), authors.end(), name) != authors.end();
  };
  std::map<std::string, const Review*> latest;
  std::set<std::string> by_authors;
  for (const Review& r : reviews) {
    if (r.task_version < task.content_version) continue;
    if (is_author(r.reviewer)) by_authors.insert(r.reviewer);
    else latest[r.reviewer] = &r;
  }
  const Review* adjudication = nullptr;
  Json reviewers = Json::array();
  for (const auto& [name, r] : latest) {
    reviewers.push_back({{"reviewer", name}, {"verdict", r->verdict}, {"adjudicator", r->adjudicator}});
    if (r->adjudicator && (!adjudication || r->id > adjudication->id)) adjudication = r;
  }
  int count = static_cast<int>(latest.size());
  bool adjudicated = adjudication != nullptr;
  bool met = count >= policy.min_reviews && (!policy.require_adjudicator || adjudicated);
  Json decision;
  if (met) {
    if (policy.require_adjudicator) {
      decision = adjudication->verdict;
    } else {
      std::string d = "accept";
      for (const auto& [name, r] : latest) {
        if (r->verdict == "reject") d = "reject";
        else if (r->verdict == "revise" && d != "reject") d = "revise";
      }
      decision = d;
    }
  }
  std::string message;
  if (met) {
    message =
        fmt::format("{} review{} of version {}{}: {}", count, count == 1 ? "" : "s", task.content_version,
                    adjudicated ? " including an adjudicator" : "", decision.get<std::string>());
  } else {
    int more = std::max(0, policy.min_reviews - count);
    std::vector<std::string> need;
    if (more > 0) need.push_back(fmt::format("{} more review{}", more, more == 1 ? "" : "s"));
    if (policy.require_adjudicator && !adjudicated) {
      std::string names;
      for (const auto& a : policy.adjudicators) names += (names.empty() ? "" : ", ") + a;
      need.push_back("an adjudicator's review" +
                     (names.empty() ? std::string(" (no adjudicator is named yet)") : " (" + names + ")"));
    }
    for (size_t i = 0; i < need.size(); ++i) message += (i ? " and " : "") + need[i];
    message += fmt::format(" of version {} needed", task.content_version);
  }
  if (!by_authors.empty()) {
    std::string names;
    for (const auto& a : by_authors) names += (names.empty() ? "" : ", ") + a;
    message += fmt::format(" (not counted: the review by {}, an author of the task)", names);
  }
  return {{"version", task.content_version},
          {"authors", authors},
          {"author_reviews", std::vector<std::string>(by_authors.begin(), by_authors.end())},
          {"reviews", count},
          {"reviewers", reviewers},
          {"min_reviews", policy.min_reviews},
          {"require_adjudicator", policy.require_adjudicator},
          {"adjudicated", adjudicated},
          {"met", met},
          {"decision", decision},
          {"message", message}};
}

Result<ProjectTask> Workbench::Impl::LoadTask(const std::string& id_text) {
  char* end = nullptr;
  long long id = std::strtoll(id_text.c_str(), &end, 10);
  if (id_text.empty() || *end != '\0' || id <= 0)
    return InvalidArgument("task id must be a positive number, got '" + id_text + "'");
  return project->GetTask(id);
}

Result<Json> Workbench::Impl::TaskView(const ProjectTask& task) {
  LAKEQA_ASSIGN_OR_RETURN(auto reviews, project->Reviews(task.id));
  LAKEQA_ASSIGN_OR_RETURN(auto policy, project->Policy());
  LAKEQA_ASSIGN_OR_RETURN(auto audit, project->Audit(task.id, 200));
  LAKEQA_ASSIGN_OR_RETURN(auto authors, project->Authors(task.id));
  Json rv = Json::array(), au = Json::array(), findings = Json::array(), leaks = Json::array();
  for (const auto& r : reviews) {
    Json j = r.ToJson();
    j["by_author"] = std::find(authors.begin(), authors.end(), r.reviewer) != authors.end();
    rv.push_back(std::move(j));
  }
  for (const auto& a : audit) au.push_back(a.ToJson());
  for (const auto& f : Findings(task)) findings.push_back(f.ToJson());
  for (const auto& l : Leakage(task)) leaks.push_back(l.ToJson());
  return Json{{"task", task.ToJson()},
              {"structure", AnalyzeStructure(task).ToJson()},
              {"findings", findings},
              {"leakage", leaks},
              {"lakeqa", ToLakeQaJson(task)},
              {"reviews", rv},
              {"review_state", ReviewState(task, reviews, policy, authors)},
              {"policy", policy.ToJson()},
              {"audit", au}};
}

Result<std::string> RequireString(const Json& body, const char* name) {
  if (!body.contains(name) || !body[name].is_string() || body[name].get<std::string>().empty())
    return InvalidArgument(std::string("\"") + name + "\" (a non-empty string) is required");
  return body[name].get<std::string>();
}

Result<int64_t> RequireInt(const Json& body, const char* name) {
  if (!body.contains(name) || !body[name].is_number_integer())
    return InvalidArgument(std::string("\"") + name + "\" (a whole number) is required");
  return body[name].get<int64_t>();
}

ApiReply ErrorReply(const Status& status) { return {HttpStatusFor(status.code()), ErrorJson(status)}; }

std::vector<std::string> ApiRequest::Params(std::string_view name) const {
  std::vector<std::string> out;
  for (const auto& [k, v] : http.params) {
    if (k == name && !v.empty()) out.push_back(v);
  }
  return out;
}

}  // namespace lakeqa::workbench
