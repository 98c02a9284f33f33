// KramaBench names (see kramabench.h): namespaces, dataset folders, and data_sources resolution.
#include <fnmatch.h>

#include <algorithm>

#include "lakeqa/common/strings.h"
#include "lakeqa/ingest/convert.h"
#include "lakeqa/ingest/kramabench.h"

namespace lakeqa::ingest {
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

std::vector<std::string> Match(const std::string& e, const std::vector<std::string>& files, bool fold) {
  std::vector<std::string> out;
  auto eq = [&](std::string_view a, std::string_view b) { return fold ? ToLowerAscii(a) == ToLowerAscii(b) : a == b; };
  int flags = FNM_PATHNAME | (fold ? FNM_CASEFOLD : 0);
  // 1. exact path
  for (const auto& f : files)
    if (eq(f, e)) out.push_back(f);
  if (!out.empty()) return out;
  // 2. a folder, possibly followed by a pattern for its direct children
  std::string folder = e, pattern;
  if (EndsWith(folder, "/")) {
    folder.pop_back();
  } else if (size_t slash = folder.rfind('/'); slash != std::string::npos && HasGlob(folder.substr(slash + 1)) &&
                                                 !HasGlob(folder.substr(0, slash))) {
    pattern = folder.substr(slash + 1);
    folder = folder.substr(0, slash);
  }
  if (!folder.empty() && !HasGlob(folder)) {
    for (const auto& f : files) {
      if (f.size() <= folder.size() + 1 || f[folder.size()] != '/' || !eq(std::string_view(f).substr(0, folder.size()), folder))
        continue;
      std::string rest = f.substr(folder.size() + 1);
      if (pattern.empty() || ::fnmatch(pattern.c_str(), rest.c_str(), flags) == 0) out.push_back(f);
    }
    if (!out.empty()) return out;
  }
  // 3. glob over whole paths
  if (HasGlob(e)) {
    for (const auto& f : files)
      if (::fnmatch(e.c_str(), f.c_str(), flags) == 0) out.push_back(f);
    if (!out.empty()) return out;
  }
  // 4. bare file name anywhere
  if (e.find('/') == std::string::npos && !e.empty()) {
    for (const auto& f : files) {
      size_t slash = f.rfind('/');
      std::string_view base = slash == std::string::npos ? std::string_view(f) : std::string_view(f).substr(slash + 1);
      if (HasGlob(e) ? ::fnmatch(e.c_str(), std::string(base).c_str(), flags) == 0 : eq(base, e)) out.push_back(f);
    }
  }
  return out;
}

}  // namespace

std::string KramaBenchNamespace(std::string_view domain, std::string_view prefix) {
  return std::string(prefix.empty() ? kKramaBenchPrefix : prefix) + "-" + std::string(domain);
}

std::string KramaBenchDatasetFolder(std::string_view relative_path) { return NameToFolder(relative_path); }

std::vector<std::string> ResolveKramaBenchSource(std::string_view entry, std::string_view domain,
                                                 const std::vector<std::string>& files) {
  std::string e = Normalize(entry, domain);
  if (e.empty() || e == "/" || e == "*") return {};
  auto out = Match(e, files, false);
  if (out.empty()) out = Match(e, files, true);
  return out;
}

}  // namespace lakeqa::ingest
