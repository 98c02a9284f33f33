// Stage ablations: parsing, the per-task check of the gold data each oracle needs, and the ablated
// episode (what the model is told, which tools it gets, and the two tool calls an oracle answers).
#include "lakeqa/agent/ablation.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "agent/internal.h"
#include "lakeqa/tools/model_view.h"
#include "lakeqa/tools/results.h"

namespace lakeqa::agent {
namespace {

std::string Joined(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

std::string ValidSet() {
  std::string out;
  for (const auto& [stage, levels] : AblationStages())
    out += (out.empty() ? "" : "; ") + stage + "=" + Joined(levels, "|");
  return out;
}

std::string* Slot(Ablation& a, const std::string& stage) {
  if (stage == "search") return &a.search;
  if (stage == "decompose") return &a.decompose;
  if (stage == "compute") return &a.compute;
  return nullptr;
}

Status SetLevel(Ablation& a, const std::string& stage, const std::string& level, const std::string& where) {
  const auto& stages = AblationStages();
  auto it = std::find_if(stages.begin(), stages.end(), [&](const auto& s) { return s.first == stage; });
  if (it == stages.end()) {
    return InvalidArgument(where + ": unknown stage \"" + stage + "\"; valid: " + ValidSet());
  }
  if (std::find(it->second.begin(), it->second.end(), level) == it->second.end()) {
    return InvalidArgument(where + ": unknown level \"" + level + "\" for " + stage + "; valid: " + stage +
                           "=" + Joined(it->second, "|"));
  }
  *Slot(a, stage) = level;
  return Status::Ok();
}

// "<node_1 answer>"-style text as it is; the answer of a node is never put into what the model sees.
std::string NodeLabel(const eval::Node& n) { return "node " + n.id; }

// dataset_id as the agent may spell it ("datagov/abc" or "abc") against a gold "<ns>/<id>".
bool SameDataset(const std::string& asked, const std::string& ns, const std::string& id) {
  return asked == ns + "/" + id || asked == id;
}

std::string StripSlashes(std::string p) {
  while (!p.empty() && p.front() == '/') p.erase(p.begin());
  return p;
}

}  // namespace

bool Ablation::IsStandard() const {
  return search == "standard" && decompose == "standard" && compute == "standard";
}

std::string Ablation::Label() const {
  std::vector<std::string> parts;
  if (search != "standard") parts.push_back("search=" + search);
  if (decompose != "standard") parts.push_back("decompose=" + decompose);
  if (compute != "standard") parts.push_back("compute=" + compute);
  return parts.empty() ? "standard" : Joined(parts, ",");
}

Json Ablation::ToJson() const { return {{"search", search}, {"decompose", decompose}, {"compute", compute}}; }

const std::vector<std::pair<std::string, std::vector<std::string>>>& AblationStages() {
  static const std::vector<std::pair<std::string, std::vector<std::string>>> kStages = {
      {"search", {"naive", "standard", "preloaded", "ideal"}},
      {"decompose", {"standard", "ideal"}},
      {"compute", {"standard", "ideal"}}};
  return kStages;
}

Result<Ablation> ParseAblations(const std::vector<std::string>& specs) {
  Ablation a;
  for (const std::string& spec : specs) {
    size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
      return InvalidArgument("--ablate " + spec + ": expected <stage>=<level>; valid: " + ValidSet());
    }
    LAKEQA_RETURN_IF_ERROR(SetLevel(a, spec.substr(0, eq), spec.substr(eq + 1), "--ablate " + spec));
  }
  return a;
}

Result<Ablation> AblationFromJson(const Json& j) {
  Ablation a;
  if (j.is_null()) return a;
  if (!j.is_object()) return InvalidArgument("ablation: expected an object {\"search\": ..., ...}");
  for (const auto& [stage, level] : j.items()) {
    if (!level.is_string()) return InvalidArgument("ablation." + stage + ": expected a string");
    LAKEQA_RETURN_IF_ERROR(SetLevel(a, stage, level.get<std::string>(), "ablation"));
  }
  return a;
}

std::vector<std::string> GoldFiles(const eval::Task& task) {
  std::vector<std::string> out;
  auto add = [&](const std::string& path) {
    std::string p = StripSlashes(path);
    // A file needs a namespace, a dataset and at least one path component.
    if (std::count(p.begin(), p.end(), '/') < 2 || p.back() == '/') return;
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  };
  for (const eval::Node& n : task.nodes) add(n.source);
  for (const std::string& d : task.datasets_used) add(d);
  return out;
}

Status CheckAblation(const Ablation& a, const eval::Task& task) {
  std::vector<std::string> why;
  if (a.search == "ideal" && eval::GoldDatasets(task).empty())
    why.push_back("search=ideal needs gold datasets, and the task has no datasets_used or node sources");
  if (a.search == "preloaded" && GoldFiles(task).empty())
    why.push_back(
        "search=preloaded needs gold files, and no node source or datasets_used entry names a file");
  if (a.decompose == "ideal") {
    if (task.nodes.empty()) {
      why.push_back("decompose=ideal needs the subquestion chain, and the task has no nodes");
    } else {
      for (const eval::Node& n : task.nodes) {
        if (n.subquestion.empty()) {
          why.push_back("decompose=ideal needs every node's subquestion, and node " + n.id + " has none");
          break;
        }
      }
    }
  }
  if (a.compute == "ideal") {
    size_t usable = 0;
    for (const eval::Node& n : task.nodes) {
      usable += !n.answer.is_null() && eval::ParseDatasetPath(n.source).ok();
    }
    if (usable == 0)
      why.push_back("compute=ideal needs nodes with a source and an answer, and the task has none");
  }
  if (why.empty()) return Status::Ok();
  return InvalidArgument(task.id + ": " + Joined(why, "; "));
}

llm::ToolSchema OracleFactSchema() {
  return {
      kOracleFactTool,
      "Oracle for the analysis step (compute=ideal ablation): given a file of the lake, returns the answers "
      "that the question's evidence takes from it, each with the subquestion it answers, instead of you "
      "computing them. Files that hold no evidence for the question return a not_found error.",
      {{"type", "object"},
       {"properties",
        {{"dataset_id", {{"type", "string"}, {"description", "Dataset identifier (from search results)"}}},
         {"file_path", {{"type", "string"}, {"description", "File path relative to the dataset root"}}}}},
       {"required", {"dataset_id", "file_path"}}}};
}

namespace {

// A search hit as GoldFirst reorders it: its "<namespace>/<id>" and the result entry it came from.
struct Hit {
  std::string id;
  Json entry;
};

// The hits of a search or search_keyword result, in rank order: tools::SearchHits reads one dataset per
// entry of "results", so the two lists line up.
std::vector<Hit> Hits(const Json& result) {
  std::vector<Hit> out;
  std::vector<tools::ResultDataset> datasets = tools::SearchHits(result);
  for (size_t i = 0; i < datasets.size(); ++i) out.push_back({datasets[i].Qualified(), result["results"][i]});
  return out;
}

}  // namespace

// The decorator the agent calls: search_keyword under search=ideal, oracle_fact under compute=ideal.
class AblatedEpisode::Env : public ToolEnv {
 public:
  Env(const Ablation& a, const eval::Task& task, ToolEnv& inner) : a_(a), task_(task), inner_(inner) {}

