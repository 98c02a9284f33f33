// A Session is one agent episode's private workspace: a sandbox directory that downloads land in
// (<sandbox>/<namespace>/<dataset>/<path>, so paths such as datagov/x/files/rows.txt work in SQL and
// Python), the limits every tool call is held to, and the JSONL trace of every call (docs/api.md).
// Layout on disk: <root>/<id>/sandbox/ (the agent's files, writable by its code) and <root>/<id>/trace.jsonl
// (outside the sandbox, so code the agent runs cannot rewrite its own trace). The agent sees the sandbox as
// /sandbox (exec::kSandboxAlias) in every tool result, never its host path.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/json.h"
#include "lakeqa/common/status.h"
#include "lakeqa/exec/sandbox.h"
#include "lakeqa/exec/sql.h"

namespace lakeqa::tools {

struct SessionLimits {
  uint64_t max_download_bytes = 4ULL << 30;  // total bytes downloaded into the sandbox by this session
  uint64_t max_downloaded_files = 200;       // total files downloaded by this session
  size_t max_files_per_download = 5;         // files in one `download` call (the LakeQA harness's limit)
  size_t max_output_chars = 20000;  // a tool result larger than this is shrunk; the full one is saved
  int call_timeout_ms = 60000;      // wall time of one query / execute_code / download call
  size_t max_list_files = 1000;     // files returned per dataset by list_files
  size_t max_search_results = 200;  // ids returned by search / search_keyword
  // Downloaded CSV/JSON files at least this large are imported once into the columnar cache (Parquet in
  // the download cache) when `query` first names them; smaller ones are read directly (docs/sandbox.md).
  uint64_t columnar_min_bytes = 8ULL << 20;
  // The sandbox's disk quota across execute_code runs: bytes of the files the agent's code keeps there
  // (downloads are counted by max_download_bytes instead) and files + folders it may hold in all.
  uint64_t sandbox_disk_bytes = 2ULL << 30;
  uint64_t sandbox_max_files = 20000;
};

// One trace event (one tool call).
struct TraceEvent {
  int turn = 0;
  std::string tool;
  Json arguments;
  std::string status;  // "ok" or the error code name ("not_found", ...)
  std::string error;   // the error message, when status is not "ok"
  double elapsed_ms = 0;
  std::string summary;                // one line: what the result held
  std::vector<std::string> returned;  // "<namespace>/<dataset>" ids a search returned (D_ret)
  std::vector<std::string>
      accessed;  // ids whose files were listed, downloaded, inspected, queried, read (D_acc)
  // execute_code only: `accessed` comes from a log the code could write (lakeqa could not observe the
  // run's opens on this machine), so it may be forged.
  bool accessed_unverified = false;
  bool truncated = false;  // the result was shrunk to the output cap
  Json ToJson() const;
};

// Appends events to a JSONL file, one line per event, flushed per event.
class TraceWriter {
 public:
  static Result<std::unique_ptr<TraceWriter>> Open(const std::string& path);
  ~TraceWriter();
  Status Append(const TraceEvent& event);
  const std::string& path() const { return path_; }

 private:
  TraceWriter() = default;
  std::string path_;
  int fd_ = -1;
};

class Session {
 public:
  // Creates <root>/<id>/ with an empty sandbox and trace. id: [A-Za-z0-9_-]{1,64}.
  static Result<std::unique_ptr<Session>> Create(const std::string& root, const std::string& id,
                                                 SessionLimits limits = {});
  ~Session();

  const std::string& id() const { return id_; }
  const std::string& dir() const { return dir_; }
  const std::string& sandbox_dir() const { return sandbox_; }
  // The sandbox as the agent sees it (/sandbox), and a sandbox-relative path under it.
  static std::string VisibleDir() { return exec::kSandboxAlias; }
  static std::string VisiblePath(std::string_view rel) { return VisibleDir() + "/" + std::string(rel); }
  const std::string& trace_path() const { return trace_->path(); }
  const SessionLimits& limits() const { return limits_; }

  // Serialises the calls of one session (one agent acts at a time); different sessions run in parallel.
  std::mutex& mutex() { return mu_; }

  int NextTurn() { return ++turn_; }
  int turn() const { return turn_; }
  Status AppendTrace(const TraceEvent& event) {
    last_event_ = event;
    return trace_->Append(event);
  }
  // The event appended last (turn 0 and no tool before the first call): what the last call touched.
  const TraceEvent& last_event() const { return last_event_; }
  // The trace so far, one JSON object per event.
  Result<std::vector<Json>> ReadTrace() const;

  // Download accounting: whether `bytes` more in `files` more files fit the limits (resource_exhausted
  // naming the limit otherwise), and recording what was downloaded.
  Status CheckDownload(uint64_t bytes, uint64_t files) const;
  void RecordDownload(uint64_t bytes) {
    downloaded_bytes_ += bytes;
    ++downloaded_files_;
  }
  uint64_t downloaded_bytes() const { return downloaded_bytes_; }
  uint64_t downloaded_files() const { return downloaded_files_; }

  // Places a file at sandbox-relative path `rel` (validated: no "..", not absolute, no symlink or file
  // on the way — a symlink planted by the agent's code never redirects a write outside the sandbox).
  // LinkFile hard-links `source` (falling back to a copy across filesystems); WriteFile writes data.
  Status LinkFile(std::string_view rel, const std::string& source);
  Status WriteFile(std::string_view rel, std::string_view data);

  // The session's DuckDB, opened on first use. With cache_dir (the shared download cache) the columnar
  // cache is on; its per-session links live in <dir>/columnar, outside the sandbox.
  Result<exec::SqlSandbox*> Sql(const std::string& cache_dir = "");
  // Records that sandbox file `rel` is a hard link of download-cache file `source` with this content
  // hash, so `query` may serve it from the columnar cache, and which inode it is, so that opens lakeqa
  // observes count for its dataset (D_acc) and it stays out of the disk quota.
  void NoteDownload(const std::string& rel, const std::string& sha256, const std::string& source);
  // The sandbox-relative path of the download that is inode (dev, ino), "" when none is.
  std::string DownloadAt(uint64_t dev, uint64_t ino) const;
  std::vector<std::pair<uint64_t, uint64_t>> DownloadInodes() const;

  // The cancel token of the call in progress (set by ToolSet::Call for its duration), or nullptr.
  exec::CancelToken* cancel() const { return cancel_; }
  void set_cancel(exec::CancelToken* token) { cancel_ = token; }

  // submit_answer's record; set once.
  std::optional<Json> answer;

 private:
  Session() = default;
  std::string id_, dir_, sandbox_;
  SessionLimits limits_;
  std::unique_ptr<TraceWriter> trace_;
  TraceEvent last_event_;
  std::mutex mu_;
  int turn_ = 0;
  uint64_t downloaded_bytes_ = 0, downloaded_files_ = 0;
  std::unique_ptr<exec::SqlSandbox> sql_;
  std::vector<exec::KnownFile> downloads_;
  std::map<std::pair<uint64_t, uint64_t>, std::string> download_inodes_;
  exec::CancelToken* cancel_ = nullptr;
};

// Checks a relative path an agent passed (a dataset file path or a sandbox path): not empty, not
// absolute, no "." or ".." segment (also when percent-encoded: %2e%2e), no backslash, no NUL, no empty
// segment. `what` names the argument in the error (permission_denied for escapes, invalid_argument else).
Status ValidateRelativePath(std::string_view path, std::string_view what);

}  // namespace lakeqa::tools
