// BuildLake: dispatch to the source readers, plus the shared context and the report.
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <functional>

#include "ingest/build_internal.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/common/thread_pool.h"
#include "lakeqa/ingest/source_kind.h"
#include "lakeqa/lake/local_store.h"

namespace lakeqa::ingest {

namespace {

// "enwiki, datagov, dir, ...": the kinds --source accepts, for its errors.
std::string KindList() {
  std::string out;
  for (const SourceKindSpec& k : SourceKinds()) out += (out.empty() ? "" : ", ") + k.name;
  return out;
}

}  // namespace

Result<SourceSpec> ParseSourceSpec(std::string_view spec) {
  size_t colon = spec.find(':');
  if (colon == std::string_view::npos || colon + 1 >= spec.size()) {
    return InvalidArgument("--source must be <kind>:<path> (kinds: " + KindList() + "), got '" +
                           std::string(spec) + "'");
  }
  std::string_view kind = spec.substr(0, colon);
  if (FindSourceKind(kind) == nullptr)
    return InvalidArgument("unknown source kind '" + std::string(kind) + "' (" + KindList() + ")");
  SourceSpec s;
  s.kind = std::string(kind);
  s.path = std::string(spec.substr(colon + 1));
  return s;
}

uint64_t BuildReport::DatasetsTotal() const {
  uint64_t n = 0;
  for (const auto& [k, v] : datasets) n += v;
  return n;
}

Json BuildReport::ToJson() const {
  Json j;
  j["source"] = source;
  j["lake"] = lake;
  j["datasets_total"] = DatasetsTotal();
  j["datasets"] = Json::object();
  for (const auto& [k, v] : datasets) j["datasets"][k] = v;
  j["files"] = files;
  j["bytes"] = bytes;
  if (duplicate_files) j["duplicate_files"] = duplicate_files;
  j["skipped_total"] = skipped_total;
  j["skipped_by_reason"] = Json::object();
  for (const auto& [k, v] : skipped_by_reason) j["skipped_by_reason"][k] = v;
  j["skipped"] = Json::array();
  for (const auto& s : skipped) j["skipped"].push_back({{"item", s.item}, {"reason", s.reason}});
  j["errors_total"] = errors_total;
  j["errors"] = Json::array();
  for (const auto& e : errors) j["errors"].push_back({{"item", e.item}, {"error", e.reason}});
  for (const auto& [k, v] : details) j[k] = v;
  j["seconds"] = seconds;
  return j;
}

uint64_t HashBytes(std::string_view s) {
  // FNV-1a then a murmur finaliser: cheap and well mixed for open addressing.
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h;
}

bool HashSet64::Insert(uint64_t h) {
  if (h == 0) h = 1;
  if ((size_ + 1) * 2 > slots_.size()) Grow();
  size_t mask = slots_.size() - 1;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    if (slots_[i] == h) return false;
    if (slots_[i] == 0) {
      slots_[i] = h;
      ++size_;
      return true;
    }
  }
}

void HashSet64::Grow() {
  std::vector<uint64_t> old = std::move(slots_);
  slots_.assign(old.empty() ? 1024 : old.size() * 2, 0);
  size_t mask = slots_.size() - 1;
  for (uint64_t h : old) {
    if (h == 0) continue;
    size_t i = h & mask;
    while (slots_[i] != 0) i = (i + 1) & mask;
    slots_[i] = h;
  }
}

BuildContext::BuildContext(lake::Store& store, const BuildOptions& options, ProgressBar* progress,
                           BuildReport& report)
    : store_(store), options_(options), progress_(progress), report_(report) {}

size_t BuildContext::jobs() const { return options_.jobs ? options_.jobs : ThreadPool::DefaultThreads(); }

Status BuildContext::Put(const std::string& key, std::string_view data) {
  if (fatal_) return fatal_status();
  LAKEQA_RETURN_IF_ERROR(lake::ValidateKey(key));
  Status s = store_.Write(key, data);
  if (!s.ok()) {
    if (++consecutive_write_failures_ >= 50) {
      std::lock_guard lock(mu_);
      if (!fatal_) {
        fatal_status_ = s.WithContext("the store failed 50 writes in a row; build stopped");
        fatal_ = true;
      }
    }
    return s.WithContext("writing " + key);
  }
  consecutive_write_failures_ = 0;
  std::lock_guard lock(mu_);
  ++report_.files;
  report_.bytes += data.size();
  return Status::Ok();
}

Status BuildContext::Commit() {
  auto* local = dynamic_cast<lake::LocalStore*>(&store_);
  return local ? local->Commit() : Status::Ok();
}