  std::vector<Json> Schemas() override {
    std::vector<Json> out = inner_.Schemas();
    if (a_.compute == "ideal") {
      llm::ToolSchema s = OracleFactSchema();
      out.push_back({{"name", s.name}, {"description", s.description}, {"parameters", s.parameters}});
    }
    return out;
  }

  Json Call(const std::string& tool, const Json& args) override {
    own_ = Json();
    if (tool == kOracleFactTool && a_.compute == "ideal") return OracleFact(args);
    Json r = inner_.Call(tool, args);
    if (tool == "search_keyword" && a_.search == "ideal" && !internal::IsError(r)) return GoldFirst(args, r);
    return r;
  }

  Json CallCompact(const std::string& tool, const Json& args) override {
    // GoldFirst reorders the full hits; oracle_fact has no compact view.
    if ((tool == kOracleFactTool && a_.compute == "ideal") ||
        (tool == "search_keyword" && a_.search == "ideal"))
      return tools::CompactView(tool, Call(tool, args));
    own_ = Json();
    return inner_.CallCompact(tool, args);
  }

  Json LastCallDatasets() override { return own_.is_null() ? inner_.LastCallDatasets() : own_; }

 private:
  // The gold datasets first, in D* order, then the other results; cut back to the call's limit.
  Json GoldFirst(const Json& args, Json r) {
    Json inner_sets = inner_.LastCallDatasets();
    // Each hit's entry (rewritten into the result) beside its "<namespace>/<id>" (read by tools/results.h).
    std::vector<Hit> hits = Hits(r);
    std::vector<Hit> gold_entries, rest;
    std::vector<std::string> gold = eval::GoldDatasets(task_);
    for (const std::string& g : gold) {
      auto it = std::find_if(hits.begin(), hits.end(), [&](const Hit& h) { return h.id == g; });
      if (it != hits.end()) {
        gold_entries.push_back(*it);
        continue;
      }
      // Not among the hits: the catalog's own entry for it, through the real prefix listing.
      Json listed = inner_.Call("search", {{"prefixes", {g}}, {"limit", 5}});
      Hit entry{g, nullptr};
      if (!internal::IsError(listed)) {
        for (Hit& h : Hits(listed))
          if (h.id == g) entry = std::move(h);
      }
      if (entry.entry.is_null()) {
        size_t slash = g.find('/');
        entry.entry = {{"id", g}, {"dataset_id", g.substr(slash + 1)}, {"namespace", g.substr(0, slash)}};
      }
      gold_entries.push_back(std::move(entry));
    }
    for (const Hit& h : hits) {
      if (std::find(gold.begin(), gold.end(), h.id) == gold.end()) rest.push_back(h);
    }
    size_t limit = args.is_object() && args.contains("limit") && args["limit"].is_number_integer()
                       ? std::max<int64_t>(1, args["limit"].get<int64_t>())
                       : 20;
    std::vector<Hit> merged = gold_entries;
    for (const Hit& h : rest)
      if (merged.size() < std::max(limit, gold_entries.size())) merged.push_back(h);
    Json entries = Json::array(), returned = Json::array();
    for (const Hit& h : merged) {
      entries.push_back(h.entry);
      returned.push_back(h.id);
    }
    r["results"] = entries;
    if (r.contains("count")) r["count"] = merged.size();
    own_ = {{"returned", returned},
            {"accessed", inner_sets.is_object() && inner_sets.contains("accessed") ? inner_sets["accessed"]
                                                                                   : Json::array()}};
    return r;
  }

