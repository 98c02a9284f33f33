// Stage ablations of the llm agent (SANA, arXiv 2606.13904): one stage of the agent — search, question
// decomposition, or computing a fact from a file — is replaced by an oracle built from the task's gold
// trail, and the accuracy gain over the standard run says which stage is the bottleneck. docs/ablations.md
// states what each level changes in what the model sees; nothing else changes.
//
//   search    naive     search_keyword is withdrawn: prefix search only (the reference harness's `search`)
//             standard  the paper's tools
//             preloaded the gold files are downloaded into the sandbox before the first turn and listed
//             ideal     the gold datasets are named at the start and search_keyword returns them first
//   decompose standard | ideal: the subquestion chain is given (node subquestions and hops, answers withheld)
//   compute   standard | ideal: the tool oracle_fact returns the gold answer of the nodes computed from a
//   file
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lakeqa/agent/tool_env.h"
#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/status.h"
#include "lakeqa/eval/task.h"
#include "lakeqa/llm/chat.h"

namespace lakeqa::agent {

struct Ablation {
  std::string search = "standard";
  std::string decompose = "standard";
  std::string compute = "standard";

  bool IsStandard() const;
  // "standard", or the non-standard stages joined: "search=ideal,decompose=ideal".
  std::string Label() const;
  // {"search": ..., "decompose": ..., "compute": ...}: run.json's "ablation".
  Json ToJson() const;
  bool operator==(const Ablation& o) const = default;
};

// The stages and their levels, in the order the docs and error messages give them.
const std::vector<std::pair<std::string, std::vector<std::string>>>& AblationStages();

// "<stage>=<level>" specs (repeatable; later ones override earlier ones for the same stage). An unknown
// stage or level is invalid_argument naming the spec and the valid set.
Result<Ablation> ParseAblations(const std::vector<std::string>& specs);
// run.json's "ablation" (absent or null: standard). Unknown stages or levels are an error.
Result<Ablation> AblationFromJson(const Json& j);

// Why `task` cannot run under `ablation` (the gold data the oracle needs is missing), or OK.
Status CheckAblation(const Ablation& ablation, const eval::Task& task);

// The gold files of a task, "<namespace>/<dataset id>/<path>", from node sources then datasets_used,
// without duplicates; entries naming a dataset but no file are left out.
std::vector<std::string> GoldFiles(const eval::Task& task);

// The name of the tool compute=ideal adds.
inline constexpr const char* kOracleFactTool = "oracle_fact";
llm::ToolSchema OracleFactSchema();

// One ablated episode: wraps the task's ToolEnv (search_keyword reordered under search=ideal, oracle_fact
// answered under compute=ideal) and knows what the model is told. Every other call goes to `inner`.
class AblatedEpisode {
 public:
  AblatedEpisode(const Ablation& ablation, const eval::Task& task, ToolEnv& inner);
  ~AblatedEpisode();
  // The environment the agent calls.
  ToolEnv& env();
  // Runs the setup the ablation needs before the first turn (search=preloaded: downloads of the gold
  // files through the real download tool). Returns the trace events of those calls (turn 0, "by":
  // "ablation"); fails when a gold file cannot be put into the sandbox.
  Result<std::vector<Json>> Setup();
  // The tool list the model gets, from the paper's (plus --tools extras).
  std::vector<llm::ToolSchema> Tools(std::vector<llm::ToolSchema> tools) const;
  // The text appended to the first user message (empty under the standard setting).
  std::string UserMessageAddendum() const;

 private:
  class Env;
  Ablation ablation_;
  const eval::Task& task_;
  std::unique_ptr<Env> env_;
  std::vector<std::string> preloaded_;  // "<local path> (<namespace>/<dataset>/<file>)"
};

}  // namespace lakeqa::agent
