// Reading task files: directory walk in natural order, JSON documents (a LakeQA task, a list of task
// objects of any registered format, or a registered format's document), JSONL streamed line by line,
// duplicate keys rejected (nlohmann would keep the last one silently, which would hide a duplicated node id).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <unordered_set>

#include "lakeqa/common/fs.h"
#include "lakeqa/eval/task.h"
#include "lakeqa/eval/task_format.h"

namespace lakeqa::eval {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kMaxDocumentBytes = 64ull << 20;  // task files are kilobytes; refuse runaway inputs
constexpr size_t kMaxLineBytes = 64ull << 20;

// task_2 before task_10.
bool NaturalLess(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
      size_t i2 = i, j2 = j;
      while (i2 < a.size() && std::isdigit(static_cast<unsigned char>(a[i2]))) ++i2;
      while (j2 < b.size() && std::isdigit(static_cast<unsigned char>(b[j2]))) ++j2;
      std::string_view na(a.data() + i, i2 - i), nb(b.data() + j, j2 - j);
      while (na.size() > 1 && na[0] == '0') na.remove_prefix(1);
      while (nb.size() > 1 && nb[0] == '0') nb.remove_prefix(1);
      if (na.size() != nb.size()) return na.size() < nb.size();
      if (na != nb) return na < nb;
      i = i2;
      j = j2;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

// "k-3-d-2" → (3, 2).
bool ParseFolderLabel(const std::string& name, int& k, int& d) {
  int kk = 0, dd = 0, used = 0;
  if (std::sscanf(name.c_str(), "k-%d-d-%d%n", &kk, &dd, &used) == 2 &&
      used == static_cast<int>(name.size()) && kk > 0 && dd > 0) {
    k = kk;
    d = dd;
    return true;
  }
  return false;
}

void AddError(LoadResult& out, const std::string& file, size_t line, size_t col, Status st) {
  out.errors.push_back(LoadError{file, line, col, std::move(st)});
}

// Parses JSON, failing on syntax errors (with line and column, shifted by line_base for JSONL) and on
// duplicate object keys.
Result<Json> ParseStrict(std::string_view text, const std::string& where, size_t line_base, size_t& err_line,
                         size_t& err_col) {
  struct Frame {
    std::unordered_set<std::string> keys;
    std::string name;
  };
  std::vector<Frame> stack;
  std::string last_key;
  std::string duplicate;
  auto cb = [&](int, Json::parse_event_t ev, Json& parsed) -> bool {
    switch (ev) {
      case Json::parse_event_t::object_start:
      case Json::parse_event_t::array_start: stack.push_back(Frame{{}, last_key}); break;
      case Json::parse_event_t::object_end:
      case Json::parse_event_t::array_end:
        if (!stack.empty()) stack.pop_back();
        break;
      case Json::parse_event_t::key: {
        last_key = parsed.get<std::string>();
        if (!stack.empty() && !stack.back().keys.insert(last_key).second && duplicate.empty()) {
          duplicate = stack.back().name.empty()
                          ? fmt::format("duplicate key \"{}\" in the top-level object", last_key)
                          : fmt::format("duplicate key \"{}\" in \"{}\"", last_key, stack.back().name);
        }
        break;
      }
      case Json::parse_event_t::value: break;
    }
    return true;
  };
  Json j;
  try {
    j = Json::parse(text.begin(), text.end(), cb);
  } catch (const nlohmann::json::parse_error& e) {
    size_t off = e.byte > 0 ? e.byte - 1 : 0;
    auto [line, col] = LineColumn(text, std::min(off, text.size()));
    err_line = line + line_base;
    err_col = col;
    std::string what = e.what();
    auto colon = what.find(": ");
    std::string detail = colon == std::string::npos ? what : what.substr(colon + 2);
    return ParseError(fmt::format("{}:{}:{}: invalid JSON: {}", where, err_line, err_col, detail));
  }
  if (!duplicate.empty()) {
    err_line = line_base ? line_base + 1 : 0;
    err_col = 0;
    std::string at = line_base ? fmt::format("{}:{}", where, line_base + 1) : where;
    return ParseError(fmt::format("{}: {}", at, duplicate));
  }
  return j;
}

void AddTask(const Json& j, const std::string& file, size_t line, std::string_view where, LoadResult& out) {
  const TaskFormatSpec* format = nullptr;
  for (const TaskFormatSpec& f : TaskFormats()) {
    if (f.is_task_object && f.task_from_json && f.is_task_object(j)) {
      format = &f;
      break;
    }
  }
  Result<Task> t = format != nullptr ? format->task_from_json(j, where) : TaskFromJson(j, where);
  if (!t.ok()) {
    AddError(out, file, line, 0, t.status());
    return;
  }
  t->file = file;
  t->line = line;
  int k = 0, d = 0;
  if (ParseFolderLabel(fs::path(file).parent_path().filename().string(), k, d)) {
    t->folder_k = k;
    t->folder_d = d;
  }
  out.tasks.push_back(std::move(*t));
}

void ParseLine(std::string_view text, const std::string& file, size_t line_no, LoadResult& out) {
  while (!text.empty() && (text.back() == '\r' || text.back() == ' ' || text.back() == '\t'))
    text.remove_suffix(1);
  size_t first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return;  // blank lines are allowed
  size_t line = 0, col = 0;
  Result<Json> j = ParseStrict(text, file, line_no - 1, line, col);
  if (!j.ok()) {
    AddError(out, file, line ? line : line_no, col, j.status());
    return;
  }
  std::string where = fmt::format("{}:{}", file, line_no);
  if (!j->is_object()) {
    AddError(
        out, file, line_no, 0,
        ParseError(fmt::format("{}: a JSONL line must hold one task object, got {}", where, j->type_name())));
    return;
  }
  AddTask(*j, file, line_no, where, out);
}

void LoadJsonlFile(const std::string& file, LoadResult& out) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    AddError(out, file, 0, 0, ErrnoStatus(errno, file));
    return;
  }
  std::string line;
  std::vector<char> buf(1 << 20);
  size_t line_no = 1;
  bool too_long = false;
  auto finish = [&]() {
    if (too_long) {
      AddError(out, file, line_no, 0,
               ResourceExhausted(
                   fmt::format("{}:{}: line longer than {} bytes, skipped", file, line_no, kMaxLineBytes)));
    } else {
      ParseLine(line, file, line_no, out);
    }
    line.clear();
    too_long = false;
    ++line_no;
  };
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    std::string_view chunk(buf.data(), static_cast<size_t>(in.gcount()));
    while (!chunk.empty()) {
      size_t nl = chunk.find('\n');
      std::string_view part = chunk.substr(0, nl);
      if (!too_long) {
        if (line.size() + part.size() > kMaxLineBytes) {
          too_long = true;
          line.clear();
          line.shrink_to_fit();
        } else {
          line.append(part);
        }
      }
      if (nl == std::string_view::npos) break;
      finish();
      chunk.remove_prefix(nl + 1);
    }
  }
  if (in.bad()) AddError(out, file, line_no, 0, IoError(file + ": read error"));
  if (!line.empty() || too_long) finish();
}

