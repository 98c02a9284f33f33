// The oracle: follows a task's gold nodes through the real tools. Its EM is a check of the lake, the
// index and the tools (a correct setup gives 100%); its search-recall diagnostic tells how often
// search_keyword with a node's own subquestion would have surfaced the gold dataset.
#include <map>

#include <fmt/format.h>

#include "agent/internal.h"
#include "lakeqa/agent/fact.h"
#include "lakeqa/eval/cmdbench.h"

namespace lakeqa::agent {
namespace {

constexpr int kRecallDepth = 20;

std::string JsonText(const Json& j) {
  return j.is_string() ? j.get<std::string>() : j.dump();
}

class OracleAgent : public Agent {
 public:
  std::string Name() const override { return "oracle"; }

  AgentResult Run(const eval::Task& task, ToolEnv& env, const std::atomic<bool>& cancel) override {
    AgentResult out;
    out.cost_usd = 0.0;  // no model call: nothing is spent (unknown is for unpriced models)
    out.task_id = task.id;
    auto start = std::chrono::steady_clock::now();
    int turn = 0;
    auto call = [&](const std::string& tool, const Json& args) {
      return internal::CallAndRecord(env, turn, tool, args, out);
    };
    Json nodes = Json::array();
    std::map<std::string, std::string> node_answers;
    int found = 0, grounded = 0;
    std::vector<std::string> failures;
    for (const eval::Node& node : task.nodes) {
      if (cancel.load()) {
        out.outcome = Outcome::kCancelled;
        out.error = "cancelled";
        return out;
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

      // Search recall: the subquestion with earlier node answers filled in, as a solver would have it.
      std::string subq = FillNodePlaceholders(node.subquestion, node_answers);
      Json rank = nullptr;
      if (!subq.empty()) {
        Json sr = call("search_keyword", {{"keywords", {subq}}, {"limit", kRecallDepth}});
        if (sr.contains("results") && sr["results"].is_array()) {
          for (size_t i = 0; i < sr["results"].size() && i < size_t(kRecallDepth); ++i) {
            const Json& h = sr["results"][i];
            std::string id = h.value("dataset_id", "");
            std::string ns = h.contains("namespace") && h["namespace"].is_string()
                                 ? h["namespace"].get<std::string>()
                                 : ref->ns;
            if (id == ref->Key() || (id == ref->id && ns == ref->ns)) {
              rank = i + 1;
              break;
            }
          }
        } else if (internal::IsError(sr)) {
          diag["search_error"] = sr["error"];
        }
      }
      diag["search_rank"] = rank;
      if (!rank.is_null()) ++found;

      std::string want = JsonText(node.answer);
      FactRun fact = RunFact(call, node.source, node.fact);
      bool ok = false;
      if (fact.local_path.empty()) {
        diag["error"] = fact.error;
      } else if (!fact.code) {
        ok = true;  // a sentence fact: the download grounds it, its answer is the annotated one
        diag["answer"] = want;
      } else {
        diag["answer"] = fact.answer;
        ok = FactAnswerMatches(fact.answer, want);
        if (!ok) {
          diag["error"] = !fact.error.empty() ? fact.error
                                              : "fact code printed \"" + fact.answer.substr(0, 200) +
                                                    "\", node answer is \"" + want + "\"";
        }
      }
      diag["grounded"] = ok;
      if (ok) {
        ++grounded;
        node_answers[node.id] = want;
      } else {
        failures.push_back("node " + node.id + ": " + diag.value("error", "not grounded"));
      }
      nodes.push_back(std::move(diag));
    }
    // A CMDBench graph question's provenance is a Cypher query: the oracle runs it through graph_query, so
    // its trace names the node and edge identities it matched, as an agent's would.
    Json graph = nullptr;
    if (task.cmdbench && task.cmdbench->kind == eval::CmdbenchKind::kGraph && !cancel.load()) {
      Json r = call("graph_query", {{"cypher", task.cmdbench->cypher}});
      if (internal::IsError(r)) {
        failures.push_back("provenance Cypher: " + r["error"].value("message", DumpJson(r["error"])));
        graph = {{"error", r["error"]}};
      } else {
        graph = {{"rows", r.contains("rows") && r["rows"].is_array() ? r["rows"].size() : 0},
                 {"nodes", r.value("nodes_total", 0)},
                 {"edges", r.value("edges_total", 0)}};
      }
    }
    out.turns = turn;
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
      for (const auto& node : task.nodes)
        args["sources"].push_back(node.source);
      Json r = internal::Submit(args, out);
      out.trace.push_back(internal::ToolEvent(++turn, "submit_answer", args, r, 0));
      out.turns = turn;
    } else if (n > 0) {
      // No answer: an ungrounded task scores zero, which is the signal.
      out.outcome = Outcome::kAnswered;
      std::string all;
      for (const auto& f : failures)
        all += (all.empty() ? "" : "; ") + f;
      out.error = all;
    } else {
      // Nothing to follow: the oracle did not attempt the task, which is not an answer (an empty answer
      // counted as "answered" made 104 KramaBench tasks look answered).
      out.outcome = Outcome::kNotApplicable;
      out.error = task.cmdbench && task.cmdbench->kind == eval::CmdbenchKind::kSource
                      ? "a CMDBench source question names a modality, not a lake file: the oracle has nothing to ground"
                      : task.kramabench
                          ? "a KramaBench task has no gold trail (nodes) to follow; its reference solution runs "
                            "with `lakeqa kramabench solutions` (docs/kramabench.md)"
                          : "the task has no gold nodes to follow";
    }
    out.elapsed_s = internal::MsSince(start) / 1000;
    return out;
  }
};

}  // namespace

std::unique_ptr<Agent> MakeOracleAgent() {
  return std::make_unique<OracleAgent>();
}

}  // namespace lakeqa::agent
