// `lakeqa tasks stats`: the LakeQA paper's Table 2 (tasks, Wikipedia and Data.gov documents per task,
// question length in cl100k_base tokens) and the distributions behind it (hops k, nodes, in-degree d,
// answer types, namespaces). A "document" is one datasets_used entry (a file), as in the paper.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "lakeqa/common/json_fwd.h"
#include "lakeqa/eval/task.h"
#include "lakeqa/text/tokenizer_cl100k.h"

namespace lakeqa::eval {

struct NamespaceStats {
  size_t documents = 0;  // datasets_used entries in the namespace, over all tasks
  size_t datasets = 0;   // distinct gold dataset ids per task, summed over tasks
  size_t tasks = 0;      // tasks with at least one document in the namespace
};

struct TaskSetStats {
  std::string label;
  size_t tasks = 0;
  size_t question_tokens_max = 0;
  double question_tokens_avg = 0;
  std::map<std::string, NamespaceStats> namespaces;
  std::map<int, size_t> hops;       // k → tasks
  std::map<int, size_t> nodes;      // number of nodes → tasks
  std::map<int, size_t> in_degree;  // d → tasks
  std::map<std::string, size_t> answer_types;

  double AvgDocuments(const std::string& ns) const;
  Json ToJson() const;
};

TaskSetStats ComputeStats(const std::vector<Task>& tasks, const text::Cl100kTokenizer& tokenizer,
                          std::string label);

// A Table-2-style text table with one column per set, then the distributions.
std::string FormatStatsTable(const std::vector<TaskSetStats>& sets);

}  // namespace lakeqa::eval
