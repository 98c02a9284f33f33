// LoadDiscoverySuite (discovery.h): a suite file of relevance collections over several indexes, the input
// of `lakeqa eval suite` (every collection's metrics beside plain BM25's, and tuning across collections).
#include <cstdlib>
#include <filesystem>

#include "lakeqa/common/fs.h"
#include "lakeqa/eval/discovery.h"
#include "lakeqa/eval/task_format.h"

namespace lakeqa::eval {
namespace {

// ${VAR} from vars, then the environment.
Result<std::string> Expand(std::string_view s, const std::map<std::string, std::string>& vars,
                           const std::string& where) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    if (s.compare(i, 2, "${") != 0) {
      out += s[i++];
      continue;
    }
    size_t end = s.find('}', i + 2);
    if (end == std::string_view::npos)
      return InvalidArgument(where + ": unterminated ${ in '" + std::string(s) + "'");
    std::string name(s.substr(i + 2, end - i - 2));
    if (auto it = vars.find(name); it != vars.end()) {
      out += it->second;
    } else if (const char* e = std::getenv(name.c_str()); e != nullptr && *e != '\0') {
      out += e;
    } else {
      return InvalidArgument(where + ": ${" + name + "} is not set (give --set " + name +
                             "=... or the environment)");
    }
    i = end + 1;
  }
  return out;
}

}  // namespace

Result<std::vector<SuiteCollection>> LoadDiscoverySuite(const std::string& path,
                                                        const std::map<std::string, std::string>& vars) {
  LAKEQA_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
  LAKEQA_ASSIGN_OR_RETURN(Json j, ParseJson(text, path));
  if (!j.is_object() || !j.contains("collections") || !j["collections"].is_array() ||
      j["collections"].empty())
    return InvalidArgument(path + ": expected {\"collections\": [...]} with at least one collection");
  const std::filesystem::path base = std::filesystem::path(path).parent_path();
  std::vector<SuiteCollection> out;
  size_t i = 0;
  for (const Json& c : j["collections"]) {
    std::string where = path + ": collections[" + std::to_string(i++) + "]";
    if (!c.is_object()) return InvalidArgument(where + ": not an object");
    auto str = [&](const char* key, bool is_path) -> Result<std::string> {
      if (!c.contains(key)) return std::string();
      if (!c[key].is_string()) return InvalidArgument(where + "." + key + ": not a string");
      LAKEQA_ASSIGN_OR_RETURN(std::string v, Expand(c[key].get<std::string>(), vars, where + "." + key));
      if (is_path && !v.empty() && std::filesystem::path(v).is_relative()) v = (base / v).string();
      return v;
    };
    SuiteCollection sc;
    LAKEQA_ASSIGN_OR_RETURN(sc.name, str("name", false));
    LAKEQA_ASSIGN_OR_RETURN(sc.split, str("split", false));
    LAKEQA_ASSIGN_OR_RETURN(sc.index, str("index", true));
    if (sc.name.empty() || sc.index.empty()) return InvalidArgument(where + ": needs \"name\" and \"index\"");
    if (sc.split != "dev" && sc.split != "test")
      return InvalidArgument(where + ": \"split\" must be \"dev\" or \"test\"");
    for (const auto& other : out) {
      if (other.name == sc.name) return InvalidArgument(where + ": the name '" + sc.name + "' appears twice");
    }
    where += " (" + sc.name + ")";
    LAKEQA_ASSIGN_OR_RETURN(std::string questions, str("questions", true));
    LAKEQA_ASSIGN_OR_RETURN(std::string topics, str("topics", true));
    LAKEQA_ASSIGN_OR_RETURN(std::string qrels, str("qrels", true));
    LAKEQA_ASSIGN_OR_RETURN(std::string ns, str("namespace", false));
    std::vector<std::string> tasks;
    if (c.contains("tasks")) {
      if (!c["tasks"].is_array()) return InvalidArgument(where + ".tasks: not an array of paths");
      for (const Json& t : c["tasks"]) {
        if (!t.is_string()) return InvalidArgument(where + ".tasks: not an array of paths");
        LAKEQA_ASSIGN_OR_RETURN(std::string v, Expand(t.get<std::string>(), vars, where + ".tasks"));
        if (std::filesystem::path(v).is_relative()) v = (base / v).string();
        tasks.push_back(std::move(v));
      }
    }
    int kinds = !questions.empty() + !tasks.empty() + (!topics.empty() || !qrels.empty());
    if (kinds != 1)
      return InvalidArgument(where + ": give one of \"questions\", \"tasks\", \"topics\" + \"qrels\"");
    Result<std::vector<DiscoveryQuestion>> qs = InvalidArgument("unreachable");
    if (!questions.empty()) {
      const TaskFormatSpec* q = DiscoveryQuestionFormat();
      if (q == nullptr)
        return InvalidArgument(where + ".questions: no registered task format reads questions");
      qs = q->discovery_questions(questions, ns.empty() ? q->discovery_namespace : ns);
    } else if (!tasks.empty()) {
      qs = LoadLakeQaQuestions(tasks, c.value("skip_bad_tasks", false), &sc.skipped);
    } else if (topics.empty() || qrels.empty()) {
      return InvalidArgument(where + ": \"topics\" and \"qrels\" go together");
    } else {
      qs = LoadTrecQuestions(topics, qrels);
    }
    if (!qs.ok()) return qs.status().WithContext(where);
    sc.questions = std::move(*qs);
    out.push_back(std::move(sc));
  }
  return out;
}

}  // namespace lakeqa::eval
