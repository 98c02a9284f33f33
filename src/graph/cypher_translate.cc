// Cypher subset → DuckDB SQL (cypher.h). One pass: MATCH patterns are collected, their labels resolved
// (inferred from typed relationships), then WHERE / RETURN / ORDER BY expressions are emitted as SQL
// against the bound variables. Node variables become node-table aliases, relationship variables
// edge-table aliases (or a UNION of edge tables when several types fit), joined in the WHERE clause.
#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>

#include "graph/cypher_lexer.h"
#include "graph/sql_quote.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/graph/cypher.h"

namespace lakeqa::graph {
namespace {

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

enum class Ty { kAny, kText, kNumber, kBool, kList, kNull };

struct Sql {
  std::string text;
  Ty type = Ty::kAny;
  bool aggregate = false;
};

enum class Dir { kOut, kIn, kBoth };  // as written: (a)-->(b), (a)<--(b), (a)--(b)

struct PropEq {
  std::string key;
  Sql value;
  Token at;
};

struct NodeVar {
  std::string name;  // SQL alias
  bool named = false;
  std::string label;  // "" until known
  Token at;
  std::vector<PropEq> props;
};

struct RelVar {
  std::string name;
  bool named = false;
  std::vector<std::string> types;  // as written; empty = any
  Dir dir = Dir::kOut;
  size_t left = 0, right = 0;  // node indices
  Token at;
  std::vector<PropEq> props;
  // resolved
  std::vector<const RelationType*> candidates;
  bool forward = true, backward = false;  // orientations that fit: left→right, right→left
};

class Translator {
 public:
  Translator(std::vector<Token> toks, const Schema& schema, const TableSource& tables)
      : t_(std::move(toks)), schema_(schema), tables_(tables) {}

  Result<Translation> Run();