void LoadJsonFile(const std::string& file, LoadResult& out) {
  Result<std::string> text = ReadFile(file, kMaxDocumentBytes);
  if (!text.ok()) {
    AddError(out, file, 0, 0, text.status().WithContext(file));
    return;
  }
  LoadResult part = ParseTaskDocument(*text, file);
  for (auto& t : part.tasks) out.tasks.push_back(std::move(t));
  for (auto& e : part.errors) out.errors.push_back(std::move(e));
}

bool IsJsonl(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  return ext == ".jsonl" || ext == ".ndjson";
}

}  // namespace

LoadResult ParseTaskDocument(std::string_view text, const std::string& file) {
  LoadResult out;
  out.files = 1;
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    AddError(out, file, 0, 0, ParseError(file + ": empty file (expected a JSON task object)"));
    return out;
  }
  size_t line = 0, col = 0;
  Result<Json> j = ParseStrict(text, file, 0, line, col);
  if (!j.ok()) {
    AddError(out, file, line, col, j.status());
    return out;
  }
  for (const TaskFormatSpec& format : TaskFormats()) {
    if (format.is_document && format.load_document && format.is_document(*j))
      return format.load_document(*j, file);
  }
  if (j->is_array()) {
    for (size_t i = 0; i < j->size(); ++i) AddTask((*j)[i], file, 0, fmt::format("{}[{}]", file, i), out);
    return out;
  }
  if (!j->is_object()) {
    AddError(out, file, 0, 0,
             ParseError(fmt::format("{}: expected a task object or a list of questions, got {}", file,
                                    j->type_name())));
    return out;
  }
  AddTask(*j, file, 0, file, out);
  return out;
}

LoadResult ParseTaskLines(std::string_view text, const std::string& file) {
  LoadResult out;
  out.files = 1;
  size_t line_no = 1;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    ParseLine(text.substr(0, nl), file, line_no++, out);
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return out;
}

namespace {

// In a folder given whole: the files each registered format leaves out, with its note.
std::map<std::string, std::string> FolderSkips(const std::vector<std::pair<std::string, LoadResult>>& parts) {
  std::map<std::string, std::string> skip;
  for (const TaskFormatSpec& format : TaskFormats()) {
    if (!format.folder_skips) continue;
    for (auto& [file, note] : format.folder_skips(parts)) skip.emplace(file, std::move(note));
  }
  return skip;
}

}  // namespace

LoadResult LoadTasks(const std::vector<std::string>& paths) {
  LoadResult out;
  for (const std::string& path : paths) {
    std::error_code ec;
    fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st)) {
      AddError(out, path, 0, 0, NotFound(path + ": no such file or directory"));
      continue;
    }
    std::vector<std::string> files;
    if (fs::is_directory(st)) {
      fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec), end;
      for (; !ec && it != end; it.increment(ec)) {
        if (!it->is_regular_file(ec)) continue;
        std::string ext = it->path().extension().string();
        if (ext == ".json" || ext == ".jsonl" || ext == ".ndjson") files.push_back(it->path().string());
      }
      if (ec) AddError(out, path, 0, 0, ErrnoStatus(ec.value(), "listing " + path));
      // An empty folder is a mistake (a wrong path, a missing download), never an empty benchmark.
      if (!ec && files.empty())
        AddError(out, path, 0, 0, NotFound(path + ": no *.json or *.jsonl task files in this folder"));
      std::sort(files.begin(), files.end(), NaturalLess);
    } else {
      files.push_back(path);
    }
    std::vector<std::pair<std::string, LoadResult>> parts;
    for (const std::string& f : files) {
      LoadResult part;
      if (IsJsonl(f)) {
        LoadJsonlFile(f, part);
      } else {
        LoadJsonFile(f, part);
      }
      parts.emplace_back(f, std::move(part));
    }
    std::map<std::string, std::string> skip;
    if (fs::is_directory(st)) skip = FolderSkips(parts);
    for (auto& [f, part] : parts) {
      ++out.files;
      if (auto it = skip.find(f); it != skip.end()) {
        out.notes.push_back(it->second);
        continue;
      }
      for (auto& t : part.tasks) out.tasks.push_back(std::move(t));
      for (auto& e : part.errors) out.errors.push_back(std::move(e));
    }
  }
  return out;
}

}  // namespace lakeqa::eval
