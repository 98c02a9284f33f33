#include "cli/discovery_flags.h"

#include "lakeqa/eval/task_format.h"

namespace lakeqa::cli {

void AddCollectionFlags(CLI::App* cmd, CollectionFlags& f) {
  // A benchmark's own questions, when a registered task format reads them (task_format.h).
  if (const eval::TaskFormatSpec* q = eval::DiscoveryQuestionFormat()) {
    f.ns = q->discovery_namespace;
    cmd->add_option("--questions", f.questions, q->discovery_questions_help);
    cmd->add_option("--namespace", f.ns, q->discovery_namespace_help)->capture_default_str();
  }
  std::string tasks_help = "LakeQA task files or folders";
  for (const eval::TaskFormatSpec& format : eval::TaskFormats())
    if (!format.files_help.empty()) tasks_help += ", or " + format.files_help;
  cmd->add_option("--tasks", f.tasks, tasks_help + " (gold: the datasets of datasets_used)");
  cmd->add_flag("--skip-bad-tasks", f.skip_bad, "With --tasks: leave out (and list) tasks that do not load");
  cmd->add_option("--topics", f.topics,
                  "TREC topics (<qid><TAB><text> lines, or <top> blocks); needs --qrels");
  cmd->add_option("--qrels", f.qrels, "TREC qrels (<qid> 0 <docid> <relevance>)");
}

std::string CollectionFlags::Describe() const {
  if (!questions.empty()) {
    const eval::TaskFormatSpec* q = eval::DiscoveryQuestionFormat();
    return (q != nullptr ? q->name : std::string("questions")) + ":" + questions;
  }
  if (!topics.empty()) return "trec:" + topics + "+" + qrels;
  std::string t;
  for (const auto& p : tasks) t += (t.empty() ? "" : ",") + p;
  return "lakeqa:" + t;
}

Result<std::vector<eval::DiscoveryQuestion>> LoadCollection(const CollectionFlags& f,
                                                            std::vector<std::string>* skipped) {
  int kinds = !f.questions.empty() + !f.tasks.empty() + (!f.topics.empty() || !f.qrels.empty());
  if (kinds != 1)
    return InvalidArgument("give one collection: --questions, --tasks, or --topics with --qrels");
  if (!f.questions.empty()) {
    const eval::TaskFormatSpec* q = eval::DiscoveryQuestionFormat();
    if (q == nullptr) return InvalidArgument("--questions: no registered task format reads questions");
    return q->discovery_questions(f.questions, f.ns);
  }
  if (!f.tasks.empty()) return eval::LoadLakeQaQuestions(f.tasks, f.skip_bad, skipped);
  if (f.topics.empty() || f.qrels.empty()) return InvalidArgument("--topics and --qrels go together");
  return eval::LoadTrecQuestions(f.topics, f.qrels);
}

void AddDiscoveryFlags(CLI::App* cmd, DiscoveryFlags& f) {
  cmd->add_option("--index", f.index, "Index directory (from `lakeqa index build`)")->required();
  AddCollectionFlags(cmd, f.collection);
  AddRetrievalFlags(cmd, f.retrieval);
  AddRankingFlags(cmd, f.ranking);
  cmd->add_option("--k", f.k, "Evaluation depth")->capture_default_str();
}

Result<DiscoverySetup> OpenDiscovery(const DiscoveryFlags& f) {
  DiscoverySetup s;
  LAKEQA_ASSIGN_OR_RETURN(s.questions, LoadCollection(f.collection, &s.skipped));
  LAKEQA_ASSIGN_OR_RETURN(s.retriever, ToRetrieverOptions(f.retrieval));
  LAKEQA_ASSIGN_OR_RETURN(s.runner, eval::DiscoveryRunner::Open(f.index, s.retriever));
  LAKEQA_ASSIGN_OR_RETURN(s.ranking,
                          ApplyRankingFlags(f.ranking, s.runner->schema(), s.runner->index_ranking()));
  return s;
}

}  // namespace lakeqa::cli
