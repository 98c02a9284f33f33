// KramaBench workloads → Task. data_sources are resolved against data/<domain>/input/ of the checkout the
// workload sits in (workload/../data/), so folders, globs and bare file names become the files they name;
// each file is a dataset of the kramabench-<domain> namespace (kramabench/names.h).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "lakeqa/kramabench/kramabench.h"
#include "lakeqa/kramabench/names.h"

namespace lakeqa::kramabench {

using namespace eval;  // the core types a benchmark builds on: Task, LoadResult, RunScore, ...

namespace {

namespace fs = std::filesystem;

const std::vector<std::pair<std::string, std::vector<std::string>>>& Fixtures() {
  // benchmark/fixtures/answer_type_fixtures.json
  static const std::vector<std::pair<std::string, std::vector<std::string>>> k = {
      {"numeric_approximate", {"mean_absolute_error", "mean_squared_error", "mean_relative_absolute_error"}},
      {"string_approximate", {"bleu", "rouge", "llm_paraphrase"}},
      {"numeric_exact", {"success"}},
      {"string_exact", {"success"}},
      {"list_exact", {"f1", "precision", "recall"}},
      {"list_approximate", {"f1_approximate"}},
  };
  return k;
}

std::vector<std::string> ListInput(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    std::string rel = fs::relative(it->path(), dir, ec).generic_string();
    if (!ec && fs::path(rel).filename() != ".DS_Store") out.push_back(rel);
  }
  std::sort(out.begin(), out.end());
  return out;
}

struct Resolver {
  std::string domain, input_dir, ns;
  std::vector<std::string> files;
  bool have_files = false;

