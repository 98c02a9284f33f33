// A scripted, model-free baseline for demos and harness benchmarks: it exercises every tool the way a
// weak agent would and submits a guess, so a run with it has the same shape as an LLM run at no cost.
#include <algorithm>
#include <cctype>
#include <map>
#include <regex>
#include <set>

#include "agent/internal.h"
#include "lakeqa/tools/results.h"

namespace lakeqa::agent {
namespace {

const std::set<std::string>& StopWords() {
  static const std::set<std::string> kWords = {
      "what",   "which",  "when",  "where",  "many",     "much",   "with",   "that",   "this",
      "from",   "have",   "were",  "your",   "response", "should", "format", "answer", "there",
      "their",  "than",   "into",  "among",  "across",   "tell",   "does",   "about",  "highest",
      "lowest", "number", "total", "report", "greatest", "least",  "most",   "year"};
  return kWords;
}

std::vector<std::string> Keywords(const std::string& question, size_t n) {
  std::vector<std::string> out;
  std::string word;
  auto flush = [&] {
    if (word.size() >= 4 && !StopWords().count(word) &&
        std::find(out.begin(), out.end(), word) == out.end() && out.size() < n) {
      out.push_back(word);
    }
    word.clear();
  };
  for (unsigned char c : question) {
    if (std::isalnum(c)) word += static_cast<char>(std::tolower(c));
    else flush();
  }
  flush();
  return out;
}

class BaselineAgent : public Agent {
 public:
  std::string Name() const override { return "baseline"; }

  AgentResult Run(const eval::Task& task, ToolEnv& env, const std::atomic<bool>& cancel) override {
    internal::ScriptedRun run(task, env);
    std::string evidence;
    std::vector<tools::ResultDataset> hits = tools::SearchHits(
        run.Call("search_keyword", {{"keywords", Keywords(task.question, 5)}, {"limit", 5}}));
    if (!cancel.load() && !hits.empty()) {
      std::string id = hits[0].Qualified();
      std::string path;
      // Prefer the data file (rows.txt / *.csv) over metadata.
      for (const std::string& p : tools::ListedFiles(run.Call("list_files", {{"dataset_ids", {id}}}))) {
        if (path.empty()) path = p;
        if (p.find("rows") != std::string::npos || p.ends_with(".csv")) {
          path = p;
          break;
        }
      }
      if (!path.empty() && !cancel.load()) {
        run.Call("download", {{"files", Json::array({{{"dataset_id", id}, {"file_path", path}}})}});
        evidence = DumpJson(run.Call("inspect_file", {{"dataset_id", id}, {"file_path", path}}));
      }
    }
    // The guess: the most frequent number in what it saw, else its first search hit's id.
    std::map<std::string, int> counts;
    static const std::regex kNumber(R"(\b\d+(\.\d+)?\b)");
    for (auto it = std::sregex_iterator(evidence.begin(), evidence.end(), kNumber);
         it != std::sregex_iterator(); ++it) {
      ++counts[it->str()];
    }
    std::string guess = "unknown";
    int best = 0;
    for (const auto& [num, c] : counts) {
      if (c > best) best = c, guess = num;
    }
    if (cancel.load()) {
      run.out.outcome = Outcome::kCancelled;
      return std::move(run.out);
    }
    run.SubmitAnswer({{"answer", "[" + guess + "]"},
                      {"reasoning", "baseline: most frequent value in the top hit's preview"}});
    return run.Finish();
  }
};

}  // namespace

std::unique_ptr<Agent> MakeBaselineAgent() { return std::make_unique<BaselineAgent>(); }

}  // namespace lakeqa::agent
