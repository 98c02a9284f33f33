#include "lakeqa/index/prefix.h"

#include "catalog/sqlite_util.h"
#include "lakeqa/catalog/catalog.h"
#include "lakeqa/common/json.h"
#include "lakeqa/common/strings.h"

namespace lakeqa::index {
namespace {

// The smallest string above every string that starts with p; "" when there is none.
std::string UpperBound(std::string p) {
  while (!p.empty() && static_cast<unsigned char>(p.back()) == 0xFF) p.pop_back();
  if (!p.empty()) p.back() = static_cast<char>(static_cast<unsigned char>(p.back()) + 1);
  return p;
}

// Where the next query starts, in (namespace, dataset_id) order.
struct Bound {
  enum Kind { kNone, kAfterKey, kAtLeastKey, kAfterNs, kAtLeastNs, kEnd } kind = kNone;
  std::string ns, id;
};

Bound AfterKey(const std::string& full) {
  size_t slash = full.find('/');
  return {Bound::kAfterKey, full.substr(0, slash), slash == std::string::npos ? "" : full.substr(slash + 1)};
}

// Past every key that starts with `cp` (a common prefix).
Bound SkipPrefix(const std::string& cp) {
  size_t slash = cp.find('/');
  if (slash == std::string::npos) {
    std::string ub = UpperBound(cp);
    return ub.empty() ? Bound{Bound::kEnd, "", ""} : Bound{Bound::kAtLeastNs, ub, ""};
  }
  std::string ns = cp.substr(0, slash), idp = cp.substr(slash + 1);
  std::string ub = idp.empty() ? "" : UpperBound(idp);
  if (ub.empty()) return {Bound::kAfterNs, ns, ""};
  return {Bound::kAtLeastKey, ns, ub};
}

}  // namespace

Json PrefixResult::ToJson() const {
  Json k = Json::array();
  for (const auto& e : keys)
    k.push_back({{"id", e.id}, {"title", e.title}, {"file_count", e.file_count}, {"bytes", e.bytes}});
  Json j = {{"keys", std::move(k)}, {"common_prefixes", common_prefixes}, {"truncated", truncated}};
  if (truncated) j["next_token"] = next_token;
  return j;
}

Result<PrefixResult> ListPrefix(catalog::Catalog& catalog, const PrefixRequest& req) {
  if (req.max_keys == 0 || req.max_keys > kMaxPrefixKeys)
    return InvalidArgument("max_keys must be between 1 and " + std::to_string(kMaxPrefixKeys) + ", got " +
                           std::to_string(req.max_keys));
  Bound bound;
  if (!req.continuation.empty()) {
    std::string_view t = req.continuation;
    if (StartsWith(t, "k:") && t.size() > 2) bound = AfterKey(std::string(t.substr(2)));
    else if (StartsWith(t, "p:") && t.size() > 2) bound = SkipPrefix(std::string(t.substr(2)));
    else
      return InvalidArgument("continuation token '" + req.continuation +
                             "' is not one this listing returned");
    if (!StartsWith(t.substr(2), req.prefix))
      return InvalidArgument("continuation token '" + req.continuation + "' does not belong to prefix '" +
                             req.prefix + "'");
  }

  // The prefix as a key range on UNIQUE(namespace, dataset_id).
  std::string range;
  std::string r1, r2, r3;
  size_t slash = req.prefix.find('/');
  if (slash != std::string::npos) {
    r1 = req.prefix.substr(0, slash);
    r2 = req.prefix.substr(slash + 1);
    r3 = UpperBound(r2);
    range = "namespace = ?1 AND dataset_id >= ?2" + std::string(r3.empty() ? "" : " AND dataset_id < ?3");
  } else if (!req.prefix.empty()) {
    r2 = req.prefix;
    r3 = UpperBound(r2);
    range = "namespace >= ?2" + std::string(r3.empty() ? "" : " AND namespace < ?3");
  } else {
    range = "1";
  }

  PrefixResult out;
  uint64_t count = 0;
  std::string last_token;
  while (bound.kind != Bound::kEnd) {
    std::string where = range;
    switch (bound.kind) {
      case Bound::kAfterKey: where += " AND (namespace, dataset_id) > (?4, ?5)"; break;
      case Bound::kAtLeastKey: where += " AND (namespace, dataset_id) >= (?4, ?5)"; break;
      case Bound::kAfterNs: where += " AND namespace > ?4"; break;
      case Bound::kAtLeastNs: where += " AND namespace >= ?4"; break;
      default: break;
    }
    std::string sql = "SELECT namespace, dataset_id, title, file_count, bytes FROM datasets WHERE " + where +
                      " ORDER BY namespace, dataset_id LIMIT ?6";
    catalog::Stmt s(catalog.db(), sql.c_str());
    if (!r1.empty()) s.Bind(1, r1);
    if (!r2.empty() || slash != std::string::npos) s.Bind(2, r2);
    if (!r3.empty()) s.Bind(3, r3);
    if (bound.kind != Bound::kNone) s.Bind(4, bound.ns);
    if (bound.kind == Bound::kAfterKey || bound.kind == Bound::kAtLeastKey) s.Bind(5, bound.id);
    // One row beyond the page tells whether it is truncated.
    s.Bind(6, static_cast<int64_t>(req.max_keys - count + 1));
    LAKEQA_RETURN_IF_ERROR(s.status());
    bool requery = false;
    while (!requery && s.Step()) {
      std::string ns = s.Text(0), id = s.Text(1);
      std::string full = ns + "/" + id;
      if (!StartsWith(full, req.prefix)) {
        bound = AfterKey(full);  // cannot happen for ids in the range; never loop on it
        continue;
      }
      if (count == req.max_keys) {
        out.truncated = true;
        out.next_token = last_token;
        return out;
      }
      std::string_view rest = std::string_view(full).substr(req.prefix.size());
      size_t p = req.delimiter.empty() ? std::string_view::npos : rest.find(req.delimiter);
      if (p != std::string_view::npos) {
        std::string cp = req.prefix + std::string(rest.substr(0, p + req.delimiter.size()));
        out.common_prefixes.push_back(cp);
        last_token = "p:" + cp;
        bound = SkipPrefix(cp);
        requery = true;  // jump over the rest of the rolled-up keys with one seek
      } else {
        out.keys.push_back(
            {full, s.Text(2), static_cast<uint64_t>(s.Int(3)), static_cast<uint64_t>(s.Int(4))});
        last_token = "k:" + full;
        bound = AfterKey(full);
      }
      ++count;
    }
    LAKEQA_RETURN_IF_ERROR(s.status());
    // Without a seek, the statement ran out of rows before the page filled (its limit is one more than
    // the page needs): nothing is left.
    if (!requery) break;
  }
  return out;
}

}  // namespace lakeqa::index
