// Drafting with a model (`lakeqa ui --model provider:model`): a subquestion for a node from its source and
// fact, or the rewritten question from the chain. A draft is only ever a proposal: the page shows it in an
// editable box and nothing is saved until the annotator takes it.
#include <fmt/format.h>

#include "lakeqa/agent/fact.h"
#include "lakeqa/eval/task.h"

#include "workbench/internal.h"

namespace lakeqa::workbench {
namespace {

constexpr const char* kSystem =
    "You help annotators write tasks for LakeQA, a benchmark of multi-hop questions over a data lake. Each "
    "task "
    "is a chain of evidence nodes: a source file, a fact derived from it (often Python code that computes "
    "the "
    "answer) and the subquestion that fact answers; a later subquestion uses an earlier answer through a "
    "placeholder such as <node_1 answer>. Reply with the requested text only, on one line, without quotes.";

std::string Text(const Json& j) {
  if (j.is_null()) return "(none yet)";
  return j.is_string() ? j.get<std::string>() : j.dump();
}

std::string NodeBlock(Workbench::Impl& w, const ProjectNode& n) {
  std::string title;
  if (auto ref = eval::ParseDatasetPath(n.source); ref.ok()) {
    if (auto d = w.Dataset(ref->Key()); d.ok()) title = d->metadata.title;
  }
  return fmt::format("Node {}\n  source: {}{}\n  fact:\n{}\n  subquestion: {}\n  answer: {}\n", n.key,
                     n.source, title.empty() ? "" : " (dataset title: " + title + ")", n.fact, n.subquestion,
                     Text(n.answer));
}

Result<ApiReply> Draft(Workbench::Impl& w, const ApiRequest& req) {
  if (!w.llm)
    return Status(
        ErrorCode::kUnavailable,
        "no model is configured: start `lakeqa ui` with --model provider:model (and --base-url for a local "
        "OpenAI-compatible server) to draft with one");
  LAKEQA_ASSIGN_OR_RETURN(std::string kind, RequireString(req.body, "kind"));
  if (!req.body.contains("task")) return InvalidArgument("\"task\" (the task as edited) is required");
  LAKEQA_ASSIGN_OR_RETURN(ProjectTask t, ProjectTask::FromJson(req.body["task"]));
  std::string prompt;
  std::string node_key;
  if (kind == "subquestion") {
    LAKEQA_ASSIGN_OR_RETURN(node_key, RequireString(req.body, "node"));
    const ProjectNode* target = nullptr;
    std::string earlier;
    for (const auto& n : t.nodes) {
      if (n.key == node_key) {
        target = &n;
        break;
      }
      earlier += NodeBlock(w, n);
    }
    if (!target) return NotFound("the task has no node \"" + node_key + "\"");
    prompt =
        "Earlier nodes of the chain:\n" + (earlier.empty() ? std::string("(none)\n") : earlier) +
        "\nWrite the subquestion for this node: a question whose answer is exactly the node's answer, that "
        "its fact answers from its source. Refer to an earlier node's answer only through its placeholder "
        "(<node_N answer>), never by value.\n\n" +
        NodeBlock(w, *target);
  } else if (kind == "question") {
    std::string chain;
    for (const auto& n : t.nodes) chain += NodeBlock(w, n);
    prompt =
        "The chain:\n" + chain + "\nFinal answer: " + Text(t.answer) +
        "\n\nRewrite the chain as one natural question a person would ask, which needs every node to answer. "
        "Do not name dataset ids, dataset titles or file names, and do not state any intermediate answer. "
        "End "
        "with: Your response should be in the format [Answer].";
  } else {
    return InvalidArgument("\"kind\" must be subquestion or question, got \"" + kind + "\"");
  }
  llm::ChatRequest cr;
  cr.model = w.model_id;
  cr.system = kSystem;
  cr.messages.push_back(llm::Message::User(prompt));
  cr.max_tokens = 400;
  LAKEQA_ASSIGN_OR_RETURN(llm::ChatResponse resp, w.llm->Complete(cr));
  std::string text = resp.content;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  Json out = {{"kind", kind},
              {"node", node_key},
              {"text", text},
              {"model", w.model_name},
              {"usage", resp.usage.ToJson()}};
  if (kind == "question") {
    ProjectTask probe = t;
    probe.question = text;
    Json leaks = Json::array();
    for (const auto& l : w.Leakage(probe)) leaks.push_back(l.ToJson());
    out["leakage"] = leaks;
  }
  (void)w.project->Log(t.id, req.who.empty() ? "unknown" : req.who, "drafted",
                       {{"kind", kind}, {"node", node_key}, {"model", w.model_name}});
  return ApiReply{200, out};
}

}  // namespace

void AddDraftRoutes(std::vector<Route>& routes) { routes.push_back({"POST", "/api/draft", Draft, true}); }

}  // namespace lakeqa::workbench
