// CMDBench's part of report.html (registered as its report section).
#include <fmt/format.h>

#include "lakeqa/cmdbench/cmdbench.h"
#include "lakeqa/eval/report.h"
#include "lakeqa/eval/report_chart.h"

namespace lakeqa::cmdbench {

// CMDBench questions apart by kind (its Tables 4-6 report table, document and graph discovery apart), with
// the setting: given provenance (its Figure 8's oracle) or normal discovery. `eval compare` of two such runs
// gives the gain of the oracle setting with a paired CI; `eval cmdbench --html` the discovery methods' page.
std::string CmdbenchHtmlSection(const eval::RunScore& score, const eval::RunData& run) {
  auto slices = score.by_kind.find(std::string(kKindKey));
  if (slices == score.by_kind.end() || slices->second.empty()) return "";
  bool given = false;
  if (auto c = run.run_json.find("config"); c != run.run_json.end() && c->is_object())
    given = c->value("provide_provenance", false);
  std::string h = "<h2 id=\"cmdbench\">CMDBench</h2><p>";
  h += given ? "Setting: <b>provenance given</b> (<code>--provide-provenance</code>: each question carried "
               "its gold "
               "table, sub-graph or paragraphs; CMDBench's oracle setting)."
             : "Setting: <b>discovery</b> (the agent found the sources itself).";
  h += " D_ret / D_acc of a source question compare the modalities of the datasets touched with its gold "
       "sources; of the other kinds, the datasets with the provenance's files (docs/cmdbench.md).</p>";
  h += "<table><thead><tr><th>question kind</th><th>tasks</th><th>EM</th><th>lenient</th><th>judge</th>"
       "<th>D_ret P / R / F1</th><th>D_acc P / R / F1</th></tr></thead><tbody>";
  auto prf = [](const eval::Prf& p) {
    return fmt::format("{:.1f} / {:.1f} / {:.1f}", p.precision * 100, p.recall * 100, p.f1 * 100);
  };
  std::vector<eval::Bar> bars;
  for (const auto& [kind, k] : slices->second) {
    double em = k.tasks ? static_cast<double>(k.em) / static_cast<double>(k.tasks) : 0;
    double len = k.tasks ? static_cast<double>(k.lenient) / static_cast<double>(k.tasks) : 0;
    std::string judge =
        k.judged
            ? fmt::format("{} of {}",
                          eval::Pct(static_cast<double>(k.judge_correct) / static_cast<double>(k.judged)),
                          k.judged)
            : "not judged";
    h += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{} ({})</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
        eval::HtmlEscape(kind), k.tasks, eval::Pct(em), k.em, eval::Pct(len), judge, prf(k.dret),
        prf(k.dacc));
    bars.push_back({kind, em, fmt::format("{} ({}/{})", eval::Pct(em), k.em, k.tasks)});
  }
  h += "</tbody></table><div class=\"charts\">";
  h += eval::BarChart("cmdbench-em", "EM by CMDBench question kind", bars, 1.0, "#e15759");
  return h + "</div>";
}

}  // namespace lakeqa::cmdbench