  std::vector<KramaBenchSource> Resolve(const Json& ds) const {
    std::vector<std::string> entries;
    if (ds.is_string()) entries.push_back(ds.get<std::string>());
    else if (ds.is_array())
      for (const auto& e : ds)
        if (e.is_string()) entries.push_back(e.get<std::string>());
    std::vector<KramaBenchSource> out;
    for (auto& e : entries) {
      KramaBenchSource s{e, {}};
      if (have_files) {
        s.files = ResolveKramaBenchSource(e, domain, files);
      } else if (e.find_first_of("*?[") == std::string::npos && !e.empty() && e.back() != '/') {
        std::string p = e;
        while (p.rfind("./", 0) == 0) p = p.substr(2);
        s.files.push_back(p);  // no checkout beside the workload: a plain path is taken as written
      }
      out.push_back(std::move(s));
    }
    return out;
  }
};

std::string Str(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace

const KramaBenchTask* Of(const Task& task) {
  return dynamic_cast<const KramaBenchTask*>(task.extension.get());
}

std::string KramaBenchTask::OracleNotApplicable() const {
  return "a KramaBench task has no gold trail (nodes) to follow; its reference solution runs "
         "with `lakeqa kramabench solutions` (docs/kramabench.md)";
}

const std::vector<std::string>& KramaBenchAnswerTypes() {
  static const std::vector<std::string> k = [] {
    std::vector<std::string> v;
    for (const auto& [name, m] : Fixtures()) v.push_back(name);
    return v;
  }();
  return k;
}

bool IsKramaBenchAnswerType(std::string_view type) { return !KramaBenchMetricsFor(type).empty(); }

const std::vector<std::string>& KramaBenchMetricsFor(std::string_view answer_type) {
  static const std::vector<std::string> none;
  for (const auto& [name, m] : Fixtures())
    if (name == answer_type) return m;
  return none;
}

bool IsKramaBenchWorkload(const Json& doc) {
  if (!doc.is_array() || doc.empty()) return false;
  for (const auto& t : doc)
    if (t.is_object() && t.contains("query") && t.contains("answer_type") && !t.contains("question_id"))
      return true;
  return false;
}

LoadResult LoadKramaBenchWorkload(const Json& doc, const std::string& file) {
  LoadResult out;
  out.files = 1;
  std::string stem = fs::path(file).stem().string();
  std::map<std::string, Resolver> resolvers;  // per domain
  auto resolver = [&](const std::string& domain) -> const Resolver& {
    auto it = resolvers.find(domain);
    if (it != resolvers.end()) return it->second;
    Resolver r;
    r.domain = domain;
    r.ns = KramaBenchNamespace(domain);
    fs::path input = fs::path(file).parent_path().parent_path() / "data" / domain / "input";
    std::error_code ec;
    if (fs::is_directory(input, ec)) {
      r.input_dir = input.lexically_normal().string();
      r.files = ListInput(r.input_dir);
      r.have_files = true;
    }
    return resolvers.emplace(domain, std::move(r)).first->second;
  };
  for (size_t i = 0; i < doc.size(); ++i) {
    const Json& j = doc[i];
    std::string where = fmt::format("{}[{}]", file, i);
    auto fail = [&](const std::string& why) {
      out.errors.push_back(LoadError{file, 0, 0, ParseError(where + ": " + why)});
    };
    if (!j.is_object()) {
      fail(fmt::format("a KramaBench task must be a JSON object, got {}", j.type_name()));
      continue;
    }
    std::string id = Str(j, "id");
    if (id.empty()) {
      fail("\"id\" is missing or not a string");
      continue;
    }
    where += " (" + id + ")";
    std::string query = Str(j, "query");
    if (query.empty()) {
      fail("\"query\" is missing, empty or not a string");
      continue;
    }
    if (!j.contains("answer")) {
      fail("\"answer\" is missing");
      continue;
    }
    if (!j["answer_type"].is_string()) {
      fail("\"answer_type\" is missing or not a string");
      continue;
    }
    auto kb = std::make_shared<KramaBenchTask>();
    // "legal-hard-1" → domain legal, difficulty hard; "legal-tiny-1" → the file's stem decides the domain.
    for (const char* d : {"-easy-", "-hard-"}) {
      size_t p = id.find(d);
      if (p != std::string::npos && p > 0) {
        kb->domain = id.substr(0, p);
        kb->difficulty = std::string(d).substr(1, 4);
        break;
      }
    }
    if (kb->domain.empty()) kb->domain = stem.substr(0, stem.find('-'));
    kb->answer_type = j["answer_type"].get<std::string>();
    const Resolver& r = resolver(kb->domain);
    kb->input_dir = r.input_dir;
    kb->ns = r.ns;
    kb->sources = r.Resolve(j.value("data_sources", Json()));
    if (j.contains("subtasks") && j["subtasks"].is_array()) {
      for (const auto& s : j["subtasks"]) {
        if (!s.is_object()) continue;
        KramaBenchSubtask st;
        st.id = Str(s, "id");
        st.query = Str(s, "query");
        st.answer = s.value("answer", Json());
        st.answer_type = Str(s, "answer_type");
        st.sources = r.Resolve(s.value("data_sources", Json()));
        kb->subtasks.push_back(std::move(st));
      }
    }
    Task t;
    t.id = id;
    t.question = query;
    t.answer = j["answer"];
    t.format = std::string(kFormat);
    t.file = file;
    for (const auto& s : kb->sources) {
      for (const auto& f : s.files) {
        std::string base = f.substr(f.rfind('/') + 1);
        std::string path = kb->ns + "/" + KramaBenchDatasetFolder(f) + "/" + base;
        if (std::find(t.datasets_used.begin(), t.datasets_used.end(), path) == t.datasets_used.end())
          t.datasets_used.push_back(path);
      }
    }
    t.extension = std::move(kb);
    out.tasks.push_back(std::move(t));
  }
  return out;
}

void CheckKramaBenchTask(const Task& task, std::vector<std::string>& errors,
                         std::vector<std::string>& warnings) {
  const KramaBenchTask* kb = Of(task);
  if (!kb) return;
  std::string known;
  for (const auto& n : KramaBenchAnswerTypes()) known += (known.empty() ? "" : ", ") + n;
  if (!IsKramaBenchAnswerType(kb->answer_type)) {
    errors.push_back(fmt::format("unknown answer_type '{}' (KramaBench's are {}): the task cannot be scored",
                                 kb->answer_type, known));
  }
  std::string where = kb->input_dir.empty() ? "(no data/" + kb->domain + "/input/ beside the workload)"
                                            : "in " + kb->input_dir;
  for (const auto& s : kb->sources) {
    if (s.files.empty()) warnings.push_back(fmt::format("data source '{}' names no file {}", s.entry, where));
  }
  if (kb->sources.empty()) warnings.push_back("no data_sources: the task has no gold datasets");
  for (const auto& st : kb->subtasks) {
    if (!st.answer_type.empty() && !IsKramaBenchAnswerType(st.answer_type)) {
      warnings.push_back(
          fmt::format("subtask {}: unknown answer_type '{}' (it is left unscored)", st.id, st.answer_type));
    }
  }
}

}  // namespace lakeqa::kramabench
