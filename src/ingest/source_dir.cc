// dir: any folder tree. Each top-level folder becomes a dataset <ns>/<folder>/<relative path> (files
// copied byte for byte), or with one_dataset_per_file each file becomes a dataset named after its
// relative path (NameToFolder: '/' → %2F) holding that one file.
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>

#include "ingest/build_internal.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/posix_io.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/common/thread_pool.h"
#include "lakeqa/ingest/convert.h"

namespace lakeqa::ingest {
namespace {

// Store keys keep the file's own path segments; a segment a store key cannot hold ("..", empty) never
// comes out of a directory listing, but names with control bytes do and are encoded.
std::string KeyPath(std::string_view relative) {
  std::string out;
  for (auto seg : Split(relative, '/')) {
    if (!out.empty()) out += '/';
    bool plain = std::none_of(seg.begin(), seg.end(), [](char c) {
      return static_cast<unsigned char>(c) < 0x20 || c == 0x7F || c == '\\';
    });
    out += plain ? std::string(seg) : NameToFolder(seg);
  }
  return out;
}

bool CopyFile(BuildContext& ctx, const std::string& src, const std::string& key, const std::string& item,
              uint64_t size) {
  if (size > ctx.options().max_file_bytes) {
    ctx.Skip(item, "file larger than max_file_bytes");
    return false;
  }
  auto data = ReadFile(src, ctx.options().max_file_bytes + 1);
  if (!data.ok()) {
    ctx.Error(item, data.status());
    return false;
  }
  Status s = ctx.Put(key, *data);
  if (!s.ok()) ctx.Error(item, s);
  return s.ok();
}

}  // namespace

Status BuildDir(BuildContext& ctx, const std::string& path) {
  std::string ns = ctx.options().namespace_name.empty() ? "dir" : ctx.options().namespace_name;
  std::vector<LocalFile> top;
  std::vector<ReportItem> skipped;
  ThreadPool pool(ctx.jobs());
  if (ctx.options().one_dataset_per_file) {
    LAKEQA_RETURN_IF_ERROR(ListLocalTree(path, top, skipped));
    for (const auto& s : skipped) ctx.Skip(s.item, s.reason);
    for (const auto& f : top) {
      if (ctx.fatal()) break;
      std::string folder = NameToFolder(f.relative);
      std::string prefix = ns + "/" + folder + "/";
      if (!ctx.Claim(prefix)) {
        ctx.Skip(f.relative, "duplicate dataset name");
        continue;
      }
      std::string base = f.relative.substr(f.relative.rfind('/') + 1);
      pool.Submit([&ctx, path, prefix, f, base] {
        if (CopyFile(ctx, path + "/" + f.relative, prefix + KeyPath(base), f.relative, f.size))
          ctx.Dataset("file");
      });
    }
    pool.Wait();
    return Status::Ok();
  }
  // Top level: folders are datasets, files are skipped.
  LAKEQA_ASSIGN_OR_RETURN(std::vector<std::string> names, ListDirSorted(path));
  for (const auto& name : names) {
    if (ctx.fatal()) break;
    std::string full = path + "/" + name;
    struct stat st;
    if (::lstat(full.c_str(), &st) != 0) {
      ctx.Error(name, ErrnoStatus(errno, full));
      continue;
    }
    if (S_ISLNK(st.st_mode)) {
      ctx.Skip(name, "symbolic link (not followed)");
      continue;
    }
    if (!S_ISDIR(st.st_mode)) {
      ctx.Skip(name, "top-level file (not in a dataset folder; see --one-dataset-per-file)");
      continue;
    }
    std::string prefix = ns + "/" + NameToFolder(name) + "/";
    if (!ctx.Claim(prefix)) {
      ctx.Skip(name, "duplicate dataset name");
      continue;
    }
    std::vector<LocalFile> files;
    skipped.clear();
    Status s = ListLocalTree(full, files, skipped);
    if (!s.ok()) {
      ctx.Error(name, s);
      continue;
    }
    for (const auto& sk : skipped) ctx.Skip(name + "/" + sk.item, sk.reason);
    if (files.empty()) {
      ctx.Skip(name, "empty folder");
      continue;
    }
    for (const auto& f : files) {
      pool.Submit([&ctx, full, prefix, name, f] {
        CopyFile(ctx, full + "/" + f.relative, prefix + KeyPath(f.relative), name + "/" + f.relative, f.size);
      });
    }
    pool.Wait();  // one dataset at a time, so the count below means "all its files were attempted"
    ctx.Dataset("folder");
  }
  return Status::Ok();
}

}  // namespace lakeqa::ingest