  Json OracleFact(const Json& args) {
    if (!args.is_object() || !args.contains("dataset_id") || !args["dataset_id"].is_string() ||
        !args.contains("file_path") || !args["file_path"].is_string()) {
      return ErrorJson(InvalidArgument(
          "oracle_fact: dataset_id and file_path (strings) are required, e.g. {\"dataset_id\": "
          "\"datagov/abc\", \"file_path\": \"files/rows.txt\"}"));
    }
    std::string asked = args["dataset_id"].get<std::string>();
    std::string file = StripSlashes(args["file_path"].get<std::string>());
    Json facts = Json::array();
    std::string matched;
    for (const eval::Node& n : task_.nodes) {
      auto ref = eval::ParseDatasetPath(n.source);
      if (!ref.ok() || n.answer.is_null() || !SameDataset(asked, ref->ns, ref->id)) continue;
      std::string rest = StripSlashes(n.source).substr(ref->Key().size());
      if (StripSlashes(rest) != file) continue;
      matched = ref->Key();
      facts.push_back({{"node", n.id}, {"subquestion", n.subquestion}, {"answer", n.answer}});
    }
    if (facts.empty()) {
      own_ = {{"returned", Json::array()}, {"accessed", Json::array()}};
      return ErrorJson(
          NotFound("oracle_fact: no evidence of this question is computed from " + asked + "/" + file));
    }
    own_ = {{"returned", Json::array()}, {"accessed", Json::array({matched})}};
    return {{"dataset_id", matched}, {"file_path", file}, {"facts", facts}};
  }

