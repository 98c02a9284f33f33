// The project file (SQLite): tasks, nodes, reviews, audit log, settings. docs/ui.md has the schema.
#include "lakeqa/workbench/project.h"

#include <sqlite3.h>

#include <chrono>
#include <ctime>
#include <map>
#include <set>

#include <fmt/format.h>

#include "catalog/sqlite_util.h"

namespace lakeqa::workbench {

using catalog::Exec;
using catalog::Stmt;
using catalog::Transaction;

namespace {

constexpr int kProjectSchemaVersion = 1;

const char* kSchema = R"SQL(
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tasks(
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  question_id TEXT NOT NULL UNIQUE,
  question TEXT NOT NULL DEFAULT '',
  answer TEXT NOT NULL DEFAULT 'null',
  datasets_used TEXT NOT NULL DEFAULT 'null',
  hops TEXT NOT NULL DEFAULT 'null',
  status TEXT NOT NULL DEFAULT 'draft',
  version INTEGER NOT NULL DEFAULT 1,
  content_version INTEGER NOT NULL DEFAULT 1,
  origin TEXT NOT NULL DEFAULT '',
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_by TEXT NOT NULL,
  updated_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS nodes(
  task_id INTEGER NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  key TEXT NOT NULL,
  source TEXT NOT NULL DEFAULT '',
  fact TEXT NOT NULL DEFAULT '',
  subquestion TEXT NOT NULL DEFAULT '',
  answer TEXT NOT NULL DEFAULT 'null',
  hop INTEGER NOT NULL DEFAULT 0,
  reasoning TEXT NOT NULL DEFAULT '',
  last_run TEXT NOT NULL DEFAULT 'null',
  PRIMARY KEY(task_id, key));
CREATE TABLE IF NOT EXISTS reviews(
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  task_id INTEGER NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  task_version INTEGER NOT NULL,
  reviewer TEXT NOT NULL,
  adjudicator INTEGER NOT NULL,
  verdict TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS reviews_task ON reviews(task_id, id);
CREATE TABLE IF NOT EXISTS audit(
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  task_id INTEGER NOT NULL,
  at TEXT NOT NULL,
  who TEXT NOT NULL,
  action TEXT NOT NULL,
  detail TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS audit_task ON audit(task_id, id);
)SQL";

Json ParseStored(const std::string& text) {
  Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  return j.is_discarded() ? Json() : j;
}

Json OptBool(const std::optional<bool>& b) { return b ? Json(*b) : Json(); }

Result<std::optional<bool>> ReadOptBool(const Json& j, const char* name, std::string_view where) {
  if (!j.contains(name) || j[name].is_null()) return std::optional<bool>();
  if (!j[name].is_boolean())
    return InvalidArgument(
        fmt::format("{}: \"{}\" must be true, false or null, got {}", where, name, j[name].dump()));
  return std::optional<bool>(j[name].get<bool>());
}

Result<std::string> ReadString(const Json& j, const char* name, std::string_view where) {
  if (!j.contains(name) || j[name].is_null()) return std::string();
  if (!j[name].is_string())
    return InvalidArgument(
        fmt::format("{}: \"{}\" must be a string, got {}", where, name, j[name].type_name()));
  return j[name].get<std::string>();
}

// What changed between two versions of a task, for the audit log ("question", "node 2 fact", ...).
Json Changes(const ProjectTask& a, const ProjectTask& b) {
  Json out = Json::array();
  if (a.question_id != b.question_id) out.push_back("question_id");
  if (a.question != b.question) out.push_back("question");
  if (a.answer != b.answer) out.push_back("answer");
  if (a.datasets_used != b.datasets_used) out.push_back("datasets_used");
  if (a.hops != b.hops) out.push_back("hops");
  std::map<std::string, const ProjectNode*> old;
  for (const auto& n : a.nodes) old[n.key] = &n;
  std::set<std::string> seen;
  for (const auto& n : b.nodes) {
    seen.insert(n.key);
    auto it = old.find(n.key);
    if (it == old.end()) {
      out.push_back("node " + n.key + " added");
      continue;
    }
    const ProjectNode& o = *it->second;
    if (o.source != n.source) out.push_back("node " + n.key + " source");
    if (o.fact != n.fact) out.push_back("node " + n.key + " fact");
    if (o.subquestion != n.subquestion) out.push_back("node " + n.key + " subquestion");
    if (o.answer != n.answer) out.push_back("node " + n.key + " answer");
    if (o.hop != n.hop) out.push_back("node " + n.key + " hop");
    if (o.reasoning != n.reasoning) out.push_back("node " + n.key + " reasoning");
  }
  for (const auto& n : a.nodes) {
    if (!seen.count(n.key)) out.push_back("node " + n.key + " removed");
  }
  return out;
}

}  // namespace

std::string NowIso() {
  auto now = std::chrono::system_clock::now();
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
  std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  return fmt::format("{}.{:03d}Z", buf, static_cast<int>(ms % 1000));
}

// ---- JSON forms -------------------------------------------------------------------------------------

Json ProjectTask::ToJson() const {
  Json ns = Json::array();
  for (const auto& n : nodes) {
    ns.push_back({{"key", n.key},
                  {"source", n.source},
                  {"fact", n.fact},
                  {"subquestion", n.subquestion},
                  {"answer", n.answer},
                  {"hop", n.hop},
                  {"reasoning", n.reasoning},
                  {"last_run", n.last_run}});
  }
  return {{"id", id},
          {"question_id", question_id},
          {"question", question},
          {"answer", answer},
          {"nodes", ns},
          {"datasets_used", datasets_used},
          {"hops", hops},
          {"status", status},
          {"version", version},
          {"content_version", content_version},
          {"origin", origin},
          {"created_by", created_by},
          {"created_at", created_at},
          {"updated_by", updated_by},
          {"updated_at", updated_at}};
}

Result<ProjectTask> ProjectTask::FromJson(const Json& j) {
  if (!j.is_object()) return InvalidArgument("task: expected a JSON object");
  ProjectTask t;
  if (j.contains("id") && j["id"].is_number_integer()) t.id = j["id"].get<int64_t>();
  LAKEQA_ASSIGN_OR_RETURN(t.question_id, ReadString(j, "question_id", "task"));
  LAKEQA_ASSIGN_OR_RETURN(t.question, ReadString(j, "question", "task"));
  t.answer = j.value("answer", Json());
  t.datasets_used = j.value("datasets_used", Json());
  if (!t.datasets_used.is_null()) {
    if (!t.datasets_used.is_array())
      return InvalidArgument("task: \"datasets_used\" must be a list of lake paths or null");
    for (const Json& d : t.datasets_used) {
      if (!d.is_string())
        return InvalidArgument("task: every \"datasets_used\" entry must be a string, got " + d.dump());
    }
  }
  t.hops = j.value("hops", Json());
  if (!t.hops.is_null() && !t.hops.is_array())
    return InvalidArgument("task: \"hops\" must be a list or null");
  if (j.contains("nodes") && !j["nodes"].is_null()) {
    if (!j["nodes"].is_array()) return InvalidArgument("task: \"nodes\" must be a list");
    std::set<std::string> keys;
    for (size_t i = 0; i < j["nodes"].size(); ++i) {
      const Json& nj = j["nodes"][i];
      std::string where = fmt::format("task: node #{}", i + 1);
      if (!nj.is_object()) return InvalidArgument(where + ": expected an object");
      ProjectNode n;
      LAKEQA_ASSIGN_OR_RETURN(n.key, ReadString(nj, "key", where));
      if (n.key.empty()) return InvalidArgument(where + ": \"key\" (the node id) is required");
      if (!keys.insert(n.key).second)
        return InvalidArgument(where + ": node id \"" + n.key + "\" is used twice");
      where = "task: node " + n.key;
      LAKEQA_ASSIGN_OR_RETURN(n.source, ReadString(nj, "source", where));
      LAKEQA_ASSIGN_OR_RETURN(n.fact, ReadString(nj, "fact", where));
      LAKEQA_ASSIGN_OR_RETURN(n.subquestion, ReadString(nj, "subquestion", where));
      LAKEQA_ASSIGN_OR_RETURN(n.reasoning, ReadString(nj, "reasoning", where));
      n.answer = nj.value("answer", Json());
      if (nj.contains("hop") && !nj["hop"].is_null()) {
        if (!nj["hop"].is_number_integer() || nj["hop"].get<int64_t>() < 0 || nj["hop"].get<int64_t>() > 1000)
          return InvalidArgument(where + ": \"hop\" must be a whole number from 0 (derived) to 1000");
        n.hop = nj["hop"].get<int>();
      }
      n.last_run = nj.value("last_run", Json());
      t.nodes.push_back(std::move(n));
    }
  }
  return t;
}

Json Review::ToJson() const {
  Json ns = Json::array();
  for (const auto& n : nodes) {
    ns.push_back({{"node", n.node},
                  {"sound", OptBool(n.sound)},
                  {"complete", OptBool(n.complete)},
                  {"comment", n.comment}});
  }
  return {{"id", id},
          {"task_id", task_id},
          {"task_version", task_version},
          {"reviewer", reviewer},
          {"adjudicator", adjudicator},
          {"nodes", ns},
          {"chain_valid", OptBool(chain_valid)},
          {"chain_comment", chain_comment},
          {"natural", OptBool(natural)},
          {"no_leakage", OptBool(no_leakage)},
          {"rewrite_comment", rewrite_comment},
          {"verdict", verdict},
          {"comment", comment},
          {"created_at", created_at}};
}

Result<Review> Review::FromJson(const Json& j) {
  if (!j.is_object()) return InvalidArgument("review: expected a JSON object");
  Review r;
  if (j.contains("task_version") && !j["task_version"].is_number_integer())
    return InvalidArgument("review: \"task_version\" must be the version number you reviewed");
  r.task_version = j.value("task_version", int64_t{0});
  LAKEQA_ASSIGN_OR_RETURN(r.reviewer, ReadString(j, "reviewer", "review"));
  LAKEQA_ASSIGN_OR_RETURN(r.verdict, ReadString(j, "verdict", "review"));
  LAKEQA_ASSIGN_OR_RETURN(r.comment, ReadString(j, "comment", "review"));
  LAKEQA_ASSIGN_OR_RETURN(r.chain_valid, ReadOptBool(j, "chain_valid", "review"));
  LAKEQA_ASSIGN_OR_RETURN(r.chain_comment, ReadString(j, "chain_comment", "review"));
  LAKEQA_ASSIGN_OR_RETURN(r.natural, ReadOptBool(j, "natural", "review"));
  LAKEQA_ASSIGN_OR_RETURN(r.no_leakage, ReadOptBool(j, "no_leakage", "review"));
  LAKEQA_ASSIGN_OR_RETURN(r.rewrite_comment, ReadString(j, "rewrite_comment", "review"));
  if (j.contains("nodes") && !j["nodes"].is_null()) {
    if (!j["nodes"].is_array()) return InvalidArgument("review: \"nodes\" must be a list of node verdicts");
    for (const Json& nj : j["nodes"]) {
      if (!nj.is_object()) return InvalidArgument("review: every node verdict must be an object");
      NodeVerdict v;
      LAKEQA_ASSIGN_OR_RETURN(v.node, ReadString(nj, "node", "review node verdict"));
      std::string where = "review: node " + v.node;
      LAKEQA_ASSIGN_OR_RETURN(v.sound, ReadOptBool(nj, "sound", where));
      LAKEQA_ASSIGN_OR_RETURN(v.complete, ReadOptBool(nj, "complete", where));
      LAKEQA_ASSIGN_OR_RETURN(v.comment, ReadString(nj, "comment", where));
      r.nodes.push_back(std::move(v));
    }
  }
  return r;
}

Json AuditEntry::ToJson() const {
  return {{"id", id}, {"task_id", task_id}, {"at", at}, {"who", who}, {"action", action}, {"detail", detail}};
}

Json ReviewPolicy::ToJson() const {
  return {{"min_reviews", min_reviews},
          {"require_adjudicator", require_adjudicator},
          {"adjudicators", adjudicators}};
}

Result<ReviewPolicy> ReviewPolicy::FromJson(const Json& j) {
  if (!j.is_object()) return InvalidArgument("policy: expected a JSON object");
  ReviewPolicy p;
  if (j.contains("min_reviews")) {
    if (!j["min_reviews"].is_number_integer() || j["min_reviews"].get<int64_t>() < 1 ||
        j["min_reviews"].get<int64_t>() > 20)
      return InvalidArgument("policy: \"min_reviews\" must be a whole number from 1 to 20");
    p.min_reviews = j["min_reviews"].get<int>();
  }
  if (j.contains("require_adjudicator")) {
    if (!j["require_adjudicator"].is_boolean())
      return InvalidArgument("policy: \"require_adjudicator\" must be true or false");
    p.require_adjudicator = j["require_adjudicator"].get<bool>();
  }
  if (j.contains("adjudicators")) {
    if (!j["adjudicators"].is_array())
      return InvalidArgument("policy: \"adjudicators\" must be a list of names");
    for (const Json& a : j["adjudicators"]) {
      if (!a.is_string() || a.get<std::string>().empty())
        return InvalidArgument("policy: every adjudicator must be a non-empty name");
      p.adjudicators.push_back(a.get<std::string>());
    }
  }
  return p;
}

// ---- the database ------------------------------------------------------------------------------------

Project::~Project() {
  if (db_) sqlite3_close(db_);
}

Result<std::unique_ptr<Project>> Project::Open(const std::string& path) {
  std::unique_ptr<Project> p(new Project());
  p->path_ = path;
  if (sqlite3_open_v2(path.c_str(), &p->db_,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                      nullptr) != SQLITE_OK) {
    Status s = IoError("cannot open project file " + path + ": " +
                       (p->db_ ? sqlite3_errmsg(p->db_) : "out of memory"));
    return s;
  }
  sqlite3_busy_timeout(p->db_, 5000);
  // WAL: readers (another `lakeqa ui` on the same file) never block the writer.
  LAKEQA_RETURN_IF_ERROR(Exec(p->db_, "PRAGMA journal_mode=WAL").WithContext(path));
  LAKEQA_RETURN_IF_ERROR(Exec(p->db_, "PRAGMA foreign_keys=ON").WithContext(path));
  Status st = Exec(p->db_, kSchema);
  if (!st.ok()) {
    if (st.code() == ErrorCode::kCorrupt)
      return Corrupt(path + " is not a workbench project file (SQLite): " + st.message());
    return st.WithContext(path);
  }
  Stmt get(p->db_, "SELECT value FROM meta WHERE key='schema_version'");
  if (get.Step()) {
    int v = std::atoi(get.Text(0).c_str());
    if (v > kProjectSchemaVersion)
      return Unsupported(fmt::format("{}: project schema version {} is newer than this lakeqa ({})", path, v,
                                     kProjectSchemaVersion));
  } else {
    Stmt put(
        p->db_,
        "INSERT INTO meta(key, value) VALUES('schema_version', ?), ('format', 'lakeqa-workbench-project')");
    put.Bind(1, std::to_string(kProjectSchemaVersion));
    LAKEQA_RETURN_IF_ERROR(put.Run().WithContext(path));
  }
  return p;
}

Result<std::vector<ProjectTask>> Project::ListTasks() {
  std::vector<int64_t> ids;
  {
    std::lock_guard<std::mutex> lock(mu_);
    Stmt q(db_, "SELECT id FROM tasks ORDER BY id");
    while (q.Step()) ids.push_back(q.Int(0));
    LAKEQA_RETURN_IF_ERROR(q.status());
  }
  std::vector<ProjectTask> out;
  for (int64_t id : ids) {
    LAKEQA_ASSIGN_OR_RETURN(auto t, GetTask(id));
    out.push_back(std::move(t));
  }
  return out;
}

Result<ProjectTask> Project::GetTask(int64_t id) {
  std::lock_guard<std::mutex> lock(mu_);
  return GetTaskLocked(id);
}

Result<ProjectTask> Project::GetTaskLocked(int64_t id) {
  Stmt q(
      db_,
      "SELECT id, question_id, question, answer, datasets_used, hops, status, version, origin, created_by, "
      "created_at, updated_by, updated_at, content_version FROM tasks WHERE id = ?");
  q.Bind(1, id);
  if (!q.Step()) {
    LAKEQA_RETURN_IF_ERROR(q.status());
    return NotFound(fmt::format("no task {} in the project {}", id, path_));
  }
  ProjectTask t;
  t.id = q.Int(0);
  t.question_id = q.Text(1);
  t.question = q.Text(2);
  t.answer = ParseStored(q.Text(3));
  t.datasets_used = ParseStored(q.Text(4));
  t.hops = ParseStored(q.Text(5));
  t.status = q.Text(6);
  t.version = q.Int(7);
  t.origin = q.Text(8);
  t.created_by = q.Text(9);
  t.created_at = q.Text(10);
  t.updated_by = q.Text(11);
  t.updated_at = q.Text(12);
  t.content_version = q.Int(13);
  Stmt n(
      db_,
      "SELECT key, source, fact, subquestion, answer, hop, reasoning, last_run FROM nodes WHERE task_id = ? "
      "ORDER BY position");
  n.Bind(1, id);
  while (n.Step()) {
    ProjectNode node;
    node.key = n.Text(0);
    node.source = n.Text(1);
    node.fact = n.Text(2);
    node.subquestion = n.Text(3);
    node.answer = ParseStored(n.Text(4));
    node.hop = static_cast<int>(n.Int(5));
    node.reasoning = n.Text(6);
    node.last_run = ParseStored(n.Text(7));
    t.nodes.push_back(std::move(node));
  }
  LAKEQA_RETURN_IF_ERROR(n.status());
  return t;
}

Status Project::WriteNodesLocked(const ProjectTask& task) {
  // A node's last run survives a save of its content (the UI says when the code changed since).
  std::map<std::string, std::string> runs;
  {
    Stmt q(db_, "SELECT key, last_run FROM nodes WHERE task_id = ?");
    q.Bind(1, task.id);
    while (q.Step()) runs[q.Text(0)] = q.Text(1);
    LAKEQA_RETURN_IF_ERROR(q.status());
  }
  Stmt del(db_, "DELETE FROM nodes WHERE task_id = ?");
  del.Bind(1, task.id);
  LAKEQA_RETURN_IF_ERROR(del.Run());
  Stmt ins(db_,
           "INSERT INTO nodes(task_id, position, key, source, fact, subquestion, answer, hop, reasoning, "
           "last_run) "
           "VALUES(?,?,?,?,?,?,?,?,?,?)");
  int64_t pos = 0;
  for (const ProjectNode& n : task.nodes) {
    auto it = runs.find(n.key);
    ins.Bind(1, task.id)
        .Bind(2, pos++)
        .Bind(3, n.key)
        .Bind(4, n.source)
        .Bind(5, n.fact)
        .Bind(6, n.subquestion)
        .Bind(7, DumpJson(n.answer))
        .Bind(8, static_cast<int64_t>(n.hop))
        .Bind(9, n.reasoning)
        .Bind(10, it == runs.end() ? DumpJson(n.last_run) : it->second);
    LAKEQA_RETURN_IF_ERROR(ins.Run());
  }
  return Status::Ok();
}

Result<ProjectTask> Project::CreateTask(ProjectTask task, const std::string& who, const std::string& action) {
  std::lock_guard<std::mutex> lock(mu_);
  Transaction tx(db_);
  if (task.question_id.empty()) {
    Stmt q(db_, "SELECT COALESCE(MAX(id), 0) + 1 FROM tasks");
    int64_t next = q.Step() ? q.Int(0) : 1;
    // An imported WB id can occupy the next number: step past any taken one.
    for (;; ++next) {
      task.question_id = fmt::format("WB{:06d}", next);
      Stmt e(db_, "SELECT 1 FROM tasks WHERE question_id = ?");
      e.Bind(1, task.question_id);
      if (!e.Step()) break;
    }
  }
  {
    Stmt e(db_, "SELECT id FROM tasks WHERE question_id = ?");
    e.Bind(1, task.question_id);
    if (e.Step())
      return Status(ErrorCode::kAlreadyExists,
                    fmt::format("the project already has a task with question_id \"{}\" (task {})",
                                task.question_id, e.Int(0)));
  }
  std::string now = NowIso();
  Stmt ins(db_,
           "INSERT INTO tasks(question_id, question, answer, datasets_used, hops, status, version, origin, "
           "created_by, created_at, updated_by, updated_at) VALUES(?,?,?,?,?,'draft',1,?,?,?,?,?)");
  ins.Bind(1, task.question_id)
      .Bind(2, task.question)
      .Bind(3, DumpJson(task.answer))
      .Bind(4, DumpJson(task.datasets_used))
      .Bind(5, DumpJson(task.hops))
      .Bind(6, task.origin)
      .Bind(7, who)
      .Bind(8, now)
      .Bind(9, who)
      .Bind(10, now);
  LAKEQA_RETURN_IF_ERROR(ins.Run());
  task.id = sqlite3_last_insert_rowid(db_);
  LAKEQA_RETURN_IF_ERROR(WriteNodesLocked(task));
  Stmt log(db_, "INSERT INTO audit(task_id, at, who, action, detail) VALUES(?,?,?,?,?)");
  Json detail = {{"question_id", task.question_id}, {"nodes", task.nodes.size()}};
  if (!task.origin.empty()) detail["origin"] = task.origin;
  log.Bind(1, task.id).Bind(2, now).Bind(3, who).Bind(4, action).Bind(5, DumpJson(detail));
  LAKEQA_RETURN_IF_ERROR(log.Run());
  LAKEQA_RETURN_IF_ERROR(tx.Commit());
  return GetTaskLocked(task.id);
}

Result<ProjectTask> Project::SaveTask(const ProjectTask& task, int64_t base_version, const std::string& who) {
  std::lock_guard<std::mutex> lock(mu_);
  Transaction tx(db_);
  LAKEQA_ASSIGN_OR_RETURN(ProjectTask current, GetTaskLocked(task.id));
  if (current.version != base_version) {
    return Status(
        ErrorCode::kAlreadyExists,
        fmt::format("conflict: task {} was changed by {} at {} (now version {}) after you opened it; "
                    "your save was not applied",
                    current.question_id, current.updated_by, current.updated_at, current.content_version));
  }
  if (current.status == "accepted" || current.status == "rejected")
    return Status(ErrorCode::kPermissionDenied,
                  fmt::format("task {} is {}: reopen it (back to draft) before editing", current.question_id,
                              current.status));
  if (task.question_id.empty()) return InvalidArgument("question_id must not be empty");
  if (task.question_id != current.question_id) {
    Stmt e(db_, "SELECT id FROM tasks WHERE question_id = ? AND id != ?");
    e.Bind(1, task.question_id).Bind(2, task.id);
    if (e.Step())
      return Status(ErrorCode::kAlreadyExists,
                    fmt::format("question_id \"{}\" is taken by task {}", task.question_id, e.Int(0)));
  }
  Json changed = Changes(current, task);
  if (changed.empty()) return current;  // nothing to save: no new version
  std::string now = NowIso();
  Stmt up(db_,
          "UPDATE tasks SET question_id=?, question=?, answer=?, datasets_used=?, hops=?, version=version+1, "
          "content_version=version+1, updated_by=?, updated_at=? WHERE id=? AND version=?");
  up.Bind(1, task.question_id)
      .Bind(2, task.question)
      .Bind(3, DumpJson(task.answer))
      .Bind(4, DumpJson(task.datasets_used))
      .Bind(5, DumpJson(task.hops))
      .Bind(6, who)
      .Bind(7, now)
      .Bind(8, task.id)
      .Bind(9, base_version);
  LAKEQA_RETURN_IF_ERROR(up.Run());
  LAKEQA_RETURN_IF_ERROR(WriteNodesLocked(task));
  Stmt log(db_, "INSERT INTO audit(task_id, at, who, action, detail) VALUES(?,?,?,'saved',?)");
  log.Bind(1, task.id)
      .Bind(2, now)
      .Bind(3, who)
      .Bind(4, DumpJson({{"version", base_version + 1}, {"changed", changed}}));
  LAKEQA_RETURN_IF_ERROR(log.Run());
  LAKEQA_RETURN_IF_ERROR(tx.Commit());
  return GetTaskLocked(task.id);
}

Result<ProjectTask> Project::SetStatus(int64_t id, const std::string& status, int64_t base_version,
                                       const std::string& who, const Json& detail) {
  std::lock_guard<std::mutex> lock(mu_);
  Transaction tx(db_);
  LAKEQA_ASSIGN_OR_RETURN(ProjectTask current, GetTaskLocked(id));
  if (current.version != base_version) {
    return Status(
        ErrorCode::kAlreadyExists,
        fmt::format("conflict: task {} was changed by {} at {} (now version {}) after you opened it; "
                    "reload it before changing its status",
                    current.question_id, current.updated_by, current.updated_at, current.content_version));
  }
  std::string now = NowIso();
  Stmt up(
      db_,
      "UPDATE tasks SET status=?, version=version+1, updated_by=?, updated_at=? WHERE id=? AND version=?");
  up.Bind(1, status).Bind(2, who).Bind(3, now).Bind(4, id).Bind(5, base_version);
  LAKEQA_RETURN_IF_ERROR(up.Run());
  Json d = detail.is_object() ? detail : Json::object();
  d["from"] = current.status;
  d["to"] = status;
  d["version"] = current.content_version;  // the content the status applies to (the version pages show)
  Stmt log(db_, "INSERT INTO audit(task_id, at, who, action, detail) VALUES(?,?,?,'status',?)");
  log.Bind(1, id).Bind(2, now).Bind(3, who).Bind(4, DumpJson(d));
  LAKEQA_RETURN_IF_ERROR(log.Run());
  LAKEQA_RETURN_IF_ERROR(tx.Commit());
  return GetTaskLocked(id);
}

Status Project::SetLastRun(int64_t id, const std::string& node, const Json& run, const std::string& who) {
  std::lock_guard<std::mutex> lock(mu_);
  Transaction tx(db_);
  Stmt up(db_, "UPDATE nodes SET last_run = ? WHERE task_id = ? AND key = ?");
  up.Bind(1, DumpJson(run)).Bind(2, id).Bind(3, node);
  LAKEQA_RETURN_IF_ERROR(up.Run());
  if (sqlite3_changes(db_) == 0)
    return NotFound(fmt::format("task {} has no saved node \"{}\" (save the task first)", id, node));
  Json d = {{"node", node},
            {"answer", run.value("answer", Json())},
            {"ok", run.value("ok", false)},
            {"error", run.value("error", Json())}};
  Stmt log(db_, "INSERT INTO audit(task_id, at, who, action, detail) VALUES(?,?,?,'ran fact',?)");
  log.Bind(1, id).Bind(2, NowIso()).Bind(3, who).Bind(4, DumpJson(d));
  LAKEQA_RETURN_IF_ERROR(log.Run());
  return tx.Commit();
}

Result<Review> Project::AddReview(Review review) {
  std::lock_guard<std::mutex> lock(mu_);
  Transaction tx(db_);
  review.created_at = NowIso();
  Json body = review.ToJson();
  Stmt ins(db_,
           "INSERT INTO reviews(task_id, task_version, reviewer, adjudicator, verdict, body, created_at) "
           "VALUES(?,?,?,?,?,?,?)");
  ins.Bind(1, review.task_id)
      .Bind(2, review.task_version)
      .Bind(3, review.reviewer)
      .Bind(4, int64_t{review.adjudicator ? 1 : 0})
      .Bind(5, review.verdict)
      .Bind(6, DumpJson(body))
      .Bind(7, review.created_at);
  LAKEQA_RETURN_IF_ERROR(ins.Run());
  review.id = sqlite3_last_insert_rowid(db_);
  Stmt log(db_, "INSERT INTO audit(task_id, at, who, action, detail) VALUES(?,?,?,'reviewed',?)");
  log.Bind(1, review.task_id)
      .Bind(2, review.created_at)
      .Bind(3, review.reviewer)
      .Bind(4, DumpJson({{"review", review.id},
                         {"version", review.task_version},
                         {"verdict", review.verdict},
                         {"adjudicator", review.adjudicator}}));
  LAKEQA_RETURN_IF_ERROR(log.Run());
  LAKEQA_RETURN_IF_ERROR(tx.Commit());
  return review;
}

Result<std::vector<Review>> Project::Reviews(int64_t task_id) {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt q(db_, "SELECT id, body FROM reviews WHERE task_id = ? ORDER BY id");
  q.Bind(1, task_id);
  std::vector<Review> out;
  while (q.Step()) {
    Json body = ParseStored(q.Text(1));
    auto r = Review::FromJson(body);
    if (!r.ok())
      return Corrupt(fmt::format("{}: review {} does not parse: {}", path_, q.Int(0), r.status().message()));
    r->id = q.Int(0);
    r->task_id = task_id;
    r->adjudicator = body.value("adjudicator", false);
    r->created_at = body.value("created_at", "");
    out.push_back(std::move(*r));
  }
  LAKEQA_RETURN_IF_ERROR(q.status());
  return out;
}

Result<Json> Project::ReviewerCounts() {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt q(db_,
         "SELECT reviewer, COUNT(*), SUM(verdict='accept'), SUM(verdict='revise'), SUM(verdict='reject'), "
         "SUM(adjudicator), COUNT(DISTINCT task_id), MAX(created_at) FROM reviews GROUP BY reviewer ORDER BY "
         "COUNT(*) DESC, reviewer");
  Json out = Json::array();
  while (q.Step()) {
    out.push_back({{"reviewer", q.Text(0)},
                   {"reviews", q.Int(1)},
                   {"accept", q.Int(2)},
                   {"revise", q.Int(3)},
                   {"reject", q.Int(4)},
                   {"adjudications", q.Int(5)},
                   {"tasks", q.Int(6)},
                   {"last_review", q.Text(7)}});
  }
  LAKEQA_RETURN_IF_ERROR(q.status());
  return out;
}

Result<std::vector<std::string>> Project::Authors(int64_t task_id) {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt q(db_,
         "SELECT DISTINCT who FROM audit WHERE task_id = ? AND action IN ('created', 'saved') ORDER BY who");
  q.Bind(1, task_id);
  std::vector<std::string> out;
  while (q.Step()) out.push_back(q.Text(0));
  LAKEQA_RETURN_IF_ERROR(q.status());
  return out;
}

Status Project::Log(int64_t task_id, const std::string& who, const std::string& action, const Json& detail) {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt log(db_, "INSERT INTO audit(task_id, at, who, action, detail) VALUES(?,?,?,?,?)");
  log.Bind(1, task_id).Bind(2, NowIso()).Bind(3, who).Bind(4, action).Bind(5, DumpJson(detail));
  return log.Run();
}

Result<std::vector<AuditEntry>> Project::Audit(int64_t task_id, size_t limit) {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt q(db_,
         task_id
             ? "SELECT id, task_id, at, who, action, detail FROM audit WHERE task_id = ? ORDER BY id DESC "
               "LIMIT ?"
             : "SELECT id, task_id, at, who, action, detail FROM audit WHERE ? = 0 ORDER BY id DESC LIMIT ?");
  q.Bind(1, task_id).Bind(2, static_cast<int64_t>(limit));
  std::vector<AuditEntry> out;
  while (q.Step()) {
    out.push_back({q.Int(0), q.Int(1), q.Text(2), q.Text(3), q.Text(4), ParseStored(q.Text(5))});
  }
  LAKEQA_RETURN_IF_ERROR(q.status());
  return out;
}

Result<ReviewPolicy> Project::Policy() {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt q(db_, "SELECT value FROM meta WHERE key = 'review_policy'");
  if (!q.Step()) {
    LAKEQA_RETURN_IF_ERROR(q.status());
    return ReviewPolicy{};
  }
  return ReviewPolicy::FromJson(ParseStored(q.Text(0)));
}

Status Project::SetPolicy(const ReviewPolicy& policy, const std::string& who) {
  std::lock_guard<std::mutex> lock(mu_);
  Transaction tx(db_);
  Stmt put(db_,
           "INSERT INTO meta(key, value) VALUES('review_policy', ?) ON CONFLICT(key) DO UPDATE SET value = "
           "excluded.value");
  put.Bind(1, DumpJson(policy.ToJson()));
  LAKEQA_RETURN_IF_ERROR(put.Run());
  Stmt log(db_, "INSERT INTO audit(task_id, at, who, action, detail) VALUES(0,?,?,'policy',?)");
  log.Bind(1, NowIso()).Bind(2, who).Bind(3, DumpJson(policy.ToJson()));
  LAKEQA_RETURN_IF_ERROR(log.Run());
  return tx.Commit();
}

}  // namespace lakeqa::workbench
