#include "lakeqa/index/near_duplicates.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <set>

#include "lakeqa/catalog/catalog.h"
#include "lakeqa/catalog/index_dir.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/json.h"
#include "lakeqa/text/normalize.h"

namespace lakeqa::index {
namespace {

// What the comparison reads of one dataset.
struct Signature {
  DuplicateMember member;
  std::set<std::string> columns;                        // folded
  std::map<std::string, std::set<std::string>> values;  // folded column → folded sampled values
};

Signature Read(const catalog::DatasetRecord& d, const std::vector<catalog::FileRecord>& files) {
  Signature s;
  s.member.id = d.FullId();
  s.member.columns = d.columns;
  for (const auto& c : d.columns) s.columns.insert(text::FoldKeyword(c));
  uint64_t rows = 0;
  bool known = false;
  for (const auto& f : files) {
    if (f.is_metadata || !f.profile) continue;
    const Json& p = *f.profile;
    auto cols = p.find("columns");
    if (cols == p.end() || !cols->is_array() || cols->empty()) continue;
    if (auto r = p.find("rows"); r != p.end() && r->is_number_unsigned()) {
      rows += r->get<uint64_t>();
      known = true;
      s.member.rows_exact = s.member.rows_exact && p.value("rows_exact", true);
    }
    for (const auto& c : *cols) {
      auto samples = c.find("samples");
      if (samples == c.end() || !samples->is_array()) continue;
      auto& set = s.values[text::FoldKeyword(c.value("name", ""))];
      for (const auto& v : *samples) {
        if (v.is_string()) set.insert(text::FoldKeyword(v.get_ref<const std::string&>()));
      }
    }
  }
  if (known) s.member.rows = rows;
  return s;
}

bool Near(const Signature& a, const Signature& b, const NearDuplicateOptions& o) {
  if (a.columns.empty() || b.columns.empty()) return false;
  size_t shared = 0;
  for (const auto& c : a.columns) shared += b.columns.count(c);
  double jaccard =
      static_cast<double>(shared) / static_cast<double>(a.columns.size() + b.columns.size() - shared);
  if (jaccard < o.min_column_overlap) return false;
  double sum = 0;
  size_t n = 0;
  for (const auto& [col, va] : a.values) {
    auto it = b.values.find(col);
    if (it == b.values.end() || va.empty() || it->second.empty()) continue;
    size_t common = 0;
    for (const auto& v : va) common += it->second.count(v);
    sum += static_cast<double>(common) / static_cast<double>(std::min(va.size(), it->second.size()));
    ++n;
  }
  return n > 0 && sum / static_cast<double>(n) >= o.min_value_overlap;
}

Json MemberJson(const DuplicateMember& m) {
  Json j = {{"id", m.id}, {"columns", m.columns}};
  j["rows"] = m.rows ? Json(*m.rows) : Json();
  j["rows_exact"] = m.rows_exact;
  return j;
}

std::string RowsText(const DuplicateMember& m) {
  if (!m.rows) return "unknown";
  return (m.rows_exact ? "" : ">=") + std::to_string(*m.rows);
}

}  // namespace

Json NearDuplicateReport::ToJson() const {
  return {{"title_groups", title_groups}, {"groups", groups}, {"datasets", datasets}};
}

Result<NearDuplicateReport> BuildNearDuplicates(catalog::Catalog& catalog, const std::string& index_dir,
                                                const NearDuplicateOptions& o) {
  NearDuplicateReport report;
  Json groups = Json::array();
  Status s =
      catalog.ForEachTitleGroup([&](const std::string& title, const std::vector<std::string>& ids) -> Status {
        ++report.title_groups;
        std::vector<Signature> sigs;
        for (size_t i = 0; i < ids.size() && i < o.max_group; ++i) {
          auto d = catalog.GetDataset(ids[i]);
          auto files = catalog.ListFiles(ids[i]);
          if (!d.ok() || !files.ok()) continue;  // removed since the group was listed
          sigs.push_back(Read(*d, *files));
        }
        // Connected components of the near-duplicate relation (union-find over the group).
        std::vector<size_t> parent(sigs.size());
        std::iota(parent.begin(), parent.end(), 0);
        std::function<size_t(size_t)> root = [&](size_t x) {
          return parent[x] == x ? x : parent[x] = root(parent[x]);
        };
        for (size_t a = 0; a < sigs.size(); ++a) {
          for (size_t b = a + 1; b < sigs.size(); ++b) {
            if (root(a) != root(b) && Near(sigs[a], sigs[b], o)) parent[root(b)] = root(a);
          }
        }
        std::map<size_t, std::vector<size_t>> comps;
        for (size_t i = 0; i < sigs.size(); ++i) comps[root(i)].push_back(i);
        for (const auto& [r, members] : comps) {
          if (members.size() < 2) continue;
          Json m = Json::array();
          for (size_t i : members) m.push_back(MemberJson(sigs[i].member));
          groups.push_back({{"title", title}, {"members", m}});
          ++report.groups;
          report.datasets += members.size();
        }
        return Status::Ok();
      });
  LAKEQA_RETURN_IF_ERROR(s.WithContext("near-duplicates: reading the catalog"));
  Json doc = {{"format", "lakeqa-near-duplicates"},
              {"version", 1},
              {"min_column_overlap", o.min_column_overlap},
              {"min_value_overlap", o.min_value_overlap},
              {"groups", groups}};
  LAKEQA_RETURN_IF_ERROR(
      WriteFileAtomic(catalog::IndexDir(index_dir).NearDuplicates(), DumpJson(doc, 1) + "\n"));
  return report;
}

Result<NearDuplicates> NearDuplicates::Load(const std::string& index_dir) {
  NearDuplicates out;
  std::string path = catalog::IndexDir(index_dir).NearDuplicates();
  if (!PathExists(path)) return out;
  LAKEQA_ASSIGN_OR_RETURN(std::string text, ReadFile(path, 1u << 30));
  LAKEQA_ASSIGN_OR_RETURN(Json j, ParseJson(text, path));
  auto bad = [&](const std::string& what) { return Corrupt(path + ": " + what); };
  if (!j.is_object() || j.value("format", "") != "lakeqa-near-duplicates")
    return bad("not a near-duplicates file");
  auto groups = j.find("groups");
  if (groups == j.end() || !groups->is_array()) return bad("no \"groups\" array");
  for (const Json& g : *groups) {
    if (!g.is_object() || !g.contains("members") || !g["members"].is_array())
      return bad("a group without members");
    NearDuplicateGroup group;
    group.title = g.value("title", "");
    for (const Json& m : g["members"]) {
      if (!m.is_object() || !m.contains("id") || !m["id"].is_string()) return bad("a member without an id");
      DuplicateMember dm;
      dm.id = m["id"].get<std::string>();
      if (m.contains("rows") && m["rows"].is_number_unsigned()) dm.rows = m["rows"].get<uint64_t>();
      dm.rows_exact = m.value("rows_exact", true);
      if (m.contains("columns") && m["columns"].is_array()) {
        for (const Json& c : m["columns"]) {
          if (c.is_string()) dm.columns.push_back(c.get<std::string>());
        }
      }
      out.by_id_[dm.id] = out.groups_.size();
      group.members.push_back(std::move(dm));
    }
    out.groups_.push_back(std::move(group));
  }
  return out;
}

const NearDuplicateGroup* NearDuplicates::GroupOf(const std::string& id) const {
  auto it = by_id_.find(id);
  return it == by_id_.end() ? nullptr : &groups_[it->second];
}

Json NearDuplicates::Differences(const std::string& id) const {
  Json out = Json::array();
  const NearDuplicateGroup* g = GroupOf(id);
  if (g == nullptr) return out;
  const DuplicateMember* self = nullptr;
  for (const auto& m : g->members) {
    if (m.id == id) self = &m;
  }
  for (const auto& m : g->members) {
    if (&m == self) continue;
    Json j = MemberJson(m);
    std::vector<std::string> only_here, only_there, differs;
    for (const auto& c : self->columns) {
      if (std::find(m.columns.begin(), m.columns.end(), c) == m.columns.end()) only_here.push_back(c);
    }
    for (const auto& c : m.columns) {
      if (std::find(self->columns.begin(), self->columns.end(), c) == self->columns.end())
        only_there.push_back(c);
    }
    if (self->rows != m.rows || self->rows_exact != m.rows_exact)
      differs.push_back("rows: " + RowsText(*self) + " here, " + RowsText(m) + " there");
    if (!only_here.empty() || !only_there.empty()) {
      std::string c = "columns:";
      for (const auto& x : only_here) c += " -" + x;
      for (const auto& x : only_there) c += " +" + x;
      differs.push_back(c);
    }
    if (differs.empty()) differs.push_back("same rows and columns (sampled values may still differ)");
    j.erase("columns");
    j["columns_only_here"] = only_here;
    j["columns_only_there"] = only_there;
    j["differs"] = differs;
    out.push_back(std::move(j));
  }
  return out;
}

Result<SearchResult> SearchCollapsed(
    const NearDuplicates& groups, const SearchOptions& options,
    const std::function<Result<SearchResult>(const SearchOptions&)>& search) {
  constexpr size_t kMaxFetch = 100000;
  const size_t want = options.offset + options.k;
  size_t fetch = want * 2 + 8;
  SearchResult r;
  std::vector<Hit> kept;
  for (;;) {
    SearchOptions so = options;
    so.offset = 0;
    so.k = std::min(fetch, kMaxFetch);
    LAKEQA_ASSIGN_OR_RETURN(r, search(so));
    kept.clear();
    std::set<const NearDuplicateGroup*> seen;
    for (Hit& h : r.hits) {
      const NearDuplicateGroup* g = groups.GroupOf(h.id);
      if (g != nullptr && !seen.insert(g).second) continue;
      kept.push_back(std::move(h));
    }
    if (kept.size() >= want || r.hits.size() < so.k || so.k == kMaxFetch) break;
    fetch *= 2;
  }
  r.hits.clear();
  for (size_t i = options.offset; i < kept.size() && i < want; ++i) r.hits.push_back(std::move(kept[i]));
  return r;
}

}  // namespace lakeqa::index
