// `lakeqa run --provide-provenance`: CMDBench's oracle setting (its Figure 8) against normal discovery. Each
// CMDBench question's text gets the CONTENTS of its gold element appended, read through the components the
// agent's tools use, so the agent skips discovery:
//   table   the gold table's rows as CSV (header + rows, bounded), its dataset id and provenance columns,
//           streamed from the lake (lake::Store)
//   graph   the sub-graph the provenance Cypher matches, run through the index's graph (graph::Graph): node
//           identities with their properties, edges with start, type, end and properties (bounded)
//   doc     each gold paragraph: line paragraph_id of the page's content.txt in the lake, with title and id;
//           the question file's text when the lake lacks the page or the line (said so in the text)
//   source  the gold source(s) by name; for the graph its node labels and relationship types (the routing
//           oracle: where to look, nothing more)
// The wording and the bounds live in src/cmdbench/provenance.cc. Scoring is unchanged (`lakeqa eval`
// reads the question files again).
#pragma once

#include <string>
#include <vector>

#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/status.h"
#include "lakeqa/eval/task.h"
#include "lakeqa/lake/store.h"

namespace lakeqa::cmdbench {

struct ProvenanceSources {
  lake::Store* lake = nullptr;  // the gold tables and pages
  std::string index_dir;  // its graph (<index>/graph) for graph and source questions; opened on first use
};

// Appends each task's gold contents to its question. Refused, naming the task: a task that is not a CMDBench
// question, a graph question whose Cypher fails (or an index without a graph), a doc paragraph neither the
// lake nor the question file holds. Returns what was given, for run.json's config: per kind present
// {"tasks", "given" (the mode, with its bounds), "cut" (tasks whose contents hit a bound)}, and for doc
// "paragraphs_from_question_file".
Result<Json> ProvideCmdbenchProvenance(std::vector<eval::Task>& tasks, const ProvenanceSources& sources);

}  // namespace lakeqa::cmdbench
