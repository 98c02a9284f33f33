#include "graph/cypher_lexer.h"

#include <cctype>

#include "lakeqa/common/strings.h"

namespace lakeqa::graph {

bool Token::Is(std::string_view keyword) const {
  return kind == Tok::kIdent && ToLowerAscii(text) == ToLowerAscii(keyword);
}

std::string Where(const Token& t) {
  return "cypher " + std::to_string(t.line) + ":" + std::to_string(t.column) + ": ";
}

namespace {

// A quoted string starting at s[i] (its quote), escapes decoded into t.text; the index after the closing
// quote, npos when the string is not closed. Newlines inside move line and line_start on.
size_t LexString(std::string_view s, size_t i, Token& t, int& line, size_t& line_start) {
  char quote = s[i];
  t.kind = Tok::kString;
  size_t j = i + 1;
  while (j < s.size()) {
    char d = s[j];
    if (d == '\\' && j + 1 < s.size()) {
      char e = s[j + 1];
      switch (e) {
        case 'n': t.text += '\n'; break;
        case 't': t.text += '\t'; break;
        case 'r': t.text += '\r'; break;
        default: t.text += e;  // \' \" \\ and anything else stand for themselves
      }
      j += 2;
      continue;
    }
    if (d == quote) return j + 1;
    if (d == '\n') ++line, line_start = j + 1;
    t.text += d;
    ++j;
  }
  return std::string_view::npos;
}

// An integer or float literal starting at s[i] (t already holds its position); the index after it.
Result<size_t> LexNumber(std::string_view s, size_t i, Token& t) {
  size_t j = i;
  bool is_float = false;
  while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
  // "1..3" is a range (refused later), not the float "1."
  if (j + 1 < s.size() && s[j] == '.' && std::isdigit(static_cast<unsigned char>(s[j + 1]))) {
    is_float = true;
    ++j;
    while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
  }
  if (j < s.size() && (s[j] == 'e' || s[j] == 'E')) {
    size_t k = j + 1;
    if (k < s.size() && (s[k] == '+' || s[k] == '-')) ++k;
    if (k < s.size() && std::isdigit(static_cast<unsigned char>(s[k]))) {
      is_float = true;
      j = k;
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
    }
  }
  if (j < s.size() && (std::isalpha(static_cast<unsigned char>(s[j])) || s[j] == '_'))
    return InvalidArgument(Where(t) + "malformed number '" + std::string(s.substr(i, j - i + 1)) + "'");
  t.kind = is_float ? Tok::kFloat : Tok::kInt;
  t.text = std::string(s.substr(i, j - i));
  return j;
}

// The length of the operator or punctuation at s[i] (two characters before one); 0 when there is none.
size_t PunctLength(std::string_view s, size_t i) {
  static const char* const kTwo[] = {"<=", ">=", "<>", "!=", "=~", ".."};
  std::string two(s.substr(i, 2));
  for (const char* p : kTwo)
    if (two == p) return 2;
  return std::string_view("()[]{}:,.-<>=+*/%|;^").find(s[i]) == std::string_view::npos ? 0 : 1;
}

}  // namespace

Result<std::vector<Token>> LexCypher(std::string_view s) {
  std::vector<Token> out;
  int line = 1;
  size_t line_start = 0;
  size_t i = 0;
  auto at = [&](size_t off) {
    Token t;
    t.offset = off;
    t.line = line;
    t.column = static_cast<int>(off - line_start) + 1;
    return t;
  };
  auto fail = [&](size_t off, const std::string& msg) { return InvalidArgument(Where(at(off)) + msg); };
  while (i < s.size()) {
    char c = s[i];
    if (c == '\n') {
      ++line;
      line_start = ++i;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {  // line comment
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      size_t end = s.find("*/", i + 2);
      if (end == std::string_view::npos) return fail(i, "unterminated /* comment");
      for (size_t k = i; k < end; ++k) {
        if (s[k] == '\n') ++line, line_start = k + 1;
      }
      i = end + 2;
      continue;
    }
    Token t = at(i);
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80) {
      size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_' ||
                              static_cast<unsigned char>(s[j]) >= 0x80))
        ++j;
      t.kind = Tok::kIdent;
      t.text = std::string(s.substr(i, j - i));
      i = j;
    } else if (c == '`') {
      size_t end = s.find('`', i + 1);
      if (end == std::string_view::npos) return fail(i, "unterminated `quoted name`");
      t.kind = Tok::kQuotedIdent;
      t.text = std::string(s.substr(i + 1, end - i - 1));
      i = end + 1;
    } else if (c == '\'' || c == '"') {
      size_t j = LexString(s, i, t, line, line_start);
      if (j == std::string_view::npos) return fail(i, "unterminated string literal");
      i = j;
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      LAKEQA_ASSIGN_OR_RETURN(i, LexNumber(s, i, t));
    } else if (c == '$') {
      size_t j = i + 1;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
      t.kind = Tok::kParam;
      t.text = std::string(s.substr(i, j - i));
      i = j;
    } else {
      size_t n = PunctLength(s, i);
      if (n == 0) return fail(i, std::string("unexpected character '") + c + "'");
      t.kind = Tok::kPunct;
      t.text = std::string(s.substr(i, n));
      i += n;
    }
    out.push_back(std::move(t));
  }
  Token end = at(s.size());
  end.kind = Tok::kEnd;
  out.push_back(end);
  return out;
}

}  // namespace lakeqa::graph
