// enwiki: a pages-articles XML dump (bz2, multistream with index, or plain XML) → one dataset per
// article: wikipedia/<folder>/content.txt, content.wikitext, metadata.json.
//
// Parallelism: with a multistream index, each bz2 stream (about 100 pages) is a task on the pool that
// decompresses, parses, converts and writes its pages, so datasets are written out of dump order.
// Without an index one thread decompresses and splits pages and the pool converts and writes them.
//
// Redirects become "aliases" of their targets. A dump holds ~10 M redirects, so the (target, alias)
// pairs are buffered up to alias_memory_bytes, then sorted and spilled to a run file; after all pages
// are written the runs are merged and each target's metadata.json is rewritten once with its aliases.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <queue>
#include <tuple>

#include "ingest/build_internal.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/common/thread_pool.h"
#include "lakeqa/ingest/convert.h"
#include "lakeqa/ingest/sources.h"

namespace lakeqa::ingest {
namespace {

constexpr size_t kMaxAliasesPerPage = 10000;

std::string OneLine(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  }
  return out;
}

// Sorted runs of "target_folder \t alias_title" lines on disk.
class AliasSpill {
 public:
  AliasSpill(std::string dir, size_t memory_bytes) : dir_(std::move(dir)), memory_bytes_(memory_bytes) {}

  Status Add(std::string target_folder, std::string alias) {
    std::lock_guard lock(mu_);
    bytes_ += target_folder.size() + alias.size() + 64;
    pairs_.emplace_back(std::move(target_folder), OneLine(alias));
    ++total_;
    if (bytes_ >= memory_bytes_) return SpillLocked();
    return Status::Ok();
  }

  uint64_t total() const { return total_; }
  size_t runs() const { return runs_.size(); }

  // Merges the runs and calls visit(target, aliases) once per target, in target order.
  Status Merge(const std::function<void(const std::string&, std::vector<std::string>&&)>& visit) {
    {
      std::lock_guard lock(mu_);
      if (!pairs_.empty()) LAKEQA_RETURN_IF_ERROR(SpillLocked());
    }
    struct Cursor {
      FILE* f = nullptr;
      std::string target, alias;
      bool Next() {
        char* line = nullptr;
        size_t cap = 0;
        ssize_t n = ::getline(&line, &cap, f);
        if (n <= 0) {
          std::free(line);
          return false;
        }
        std::string_view l(line, static_cast<size_t>(n));
        if (!l.empty() && l.back() == '\n') l.remove_suffix(1);
        size_t tab = l.find('\t');
        target = std::string(l.substr(0, tab));
        alias = tab == std::string_view::npos ? "" : std::string(l.substr(tab + 1));
        std::free(line);
        return true;
      }
    };
    std::vector<Cursor> cursors(runs_.size());
    auto greater = [&](size_t a, size_t b) {
      return std::tie(cursors[a].target, cursors[a].alias) > std::tie(cursors[b].target, cursors[b].alias);
    };
    std::priority_queue<size_t, std::vector<size_t>, decltype(greater)> heap(greater);
    Status status;
    for (size_t i = 0; i < runs_.size(); ++i) {
      cursors[i].f = std::fopen(runs_[i].c_str(), "rb");
      if (!cursors[i].f) {
        status = ErrnoStatus(errno, runs_[i]);
        break;
      }
      if (cursors[i].Next()) heap.push(i);
    }
    std::string current;
    std::vector<std::string> aliases;
    while (status.ok() && !heap.empty()) {
      size_t i = heap.top();
      heap.pop();
      if (cursors[i].target != current) {
        if (!aliases.empty()) visit(current, std::move(aliases));
        aliases.clear();
        current = cursors[i].target;
      }
      if (aliases.size() < kMaxAliasesPerPage && (aliases.empty() || aliases.back() != cursors[i].alias)) {
        aliases.push_back(cursors[i].alias);
      }
      if (cursors[i].Next()) heap.push(i);
    }
    if (status.ok() && !aliases.empty()) visit(current, std::move(aliases));
    for (auto& c : cursors) {
      if (c.f) std::fclose(c.f);
    }
    return status;
  }

 private:
  Status SpillLocked() {
    std::sort(pairs_.begin(), pairs_.end());
    std::string path = dir_ + "/aliases-" + std::to_string(runs_.size()) + ".run";
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return ErrnoStatus(errno, path);
    for (const auto& [t, a] : pairs_) {
      std::fputs(t.c_str(), f);
      std::fputc('\t', f);
      std::fputs(a.c_str(), f);
      std::fputc('\n', f);
    }
    bool bad = std::ferror(f) != 0;
    if (std::fclose(f) != 0 || bad) return IoError("writing alias spill file " + path);
    runs_.push_back(path);
    pairs_.clear();
    pairs_.shrink_to_fit();
    bytes_ = 0;
    return Status::Ok();
  }

