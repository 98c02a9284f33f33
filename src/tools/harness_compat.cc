// What lets prompts and code written for the LakeQA harness (evaluation/tools/agent_tools.py) run
// unchanged: leading-slash file paths, the harness's <sandbox>/<dataset>/<file> spelling of downloaded
// files, and result counts that stay true after the output cap shortens a list (docs/tools.md, "Coming
// from the LakeQA harness").
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/internal.h"

namespace lakeqa::tools {

Result<std::string> DatasetFilePath(std::string_view file_path) {
  // The harness strips leading slashes (file_path.lstrip('/')) and reads the key inside the dataset, so
  // "/files/rows.txt" names files/rows.txt. Only the slashes go: what remains is checked like any other
  // path, so "/../x" is still refused and nothing outside the dataset can be named.
  std::string_view rest = file_path;
  while (!rest.empty() && rest.front() == '/') rest.remove_prefix(1);
  if (rest.empty() && !file_path.empty())
    return InvalidArgument("file_path '" + std::string(file_path) + "' names no file (only slashes)");
  LAKEQA_RETURN_IF_ERROR(ValidateRelativePath(rest, "file_path"));
  return std::string(rest);
}

namespace {

bool IsNamespace(const std::string& name, const std::vector<std::string>& namespaces) {
  return std::find(namespaces.begin(), namespaces.end(), name) != namespaces.end();
}

struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// The target an alias of dataset `id` in namespace `ns` points at (relative, so it resolves inside the
// sandbox wherever the sandbox is mounted: on the host for DuckDB, under bubblewrap for Python).
std::string AliasTarget(const std::string& ns, const std::string& id) { return ns + "/" + id; }

std::string ReadLinkAt(int dirfd, const std::string& name) {
  char buf[4096];
  ssize_t n = ::readlinkat(dirfd, name.c_str(), buf, sizeof buf);
  return n < 0 || static_cast<size_t>(n) >= sizeof buf ? std::string()
                                                       : std::string(buf, static_cast<size_t>(n));
}

}  // namespace

std::string LinkDatasetAlias(const std::string& sandbox, const DatasetRef& ref,
                             const std::vector<std::string>& namespaces) {
  // A name that a namespace folder, the sandbox's hidden folders or anything the agent made already own
  // is never taken: downloads into <namespace>/ must keep working and nothing is replaced.
  if (ref.id.empty() || ref.id.front() == '.' || ref.id.find('/') != std::string::npos)
    return "the dataset id cannot be a top-level name";
  if (IsNamespace(ref.id, namespaces)) return "'" + ref.id + "' is also a namespace folder";
  int root = ::open(sandbox.c_str(), O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_RDONLY);
  if (root < 0) return "the sandbox could not be opened";
  Fd r{root};
  std::string target = AliasTarget(ref.ns, ref.id);
  if (::symlinkat(target.c_str(), root, ref.id.c_str()) == 0) return "";
  int err = errno;
  if (err != EEXIST) return std::string("the alias could not be made: ") + std::strerror(err);
  if (ReadLinkAt(root, ref.id) == target) return "";  // made by an earlier download
  return "'" + ref.id + "' already exists in the sandbox";
}

bool IsDatasetAlias(const std::string& sandbox, const std::string& rel,
                    const std::vector<std::string>& namespaces) {
  if (rel.empty() || rel.find('/') != std::string::npos) return false;
  int root = ::open(sandbox.c_str(), O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_RDONLY);
  if (root < 0) return false;
  Fd r{root};
  struct stat st {};
  if (::fstatat(root, rel.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISLNK(st.st_mode)) return false;
  std::string target = ReadLinkAt(root, rel);
  size_t slash = target.find('/');
  return slash != std::string::npos && target.substr(slash + 1) == rel &&
         IsNamespace(target.substr(0, slash), namespaces);
}

void RecountAfterCap(Json& j) {
  // ShrinkJson shortens lists without knowing what counts them; each count beside a shortened list then
  // says what is shown, and `total` (added when the tool gave none) what the uncapped result held.
  static const std::pair<const char*, const char*> kCounted[] = {{"results", "count"},
                                                                 {"files", "count"},
                                                                 {"files", "file_count"},
                                                                 {"downloaded", "download_count"},
                                                                 {"rows", "row_count"}};
  if (j.is_array()) {
    for (auto& e : j) RecountAfterCap(e);
    return;
  }
  if (!j.is_object()) return;
  for (const auto& [list, count] : kCounted) {
    auto l = j.find(list);
    auto c = j.find(count);
    if (l == j.end() || c == j.end() || !l->is_array() || !c->is_number_unsigned()) continue;
    uint64_t before = c->get<uint64_t>();
    size_t shown = l->size();
    if (before <= shown) continue;
    j[count] = shown;
    if (!j.contains("total")) j["total"] = before;  // may reallocate the object: iterators are dead now
  }
  for (auto& [k, v] : j.items()) RecountAfterCap(v);
}

}  // namespace lakeqa::tools
