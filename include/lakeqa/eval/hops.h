// The reasoning structure of a LakeQA task, as the annotation guideline defines it: a DAG from the
// question through the subquestions to the answer, with k = the longest path (in hops) and d = the
// largest number of vertices one vertex depends on. Both are derived from the task file:
//  - hops are ordered by number and each hop depends on the one before it (each subquestion chain step
//    "is instantiated by the preceding answers"), plus the explicit references in subquestions
//    ("<hop 2 answer>", "<node_3 answer>", "<intersection of node_1, node_2>", "nodes 1-4") and in
//    "depends_on";
//  - a hop's answer depends on each of its nodes, so d is the largest hop.
// On the released data this reproduces the k-<k>-d-<d> folder labels for 97% of LakeQA-full.
#pragma once

#include <string>
#include <vector>

#include "lakeqa/eval/task.h"

namespace lakeqa::eval {

struct HopStructure {
  int k = 0;                                 // longest path through the hop DAG, counted in hops
  int d = 0;                                 // largest number of nodes a hop depends on
  size_t nodes = 0;                          // number of evidence nodes
  std::vector<std::vector<int>> depends_on;  // per hop (in hop-number order): hop numbers it depends on
  std::vector<std::string> errors;           // unknown node ids, dependency cycles, duplicate hop numbers
  std::vector<std::string> warnings;         // nodes in no hop or in several, empty hops, self references
};

HopStructure AnalyzeHops(const Task& task);

// The explicit references of one subquestion: hop numbers and node ids it names inside <...>.
struct References {
  std::vector<int> hops;
  std::vector<std::string> nodes;
};
References FindReferences(std::string_view subquestion);

}  // namespace lakeqa::eval
