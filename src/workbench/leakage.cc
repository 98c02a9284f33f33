#include "lakeqa/workbench/leakage.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "lakeqa/common/json.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/common/words.h"
#include "lakeqa/text/analyzer.h"

namespace lakeqa::workbench {
namespace {

std::string Join(const std::vector<std::string>& words, size_t from, size_t to) {
  std::string s;
  for (size_t i = from; i < to; ++i) s += (i > from ? " " : "") + words[i];
  return s;
}

// Whole-word phrase search over " w1 w2 ... " forms.
bool HasPhrase(const std::string& padded_question, const std::vector<std::string>& phrase) {
  if (phrase.empty()) return false;
  return padded_question.find(" " + Join(phrase, 0, phrase.size()) + " ") != std::string::npos;
}

bool IsNumber(const std::string& w) {
  return std::all_of(w.begin(), w.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

bool IsContentWord(const std::string& w) { return w.size() >= 3 && !IsNumber(w) && !text::IsStopWord(w); }

// Ids such as "noaa-gsod-2019", "t_1_X" or "j8ta-6rms" that nobody would write in a natural question;
// a plain word ("airports") is left to the rare-word rule.
bool IdentifierLike(const std::string& id) {
  bool digit = false, alpha = false, punct = false;
  for (unsigned char c : id) {
    digit |= std::isdigit(c) != 0;
    alpha |= std::isalpha(c) != 0;
    punct |= c == '-' || c == '_' || c == '.';
  }
  return punct || (digit && alpha);
}

}  // namespace

Json LeakFlag::ToJson() const {
  return {{"kind", kind}, {"text", text}, {"node", node}, {"message", message}};
}

std::vector<LeakFlag> CheckLeakage(
    const std::string& question, const std::vector<LeakSource>& sources,
    const std::vector<LeakAnswer>& answers,
    const std::function<std::optional<uint64_t>(const std::string&)>& datasets_with,
    const LeakOptions& options) {
  std::vector<LeakFlag> out;
  std::set<std::pair<std::string, std::string>> said;  // (kind, text)
  auto flag = [&](std::string kind, std::string text, std::string node, std::string message) {
    if (said.emplace(kind, text).second)
      out.push_back({std::move(kind), std::move(text), std::move(node), std::move(message)});
  };
  std::vector<std::string> qwords = LowerWords(question);
  std::string padded = " " + Join(qwords, 0, qwords.size()) + " ";
  std::string qlower = ToLowerAscii(question);
  std::set<std::string> qset(qwords.begin(), qwords.end());

  for (const LeakSource& s : sources) {
    std::string where = "node " + s.node + "'s source " + s.ns + "/" + s.dataset_id;
    // A Wikipedia page's id is its title ("New_York_City"): it names the entity the question is about.
    const bool wiki = s.ns == "wikipedia";
    if (!wiki && IdentifierLike(s.dataset_id) &&
        (qlower.find(ToLowerAscii(s.dataset_id)) != std::string::npos ||
         HasPhrase(padded, LowerWords(s.dataset_id)))) {
      flag("dataset_id", s.dataset_id, s.node,
           "the question names the dataset id \"" + s.dataset_id + "\" of " + where +
               ": describe what it holds instead");
    }
    std::string file =
        s.file_path.substr(s.file_path.rfind('/') == std::string::npos ? 0 : s.file_path.rfind('/') + 1);
    for (const std::string& f : {s.file_path, file}) {
      if (f.size() >= 3 && f.find('.') != std::string::npos &&
          qlower.find(ToLowerAscii(f)) != std::string::npos) {
        flag("file", f, s.node,
             "the question names the file \"" + f + "\" of " + where + ": leave files out");
        break;
      }
    }
    std::vector<std::string> title = LowerWords(s.title);
    size_t content = std::count_if(title.begin(), title.end(), IsContentWord);
    if (!wiki && content >= 2) {
      if (HasPhrase(padded, title)) {
        flag("title", s.title, s.node,
             "the question spells out the title \"" + s.title + "\" of " + where + ": paraphrase it");
      } else {
        for (size_t i = 0; i + 3 <= title.size(); ++i) {
          std::vector<std::string> run(title.begin() + i, title.begin() + i + 3);
          if (std::count_if(run.begin(), run.end(), IsContentWord) >= 2 && HasPhrase(padded, run)) {
            flag("title", Join(run, 0, 3), s.node,
                 "the question copies \"" + Join(run, 0, 3) + "\" from the title \"" + s.title + "\" of " +
                     where + ": paraphrase it");
            break;
          }
        }
      }
    }
    if (!datasets_with) continue;
    // Words a search would go straight to: from file names always; from the id, title and columns only for
    // catalogue datasets (a Wikipedia page's id and title are its subject).
    std::set<std::string> candidates;
    auto add = [&](const std::string& text) {
      for (auto& w : LowerWords(text)) {
        if (IsContentWord(w) && qset.count(w)) candidates.insert(w);
      }
    };
    add(s.file_path);
    if (!wiki) {
      add(s.dataset_id);
      add(s.title);
      for (const auto& c : s.columns) add(c);
    }
    uint64_t limit = std::max<uint64_t>(
        std::max<uint64_t>(1, options.rare_max_datasets),
        static_cast<uint64_t>(options.rare_max_fraction * static_cast<double>(options.total_datasets)));
    for (const std::string& w : candidates) {
      std::optional<uint64_t> n = datasets_with(w);
      if (n && *n <= limit) {
        flag("rare_token", w, s.node,
             "\"" + w + "\" comes from " + where + " and only " + std::to_string(*n) +
                 (*n == 1 ? " dataset holds" : " datasets hold") +
                 " it: a search for it finds the source at once");
      }
    }
  }
  // An answer written as a name (it has a capital letter: "Reading", "New York", "USA") is matched with its
  // capitals, so a question word that is only spelled the same ("After reading the box score") does not
  // give the town of Reading away; at the start of a sentence the capital cannot tell them apart, and the
  // word is flagged. An answer without capitals ("183 pound", "blue") is matched ignoring case.
  std::vector<std::string> qcased = Words(question);
  std::string cased = " " + Join(qcased, 0, qcased.size()) + " ";
  for (const LeakAnswer& a : answers) {
    std::vector<std::string> words = LowerWords(a.text);
    if (words.empty()) continue;
    // A one- or two-character answer ("4", "NY") matches too much ordinary text to be a finding.
    if (words.size() == 1 && words[0].size() <= 2) continue;
    bool name = std::any_of(a.text.begin(), a.text.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
    if (name ? !HasPhrase(cased, Words(a.text)) : !HasPhrase(padded, words)) continue;
    if (a.node.empty()) {
      flag("answer", a.text, "", "the question contains its own answer \"" + a.text + "\"");
    } else {
      flag("answer", a.text, a.node,
           "the question contains node " + a.node + "'s answer \"" + a.text +
               "\", which gives that hop away: describe it through the earlier question instead");
    }
  }
  return out;
}

}  // namespace lakeqa::workbench