 private:
  const Token& Peek(size_t k = 0) const { return t_[std::min(pos_ + k, t_.size() - 1)]; }
  const Token& Next() { return t_[std::min(pos_++, t_.size() - 1)]; }
  bool AcceptP(std::string_view p) {
    if (Peek().P(p)) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool AcceptK(std::string_view k) {
    if (Peek().Is(k)) {
      ++pos_;
      return true;
    }
    return false;
  }
  Status Expect(std::string_view p, std::string_view what) {
    if (AcceptP(p)) return Status::Ok();
    return Syntax(Peek(), "expected '" + std::string(p) + "' " + std::string(what));
  }
  static std::string Describe(const Token& t) {
    switch (t.kind) {
      case Tok::kEnd: return "the end of the query";
      case Tok::kString: return "the string '" + t.text + "'";
      default: return "'" + t.text + "'";
    }
  }
  Status Syntax(const Token& t, const std::string& msg) const {
    return InvalidArgument(Where(t) + msg + ", found " + Describe(t));
  }
  Status Unsupported(const Token& t, const std::string& what) const {
    return Status(
        ErrorCode::kUnsupported,
        Where(t) + "unsupported " + what +
            " (the Cypher subset is MATCH with node and relationship patterns, WHERE, RETURN, ORDER BY, "
            "SKIP, LIMIT; see docs/cmdbench.md)");
  }
  Status CheckClause(const Token& t) const;

  // MATCH
  Status ParseMatch();
  Result<size_t> ParseNode();
  Status ParseRel(size_t left);
  Status ParseProps(std::vector<PropEq>& out);
  Status ResolveLabels();
  size_t BindNode(const std::string& name, const Token& at);

  // expressions
  Result<Sql> Expr();
  Result<Sql> Or();
  Result<Sql> Xor();
  Result<Sql> And();
  Result<Sql> Not();
  Result<Sql> Comparison();
  Result<Sql> Additive();
  Result<Sql> Multiplicative();
  Result<Sql> Unary();
  Result<Sql> Postfix();
  Result<Sql> Primary();
  Result<Sql> Function(const Token& name);
  // A function of values (text, numbers, lists) and one of a node or relationship variable (its identity,
  // type or labels); arguments already parsed.
  Result<Sql> ValueFunction(const Token& name, const std::string& fn, const std::vector<Sql>& args) const;
  Result<Sql> VariableFunction(const Token& name, const std::string& fn, const std::vector<Sql>& args);
  Result<Sql> Case(const Token& at);
  Result<Sql> Property(const Token& var, const Token& prop);
  Result<Sql> Variable(const Token& var);

  static std::string AsNumber(const Sql& s) {
    if (s.type == Ty::kNumber || s.type == Ty::kNull) return s.text;
    return "TRY_CAST(" + s.text + " AS DOUBLE)";
  }
  std::string SourceText(size_t from_tok, size_t to_tok) const;
  std::string NodeTable(const NodeVar& n) const { return tables_.nodes(*schema_.Node(n.label)); }
  std::string RelTable(const RelVar& r) const;
  std::string KeyOf(const std::string& alias) const { return QuoteId(alias) + "._key"; }

  std::vector<Token> t_;
  size_t pos_ = 0;
  const Schema& schema_;
  const TableSource& tables_;

  std::vector<NodeVar> nodes_;
  std::vector<RelVar> rels_;
  std::map<std::string, size_t> node_by_name_, rel_by_name_;
  size_t resolved_nodes_ = 0, resolved_rels_ = 0;  // how many are already resolved (earlier MATCH clauses)
  std::vector<std::string> conditions_;
  std::set<std::string> aliases_;  // RETURN aliases (ORDER BY may name them)
  int anon_ = 0;
};

Status Translator::CheckClause(const Token& t) const {
  static const char* const kWrites[] = {"CREATE", "MERGE",   "DELETE", "DETACH", "SET",
                                        "REMOVE", "FOREACH", "DROP",   "LOAD"};
  for (const char* w : kWrites) {
    if (t.Is(w))
      return Status(ErrorCode::kUnsupported, Where(t) + "unsupported clause " + Upper(t.text) +
                                                 ": graph queries are read-only (MATCH ... RETURN ...)");
  }
  static const char* const kOther[] = {"OPTIONAL", "WITH", "UNWIND",  "CALL",   "UNION",
                                       "USE",      "SHOW", "EXPLAIN", "PROFILE"};
  for (const char* w : kOther) {
    if (t.Is(w)) return Unsupported(t, "clause " + Upper(t.text));
  }
  return Status::Ok();
}

size_t Translator::BindNode(const std::string& name, const Token& at) {
  if (!name.empty()) {
    auto it = node_by_name_.find(name);
    if (it != node_by_name_.end()) return it->second;
  }
  NodeVar n;
  n.named = !name.empty();
  n.name = n.named ? name : "_n" + std::to_string(++anon_);
  n.at = at;
  nodes_.push_back(n);
  if (n.named) node_by_name_[name] = nodes_.size() - 1;
  return nodes_.size() - 1;
}

Status Translator::ParseProps(std::vector<PropEq>& out) {
  // '{' already consumed
  if (AcceptP("}")) return Status::Ok();
  while (true) {
    const Token& key = Next();
    if (key.kind != Tok::kIdent && key.kind != Tok::kQuotedIdent)
      return Syntax(key, "expected a property name in { }");
    LAKEQA_RETURN_IF_ERROR(Expect(":", "after a property name in { }"));
    LAKEQA_ASSIGN_OR_RETURN(Sql v, Expr());
    if (v.aggregate) return Syntax(key, "aggregates are not allowed in a pattern's properties");
    out.push_back({key.text, v, key});
    if (AcceptP("}")) return Status::Ok();
    LAKEQA_RETURN_IF_ERROR(Expect(",", "or '}' between properties"));
  }
}

Result<size_t> Translator::ParseNode() {
  const Token& open = Peek();
  if (!AcceptP("(")) return Syntax(open, "expected '(' to start a node pattern");
  std::string name;
  Token at = open;
  if (Peek().kind == Tok::kIdent || Peek().kind == Tok::kQuotedIdent) {
    at = Next();
    name = at.text;
    if (rel_by_name_.count(name))
      return Syntax(at, "'" + name + "' is a relationship variable, used as a node");
  }
  size_t idx = BindNode(name, at);
  while (AcceptP(":")) {
    const Token& label = Next();
    if (label.kind != Tok::kIdent && label.kind != Tok::kQuotedIdent)
      return Syntax(label, "expected a label after ':'");
    if (!schema_.Node(label.text)) {
      std::string labels;
      for (const auto& n : schema_.nodes) labels += (labels.empty() ? "" : ", ") + n.label;
      return InvalidArgument(Where(label) + "unknown node label '" + label.text + "'; the labels are " +
                             labels);
    }
    if (!nodes_[idx].label.empty() && nodes_[idx].label != label.text)
      return InvalidArgument(Where(label) + "node '" + name + "' has two labels (" + nodes_[idx].label +
                             ", " + label.text + "); a node has one label in this graph");
    nodes_[idx].label = label.text;
  }
  if (AcceptP("{")) LAKEQA_RETURN_IF_ERROR(ParseProps(nodes_[idx].props));
  if (Peek().kind == Tok::kParam) return Unsupported(Peek(), "parameter " + Peek().text);
  LAKEQA_RETURN_IF_ERROR(Expect(")", "to close the node pattern"));
  return idx;
}

Status Translator::ParseRel(size_t left) {
  // At '-' or '<'.
  Token at = Peek();
  bool in = AcceptP("<");
  LAKEQA_RETURN_IF_ERROR(Expect("-", "in a relationship pattern"));
  RelVar r;
  r.at = at;
  std::string name;
  if (AcceptP("[")) {
    if (Peek().kind == Tok::kIdent || Peek().kind == Tok::kQuotedIdent) {
      const Token& v = Next();
      name = v.text;
      r.at = v;
      if (node_by_name_.count(name))
        return Syntax(v, "'" + name + "' is a node variable, used as a relationship");
      if (rel_by_name_.count(name))
        return Unsupported(v, "reuse of relationship variable '" + name + "' in a second pattern");
    }
    if (AcceptP(":")) {
      do {
        const Token& ty = Next();
        if (ty.kind != Tok::kIdent && ty.kind != Tok::kQuotedIdent)
          return Syntax(ty, "expected a relationship type after ':'");
        if (!schema_.Relation(ty.text)) {
          std::string types;
          for (const auto& rt : schema_.relations) types += (types.empty() ? "" : ", ") + rt.type;
          return InvalidArgument(Where(ty) + "unknown relationship type '" + ty.text + "'; the types are " +
                                 types);
        }
        r.types.push_back(ty.text);
        AcceptP(":");  // [:A|:B] is the older spelling of [:A|B]
      } while (AcceptP("|"));
    }
    if (Peek().P("*")) return Unsupported(Peek(), "variable-length relationship pattern (*)");
    if (AcceptP("{")) LAKEQA_RETURN_IF_ERROR(ParseProps(r.props));
    LAKEQA_RETURN_IF_ERROR(Expect("]", "to close the relationship pattern"));
  }
  LAKEQA_RETURN_IF_ERROR(Expect("-", "in a relationship pattern"));
  bool out = AcceptP(">");
  if (in && out) return Syntax(Peek(), "a relationship cannot point both ways (<-...->)");
  r.dir = in ? Dir::kIn : out ? Dir::kOut : Dir::kBoth;
  LAKEQA_ASSIGN_OR_RETURN(size_t right, ParseNode());
  r.left = left;
  r.right = right;
  r.named = !name.empty();
  r.name = r.named ? name : "_r" + std::to_string(++anon_);
  rels_.push_back(std::move(r));
  if (!name.empty()) rel_by_name_[name] = rels_.size() - 1;
  return Status::Ok();
}

Status Translator::ParseMatch() {
  // MATCH already consumed.
  do {
    if ((Peek().kind == Tok::kIdent) && Peek(1).P("="))
      return Unsupported(Peek(), "path variable '" + Peek().text + " = ...'");
    if (Peek().Is("shortestPath") || Peek().Is("allShortestPaths"))
      return Unsupported(Peek(), "function " + Peek().text);
    LAKEQA_ASSIGN_OR_RETURN(size_t left, ParseNode());
    while (Peek().P("-") || (Peek().P("<") && Peek(1).P("-"))) {
      LAKEQA_RETURN_IF_ERROR(ParseRel(left));
      left = rels_.back().right;
    }
  } while (AcceptP(","));
  return ResolveLabels();
}

Status Translator::ResolveLabels() {
  // Infer labels from typed relationships until nothing changes; then fix each relationship's candidates.
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = resolved_rels_; i < rels_.size(); ++i) {
      auto& r = rels_[i];
      if (r.types.empty()) continue;
      auto& a = nodes_[r.left];
      auto& b = nodes_[r.right];
      // The endpoint labels every written type agrees on, per orientation as written.
      auto agree = [&](bool start_side) {
        std::string label;
        for (const auto& ty : r.types) {
          const RelationType* rt = schema_.Relation(ty);
          const std::string& l = start_side ? rt->start_label : rt->end_label;
          if (!label.empty() && label != l) return std::string();
          label = l;
        }
        return label;
      };
      std::string start = agree(true), end = agree(false);
      if (r.dir == Dir::kBoth) {
        // Only when the other end pins the orientation.
        if (a.label.empty() && !b.label.empty()) {
          if (b.label == end && !start.empty()) a.label = start, changed = true;
          else if (b.label == start && !end.empty()) a.label = end, changed = true;
        } else if (b.label.empty() && !a.label.empty()) {
          if (a.label == start && !end.empty()) b.label = end, changed = true;
          else if (a.label == end && !start.empty()) b.label = start, changed = true;
        }
        continue;
      }
      NodeVar& s = r.dir == Dir::kOut ? a : b;
      NodeVar& e = r.dir == Dir::kOut ? b : a;
      if (s.label.empty() && !start.empty()) s.label = start, changed = true;
      if (e.label.empty() && !end.empty()) e.label = end, changed = true;
    }
  }
  for (size_t i = resolved_nodes_; i < nodes_.size(); ++i) {
    const auto& n = nodes_[i];
    if (n.label.empty()) {
      std::string labels;
      for (const auto& nt : schema_.nodes) labels += (labels.empty() ? "" : ", ") + nt.label;
      return InvalidArgument(Where(n.at) + "node " + (n.named ? "'" + n.name + "' " : "") +
                             "has no label and none follows from a typed relationship; write one of " +
                             labels);
    }
  }
  for (size_t i = resolved_rels_; i < rels_.size(); ++i) {
    auto& r = rels_[i];
    const auto& a = nodes_[r.left].label;
    const auto& b = nodes_[r.right].label;
    bool any_fwd = false, any_bwd = false;
    for (const auto& rt : schema_.relations) {
      if (!r.types.empty() && std::find(r.types.begin(), r.types.end(), rt.type) == r.types.end()) continue;
      bool fwd = r.dir != Dir::kIn && rt.start_label == a && rt.end_label == b;
      bool bwd = r.dir != Dir::kOut && rt.start_label == b && rt.end_label == a;
      if (fwd || bwd) r.candidates.push_back(&rt);
      any_fwd = any_fwd || fwd;
      any_bwd = any_bwd || bwd;
    }
    r.forward = any_fwd;
    r.backward = any_bwd;
  }
  // Property maps: the keys must exist.
  for (size_t i = resolved_nodes_; i < nodes_.size(); ++i) {
    auto& n = nodes_[i];
    const NodeType* nt = schema_.Node(n.label);
    for (const auto& p : n.props) {
      if (p.key != nt->id_column &&
          std::find(nt->properties.begin(), nt->properties.end(), p.key) == nt->properties.end())
        return InvalidArgument(Where(p.at) + n.label + " has no property '" + p.key + "'");
      std::string col = p.key == nt->id_column ? "_id" : p.key;
      std::string lhs = QuoteId(n.name) + "." + QuoteId(col);
      conditions_.push_back(
          lhs + " = " +
          (p.value.type == Ty::kNumber ? "CAST(" + p.value.text + " AS VARCHAR)" : p.value.text));
    }
    n.props.clear();
  }
  for (size_t i = resolved_rels_; i < rels_.size(); ++i) {
    auto& r = rels_[i];
    const auto& a = nodes_[r.left];
    const auto& b = nodes_[r.right];
    std::string R = QuoteId(r.name);
    std::string fwd =
        R + "._start = " + QuoteId(a.name) + "._id AND " + R + "._end = " + QuoteId(b.name) + "._id";
    std::string bwd =
        R + "._start = " + QuoteId(b.name) + "._id AND " + R + "._end = " + QuoteId(a.name) + "._id";
    if (r.candidates.empty()) {
      conditions_.push_back("false");  // no relationship type fits: no match, as in Neo4j
    } else if (r.forward && r.backward) {
      // Undirected between two nodes of one label can match either way; per candidate type when the
      // union mixes orientations is not needed because a candidate fits both only when labels are equal.
      conditions_.push_back("((" + fwd + ") OR (" + bwd + "))");
    } else {
      conditions_.push_back(r.forward ? fwd : bwd);
    }
    for (const auto& p : r.props) {
      bool known = false;
      for (const auto* rt : r.candidates)
        known =
            known || std::find(rt->properties.begin(), rt->properties.end(), p.key) != rt->properties.end();
      if (!known && !r.candidates.empty())
        return InvalidArgument(Where(p.at) + "relationship '" + (r.named ? r.name : "") +
                               "' has no property '" + p.key + "'");
      conditions_.push_back(
          R + "." + QuoteId(p.key) + " = " +
          (p.value.type == Ty::kNumber ? "CAST(" + p.value.text + " AS VARCHAR)" : p.value.text));
    }
    r.props.clear();
  }
  resolved_nodes_ = nodes_.size();
  resolved_rels_ = rels_.size();
  return Status::Ok();
}

std::string Translator::RelTable(const RelVar& r) const {
  if (r.candidates.size() == 1) return tables_.edges(*r.candidates[0]);
  // A union of the candidate types, with every property any of them has (null where absent).
  std::vector<std::string> props;
  for (const auto* rt : r.candidates) {
    for (const auto& p : rt->properties) {
      if (std::find(props.begin(), props.end(), p) == props.end()) props.push_back(p);
    }
  }
  if (r.candidates.empty()) {
    std::string cols =
        "NULL::VARCHAR AS _key, NULL::VARCHAR AS _type, NULL::VARCHAR AS _start, NULL::VARCHAR AS _end";
    return "(SELECT " + cols + " WHERE false)";
  }
  std::string u;
  for (const auto* rt : r.candidates) {
    std::string sel = "_key, " + SqlStr(rt->type) + " AS _type, _start, _end";
    for (const auto& p : props) {
      bool has = std::find(rt->properties.begin(), rt->properties.end(), p) != rt->properties.end();
      sel += ", " + (has ? QuoteId(p) : "NULL::VARCHAR AS " + QuoteId(p));
    }
    u += (u.empty() ? "" : " UNION ALL ") + std::string("SELECT ") + sel + " FROM " + tables_.edges(*rt);
  }
  return "(" + u + ")";
}

std::string Translator::SourceText(size_t from, size_t to) const {
  // Rebuilds the text of tokens [from, to) for default column names ("p.name", "count(*)").
  std::string out;
  for (size_t i = from; i < to && i < t_.size(); ++i) {
    const Token& t = t_[i];
    std::string piece = t.kind == Tok::kString        ? "'" + t.text + "'"
                        : t.kind == Tok::kQuotedIdent ? "`" + t.text + "`"
                                                      : t.text;
    bool glue = t.P(".") || t.P("(") || t.P(")") || t.P(",") || t.P("[") || t.P("]") ||
                (i > from && (t_[i - 1].P(".") || t_[i - 1].P("(") || t_[i - 1].P("[")));
    if (!out.empty() && !glue) out += ' ';
    out += piece;
    if (t.P(",")) out += ' ';
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// ---- expressions ----

Result<Sql> Translator::Expr() { return Or(); }

Result<Sql> Translator::Or() {
  LAKEQA_ASSIGN_OR_RETURN(Sql l, Xor());
  while (AcceptK("OR")) {
    LAKEQA_ASSIGN_OR_RETURN(Sql r, Xor());
    l = {"(" + l.text + " OR " + r.text + ")", Ty::kBool, l.aggregate || r.aggregate};
  }
  return l;
}

Result<Sql> Translator::Xor() {
  LAKEQA_ASSIGN_OR_RETURN(Sql l, And());
  while (AcceptK("XOR")) {
    LAKEQA_ASSIGN_OR_RETURN(Sql r, And());
    l = {"((" + l.text + ") <> (" + r.text + "))", Ty::kBool, l.aggregate || r.aggregate};
  }
  return l;
}

Result<Sql> Translator::And() {
  LAKEQA_ASSIGN_OR_RETURN(Sql l, Not());
  while (AcceptK("AND")) {
    LAKEQA_ASSIGN_OR_RETURN(Sql r, Not());
    l = {"(" + l.text + " AND " + r.text + ")", Ty::kBool, l.aggregate || r.aggregate};
  }
  return l;
}

Result<Sql> Translator::Not() {
  if (AcceptK("NOT")) {
    LAKEQA_ASSIGN_OR_RETURN(Sql e, Not());
    return Sql{"(NOT " + e.text + ")", Ty::kBool, e.aggregate};
  }
  return Comparison();
}

Result<Sql> Translator::Comparison() {
  LAKEQA_ASSIGN_OR_RETURN(Sql l, Additive());
  while (true) {
    const Token& op = Peek();
    static const char* const kOps[] = {"=", "<>", "!=", "<", "<=", ">", ">="};
    bool is_cmp = false;
    for (const char* o : kOps) is_cmp = is_cmp || op.P(o);
    if (is_cmp) {
      ++pos_;
      std::string o = op.text == "!=" ? "<>" : op.text;
      LAKEQA_ASSIGN_OR_RETURN(Sql r, Additive());
      std::string a = l.text, b = r.text;
      // Properties are text: against a number they are read as numbers.
      if (l.type == Ty::kNumber && r.type != Ty::kNumber && r.type != Ty::kNull) b = AsNumber(r);
      if (r.type == Ty::kNumber && l.type != Ty::kNumber && l.type != Ty::kNull) a = AsNumber(l);
      l = {"(" + a + " " + o + " " + b + ")", Ty::kBool, l.aggregate || r.aggregate};
    } else if (op.P("=~")) {
      ++pos_;
      LAKEQA_ASSIGN_OR_RETURN(Sql r, Additive());
      l = {"regexp_full_match(CAST(" + l.text + " AS VARCHAR), " + r.text + ")", Ty::kBool,
           l.aggregate || r.aggregate};
    } else if (op.Is("CONTAINS")) {
      ++pos_;
      LAKEQA_ASSIGN_OR_RETURN(Sql r, Additive());
      l = {"contains(CAST(" + l.text + " AS VARCHAR), CAST(" + r.text + " AS VARCHAR))", Ty::kBool,
           l.aggregate || r.aggregate};
    } else if (op.Is("STARTS") || op.Is("ENDS")) {
      bool starts = op.Is("STARTS");
      ++pos_;
      if (!AcceptK("WITH"))
        return Syntax(Peek(), std::string("expected WITH after ") + (starts ? "STARTS" : "ENDS"));
      LAKEQA_ASSIGN_OR_RETURN(Sql r, Additive());
      l = {std::string(starts ? "starts_with" : "suffix") + "(CAST(" + l.text + " AS VARCHAR), CAST(" +
               r.text + " AS VARCHAR))",
           Ty::kBool, l.aggregate || r.aggregate};
    } else if (op.Is("IN")) {
      ++pos_;
      LAKEQA_ASSIGN_OR_RETURN(Sql r, Additive());
      if (r.type != Ty::kList) return Syntax(op, "IN needs a list literal [a, b, ...] on its right");
      // r.text is "[x, y]": DuckDB's list_contains keeps null semantics close enough (null → false).
      std::string lhs = l.text;
      l = {"list_contains(" + r.text + ", " + lhs + ")", Ty::kBool, l.aggregate || r.aggregate};
    } else if (op.Is("IS")) {
      ++pos_;
      bool neg = AcceptK("NOT");
      if (!AcceptK("NULL")) return Syntax(Peek(), "expected NULL after IS");
      l = {"(" + l.text + (neg ? " IS NOT NULL)" : " IS NULL)"), Ty::kBool, l.aggregate};
    } else {
      return l;
    }
  }
}

Result<Sql> Translator::Additive() {
  LAKEQA_ASSIGN_OR_RETURN(Sql l, Multiplicative());
  while (Peek().P("+") || Peek().P("-")) {
    std::string op = Next().text;
    LAKEQA_ASSIGN_OR_RETURN(Sql r, Multiplicative());
    bool agg = l.aggregate || r.aggregate;
    if (op == "+" && l.type == Ty::kList && r.type == Ty::kList) {
      l = {"list_concat(" + l.text + ", " + r.text + ")", Ty::kList, agg};
    } else if (op == "+" && (l.type == Ty::kText || r.type == Ty::kText)) {
      l = {"(CAST(" + l.text + " AS VARCHAR) || CAST(" + r.text + " AS VARCHAR))", Ty::kText, agg};
    } else {
      l = {"(" + AsNumber(l) + " " + op + " " + AsNumber(r) + ")", Ty::kNumber, agg};
    }
  }
  return l;
}

Result<Sql> Translator::Multiplicative() {
  LAKEQA_ASSIGN_OR_RETURN(Sql l, Unary());
  while (Peek().P("*") || Peek().P("/") || Peek().P("%") || Peek().P("^")) {
    std::string op = Next().text;
    LAKEQA_ASSIGN_OR_RETURN(Sql r, Unary());
    std::string a = AsNumber(l), b = AsNumber(r);
    std::string text = op == "^" ? "power(" + a + ", " + b + ")" : "(" + a + " " + op + " " + b + ")";
    l = {text, Ty::kNumber, l.aggregate || r.aggregate};
  }
  return l;
}

Result<Sql> Translator::Unary() {
  if (AcceptP("-")) {
    LAKEQA_ASSIGN_OR_RETURN(Sql e, Unary());
    return Sql{"(-" + AsNumber(e) + ")", Ty::kNumber, e.aggregate};
  }
  if (AcceptP("+")) return Unary();
  return Postfix();
}

Result<Sql> Translator::Postfix() {
  const Token& t = Peek();
  if ((t.kind == Tok::kIdent || t.kind == Tok::kQuotedIdent) && Peek(1).P(".") &&
      (Peek(2).kind == Tok::kIdent || Peek(2).kind == Tok::kQuotedIdent)) {
    Token var = Next();
    ++pos_;
    Token prop = Next();
    return Property(var, prop);
  }
  LAKEQA_ASSIGN_OR_RETURN(Sql p, Primary());
  if (Peek().P("[")) return Unsupported(Peek(), "list indexing or slicing ([...] after an expression)");
  if (Peek().P(".")) return Unsupported(Peek(), "property access on an expression that is not a variable");
  return p;
}

Result<Sql> Translator::Property(const Token& var, const Token& prop) {
  if (auto it = node_by_name_.find(var.text); it != node_by_name_.end() && it->second < resolved_nodes_) {
    const NodeVar& n = nodes_[it->second];
    const NodeType* nt = schema_.Node(n.label);
    if (prop.text == nt->id_column) return Sql{QuoteId(n.name) + "._id", Ty::kText};
    if (std::find(nt->properties.begin(), nt->properties.end(), prop.text) == nt->properties.end()) {
      std::string props = nt->id_column;
      for (const auto& p : nt->properties) props += ", " + p;
      return InvalidArgument(Where(prop) + n.label + " has no property '" + prop.text +
                             "'; its properties are " + props);
    }
    return Sql{QuoteId(n.name) + "." + QuoteId(prop.text), Ty::kText};
  }
  if (auto it = rel_by_name_.find(var.text); it != rel_by_name_.end() && it->second < resolved_rels_) {
    const RelVar& r = rels_[it->second];
    bool known = r.candidates.empty();
    std::string props;
    std::set<std::string> seen;
    for (const auto* rt : r.candidates) {
      for (const auto& p : rt->properties) {
        known = known || p == prop.text;
        if (seen.insert(p).second) props += (props.empty() ? "" : ", ") + p;
      }
    }
    if (!known)
      return InvalidArgument(Where(prop) + "relationship '" + var.text + "' has no property '" + prop.text +
                             "'; its properties are " + (props.empty() ? "none" : props));
    if (r.candidates.empty()) return Sql{"NULL::VARCHAR", Ty::kNull};
    return Sql{QuoteId(r.name) + "." + QuoteId(prop.text), Ty::kText};
  }
  if (aliases_.count(var.text)) return Unsupported(var, "property access on a RETURN alias");
  return InvalidArgument(Where(var) + "variable '" + var.text + "' is not defined by a MATCH pattern");
}

Result<Sql> Translator::Variable(const Token& var) {
  if (auto it = node_by_name_.find(var.text); it != node_by_name_.end() && it->second < resolved_nodes_) {
    // A node in RETURN: its identity and properties as a struct.
    const NodeVar& n = nodes_[it->second];
    const NodeType* nt = schema_.Node(n.label);
    std::string fields = "_key := " + KeyOf(n.name) + ", _label := " + SqlStr(n.label);
    for (const auto& p : nt->properties)
      fields += ", " + QuoteId(p) + " := " + QuoteId(n.name) + "." + QuoteId(p);
    return Sql{"struct_pack(" + fields + ")", Ty::kAny};
  }
  if (auto it = rel_by_name_.find(var.text); it != rel_by_name_.end() && it->second < resolved_rels_) {
    const RelVar& r = rels_[it->second];
    std::string type = r.candidates.size() == 1 ? SqlStr(r.candidates[0]->type) : QuoteId(r.name) + "._type";
    std::string fields = "_key := " + KeyOf(r.name) + ", _type := " + type;
    std::set<std::string> seen;
    for (const auto* rt : r.candidates) {
      for (const auto& p : rt->properties) {
        if (seen.insert(p).second) fields += ", " + QuoteId(p) + " := " + QuoteId(r.name) + "." + QuoteId(p);
      }
    }
    return Sql{"struct_pack(" + fields + ")", Ty::kAny};
  }
  if (aliases_.count(var.text)) return Sql{QuoteId(var.text), Ty::kAny};
  return InvalidArgument(Where(var) + "variable '" + var.text + "' is not defined by a MATCH pattern");
}

Result<Sql> Translator::Case(const Token& at) {
  // CASE already consumed.
  std::optional<Sql> subject;
  if (!Peek().Is("WHEN")) {
    LAKEQA_ASSIGN_OR_RETURN(Sql s, Expr());
    subject = s;
  }
  std::string out = "CASE";
  bool agg = subject && subject->aggregate;
  Ty type = Ty::kAny;
  bool first = true;
  if (subject) out += " " + subject->text;
  if (!Peek().Is("WHEN")) return Syntax(Peek(), "expected WHEN in CASE");
  while (AcceptK("WHEN")) {
    LAKEQA_ASSIGN_OR_RETURN(Sql w, Expr());
    if (!AcceptK("THEN")) return Syntax(Peek(), "expected THEN in CASE");
    LAKEQA_ASSIGN_OR_RETURN(Sql v, Expr());
    out += " WHEN " + w.text + " THEN " + v.text;
    agg = agg || w.aggregate || v.aggregate;
    type = first ? v.type : (type == v.type ? type : Ty::kAny);
    first = false;
  }
  if (AcceptK("ELSE")) {
    LAKEQA_ASSIGN_OR_RETURN(Sql e, Expr());
    out += " ELSE " + e.text;
    agg = agg || e.aggregate;
    if (type != e.type) type = Ty::kAny;
  }
  if (!AcceptK("END"))
    return Syntax(Peek(), "expected END to close the CASE that starts at " + std::to_string(at.line) + ":" +
                              std::to_string(at.column));
  // Mixed number/text branches (CASE ... THEN toFloat(x) ELSE 0 END) compare as numbers.
  return Sql{"(" + out + " END)", type, agg};
}

// Refuses a call with too few or too many arguments, at the function's name.
Status CheckArity(const Token& name, size_t got, size_t lo, size_t hi) {
  if (got < lo || got > hi)
    return InvalidArgument(
        Where(name) + name.text + "() takes " +
        (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
        " argument(s), got " + std::to_string(got));
  return Status::Ok();
}

Result<Sql> Translator::Function(const Token& name) {
  // '(' already consumed.
  std::string fn = ToLowerAscii(name.text);
  static const std::set<std::string> kAggregates = {"count", "sum", "avg", "min", "max", "collect"};
  bool aggregate = kAggregates.count(fn) > 0;
  if (fn == "count" && AcceptP("*")) {
    LAKEQA_RETURN_IF_ERROR(Expect(")", "after count(*"));
    return Sql{"count(*)", Ty::kNumber, true};
  }
  bool distinct = aggregate && AcceptK("DISTINCT");
  // count(v) of a node or relationship variable counts its identities (never null), not a struct.
  if (aggregate && (Peek().kind == Tok::kIdent || Peek().kind == Tok::kQuotedIdent) && Peek(1).P(")")) {
    const Token& v = Peek();
    std::string alias;
    if (auto it = node_by_name_.find(v.text); it != node_by_name_.end()) alias = nodes_[it->second].name;
    if (auto it = rel_by_name_.find(v.text); it != rel_by_name_.end()) alias = rels_[it->second].name;
    if (!alias.empty() && (fn == "count" || fn == "collect")) {
      pos_ += 2;
      std::string d = distinct ? "DISTINCT " : "";
      if (fn == "count") return Sql{"count(" + d + KeyOf(alias) + ")", Ty::kNumber, true};
      return Sql{"list(" + d + KeyOf(alias) + ")", Ty::kList, true};
    }
  }
  std::vector<Sql> args;
  if (!AcceptP(")")) {
    while (true) {
      LAKEQA_ASSIGN_OR_RETURN(Sql a, Expr());
      if (aggregate && a.aggregate) return InvalidArgument(Where(name) + "an aggregate inside an aggregate");
      args.push_back(a);
      if (AcceptP(")")) break;
      LAKEQA_RETURN_IF_ERROR(Expect(",", "or ')' between function arguments"));
    }
  }
  bool agg_inside = false;
  for (const auto& a : args) agg_inside = agg_inside || a.aggregate;
  if (aggregate) {
    LAKEQA_RETURN_IF_ERROR(CheckArity(name, args.size(), 1, 1));
    std::string d = distinct ? "DISTINCT " : "";
    std::string a = args[0].text;
    // count(p) counts matches of p: its identity is never null.
    if (fn == "count") return Sql{"count(" + d + a + ")", Ty::kNumber, true};
    if (fn == "sum" || fn == "avg") return Sql{fn + "(" + d + AsNumber(args[0]) + ")", Ty::kNumber, true};
    if (fn == "collect") return Sql{"list(" + d + a + ")", Ty::kList, true};
    return Sql{fn + "(" + d + a + ")", args[0].type, true};  // min, max
  }
  Sql out;
  if (fn == "id" || fn == "elementid" || fn == "type" || fn == "labels") {
    LAKEQA_ASSIGN_OR_RETURN(out, VariableFunction(name, fn, args));
  } else {
    LAKEQA_ASSIGN_OR_RETURN(out, ValueFunction(name, fn, args));
  }
  out.aggregate = agg_inside;
  return out;
}

Result<Sql> Translator::ValueFunction(const Token& name, const std::string& fn,
                                      const std::vector<Sql>& args) const {
  auto text = [&](size_t i) { return "CAST(" + args[i].text + " AS VARCHAR)"; };
  Sql out;
  if (fn == "tofloat") {
    LAKEQA_RETURN_IF_ERROR(CheckArity(name, args.size(), 1, 1));
    out.text = "TRY_CAST(" + args[0].text + " AS DOUBLE)";
    out.type = Ty::kNumber;
  } else if (fn == "tointeger") {
    LAKEQA_RETURN_IF_ERROR(CheckArity(name, args.size(), 1, 1));
    out.text = "CAST(trunc(TRY_CAST(" + args[0].text + " AS DOUBLE)) AS BIGINT)";
    out.type = Ty::kNumber;
  } else if (fn == "tostring") {
    LAKEQA_RETURN_IF_ERROR(CheckArity(name, args.size(), 1, 1));
    out.text = text(0);
    out.type = Ty::kText;
  } else if (fn == "tolower" || fn == "lower" || fn == "toupper" || fn == "upper" || fn == "trim" ||
             fn == "ltrim" || fn == "rtrim") {
    LAKEQA_RETURN_IF_ERROR(CheckArity(name, args.size(), 1, 1));
    std::string f = fn == "tolower" ? "lower" : fn == "toupper" ? "upper" : fn;
    out.text = f + "(" + text(0) + ")";
    out.type = Ty::kText;
  } else if (fn == "replace") {
    LAKEQA_RETURN_IF_ERROR(CheckArity(name, args.size(), 3, 3));
    out.text = "replace(" + text(0) + ", " + text(1) + ", " + text(2) + ")";
    out.type = Ty::kText;
  } else if (fn == "substring") {
    LAKEQA_RETURN_IF_ERROR(CheckArity(name, args.size(), 2, 3));
    // Cypher counts from 0, SQL from 1.
    out.text = "substring(" + text(0) + ", " + AsNumber(args[1]) + "::BIGINT + 1" +
               (args.size() == 3 ? ", " + AsNumber(args[2]) + "::BIGINT" : std::string()) + ")";
    out.type = Ty::kText;
  } else if (fn == "left" || fn == "right") {
    LAKEQA_RETURN_IF_ERROR(CheckArity(name, args.size(), 2, 2));
    out.text = fn + "(" + text(0) + ", " + AsNumber(args[1]) + "::BIGINT)";
    out.type = Ty::kText;
  } else if (fn == "size" || fn == "length") {
    LAKEQA_RETURN_IF_ERROR(CheckArity(name, args.size(), 1, 1));
    out.text = args[0].type == Ty::kList ? "len(" + args[0].text + ")" : "length(" + text(0) + ")";
    out.type = Ty::kNumber;
  } else if (fn == "split") {
    LAKEQA_RETURN_IF_ERROR(CheckArity(name, args.size(), 2, 2));
    out.text = "string_split(" + text(0) + ", " + text(1) + ")";
    out.type = Ty::kList;
  } else if (fn == "coalesce") {
    if (args.empty()) return InvalidArgument(Where(name) + "coalesce() needs at least one argument");
    std::string list;
    for (const auto& a : args) list += (list.empty() ? "" : ", ") + a.text;
    out.text = "coalesce(" + list + ")";
    out.type = args[0].type;
  } else if (fn == "abs" || fn == "round" || fn == "floor" || fn == "ceil" || fn == "sqrt") {
    LAKEQA_RETURN_IF_ERROR(CheckArity(name, args.size(), 1, 1));
    out.text = fn + "(" + AsNumber(args[0]) + ")";
    out.type = Ty::kNumber;
  } else {
    return Unsupported(name, "function " + name.text + "()");
  }
  return out;
}

// The argument must be the variable itself (the token before the closing parenthesis).
Result<Sql> Translator::VariableFunction(const Token& name, const std::string& fn,
                                         const std::vector<Sql>& args) {
  Sql out;
  if (fn == "id" || fn == "elementid") {
    // lakeqa's identity, not Neo4j's internal id (which the import files cannot reproduce).
    LAKEQA_RETURN_IF_ERROR(CheckArity(name, args.size(), 1, 1));
    const Token& v = t_[pos_ - 2];
    if (!(v.kind == Tok::kIdent || v.kind == Tok::kQuotedIdent) ||
        (!node_by_name_.count(v.text) && !rel_by_name_.count(v.text)))
      return InvalidArgument(Where(name) + name.text + "() takes a node or relationship variable");
    out.text = KeyOf(node_by_name_.count(v.text) ? nodes_[node_by_name_[v.text]].name
                                                 : rels_[rel_by_name_[v.text]].name);
    out.type = Ty::kText;
  } else if (fn == "type") {
    LAKEQA_RETURN_IF_ERROR(CheckArity(name, args.size(), 1, 1));
    const Token& v = t_[pos_ - 2];
    auto it = rel_by_name_.find(v.text);
    if (it == rel_by_name_.end())
      return InvalidArgument(Where(name) + "type() takes a relationship variable");
    const RelVar& r = rels_[it->second];
    out.text = r.candidates.size() == 1 ? SqlStr(r.candidates[0]->type) : QuoteId(r.name) + "._type";
    out.type = Ty::kText;
  } else if (fn == "labels") {
    LAKEQA_RETURN_IF_ERROR(CheckArity(name, args.size(), 1, 1));
    const Token& v = t_[pos_ - 2];
    auto it = node_by_name_.find(v.text);
    if (it == node_by_name_.end()) return InvalidArgument(Where(name) + "labels() takes a node variable");
    out.text = "[" + SqlStr(nodes_[it->second].label) + "]";
    out.type = Ty::kList;
  }
  return out;
}

Result<Sql> Translator::Primary() {
  const Token& t = Next();
  switch (t.kind) {
    case Tok::kString: return Sql{SqlStr(t.text), Ty::kText};
    case Tok::kInt:
    case Tok::kFloat: return Sql{t.text, Ty::kNumber};
    case Tok::kParam: return Unsupported(t, "parameter " + t.text);
    case Tok::kEnd: return Syntax(t, "expected an expression");
    case Tok::kQuotedIdent: return Variable(t);
    case Tok::kIdent: break;
    case Tok::kPunct:
      if (t.P("(")) {
        LAKEQA_ASSIGN_OR_RETURN(Sql e, Expr());
        LAKEQA_RETURN_IF_ERROR(Expect(")", "to close '('"));
        return Sql{"(" + e.text + ")", e.type, e.aggregate};
      }
      if (t.P("[")) {
        std::string items;
        bool agg = false;
        if (!AcceptP("]")) {
          while (true) {
            LAKEQA_ASSIGN_OR_RETURN(Sql e, Expr());
            if (AcceptK("IN") || Peek().P("|")) return Unsupported(t, "list comprehension");
            items += (items.empty() ? "" : ", ") + e.text;
            agg = agg || e.aggregate;
            if (AcceptP("]")) break;
            LAKEQA_RETURN_IF_ERROR(Expect(",", "or ']' in a list"));
          }
        }
        return Sql{"[" + items + "]", Ty::kList, agg};
      }
      if (t.P("{")) return Unsupported(t, "map literal");
      return Syntax(t, "expected an expression");
  }
  if (t.Is("true") || t.Is("false")) return Sql{ToLowerAscii(t.text), Ty::kBool};
  if (t.Is("null")) return Sql{"NULL", Ty::kNull};
  if (t.Is("CASE")) return Case(t);
  if (t.Is("EXISTS") || t.Is("exists")) return Unsupported(t, "EXISTS");
  if (AcceptP("(")) return Function(t);
  if (Peek().P(":")) return Unsupported(Peek(), "label predicate (v:Label) in an expression");
  return Variable(t);
}

Result<Translation> Translator::Run() {
  if (Peek().kind == Tok::kEnd) return InvalidArgument("cypher 1:1: empty query");
  LAKEQA_RETURN_IF_ERROR(CheckClause(Peek()));
  if (!Peek().Is("MATCH")) return Syntax(Peek(), "a query starts with MATCH");
  while (AcceptK("MATCH")) {
    LAKEQA_RETURN_IF_ERROR(ParseMatch());
    if (AcceptK("WHERE")) {
      LAKEQA_ASSIGN_OR_RETURN(Sql w, Expr());
      if (w.aggregate) return InvalidArgument(Where(Peek()) + "aggregates are not allowed in WHERE");
      conditions_.push_back(w.text);
    }
    LAKEQA_RETURN_IF_ERROR(CheckClause(Peek()));
  }
  if (!Peek().Is("RETURN")) return Syntax(Peek(), "expected RETURN (or another MATCH or WHERE)");
  ++pos_;
  bool distinct = AcceptK("DISTINCT");
  std::vector<std::pair<Sql, std::string>> items;  // expression, column name
  if (AcceptP("*")) {
    for (const auto& n : nodes_) {
      if (!n.named) continue;
      Token v;
      v.kind = Tok::kIdent;
      v.text = n.name;
      LAKEQA_ASSIGN_OR_RETURN(Sql s, Variable(v));
      items.push_back({s, n.name});
    }
    for (const auto& r : rels_) {
      if (!r.named) continue;
      Token v;
      v.kind = Tok::kIdent;
      v.text = r.name;
      LAKEQA_ASSIGN_OR_RETURN(Sql s, Variable(v));
      items.push_back({s, r.name});
    }
    if (items.empty())
      return InvalidArgument(Where(t_[pos_ - 1]) + "RETURN * needs at least one named variable");
  } else {
    while (true) {
      size_t from = pos_;
      LAKEQA_ASSIGN_OR_RETURN(Sql e, Expr());
      std::string name = SourceText(from, pos_);
      if (AcceptK("AS")) {
        const Token& a = Next();
        if (a.kind != Tok::kIdent && a.kind != Tok::kQuotedIdent)
          return Syntax(a, "expected a name after AS");
        name = a.text;
        aliases_.insert(name);
      }
      items.push_back({e, name});
      if (!AcceptP(",")) break;
    }
  }
  bool grouped = false;
  for (const auto& [e, n] : items) grouped = grouped || e.aggregate;
  std::string select = distinct ? "SELECT DISTINCT " : "SELECT ";
  for (size_t i = 0; i < items.size(); ++i)
    select += (i ? ", " : "") + items[i].first.text + " AS " + QuoteId(items[i].second);

  std::string order;
  if (AcceptK("ORDER")) {
    if (!AcceptK("BY")) return Syntax(Peek(), "expected BY after ORDER");
    while (true) {
      LAKEQA_ASSIGN_OR_RETURN(Sql e, Expr());
      std::string dir;
      if (AcceptK("DESC") || AcceptK("DESCENDING")) dir = " DESC";
      else if (AcceptK("ASC") || AcceptK("ASCENDING")) dir = " ASC";
      // Neo4j sorts nulls last ascending and first descending: DuckDB's default (NULLS LAST) differs
      // descending, so say it.
      order += (order.empty() ? "" : ", ") + e.text + dir + (dir == " DESC" ? " NULLS FIRST" : " NULLS LAST");
      if (!AcceptP(",")) break;
    }
  }
  auto count_arg = [&](const char* what) -> Result<std::string> {
    const Token& n = Next();
    if (n.kind != Tok::kInt) return Syntax(n, std::string("expected a whole number after ") + what);
    return n.text;
  };
  std::string skip, limit;
  if (AcceptK("SKIP")) {
    LAKEQA_ASSIGN_OR_RETURN(skip, count_arg("SKIP"));
  }
  if (AcceptK("LIMIT")) {
    LAKEQA_ASSIGN_OR_RETURN(limit, count_arg("LIMIT"));
  }
  AcceptP(";");
  if (Peek().kind != Tok::kEnd) {
    LAKEQA_RETURN_IF_ERROR(CheckClause(Peek()));
    return Syntax(Peek(), "expected the end of the query after RETURN ... [ORDER BY] [SKIP] [LIMIT]");
  }

  std::string from;
  std::set<std::string> emitted;
  for (const auto& n : nodes_) from += (from.empty() ? "" : ", ") + NodeTable(n) + " AS " + QuoteId(n.name);
  for (const auto& r : rels_) from += ", " + RelTable(r) + " AS " + QuoteId(r.name);
  std::string where;
  for (const auto& c : conditions_) where += (where.empty() ? "" : " AND ") + c;
  std::string body = " FROM " + from + (where.empty() ? "" : " WHERE " + where);

  Translation out;
  out.sql = select + body + (grouped ? " GROUP BY ALL" : "") + (order.empty() ? "" : " ORDER BY " + order) +
            (limit.empty() ? "" : " LIMIT " + limit) + (skip.empty() ? "" : " OFFSET " + skip);
  std::string ev;
  for (const auto& n : nodes_) {
    std::string col = "node_" + n.name;
    ev += (ev.empty() ? "" : ", ") + KeyOf(n.name) + " AS " + QuoteId(col);
    out.node_columns.push_back(col);
  }
  for (const auto& r : rels_) {
    std::string col = "edge_" + r.name;
    ev += ", " + KeyOf(r.name) + " AS " + QuoteId(col);
    out.edge_columns.push_back(col);
  }
  out.evidence_sql = "SELECT DISTINCT " + ev + body;
  return out;
}

}  // namespace

Result<Translation> TranslateCypher(std::string_view cypher, const Schema& schema,
                                    const TableSource& tables) {
  LAKEQA_ASSIGN_OR_RETURN(std::vector<Token> toks, LexCypher(cypher));
  Translator t(std::move(toks), schema, tables);
  return t.Run();
}

}  // namespace lakeqa::graph
