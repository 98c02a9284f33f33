// Explanation (searcher.h) as JSON and as text: what each query term and field added to a hit's score.
#include <fmt/format.h>

#include "lakeqa/common/json.h"
#include "lakeqa/index/searcher.h"

namespace lakeqa::index {

Json Explanation::ToJson() const {
  Json terms_json = Json::array();
  for (const TermExplanation& t : terms) {
    Json fields = Json::array();
    for (const FieldExplanation& f : t.fields) {
      fields.push_back({{"field", f.field},
                        {"tf", f.tf},
                        {"length", f.length},
                        {"avg_length", f.avg_length},
                        {"weight", f.weight},
                        {"b", f.b},
                        {"weighted_tf", f.weighted_tf},
                        {"contribution", f.contribution}});
      if (f.data) fields.back()["data"] = true;
    }
    terms_json.push_back({{"word", t.word},
                          {"term", t.term},
                          {"idf", t.idf},
                          {"x", t.x},
                          {"score", t.score},
                          {"fields", fields}});
  }
  Json prox = Json::array();
  for (const ProximityExplanation& p : proximity)
    prox.push_back({{"words", {p.first, p.second}}, {"field", p.field}, {"bonus", p.bonus}});
  return {{"k1", k1}, {"terms", terms_json}, {"unmatched", unmatched}, {"proximity", prox}};
}

std::string Explanation::ToText() const {
  std::string out;
  for (const TermExplanation& t : terms) {
    out += fmt::format("{:>8.3f}  {}{} (idf {:.3f}, x {:.3f}):", t.score, t.word,
                       t.term != t.word ? " [" + t.term + "]" : "", t.idf, t.x);
    for (const FieldExplanation& f : t.fields)
      out += fmt::format(" {} {:.3f} (tf {}, len {}/{:.1f}, w {}, b {}{})", f.field, f.contribution, f.tf,
                         f.length, f.avg_length, f.weight, f.b, f.data ? ", data" : "");
    out += "\n";
  }
  for (const ProximityExplanation& p : proximity)
    out += fmt::format("{:>8.3f}  \"{} {}\" together in {}\n", p.bonus, p.first, p.second, p.field);
  if (!unmatched.empty()) {
    out += "          not in this dataset:";
    for (const std::string& w : unmatched) out += " " + w;
    out += "\n";
  }
  return out;
}

}  // namespace lakeqa::index
