// KramaBench names (see kramabench.h): namespaces, dataset folders, and data_sources resolution.
#include <fnmatch.h>

#include <algorithm>

#include "lakeqa/common/strings.h"
#include "lakeqa/ingest/convert.h"
#include "lakeqa/kramabench/names.h"

namespace lakeqa::kramabench {
namespace {

std::string Normalize(std::string_view entry, std::string_view domain) {
  std::string e(Trim(entry));
  std::string long_prefix = "data/" + std::string(domain) + "/input/";
  for (bool again = true; again;) {
    again = false;
    if (StartsWith(e, "./")) e = e.substr(2), again = true;
    if (StartsWith(e, long_prefix)) e = e.substr(long_prefix.size()), again = true;
    if (StartsWith(e, "input/")) e = e.substr(6), again = true;
  }
  return e;
}

bool HasGlob(std::string_view s) { return s.find_first_of("*?[") != std::string_view::npos; }

// The path and its tails at '/' boundaries: "a/b/c.csv", "b/c.csv", "c.csv". KramaBench often names a
// file or folder by its last components only.
std::vector<std::string_view> Tails(std::string_view f) {
  std::vector<std::string_view> out{f};
  for (size_t p = f.find('/'); p != std::string_view::npos; p = f.find('/', p + 1))
    out.push_back(f.substr(p + 1));
  return out;
}

std::vector<std::string> Match(const std::string& e, const std::vector<std::string>& files, bool fold) {
  std::vector<std::string> out;
  auto eq = [&](std::string_view a, std::string_view b) {
    return fold ? ToLowerAscii(a) == ToLowerAscii(b) : a == b;
  };
  int flags = FNM_PATHNAME | (fold ? FNM_CASEFOLD : 0);
  auto any_tail = [&](const std::string& f, auto&& pred) {
    for (std::string_view t : Tails(f))
      if (pred(t)) return true;
    return false;
  };
  // 1. a path (or its last components)
  for (const auto& f : files)
    if (any_tail(f, [&](std::string_view t) { return eq(t, e); })) out.push_back(f);
  if (!out.empty()) return out;
  // 2. a folder, optionally followed by a pattern for the files directly in it
  std::string folder = e, pattern;
  if (EndsWith(folder, "/")) {
    folder.pop_back();
  } else if (size_t slash = folder.rfind('/'); slash != std::string::npos &&
                                               HasGlob(folder.substr(slash + 1)) &&
                                               !HasGlob(folder.substr(0, slash))) {
    pattern = folder.substr(slash + 1);
    folder = folder.substr(0, slash);
  }
  if (!folder.empty() && !HasGlob(folder)) {
    for (const auto& f : files) {
      bool hit = any_tail(f, [&](std::string_view t) {
        if (t.size() <= folder.size() + 1 || t[folder.size()] != '/' ||
            !eq(t.substr(0, folder.size()), folder))
          return false;
        std::string rest(t.substr(folder.size() + 1));
        return pattern.empty() || ::fnmatch(pattern.c_str(), rest.c_str(), flags) == 0;
      });
      if (hit) out.push_back(f);
    }
    if (!out.empty()) return out;
  }
  // 3. a glob pattern ('/' matched only by '/')
  if (HasGlob(e)) {
    for (const auto& f : files)
      if (any_tail(f, [&](std::string_view t) {
            return ::fnmatch(e.c_str(), std::string(t).c_str(), flags) == 0;
          }))
        out.push_back(f);
  }
  return out;
}

}  // namespace

std::string KramaBenchNamespace(std::string_view domain, std::string_view prefix) {
  return std::string(prefix.empty() ? kKramaBenchPrefix : prefix) + "-" + std::string(domain);
}

std::string KramaBenchDatasetFolder(std::string_view relative_path) {
  return ingest::NameToFolder(relative_path);
}

std::vector<std::string> ResolveKramaBenchSource(std::string_view entry, std::string_view domain,
                                                 const std::vector<std::string>& files) {
  std::string e = Normalize(entry, domain);
  if (e.empty() || e == "/" || e == "*") return {};
  auto out = Match(e, files, false);
  if (out.empty()) out = Match(e, files, true);
  return out;
}

}  // namespace lakeqa::kramabench
