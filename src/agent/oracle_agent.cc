// The oracle: follows a task's gold nodes through the real tools. Its EM is a check of the lake, the
// index and the tools (a correct setup gives 100%); its search-recall diagnostic tells how often
// search_keyword with a node's own subquestion would have surfaced the gold dataset.
#include <map>

#include <fmt/format.h>

#include "agent/internal.h"
#include "lakeqa/agent/fact.h"

namespace lakeqa::agent {
namespace {

constexpr int kRecallDepth = 20;

std::string JsonText(const Json& j) { return j.is_string() ? j.get<std::string>() : j.dump(); }

// Search recall: the rank (from 1) of the node's gold dataset among search_keyword's first kRecallDepth
// hits for subq, null when it is not there; a failed search is noted in diag.
Json SearchRank(internal::ScriptedRun& run, const std::string& subq, const eval::DatasetRef& ref,
                Json& diag) {
  Json rank = nullptr;
  if (subq.empty()) return rank;
  Json sr = run.Call("search_keyword", {{"keywords", {subq}}, {"limit", kRecallDepth}});
  if (sr.contains("results") && sr["results"].is_array()) {
    for (size_t i = 0; i < sr["results"].size() && i < size_t(kRecallDepth); ++i) {
      const Json& h = sr["results"][i];
      std::string id = h.value("dataset_id", "");
      std::string ns =
          h.contains("namespace") && h["namespace"].is_string() ? h["namespace"].get<std::string>() : ref.ns;
      if (id == ref.Key() || (id == ref.id && ns == ref.ns)) {
        rank = i + 1;
        break;
      }
    }
  } else if (internal::IsError(sr)) {
    diag["search_error"] = sr["error"];
  }
  return rank;
}

// Grounds a node: downloads its source and runs its fact code, whose printed answer must match the node's
// (a sentence fact is grounded by the download alone). The answer or the error goes into diag.
bool GroundNode(internal::ScriptedRun& run, const eval::Node& node, const std::string& want, Json& diag) {
  auto call = [&](const std::string& tool, const Json& args) { return run.Call(tool, args); };
  FactRun fact = RunFact(call, node.source, node.fact);
  if (fact.local_path.empty()) {
    diag["error"] = fact.error;
    return false;
  }
  if (!fact.code) {
    diag["answer"] = want;  // a sentence fact: the download grounds it, its answer is the annotated one
    return true;
  }
  diag["answer"] = fact.answer;
  bool ok = FactAnswerMatches(fact.answer, want);
  if (!ok) {
    diag["error"] = !fact.error.empty() ? fact.error
                                        : "fact code printed \"" + fact.answer.substr(0, 200) +
                                              "\", node answer is \"" + want + "\"";
  }
  return ok;
}

// A task whose gold is matched by a Cypher query (TaskExtension::GroundingCypher: a graph question's
// provenance): the oracle runs it through graph_query, so its trace names the node and edge identities it
// matched, as an agent's would.
Json GraphProvenance(internal::ScriptedRun& run, const std::string& cypher,
                     std::vector<std::string>& failures) {
  Json r = run.Call("graph_query", {{"cypher", cypher}});
  if (internal::IsError(r)) {
    failures.push_back("provenance Cypher: " + r["error"].value("message", DumpJson(r["error"])));
    return {{"error", r["error"]}};
  }
  return {{"rows", r.contains("rows") && r["rows"].is_array() ? r["rows"].size() : 0},
          {"nodes", r.value("nodes_total", 0)},
          {"edges", r.value("edges_total", 0)}};
}

// Why the oracle gives no answer: no gold trail to follow is not an answer (an empty answer counted as
// "answered" made 104 KramaBench tasks look answered).
std::string NotApplicableReason(const eval::Task& task) {
  if (task.extension) {
    if (std::string why = task.extension->OracleNotApplicable(); !why.empty()) return why;
  }
  return "the task has no gold nodes to follow";
}

class OracleAgent : public Agent {
 public:
  std::string Name() const override { return "oracle"; }

  AgentResult Run(const eval::Task& task, ToolEnv& env, const std::atomic<bool>& cancel) override {
    internal::ScriptedRun run(task, env);
    AgentResult& out = run.out;
    Json nodes = Json::array();
    std::map<std::string, std::string> node_answers;
    int found = 0, grounded = 0;
    std::vector<std::string> failures;
    for (const eval::Node& node : task.nodes) {
      if (cancel.load()) {
        out.outcome = Outcome::kCancelled;
        out.error = "cancelled";
        return std::move(out);
      }
      Json diag = {{"node", node.id}, {"source", node.source}};
      auto ref = eval::ParseDatasetPath(node.source);
      if (!ref.ok()) {
        failures.push_back("node " + node.id + ": " + ref.status().message());
        diag["error"] = ref.status().message();
        nodes.push_back(diag);
        continue;
      }
      diag["dataset"] = ref->Key();
      // The subquestion with earlier node answers filled in, as a solver would have it.
      diag["search_rank"] = SearchRank(run, FillNodePlaceholders(node.subquestion, node_answers), *ref, diag);
      if (!diag["search_rank"].is_null()) ++found;
      std::string want = JsonText(node.answer);
      bool ok = GroundNode(run, node, want, diag);
      diag["grounded"] = ok;
      if (ok) {
        ++grounded;
        node_answers[node.id] = want;
      } else {
        failures.push_back("node " + node.id + ": " + diag.value("error", "not grounded"));
      }
      nodes.push_back(std::move(diag));
    }
    Json graph = nullptr;
    std::string cypher = task.extension ? task.extension->GroundingCypher() : "";
    if (!cypher.empty() && !cancel.load()) graph = GraphProvenance(run, cypher, failures);
    out.turns = run.turns();
    size_t n = task.nodes.size();
    out.extra = {{"nodes", nodes},
                 {"graph_query", graph},
                 {"grounded", grounded},
                 {"search_hits_at_20", found},
                 {"search_recall_at_20", n ? double(found) / double(n) : 0.0}};
    if (failures.empty() && n > 0) {
      Json args = {{"answer", "[" + task.AnswerText() + "]"},
                   {"reasoning", fmt::format("oracle: {} gold nodes grounded through the tools", n)},
                   {"sources", Json::array()}};
      for (const auto& node : task.nodes) args["sources"].push_back(node.source);
      run.SubmitAnswer(args);
    } else if (n > 0) {
      // No answer: an ungrounded task scores zero, which is the signal.
      out.outcome = Outcome::kAnswered;
      std::string all;
      for (const auto& f : failures) all += (all.empty() ? "" : "; ") + f;
      out.error = all;
    } else {
      out.outcome = Outcome::kNotApplicable;
      out.error = NotApplicableReason(task);
    }
    return run.Finish();
  }
};

}  // namespace

std::unique_ptr<Agent> MakeOracleAgent() { return std::make_unique<OracleAgent>(); }

}  // namespace lakeqa::agent
