#include "lakeqa/index/hit_view.h"

#include <cstdlib>

#include "index/coverage.h"
#include "lakeqa/common/json.h"
#include "lakeqa/common/strings.h"

namespace lakeqa::index {

std::string StoredField(const Hit& hit, std::string_view name) {
  for (const auto& [k, v] : hit.fields) {
    if (k == name) return v;
  }
  return "";
}

std::string FirstSentence(std::string_view text, size_t max_bytes) {
  size_t end = text.size();
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    char c = text[i];
    if (c == '\n' || ((c == '.' || c == '!' || c == '?') && (text[i + 1] == ' ' || text[i + 1] == '\n'))) {
      end = c == '\n' ? i : i + 1;
      break;
    }
  }
  std::string_view s = text.substr(0, end);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.remove_suffix(1);
  if (s.size() <= max_bytes) return std::string(s);
  return std::string(TruncateUtf8(s, max_bytes)) + "\xE2\x80\xA6";
}

Json HitJson(const Hit& h, const NearDuplicates* duplicates, const HitViewOptions& o) {
  size_t slash = h.id.find('/');
  Json columns = Json::array();
  size_t total_columns = 0;
  for (const auto& [k, v] : h.fields) {
    if (k != "columns") continue;
    if (total_columns++ < o.max_columns) columns.push_back(v);
  }
  std::string rows = StoredField(h, "rows");
  Json j = {{"id", h.id},
            {"dataset_id", slash == std::string::npos ? h.id : h.id.substr(slash + 1)},
            {"namespace", slash == std::string::npos ? "" : h.id.substr(0, slash)},
            {"title", StoredField(h, "title")},
            {"description", FirstSentence(StoredField(h, "description"), o.max_description)},
            {"columns", columns},
            {"columns_total", total_columns},
            {"score", h.score}};
  // Unknown is shown as unknown: null, never 0.
  j["rows"] = nullptr;
  j["rows_exact"] = nullptr;
  bool exact = rows.rfind(">=", 0) != 0;
  std::string digits = exact ? rows : rows.substr(2);
  if (!digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos && digits.size() < 20) {
    j["rows"] = std::strtoull(digits.c_str(), nullptr, 10);
    j["rows_exact"] = exact;
  }
  std::string coverage = StoredField(h, "coverage");
  j["years"] = CoverageYears(coverage);
  std::string months = coverage.substr(0, std::min(coverage.size(), coverage.find(';')));
  j["months"] = months;
  Json matched = Json::object();
  for (const auto& [field, words] : h.matches) matched[field] = words;
  j["matched"] = matched;
  if (!h.matched_columns.empty()) j["matched_columns"] = h.matched_columns;
  if (!h.snippet.text.empty()) {
    Json hl = Json::array();
    for (const auto& x : h.snippet.highlights) hl.push_back({x.start, x.end});
    j["snippet"] = {{"field", h.snippet.field}, {"text", h.snippet.text}, {"highlights", hl}};
  }
  j["near_duplicates"] = duplicates != nullptr ? duplicates->Differences(h.id) : Json::array();
  if (h.explanation) j["explanation"] = h.explanation->ToJson();
  return j;
}

}  // namespace lakeqa::index
