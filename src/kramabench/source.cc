// kramabench: a KramaBench checkout (data/<domain>/input/...) →
//   kramabench-<domain>/<NameToFolder(relative path)>/<file name> + metadata.json   one dataset per file
// (kramabench.h says why files, not top-level folders). Files are copied byte for byte; metadata.json
// carries the domain and the file's path under input/, which the solutions oracle uses to lay the files
// out again as data/<domain>/input/ in the sandbox.
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/common/thread_pool.h"
#include "lakeqa/ingest/build_context.h"
#include "lakeqa/kramabench/names.h"

namespace lakeqa::kramabench {

using ingest::BuildContext;
using ingest::ListLocalTree;
using ingest::LocalFile;
using ingest::ReportItem;

namespace {

Result<std::vector<std::string>> Domains(const std::string& data) {
  DIR* d = ::opendir(data.c_str());
  if (!d) return ErrnoStatus(errno, data);
  std::vector<std::string> out;
  while (dirent* e = ::readdir(d)) {
    std::string n = e->d_name;
    if (n == "." || n == "..") continue;
    struct stat st;
    std::string input = data + "/" + n + "/input";
    if (::stat(input.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) out.push_back(n);
  }
  ::closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

void BuildDomain(BuildContext& ctx, const std::string& domain, const std::string& input,
                 const std::string& ns, Json& details) {
  std::vector<LocalFile> files;
  std::vector<ReportItem> skipped;
  Status ls = ListLocalTree(input, files, skipped);
  if (!ls.ok()) {
    ctx.Error(domain, ls);
    return;
  }
  for (const auto& s : skipped) ctx.Skip(domain + "/" + s.item, s.reason);
  ThreadPool pool(ctx.jobs());
  uint64_t submitted = 0;
  for (const auto& f : files) {
    if (ctx.fatal()) break;
    std::string item = domain + "/" + f.relative;
    std::string base = f.relative.substr(f.relative.rfind('/') + 1);
    if (base == ".DS_Store") {
      ctx.Skip(item, "macOS Finder metadata (.DS_Store), not data");
      continue;
    }
    if (base == "metadata.json") {
      ctx.Skip(item, "named metadata.json, which a dataset folder reserves for its own record");
      continue;
    }
    if (f.size > ctx.options().max_file_bytes) {
      ctx.Skip(item, "file larger than max_file_bytes");
      continue;
    }
    std::string prefix = ns + "/" + KramaBenchDatasetFolder(f.relative) + "/";
    if (!ctx.Claim(prefix)) {
      ctx.Skip(item, "duplicate dataset name");
      continue;
    }
    ++submitted;
    pool.Submit([&ctx, input, prefix, f, base, item, domain] {
      auto data = ReadFile(input + "/" + f.relative, ctx.options().max_file_bytes + 1);
      if (!data.ok()) {
        ctx.Error(item, data.status());
        return;
      }
      Json meta;
      meta["kind"] = "file";
      meta["title"] = f.relative;
      meta["description"] = "KramaBench " + domain + " input file " + f.relative;
      meta["source"] = "kramabench";
      meta["domain"] = domain;
      meta["path"] = f.relative;  // under data/<domain>/input/
      meta["file"] = base;
      meta["bytes"] = data->size();
      Status s = ctx.Put(prefix + base, *data);
      if (s.ok()) s = ctx.Put(prefix + "metadata.json", DumpJson(meta, 2) + "\n");
      if (!s.ok()) ctx.Error(item, s);
      else ctx.Dataset("file");
    });
  }
  pool.Wait();
  details[domain] = {{"namespace", ns}, {"files_seen", files.size()}, {"datasets_attempted", submitted}};
}

}  // namespace

Status BuildKramaBench(BuildContext& ctx, const std::string& path) {
  std::string data = path + "/data";
  if (!PathExists(data)) {
    return NotFound(path + ": not a KramaBench checkout (expected data/<domain>/input/ folders)");
  }
  auto domains = Domains(data);
  if (!domains.ok()) return domains.status();
  if (domains->empty()) {
    return NotFound(data +
                    ": no <domain>/input/ folder (not a KramaBench checkout, or its data was not fetched)");
  }
  Json details = Json::object();
  for (const auto& domain : *domains) {
    if (ctx.fatal()) break;
    BuildDomain(ctx, domain, data + "/" + domain + "/input",
                KramaBenchNamespace(domain, ctx.options().namespace_name), details);
  }
  ctx.Detail("domains", std::move(details));
  return Status::Ok();
}

}  // namespace lakeqa::kramabench