  std::string dir_;
  size_t memory_bytes_;
  std::mutex mu_;
  std::vector<std::pair<std::string, std::string>> pairs_;
  size_t bytes_ = 0;
  std::atomic<uint64_t> total_{0};
  std::vector<std::string> runs_;
};

class EnwikiBuilder {
 public:
  EnwikiBuilder(BuildContext& ctx, std::string path, std::string spill_dir)
      : ctx_(ctx),
        path_(std::move(path)),
        ns_(ctx.options().namespace_name.empty() ? "wikipedia" : ctx.options().namespace_name),
        spill_(std::move(spill_dir), ctx.options().alias_memory_bytes) {}

  Status Run() {
    std::string index = ctx_.options().index_path;
    if (index.empty() && ctx_.options().use_index) {
      std::string guess = DefaultMultistreamIndexPath(path_);
      if (guess != path_ && PathExists(guess)) index = guess;
    }
    bool bz2 = EndsWith(path_, ".bz2");
    {
      ThreadPool pool(ctx_.jobs());
      if (!index.empty() && ctx_.options().use_index && bz2) {
        LAKEQA_RETURN_IF_ERROR(RunMultistream(pool, index));
      } else {
        RunSingleStream(pool, bz2);
      }
      pool.Wait();
    }
    if (ctx_.fatal()) return ctx_.fatal_status();
    // The alias pass reads back the pages' metadata.json: they must be visible first.
    LAKEQA_RETURN_IF_ERROR(ctx_.Commit());
    WriteAliases();
    ctx_.Detail("enwiki", {{"mode", mode_},
                           {"streams", streams_.load()},
                           {"pages_read", pages_.load()},
                           {"redirects", spill_.total()},
                           {"alias_spill_runs", spill_.runs()},
                           {"pages_with_aliases", alias_targets_.load()},
                           {"redirect_targets_missing", alias_missing_.load()}});
    return Status::Ok();
  }

 private:
  void OnXmlError(const std::string& where, const Status& error, uint64_t offset) {
    ctx_.Error(where + " at decompressed offset " + std::to_string(offset), error);
  }

  void RunSingleStream(ThreadPool& pool, bool bz2) {
    mode_ = bz2 ? "bz2 single stream" : "xml";
    WikiXmlReader reader(
        [&](WikiPage&& page) -> Status {
          if (ctx_.fatal()) return ctx_.fatal_status();
          // Classified here, in dump order, so that which of two same-titled pages wins is deterministic.
          std::string folder;
          if (!Classify(page, folder)) return Status::Ok();
          auto shared = std::make_shared<WikiPage>(std::move(page));
          pool.Submit([this, shared, folder] { WritePage(*shared, folder); });
          return Status::Ok();
        },
        [&](const Status& e, uint64_t offset) { OnXmlError(path_, e, offset); },
        ctx_.options().max_page_bytes);
    Status s = ReadLocalFile(path_, 0, 0, bz2, [&](std::string_view chunk) { return reader.Feed(chunk); });
    streams_ = 1;
    if (!s.ok()) {
      if (s.code() == ErrorCode::kParseError || s.code() == ErrorCode::kResourceExhausted) {
        ctx_.Error(path_, s.WithContext("dump unreadable from here on; " + std::to_string(reader.pages()) +
                                        " pages before it were read"));
      } else if (!ctx_.fatal()) {
        ctx_.Error(path_, s);
      }
      return;
    }
    Status f = reader.Finish();
    if (!f.ok()) ctx_.Error(path_, f);
  }

  Status RunMultistream(ThreadPool& pool, const std::string& index) {
    mode_ = "bz2 multistream";
    struct stat st;
    if (::stat(path_.c_str(), &st) != 0) return ErrnoStatus(errno, path_);
    const uint64_t file_size = static_cast<uint64_t>(st.st_size);
    uint64_t prev = 0;
    auto submit = [&](uint64_t begin, uint64_t end) {
      if (end <= begin) return;
      ++streams_;
      pool.Submit([this, begin, end] { ReadStream(begin, end); });
    };
    Status s = ReadMultistreamOffsets(index, [&](uint64_t off) -> Status {
      if (ctx_.fatal()) return ctx_.fatal_status();
      if (off > file_size) {
        return ParseError("index offset " + std::to_string(off) + " is past the end of the dump (" +
                          std::to_string(file_size) + " bytes)");
      }
      submit(prev, off);
      prev = off;
      return Status::Ok();
    });
    if (!s.ok()) {
      // The streams before the bad index line are queued or done; the rest is read as one stream so
      // no pages are lost (a multistream file is a valid concatenated bz2 input from any stream start).
      ctx_.Error(index, s.WithContext("multistream index unusable from here; reading the rest sequentially"));
    }
    submit(prev, file_size);
    return Status::Ok();
  }

  void ReadStream(uint64_t begin, uint64_t end) {
    if (ctx_.fatal()) return;
    std::string where = path_ + " bytes " + std::to_string(begin) + "-" + std::to_string(end);
    WikiXmlReader reader(
        [&](WikiPage&& page) -> Status {
          std::string folder;
          if (Classify(page, folder)) WritePage(page, folder);
          return ctx_.fatal() ? ctx_.fatal_status() : Status::Ok();
        },
        [&](const Status& e, uint64_t offset) { OnXmlError(where, e, offset); },
        ctx_.options().max_page_bytes);
    Status s =
        ReadLocalFile(path_, begin, end - begin, true, [&](std::string_view c) { return reader.Feed(c); });
    if (s.ok()) s = reader.Finish();
    if (!s.ok() && !ctx_.fatal()) ctx_.Error(where, s);
  }

