// The sets a trace induces and the failure funnel built on them. Which tools count as what follows the
// paper's definitions: D_ret is what search tools returned; D_acc is every dataset a tool touched
// (listed, downloaded, inspected, queried, read in code); a dataset is "selected" once a file of it is
// fetched or opened (download, inspect_file, query, execute_code, graph_query, graph_neighbors — list_files
// only browses), and "analyzed" once it is inspected, queried (also through the graph tools) or used in code.
#include <algorithm>

#include "lakeqa/eval/score.h"

namespace lakeqa::eval {
namespace {

// graph_query runs SQL over the graph's node and edge tables and graph_neighbors reads a node's edges: both
// are queries of the datasets they name (graph_find_nodes only returns candidates, like a search).
bool IsAnalyzeTool(const std::string& tool) {
  return tool == "inspect_file" || tool == "query" || tool == "execute_code" || tool == "graph_query" ||
         tool == "graph_neighbors";
}
bool IsSelectTool(const std::string& tool) { return tool == "download" || IsAnalyzeTool(tool); }

bool Intersects(const std::set<std::string>& a, const std::set<std::string>& b) {
  for (const auto& x : a) {
    if (b.count(x)) return true;
  }
  return false;
}

}  // namespace

std::string_view FunnelStageName(FunnelStage s) {
  switch (s) {
    case FunnelStage::kCorrect: return "correct";
    case FunnelStage::kLenientCorrect: return "correct_lenient";
    case FunnelStage::kSearchMissing: return "search_dataset_missing";
    case FunnelStage::kRetrievedNotSelected: return "retrieved_not_selected";
    case FunnelStage::kRetrievedNotAnalyzed: return "retrieved_not_analyzed";
    case FunnelStage::kWrongAfterAnalysis: return "wrong_after_analysis";
  }
  return "unknown";
}

const std::vector<FunnelStage>& AllFunnelStages() {
  static const std::vector<FunnelStage> kAll = {FunnelStage::kCorrect,
                                                FunnelStage::kLenientCorrect,
                                                FunnelStage::kSearchMissing,
                                                FunnelStage::kRetrievedNotSelected,
                                                FunnelStage::kRetrievedNotAnalyzed,
                                                FunnelStage::kWrongAfterAnalysis};
  return kAll;
}

TraceSets CollectTraceSets(const std::vector<TraceEvent>& events) {
  TraceSets s;
  for (const TraceEvent& e : events) {
    if (!e.tool.empty() && e.tool != "submit_answer") {
      ++s.calls;
      ++s.tool_calls[e.tool];
      if (e.status != "ok") ++s.failed_calls;
    }
    s.retrieved.insert(e.returned.begin(), e.returned.end());
    s.accessed.insert(e.accessed.begin(), e.accessed.end());
    if (IsSelectTool(e.tool)) s.selected.insert(e.accessed.begin(), e.accessed.end());
    if (IsAnalyzeTool(e.tool)) s.analyzed.insert(e.accessed.begin(), e.accessed.end());
  }
  return s;
}

FunnelStage Classify(bool correct, const std::set<std::string>& gold, const TraceSets& sets,
                     bool lenient_correct) {
  if (correct) return FunnelStage::kCorrect;
  if (lenient_correct) return FunnelStage::kLenientCorrect;
  // The furthest stage reached wins, so a gold dataset analyzed without ever being retrieved (an id
  // guessed or remembered) still counts as "wrong after analysis".
  if (Intersects(gold, sets.analyzed)) return FunnelStage::kWrongAfterAnalysis;
  if (Intersects(gold, sets.selected)) return FunnelStage::kRetrievedNotAnalyzed;
  if (Intersects(gold, sets.retrieved) || Intersects(gold, sets.accessed)) {
    return FunnelStage::kRetrievedNotSelected;
  }
  return FunnelStage::kSearchMissing;
}

Prf SetPrf(const std::set<std::string>& found, const std::set<std::string>& gold) {
  Prf p;
  if (found.empty() || gold.empty()) return p;
  size_t hit = 0;
  for (const auto& x : found) hit += gold.count(x);
  p.precision = static_cast<double>(hit) / static_cast<double>(found.size());
  p.recall = static_cast<double>(hit) / static_cast<double>(gold.size());
  p.f1 = hit == 0 ? 0 : 2 * p.precision * p.recall / (p.precision + p.recall);
  return p;
}

}  // namespace lakeqa::eval
