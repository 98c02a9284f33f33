// `lakeqa run --provide-provenance` (cmdbench_eval.h): the gold element of each CMDBench question, handed to
// the agent in the question text.
#include <fmt/format.h>

#include "lakeqa/agent/cmdbench_eval.h"

namespace lakeqa::agent {

Status ProvideCmdbenchProvenance(std::vector<eval::Task>& tasks) {
  for (auto& t : tasks) {
    if (t.format != eval::TaskFormat::kCmdBench) {
      return InvalidArgument(fmt::format("--provide-provenance hands the agent a CMDBench question's provenance; "
                                         "task {} ({}) is not a CMDBench question",
                                         t.id, t.file));
    }
    std::string given;
    std::vector<std::string> datasets = eval::GoldDatasets(t);
    for (size_t i = 0; i < t.nodes.size(); ++i) {
      const eval::Node& n = t.nodes[i];
      std::string dataset = i < datasets.size() ? datasets[i] : n.source;
      given += fmt::format("\n- the table {} (lake file {}){}", dataset, n.source,
                           n.fact.empty() ? "" : "; " + n.fact);
    }
    t.question += "\n\nPROVENANCE (given for this run, no need to search for it): the answer is in" + given;
  }
  return Status::Ok();
}

}  // namespace lakeqa::agent