  const Ablation& a_;
  const eval::Task& task_;
  ToolEnv& inner_;
  Json own_;  // the datasets of the last call this decorator answered or rewrote itself
};

AblatedEpisode::AblatedEpisode(const Ablation& ablation, const eval::Task& task, ToolEnv& inner)
    : ablation_(ablation), task_(task), env_(std::make_unique<Env>(ablation_, task, inner)) {}
AblatedEpisode::~AblatedEpisode() = default;

ToolEnv& AblatedEpisode::env() { return *env_; }

Result<std::vector<Json>> AblatedEpisode::Setup() {
  std::vector<Json> events;
  if (ablation_.search != "preloaded") return events;
  std::vector<std::string> files = GoldFiles(task_);
  // The download tool takes at most 5 files per call.
  for (size_t start = 0; start < files.size(); start += 5) {
    Json list = Json::array();
    for (size_t i = start; i < std::min(files.size(), start + 5); ++i) {
      auto ref = eval::ParseDatasetPath(files[i]);
      list.push_back({{"dataset_id", ref->Key()}, {"file_path", files[i].substr(ref->Key().size() + 1)}});
    }
    Json args = {{"files", list}};
    auto t0 = std::chrono::steady_clock::now();
    Json r = internal::SafeCall(*env_, "download", args);
    Json event = internal::ToolEvent(0, "download", args, r, internal::MsSince(t0));
    // The agent did not choose these files: they count for neither D_ret nor D_acc.
    event["returned"] = Json::array();
    event["accessed"] = Json::array();
    event["by"] = "ablation";
    events.push_back(std::move(event));
    if (internal::IsError(r)) {
      return NotFound("search=preloaded: the gold files could not be put into the sandbox: " +
                      r["error"].value("message", ""));
    }
    if (r.contains("errors") && r["errors"].is_array() && !r["errors"].empty()) {
      return NotFound("search=preloaded: a gold file could not be put into the sandbox: " +
                      DumpJson(r["errors"][0]));
    }
    for (const tools::DownloadedFile& d :
         tools::DownloadedFiles(r).value_or(std::vector<tools::DownloadedFile>{})) {
      preloaded_.push_back(
          fmt::format("{} ({}/{}/{})", d.local_path, d.dataset.ns, d.dataset.id, d.file_path));
    }
  }
  return events;
}

std::vector<llm::ToolSchema> AblatedEpisode::Tools(std::vector<llm::ToolSchema> tools) const {
  if (ablation_.search == "naive") {
    tools.erase(std::remove_if(tools.begin(), tools.end(),
                               [](const llm::ToolSchema& t) { return t.name == "search_keyword"; }),
                tools.end());
  }
  if (ablation_.compute == "ideal") tools.push_back(OracleFactSchema());
  return tools;
}

std::string AblatedEpisode::UserMessageAddendum() const {
  std::string s;
  if (ablation_.search == "naive") {
    s += "\n\nABLATION search=naive: search_keyword is not available in this run; find datasets by name "
         "prefix with search.";
  } else if (ablation_.search == "ideal") {
    s += "\n\nABLATION search=ideal: the datasets that hold the evidence for this question are:";
    for (const std::string& g : eval::GoldDatasets(task_)) s += "\n- " + g;
  } else if (ablation_.search == "preloaded") {
    s += "\n\nABLATION search=preloaded: the files that hold the evidence for this question are already in "
         "your sandbox (FILES in execute_code lists them):";
    for (const std::string& p : preloaded_) s += "\n- " + p;
  }
  if (ablation_.decompose == "ideal") {
    s += "\n\nABLATION decompose=ideal: the question breaks down into these subquestions (their answers are "
         "withheld; \"<node_N answer>\" stands for the answer of node N):";
    for (const eval::Node& n : task_.nodes) s += "\n- " + NodeLabel(n) + ": " + n.subquestion;
    if (!task_.hops.empty()) {
      s += "\nCombine them in these hops:";
      for (const eval::Hop& h : task_.hops) {
        std::vector<std::string> ids;
        for (const std::string& id : h.node_ids) ids.push_back("node " + id);
        s += fmt::format("\n- hop {}: {}", h.number, Joined(ids, ", "));
      }
    }
  }
  if (ablation_.compute == "ideal") {
    s += "\n\nABLATION compute=ideal: once you have found a file that holds evidence, call oracle_fact with "
         "its "
         "dataset_id and file_path to get the answers computed from it instead of analysing it yourself.";
  }
  return s;
}

}  // namespace lakeqa::agent
