// The oracle: follows a task's gold nodes through the real tools. Its EM is a check of the lake, the
// index and the tools (a correct setup gives 100%); its search-recall diagnostic tells how often
// search_keyword with a node's own subquestion would have surfaced the gold dataset.
#include <cmath>
#include <cstdlib>
#include <map>

#include <fmt/format.h>

#include "agent/internal.h"

namespace lakeqa::agent {
namespace {

constexpr const char* kMarker = "<<LAKEQA_ORACLE_ANSWER>>";
constexpr int kRecallDepth = 20;

std::string PyQuote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

// Fact code is Python that derives the answer (it assigns `answer`); other facts are sentences.
bool IsCode(const std::string& fact) {
  return fact.find("answer =") != std::string::npos || fact.find("import ") != std::string::npos ||
         fact.find("print(") != std::string::npos;
}

std::string JsonText(const Json& j) {
  return j.is_string() ? j.get<std::string>() : j.dump();
}

std::string Norm(std::string s) {
  std::string out;
  for (unsigned char c : s) {
    if (c == ',' || c == '"' || c == '\'') continue;
    out += static_cast<char>(std::tolower(c));
  }
  size_t a = out.find_first_not_of(" \t\r\n"), b = out.find_last_not_of(" \t\r\n");
  return a == std::string::npos ? "" : out.substr(a, b - a + 1);
}

bool Matches(const std::string& got, const std::string& want) {
  std::string g = Norm(got), w = Norm(want);
  if (g == w) return true;
  char* eg = nullptr;
  char* ew = nullptr;
  double dg = std::strtod(g.c_str(), &eg), dw = std::strtod(w.c_str(), &ew);
  if (!g.empty() && !w.empty() && *eg == '\0' && *ew == '\0') {
    return std::fabs(dg - dw) <= 1e-6 * std::max(1.0, std::fabs(dw));
  }
  return false;
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
      std::string prefix = ref->ns + "/" + ref->id + "/";
      std::string file_path = node.source.size() > prefix.size() ? node.source.substr(prefix.size()) : "";
      diag["dataset"] = ref->Key();

      // Search recall: the subquestion with earlier node answers filled in, as a solver would have it.
      std::string subq = node.subquestion;
      for (const auto& [id, ans] : node_answers) {
        for (const std::string& ph : {"<node_" + id + " answer>", "<node " + id + " answer>"}) {
          for (size_t p; (p = subq.find(ph)) != std::string::npos;)
            subq.replace(p, ph.size(), ans);
        }
      }
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
      bool ok = false;
      if (file_path.empty()) {
        diag["error"] = "the source names a dataset, not a file";
      } else {
        Json dl = call("download",
                       {{"files", Json::array({{{"dataset_id", ref->Key()}, {"file_path", file_path}}})}});
        std::string local;
        if (dl.contains("downloaded") && dl["downloaded"].is_array() && !dl["downloaded"].empty()) {
          local = dl["downloaded"][0].value("local_path", "");
        }
        if (local.empty()) {
          diag["error"] = "download failed: " + DumpJson(dl).substr(0, 300);
        } else if (!IsCode(node.fact)) {
          ok = true;  // a sentence fact: the download grounds it, its answer is the annotated one
          diag["answer"] = want;
        } else {
          std::string code = "local_path = " + PyQuote(local) + "\n" + node.fact + "\ntry:\n    print(" +
                             PyQuote(kMarker) + " + str(answer))\nexcept NameError:\n    pass\n";
          Json ex = call("execute_code", {{"code", code}});
          std::string output =
              ex.contains("output") && ex["output"].is_string() ? ex["output"].get<std::string>() : "";
          std::string got;
          size_t m = output.rfind(kMarker);
          if (m != std::string::npos) {
            got = output.substr(m + std::string(kMarker).size());
            got = got.substr(0, got.find('\n'));
          } else {
            // Code that prints its answer instead of assigning it: the last line printed.
            size_t end = output.find_last_not_of("\n");
            if (end != std::string::npos) {
              size_t nl = output.rfind('\n', end);
              size_t b = nl == std::string::npos ? 0 : nl + 1;
              got = output.substr(b, end + 1 - b);
            }
          }
          diag["answer"] = got;
          ok = Matches(got, want);
          if (!ok) {
            if (internal::IsError(ex)) {
              diag["error"] = DumpJson(ex["error"]).substr(0, 500);
            } else if (ex.value("success", true) == false) {
              std::string why = ex.contains("error") && ex["error"].is_string()
                                    ? ex["error"].get<std::string>()
                                    : DumpJson(ex);
              diag["error"] = "fact code failed: " + why.substr(0, 500);
            } else {
              diag["error"] =
                  "fact code printed \"" + got.substr(0, 200) + "\", node answer is \"" + want + "\"";
            }
          }
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
    out.turns = turn;
    size_t n = task.nodes.size();
    out.extra = {{"nodes", nodes},
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
    } else {
      // No answer: an ungrounded task scores zero, which is the signal.
      out.outcome = Outcome::kAnswered;
      std::string all;
      for (const auto& f : failures)
        all += (all.empty() ? "" : "; ") + f;
      out.error = n == 0 ? "the task has no nodes" : all;
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
