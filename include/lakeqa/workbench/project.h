// The workbench's project file: one SQLite database holding the tasks being composed (their nodes, fact
// code and answers), the reviews of each task and an audit log of every change (docs/ui.md, "Project
// file"). Edits are optimistic: every task carries a version, a save names the version it started from,
// and a save from an older version is refused with a conflict that says who changed the task and when —
// so two people editing one task never silently overwrite each other.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "lakeqa/common/json.h"
#include "lakeqa/common/status.h"

struct sqlite3;

namespace lakeqa::workbench {

// One evidence node as the composer edits it; `key` is its LakeQA node id ("1", "2", ...).
struct ProjectNode {
  std::string key;
  std::string source;       // lake path "<namespace>/<dataset id>/<file path>"
  std::string fact;         // Python that assigns `answer` (may use "<node_N answer>"), or a sentence
  std::string subquestion;  // may use "<node_N answer>" for earlier answers
  Json answer;              // the captured or typed answer (null until there is one)
  int hop = 0;              // the reasoning hop it belongs to; 0 = derived from its placeholders
  std::string reasoning;    // its line in the hop's reasoning ("Node 2: ..."), without the prefix
  Json last_run;            // the last run of its fact code (null until run)
};

inline constexpr const char* kStatuses[] = {"draft", "in_review", "accepted", "revised", "rejected"};

struct ProjectTask {
  int64_t id = 0;
  std::string question_id;  // the LakeQA question_id
  std::string question;     // the rewritten, final question
  Json answer;              // the final answer
  std::vector<ProjectNode> nodes;
  Json datasets_used;  // null: the node sources; else the list as imported or edited
  Json hops;           // null: derived; else [{hop, reasoning[], answer}] as imported
  std::string status = "draft";
  int64_t version = 0;  // bumped by every change (content or status): the optimistic lock
  // The version of the last content change: the one number pages show, and what reviews name (a status
  // change moves `version` but not this).
  int64_t content_version = 0;
  std::string created_by, created_at, updated_by, updated_at;
  std::string origin;  // the file it was imported from, "" when composed here

  Json ToJson() const;
  // The editable part of a task as the UI sends it; unknown members are ignored, wrong types named.
  static Result<ProjectTask> FromJson(const Json& j);
};

struct NodeVerdict {
  std::string node;
  std::optional<bool> sound;     // the fact is true of its source
  std::optional<bool> complete;  // the fact answers its subquestion fully
  std::string comment;
};

struct Review {
  int64_t id = 0;
  int64_t task_id = 0;
  int64_t task_version = 0;  // the version the reviewer saw
  std::string reviewer;
  bool adjudicator = false;
  std::vector<NodeVerdict> nodes;
  std::optional<bool> chain_valid;  // each subquestion follows from the answers before it
  std::string chain_comment;
  std::optional<bool> natural;     // the rewritten question reads naturally
  std::optional<bool> no_leakage;  // it names no dataset, title or file
  std::string rewrite_comment;
  std::string verdict;  // accept | revise | reject
  std::string comment;
  std::string created_at;

  Json ToJson() const;
  static Result<Review> FromJson(const Json& j);
};

struct AuditEntry {
  int64_t id = 0;
  int64_t task_id = 0;
  std::string at, who, action;
  Json detail;
  Json ToJson() const;
};

// "At least `min_reviews` reviews of the current version, one of them by an adjudicator."
struct ReviewPolicy {
  int min_reviews = 2;
  bool require_adjudicator = true;
  std::vector<std::string> adjudicators;  // reviewer names whose reviews adjudicate
  Json ToJson() const;
  static Result<ReviewPolicy> FromJson(const Json& j);
};

class Project {
 public:
  // Opens or creates the project file (and its schema).
  static Result<std::unique_ptr<Project>> Open(const std::string& path);
  ~Project();
  Project(const Project&) = delete;
  Project& operator=(const Project&) = delete;

  const std::string& path() const { return path_; }

  Result<std::vector<ProjectTask>> ListTasks();
  Result<ProjectTask> GetTask(int64_t id);
  // A new task; question_id must be unique ("" picks the next "WB000001"-style id).
  Result<ProjectTask> CreateTask(ProjectTask task, const std::string& who,
                                 const std::string& action = "created");
  // Replaces the task's content when `base_version` is its current version; otherwise already_exists with
  // the conflict spelled out. Accepted and rejected tasks are read-only until reopened.
  Result<ProjectTask> SaveTask(const ProjectTask& task, int64_t base_version, const std::string& who);
  // Moves the task to `status` (the caller checked the transition), bumping its version.
  Result<ProjectTask> SetStatus(int64_t id, const std::string& status, int64_t base_version,
                                const std::string& who, const Json& detail);
  // Records the last run of a node's fact (not a content change: no new version).
  Status SetLastRun(int64_t id, const std::string& node, const Json& run, const std::string& who);

  Result<Review> AddReview(Review review);
  Result<std::vector<Review>> Reviews(int64_t task_id);
  // Per reviewer: reviews, accepts, revisions, rejections, adjudications, tasks reviewed.
  Result<Json> ReviewerCounts();

  // Who wrote the task: its creator and everyone whose save changed it (from the audit log; importing a
  // file is not writing it). Their reviews of it are recorded but never count toward the review policy.
  Result<std::vector<std::string>> Authors(int64_t task_id);

  Status Log(int64_t task_id, const std::string& who, const std::string& action, const Json& detail);
  // Newest first; task_id 0 = every task.
  Result<std::vector<AuditEntry>> Audit(int64_t task_id, size_t limit);

  Result<ReviewPolicy> Policy();
  Status SetPolicy(const ReviewPolicy& policy, const std::string& who);

 private:
  Project() = default;
  Result<ProjectTask> GetTaskLocked(int64_t id);
  Status WriteNodesLocked(const ProjectTask& task);
  std::string path_;
  sqlite3* db_ = nullptr;
  std::mutex mu_;
};

// The current time as an ISO 8601 UTC string with milliseconds ("2026-01-31T12:00:00.123Z").
std::string NowIso();

}  // namespace lakeqa::workbench
