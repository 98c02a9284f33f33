// pg_dump plain-text reader: only COPY blocks matter (their header names the table and its columns);
// everything else (CREATE, SET, comments) is skipped. Lines are read through a bounded buffer.
#include "lakeqa/common/hex.h"
#include "lakeqa/common/lines.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/ingest/sources.h"

namespace lakeqa::ingest {
namespace {

constexpr size_t kMaxLine = 64u << 20;

// "schema.table" / "\"Schema\".\"Table\"" → parts; "(a, \"b c\")" → columns.
std::vector<std::string> ParseIdentifierList(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false, any = false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < s.size() && s[i + 1] == '"') {
          cur += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        cur += c;
      }
    } else if (c == '"') {
      quoted = true;
      any = true;
    } else if (c == sep) {
      out.push_back(std::string(Trim(cur)));
      cur.clear();
      any = false;
    } else if (!(c == ' ' && !any && cur.empty())) {
      cur += c;
      any = true;
    }
  }
  if (!cur.empty() || any) out.push_back(std::string(Trim(cur)));
  return out;
}

Result<PgTable> ParseCopyHeader(std::string_view line) {
  // COPY schema.table (col, col) FROM stdin;
  std::string_view rest = Trim(line.substr(5));
  size_t paren = rest.find('(');
  size_t from = rest.rfind(" FROM ");
  if (from == std::string_view::npos)
    return ParseError("COPY line without FROM: " + std::string(TruncateUtf8(line, 120)));
  PgTable t;
  std::string_view name = Trim(rest.substr(0, std::min(paren, from)));
  auto parts = ParseIdentifierList(name, '.');
  if (parts.empty() || parts.size() > 2)
    return ParseError("COPY line with a bad table name: " + std::string(name));
  if (parts.size() == 2) t.schema = parts[0];
  t.name = parts.back();
  if (paren != std::string_view::npos && paren < from) {
    size_t close = rest.rfind(')', from);
    if (close == std::string_view::npos || close < paren)
      return ParseError("COPY line with an unclosed column list");
    t.columns = ParseIdentifierList(rest.substr(paren + 1, close - paren - 1), ',');
  }
  return t;
}

int OctalValue(char c) { return c >= '0' && c <= '7' ? c - '0' : -1; }
}  // namespace

PgField PgUnescape(std::string_view f) {
  PgField out;
  if (f == "\\N") {
    out.null = true;
    return out;
  }
  out.value.reserve(f.size());
  for (size_t i = 0; i < f.size(); ++i) {
    if (f[i] != '\\' || i + 1 >= f.size()) {
      out.value += f[i];
      continue;
    }
    char c = f[++i];
    switch (c) {
      case 'b': out.value += '\b'; break;
      case 'f': out.value += '\f'; break;
      case 'n': out.value += '\n'; break;
      case 'r': out.value += '\r'; break;
      case 't': out.value += '\t'; break;
      case 'v': out.value += '\v'; break;
      case 'x': {
        int v = 0, n = 0;
        while (n < 2 && i + 1 < f.size() && HexDigitValue(f[i + 1]) >= 0)
          v = v * 16 + HexDigitValue(f[++i]), ++n;
        if (n == 0) out.value += 'x';
        else out.value += static_cast<char>(v);
        break;
      }
      default:
        if (OctalValue(c) >= 0) {
          int v = OctalValue(c), n = 1;
          while (n < 3 && i + 1 < f.size() && OctalValue(f[i + 1]) >= 0) v = v * 8 + OctalValue(f[++i]), ++n;
          out.value += static_cast<char>(v & 0xFF);
        } else {
          out.value += c;  // "\\" → '\', and any other escaped character stands for itself
        }
    }
  }
  return out;
}

Status ReadPgDump(const std::string& path, const PgDumpCallbacks& cb) {
  ChunkedLines lines(kMaxLine);
  uint64_t line_no = 0;
  bool in_copy = false;
  bool skip_block = false;  // the COPY header was malformed: skip to "\."
  PgTable table;
  uint64_t rows = 0;
  auto line = [&](std::string_view l) -> Status {
    ++line_no;
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    if (in_copy) {
      if (l == "\\.") {
        in_copy = false;
        if (!skip_block && cb.on_end) return cb.on_end(table, rows);
        return Status::Ok();
      }
      if (skip_block) return Status::Ok();
      std::vector<PgField> fields;
      for (auto part : Split(l, '\t')) fields.push_back(PgUnescape(part));
      if (!table.columns.empty() && fields.size() != table.columns.size()) {
        if (cb.on_error) {
          cb.on_error(table,
                      ParseError(path + ":" + std::to_string(line_no) + ": row has " +
                                 std::to_string(fields.size()) + " fields, table " + table.name + " has " +
                                 std::to_string(table.columns.size()) + " columns; row skipped"));
        }
        return Status::Ok();
      }
      ++rows;
      return cb.on_row ? cb.on_row(table, std::move(fields)) : Status::Ok();
    }
    if (StartsWith(l, "COPY ")) {
      in_copy = true;
      rows = 0;
      auto t = ParseCopyHeader(l);
      if (!t.ok()) {
        skip_block = true;
        table = PgTable{};
        table.name = "?";
        if (cb.on_error) cb.on_error(table, t.status().WithContext(path + ":" + std::to_string(line_no)));
        return Status::Ok();
      }
      skip_block = false;
      table = std::move(*t);
      return cb.on_table ? cb.on_table(table) : Status::Ok();
    }
    return Status::Ok();
  };
  auto sink = [&](std::string_view chunk) -> Status {
    LAKEQA_RETURN_IF_ERROR(lines.Feed(chunk, line));
    if (lines.overflow()) {
      return ResourceExhausted(path + ":" + std::to_string(line_no + 1) + ": line longer than 64 MiB");
    }
    return Status::Ok();
  };
  LAKEQA_RETURN_IF_ERROR(ReadLocalFile(path, 0, 0, EndsWith(path, ".bz2"), sink));
  LAKEQA_RETURN_IF_ERROR(lines.Finish(line));
  if (in_copy && !skip_block) {
    return ParseError(path + ": input ended inside the COPY block of " + table.name + " (no \"\\.\" line)");
  }
  return Status::Ok();
}

}  // namespace lakeqa::ingest