  // Redirect, namespace and duplicate checks; true when the page is to be written to `folder`.
  bool Classify(const WikiPage& page, std::string& folder) {
    ++pages_;
    const BuildOptions& o = ctx_.options();
    if (!page.redirect.empty()) {
      if (page.ns == 0) {
        std::string target = page.redirect.substr(0, page.redirect.find('#'));
        Status s = spill_.Add(TitleToFolder(Trim(target)), page.title);
        if (!s.ok()) ctx_.Error(page.title, s.WithContext("recording redirect"));
      }
      if (!o.keep_redirects) {
        ctx_.Skip(page.title, "redirect");
        return false;
      }
    }
    if (page.ns != 0 && !o.all_namespaces) {
      ctx_.Skip(page.title, "namespace " + std::to_string(page.ns));
      return false;
    }
    folder = TitleToFolder(page.title);
    if (!ctx_.Claim(ns_ + "/" + folder + "/")) {
      ctx_.Skip(page.title + " (page id " + std::to_string(page.id) + ")", "duplicate title");
      return false;
    }
    return true;
  }

  void WritePage(const WikiPage& page, const std::string& folder) {
    std::string prefix = ns_ + "/" + folder + "/";
    WikiText text = WikitextToText(page.text);
    if (Trim(text.text).empty() && page.redirect.empty()) {
      ctx_.Skip(page.title, "no text after conversion");
      return;
    }
    Json meta;
    meta["title"] = page.title;
    meta["page_id"] = page.id;
    meta["revision_id"] = page.revision_id;
    meta["timestamp"] = page.timestamp;
    meta["namespace"] = page.ns;
    if (!page.redirect.empty()) meta["redirect_to"] = page.redirect;
    meta["categories"] = text.categories;
    meta["aliases"] = Json::array();
    meta["source"] = "enwiki";
    meta["folder"] = folder;
    if (IsTruncatedFolder(folder)) meta["folder_truncated"] = true;
    Status s = ctx_.Put(prefix + "content.txt", SanitizeUtf8(text.text) + "\n");
    if (s.ok()) s = ctx_.Put(prefix + "content.wikitext", page.text);
    if (s.ok()) s = ctx_.Put(prefix + "metadata.json", DumpJson(meta, 2) + "\n");
    if (!s.ok()) {
      ctx_.Error(page.title, s);
      return;
    }
    ctx_.Dataset("article");
  }

  void WriteAliases() {
    ThreadPool pool(ctx_.jobs());
    Status s = spill_.Merge([&](const std::string& target, std::vector<std::string>&& aliases) {
      if (ctx_.fatal()) return;
      auto shared = std::make_shared<std::vector<std::string>>(std::move(aliases));
      pool.Submit([this, target, shared] { AddAliases(target, *shared); });
    });
    pool.Wait();
    if (!s.ok()) ctx_.Error("redirect aliases", s);
  }

  void AddAliases(const std::string& folder, const std::vector<std::string>& aliases) {
    std::string key = ns_ + "/" + folder + "/metadata.json";
    auto bytes = ctx_.store().ReadRange(key, 0, 0);
    if (!bytes.ok()) {
      if (bytes.status().code() == ErrorCode::kNotFound) {
        ++alias_missing_;
        ctx_.Skip(aliases.front() + " -> " + folder, "redirect target not in lake");
      } else {
        ctx_.Error(key, bytes.status().WithContext("adding aliases"));
      }
      return;
    }
    auto meta = ParseJson(*bytes, key);
    if (!meta.ok()) {
      ctx_.Error(key, meta.status());
      return;
    }
    (*meta)["aliases"] = aliases;
    Status s = ctx_.store().Write(key, DumpJson(*meta, 2) + "\n");
    if (!s.ok()) {
      ctx_.Error(key, s.WithContext("adding aliases"));
      return;
    }
    ++alias_targets_;
  }

  BuildContext& ctx_;
  std::string path_;
  std::string ns_;
  std::string mode_;
  AliasSpill spill_;
  std::atomic<uint64_t> pages_{0}, streams_{0}, alias_targets_{0}, alias_missing_{0};
};

}  // namespace

Status BuildEnwiki(BuildContext& ctx, const std::string& path) {
  std::string base = ctx.options().temp_dir;
  Result<std::string> tmp = base.empty() ? MakeTempDir("lakeqa-enwiki-") : [&]() -> Result<std::string> {
    std::string dir = base + "/lakeqa-enwiki-" + std::to_string(::getpid());
    LAKEQA_RETURN_IF_ERROR(MakeDirs(dir));
    return dir;
  }();
  if (!tmp.ok()) return tmp.status().WithContext("temporary folder for redirect aliases");
  Status s;
  {
    EnwikiBuilder builder(ctx, path, *tmp);
    s = builder.Run();
  }
  (void)RemoveAll(*tmp);
  return s;
}

}  // namespace lakeqa::ingest
