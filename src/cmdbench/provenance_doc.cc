// --provide-provenance, document questions: a gold paragraph read from its page in the lake, or the question
// file's text when the lake does not hold it.
#include <fmt/format.h>

#include "lakeqa/cmdbench/cmdbench.h"

#include "cmdbench/provenance_gold.h"

namespace lakeqa::cmdbench::provenance {
namespace {

// Line `wanted` of the object at `key` (without its newline); nullopt when it has fewer lines, `lines`
// then receiving how many it has.
Result<std::optional<std::string>> ReadLine(lake::Store& lake, const std::string& key, uint64_t wanted,
                                            uint64_t& lines) {
  std::string line;
  lines = 0;
  bool found = false;
  Status st = lake.ReadStream(key, [&](std::string_view chunk) {
    while (!chunk.empty()) {
      size_t nl = chunk.find('\n');
      if (lines == wanted) line.append(chunk.substr(0, nl));
      if (nl == std::string_view::npos) break;
      if (lines == wanted) {
        found = true;
        return false;  // the rest of the page is not needed
      }
      ++lines;
      chunk.remove_prefix(nl + 1);
    }
    return true;
  });
  if (!st.ok()) return st;
  if (!found && lines == wanted && !line.empty()) found = true;  // the last line, without a newline
  if (!found) return std::optional<std::string>();
  return std::optional<std::string>(line);
}

}  // namespace

Result<GoldParagraph> ReadGoldParagraph(lake::Store& lake, const CmdbenchParagraph& p) {
  GoldParagraph out;
  out.key = CmdbenchPageFile(p.title);
  if (p.paragraph_id < 0) {
    out.why_not_lake = "the question file gives no paragraph id";
  } else {
    uint64_t lines = 0;
    auto line = ReadLine(lake, out.key, static_cast<uint64_t>(p.paragraph_id), lines);
    if (!line.ok() && line.status().code() != ErrorCode::kNotFound) {
      return line.status().WithContext("reading the gold page " + out.key + " from the lake");
    }
    if (!line.ok()) {
      out.why_not_lake = "the lake has no " + out.key;
    } else if (!line->has_value()) {
      out.why_not_lake = fmt::format("{} has {} lines, no line {}", out.key, lines, p.paragraph_id);
    } else if ((*line)->empty()) {
      out.why_not_lake = fmt::format("line {} of {} is empty", p.paragraph_id, out.key);
    } else {
      out.text = **line;
      out.from_lake = true;
      return out;
    }
  }
  if (p.text.empty()) {
    return NotFound(fmt::format("paragraph {} of the page '{}': {} and the question file gives no text",
                                p.paragraph_id < 0 ? std::string("(no id)") : std::to_string(p.paragraph_id),
                                p.title, out.why_not_lake));
  }
  out.text = p.text;
  return out;
}

}  // namespace lakeqa::cmdbench::provenance