Status BuildContext::fatal_status() {
  std::lock_guard lock(mu_);
  return fatal_status_;
}

bool BuildContext::Claim(std::string_view ns_and_folder) {
  uint64_t h = HashBytes(ns_and_folder);
  std::lock_guard lock(mu_);
  return claimed_.Insert(h);
}

void BuildContext::Dataset(std::string_view kind) {
  {
    std::lock_guard lock(mu_);
    ++report_.datasets[std::string(kind)];
  }
  if (progress_) progress_->Add(1);
}

void BuildContext::Skip(std::string_view item, std::string_view reason) {
  std::lock_guard lock(mu_);
  ++report_.skipped_total;
  ++report_.skipped_by_reason[std::string(reason)];
  if (report_.skipped.size() < options_.max_report_items) {
    report_.skipped.push_back({SanitizeUtf8(item), std::string(reason)});
  }
}

void BuildContext::Error(std::string_view item, const Status& status) {
  std::lock_guard lock(mu_);
  ++report_.errors_total;
  if (report_.errors.size() < options_.max_report_items) {
    report_.errors.push_back({SanitizeUtf8(item), SanitizeUtf8(status.ToString())});
  }
}

void BuildContext::DuplicateFile() {
  std::lock_guard lock(mu_);
  ++report_.duplicate_files;
}

void BuildContext::Detail(const std::string& key, Json value) {
  std::lock_guard lock(mu_);
  report_.details[key] = std::move(value);
}

Status ListLocalTree(const std::string& root, std::vector<LocalFile>& files,
                     std::vector<ReportItem>& skipped) {
  std::function<Status(const std::string&, const std::string&)> walk = [&](const std::string& dir,
                                                                           const std::string& rel) -> Status {
    DIR* d = ::opendir(dir.c_str());
    if (!d) return ErrnoStatus(errno, dir);
    std::vector<std::string> names;
    while (dirent* e = ::readdir(d)) {
      std::string_view n = e->d_name;
      if (n == "." || n == "..") continue;
      names.emplace_back(n);
    }
    ::closedir(d);
    std::sort(names.begin(), names.end());
    for (const auto& n : names) {
      std::string full = dir + "/" + n;
      std::string r = rel.empty() ? n : rel + "/" + n;
      struct stat st;
      if (::lstat(full.c_str(), &st) != 0) {
        skipped.push_back({r, ErrnoStatus(errno, "lstat").ToString()});
        continue;
      }
      if (S_ISLNK(st.st_mode)) {
        skipped.push_back({r, "symbolic link (not followed)"});
      } else if (S_ISDIR(st.st_mode)) {
        Status s = walk(full, r);
        if (!s.ok()) skipped.push_back({r, s.ToString()});
      } else if (S_ISREG(st.st_mode)) {
        files.push_back({r, static_cast<uint64_t>(st.st_size)});
      } else {
        skipped.push_back({r, "special file (FIFO, socket or device)"});
      }
    }
    return Status::Ok();
  };
  return walk(root, "");
}

Result<BuildReport> BuildLake(lake::Store& store, const SourceSpec& source, const BuildOptions& options,
                              ProgressBar* progress) {
  const SourceKindSpec* kind = FindSourceKind(source.kind);
  if (kind == nullptr || kind->build == nullptr)
    return InvalidArgument("unknown source kind '" + source.kind + "'");
  auto start = std::chrono::steady_clock::now();
  BuildReport report;
  report.source = source.kind + ":" + source.path;
  report.lake = store.Uri();
  struct stat st;
  if (::stat(source.path.c_str(), &st) != 0) return ErrnoStatus(errno, "source " + source.path);
  // A build writes three or more small files per dataset: an fsync (and journal commit) for each costs
  // more than all the parsing, so a local lake syncs once per batch instead, and everything is durable
  // before the report exists. The store's own setting is restored afterwards.
  auto* local = dynamic_cast<lake::LocalStore*>(&store);
  bool switched = local && !options.sync_each_object && local->durability() == lake::Durability::kPerObject;
  if (switched) {
    LAKEQA_RETURN_IF_ERROR(local->SetDurability(lake::Durability::kBatch, options.sync_batch_objects));
  }
  BuildContext ctx(store, options, progress, report);
  Status s = kind->build(ctx, source.path);
  if (s.ok() && ctx.fatal()) s = ctx.fatal_status();
  if (local) {
    // Commit even after a failure: what was written is kept.
    Status c = switched ? local->SetDurability(lake::Durability::kPerObject) : local->Commit();
    if (s.ok() && !c.ok()) s = c.WithContext("making the lake durable");
  }
  if (!s.ok()) return s;
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace lakeqa::ingest
