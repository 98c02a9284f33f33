// Review: verdicts per node (sound, complete), on the chain and on the rewrite, from named reviewers; the
// policy "at least N reviews of the current version, one by an adjudicator" moves a task in review to
// accepted, revised or rejected; reviewer counts, the policy itself and the audit log.
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "workbench/internal.h"

namespace lakeqa::workbench {
namespace {

Result<ApiReply> AddReview(Workbench::Impl& w, const ApiRequest& req) {
  LAKEQA_ASSIGN_OR_RETURN(ProjectTask t, w.LoadTask(req.args[0]));
  LAKEQA_ASSIGN_OR_RETURN(Review r, Review::FromJson(req.body));
  r.task_id = t.id;
  r.reviewer = req.who;
  if (t.status != "in_review")
    return InvalidArgument("task " + t.question_id + " is " + t.status +
                           ": only a task in review takes reviews");
  // The version a review names is the content version the reviewer read (the page shows no other); the
  // lock version a status change moves is accepted too, as it names the same content. Older content is a
  // conflict.
  if (r.task_version < t.content_version || r.task_version > t.version) {
    ApiReply reply = ErrorReply(Status(
        ErrorCode::kAlreadyExists,
        fmt::format(
            "conflict: task {} changed since you opened it (you reviewed version {}, it is now version {}, "
            "saved by {} at {}): reload it and review the current version",
            t.question_id, r.task_version, t.content_version, t.updated_by, t.updated_at)));
    reply.body["error"]["code"] = "conflict";
    if (auto view = w.TaskView(t); view.ok()) reply.body["current"] = *view;
    return reply;
  }
  if (r.verdict != "accept" && r.verdict != "revise" && r.verdict != "reject")
    return InvalidArgument("\"verdict\" must be accept, revise or reject, got \"" + r.verdict + "\"");
  std::set<std::string> keys;
  for (const auto& n : t.nodes) keys.insert(n.key);
  for (const auto& v : r.nodes) {
    if (!keys.count(v.node))
      return InvalidArgument("the review judges node \"" + v.node + "\", which the task does not have");
  }
  std::vector<std::string> problems;
  for (const auto& n : t.nodes) {
    auto it =
        std::find_if(r.nodes.begin(), r.nodes.end(), [&](const NodeVerdict& v) { return v.node == n.key; });
    if (it == r.nodes.end() || !it->sound || !it->complete) {
      problems.push_back("node " + n.key + ": say whether its fact is sound and complete");
    } else if (r.verdict == "accept" && (!*it->sound || !*it->complete)) {
      problems.push_back("node " + n.key + " is marked " + (!*it->sound ? "unsound" : "incomplete") +
                         ": an accepting review cannot say so (choose revise or reject)");
    }
  }
  if (!r.chain_valid) problems.push_back("say whether the chain is valid");
  if (!r.natural || !r.no_leakage)
    problems.push_back("say whether the rewritten question is natural and free of leakage");
  if (r.verdict == "accept" &&
      ((r.chain_valid && !*r.chain_valid) || (r.natural && !*r.natural) || (r.no_leakage && !*r.no_leakage)))
    problems.push_back(
        "an accepting review cannot fail the chain or rewrite checks (choose revise or reject)");
  if (r.verdict != "accept" && r.comment.find_first_not_of(" \t\r\n") == std::string::npos)
    problems.push_back("a " + r.verdict + " verdict needs a comment saying what to change");
  if (!problems.empty()) {
    std::string msg;
    for (size_t i = 0; i < problems.size(); ++i) msg += (i ? "; " : "") + problems[i];
    return InvalidArgument("review not recorded: " + msg);
  }
  LAKEQA_ASSIGN_OR_RETURN(ReviewPolicy policy, w.project->Policy());
  r.adjudicator = std::find(policy.adjudicators.begin(), policy.adjudicators.end(), r.reviewer) !=
                  policy.adjudicators.end();
  r.task_version = t.content_version;
  LAKEQA_ASSIGN_OR_RETURN(Review stored, w.project->AddReview(r));
  LAKEQA_ASSIGN_OR_RETURN(auto reviews, w.project->Reviews(t.id));
  LAKEQA_ASSIGN_OR_RETURN(auto authors, w.project->Authors(t.id));
  Json state = w.ReviewState(t, reviews, policy, authors);
  ProjectTask now = t;
  if (state["met"].get<bool>()) {
    std::string d = state["decision"].get<std::string>();
    std::string to = d == "accept" ? "accepted" : d == "revise" ? "revised" : "rejected";
    Json detail = {{"by_review", stored.id}, {"rule", state["message"]}};
    LAKEQA_ASSIGN_OR_RETURN(now, w.project->SetStatus(t.id, to, t.version, req.who, detail));
  }
  LAKEQA_ASSIGN_OR_RETURN(Json view, w.TaskView(now));
  view["review"] = stored.ToJson();
  return ApiReply{201, view};
}

Result<ApiReply> Reviewers(Workbench::Impl& w, const ApiRequest&) {
  LAKEQA_ASSIGN_OR_RETURN(Json counts, w.project->ReviewerCounts());
  LAKEQA_ASSIGN_OR_RETURN(ReviewPolicy policy, w.project->Policy());
  for (Json& c : counts) {
    std::string name = c.value("reviewer", "");
    c["is_adjudicator"] =
        std::find(policy.adjudicators.begin(), policy.adjudicators.end(), name) != policy.adjudicators.end();
  }
  return ApiReply{200, {{"reviewers", counts}, {"policy", policy.ToJson()}}};
}

Result<ApiReply> GetPolicy(Workbench::Impl& w, const ApiRequest&) {
  LAKEQA_ASSIGN_OR_RETURN(ReviewPolicy policy, w.project->Policy());
  return ApiReply{200, policy.ToJson()};
}

Result<ApiReply> SetPolicy(Workbench::Impl& w, const ApiRequest& req) {
  if (!req.body.contains("policy")) return InvalidArgument("\"policy\" is required");
  LAKEQA_ASSIGN_OR_RETURN(ReviewPolicy policy, ReviewPolicy::FromJson(req.body["policy"]));
  LAKEQA_RETURN_IF_ERROR(w.project->SetPolicy(policy, req.who));
  return ApiReply{200, policy.ToJson()};
}

Result<ApiReply> Audit(Workbench::Impl& w, const ApiRequest& req) {
  int64_t task = 0;
  if (std::string t = req.Param("task"); !t.empty()) {
    LAKEQA_ASSIGN_OR_RETURN(ProjectTask pt, w.LoadTask(t));
    task = pt.id;
  }
  LAKEQA_ASSIGN_OR_RETURN(auto entries, w.project->Audit(task, 500));
  Json a = Json::array();
  for (const auto& e : entries) a.push_back(e.ToJson());
  return ApiReply{200, {{"audit", a}}};
}

}  // namespace

void AddReviewRoutes(std::vector<Route>& routes) {
  routes.push_back({"POST", "/api/tasks/{}/reviews", AddReview, true});
  routes.push_back({"GET", "/api/reviewers", Reviewers});
  routes.push_back({"GET", "/api/policy", GetPolicy});
  routes.push_back({"PUT", "/api/policy", SetPolicy, true});
  routes.push_back({"GET", "/api/audit", Audit});
}

}  // namespace lakeqa::workbench
