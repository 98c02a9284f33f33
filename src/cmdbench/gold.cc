// Where a CMDBench question's provenance lives in lakeqa's cmdbench lake (cmdbench.h): the gold files an
// agent run is scored against (D_ret/D_acc), and the modality of a dataset for source questions.
#include <algorithm>
#include <cctype>

#include "lakeqa/cmdbench/cmdbench.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/ingest/convert.h"

namespace lakeqa::cmdbench {

using namespace eval;  // the core types a benchmark builds on

namespace {

bool IdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

void AddOnce(std::vector<std::string>& v, std::string s) {
  if (!s.empty() && std::find(v.begin(), v.end(), s) == v.end()) v.push_back(std::move(s));
}

// A scanner over the query text that knows only what can hide a colon or a bracket: string literals,
// backtick-quoted names and comments. The full lexer is the graph module's; the gold of a question file
// must be known without an index (`lakeqa eval` reads task files alone), so this stays independent of it.
class Scanner {
 public:
  explicit Scanner(std::string_view s) : s_(s) {}
  bool Done() {
    SkipSpace();
    return i_ >= s_.size();
  }
  char Peek() { return Done() ? '\0' : s_[i_]; }
  void Next() {
    // Steps over one token: a literal, a name or one character.
    if (Done()) return;
    char c = s_[i_];
    if (c == '\'' || c == '"') {
      for (++i_; i_ < s_.size() && s_[i_] != c; ++i_) {
        if (s_[i_] == '\\') ++i_;
      }
      ++i_;
    } else if (c == '`' || IdentChar(c)) {
      (void)Name();
    } else {
      ++i_;
    }
  }
  // A plain or backtick-quoted name at the cursor, or "" (the cursor stays).
  std::string Name() {
    SkipSpace();
    if (i_ < s_.size() && s_[i_] == '`') {
      size_t end = s_.find('`', i_ + 1);
      if (end == std::string_view::npos) end = s_.size();
      std::string out(s_.substr(i_ + 1, end - i_ - 1));
      i_ = std::min(end + 1, s_.size());
      return out;
    }
    size_t start = i_;
    while (i_ < s_.size() && IdentChar(s_[i_])) ++i_;
    return std::string(s_.substr(start, i_ - start));
  }
  bool Eat(char c) {
    if (Peek() != c) return false;
    ++i_;
    return true;
  }

 private:
  void SkipSpace() {
    while (i_ < s_.size()) {
      if (std::isspace(static_cast<unsigned char>(s_[i_]))) {
        ++i_;
      } else if (s_.substr(i_, 2) == "//") {
        size_t nl = s_.find('\n', i_);
        i_ = nl == std::string_view::npos ? s_.size() : nl + 1;
      } else if (s_.substr(i_, 2) == "/*") {
        size_t end = s_.find("*/", i_ + 2);
        i_ = end == std::string_view::npos ? s_.size() : end + 2;
      } else {
        break;
      }
    }
  }
  std::string_view s_;
  size_t i_ = 0;
};

}  // namespace

CypherNames CypherPatternNames(std::string_view cypher) {
  CypherNames out;
  Scanner sc(cypher);
  while (!sc.Done()) {
    char c = sc.Peek();
    if (c != '(' && c != '[') {
      sc.Next();
      continue;
    }
    sc.Eat(c);
    // `(v:A:B ...` names labels; `[r:T|T2 ...` names relationship types (`|:T` is old Cypher, also read).
    // A function call `f(x` or a list `[1, 2` has no colon right after its first name, so it names nothing.
    (void)sc.Name();
    if (!sc.Eat(':')) continue;
    std::vector<std::string>& into = c == '(' ? out.labels : out.types;
    do {
      AddOnce(into, sc.Name());
    } while (c == '(' ? sc.Eat(':') : (sc.Eat('|') && (sc.Eat(':'), true)));
  }
  return out;
}

std::vector<std::string> CmdbenchGoldFiles(const CmdbenchQuestion& q) {
  std::vector<std::string> out;
  switch (q.kind) {
    case CmdbenchKind::kTable:
      for (const auto& t : q.tables) AddOnce(out, "cmdbench/" + t + "/" + t + ".csv");
      break;
    case CmdbenchKind::kDoc:
      for (const auto& title : q.DocTitles()) AddOnce(out, CmdbenchPageFile(title));
      break;
    case CmdbenchKind::kGraph: {
      CypherNames names = CypherPatternNames(q.cypher);
      for (const auto& l : names.labels) AddOnce(out, "cmdbench/graph_nodes_" + l + "/" + l + ".csv");
      for (const auto& t : names.types)
        AddOnce(out, "cmdbench/graph_relation_" + t + "/relation_" + t + ".csv");
      break;
    }
    case CmdbenchKind::kSource: break;
  }
  return out;
}

std::string CmdbenchPageDataset(std::string_view title) {
  return "wikipedia/" + ingest::TitleToFolder(title);
}
std::string CmdbenchPageFile(std::string_view title) { return CmdbenchPageDataset(title) + "/content.txt"; }

std::string CmdbenchModalityOf(std::string_view dataset) {
  if (StartsWith(dataset, "wikipedia/")) return "doc";
  if (StartsWith(dataset, "cmdbench/graph_nodes_") || StartsWith(dataset, "cmdbench/graph_relation_"))
    return "graph";
  return "table";
}

}  // namespace lakeqa::cmdbench
