// datagov: a folder of data.gov catalog records (CKAN package_show JSON — the whole response or its
// "result" — one per *.json file, or many per *.jsonl file) with each dataset's downloaded resources in
// the folder <root>/<name>/ (or <root>/<id>/) beside them →
//   datagov/<name>/metadata.json   the record
//   datagov/<name>/files/...       resources: text kept as is; HTML → .txt (gumbo); PDF → .txt
//                                  (pdftotext, time and output limits); XLSX → .csv per sheet;
//                                  DOCX → .txt; images and other binaries dropped; identical outputs
//                                  within a dataset written once.
#include <sys/stat.h>

#include <cerrno>

#include <algorithm>
#include <map>

#include "ingest/build_internal.h"
#include "ingest/documents.h"
#include "ingest/subprocess.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/lines.h"
#include "lakeqa/common/posix_io.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/common/thread_pool.h"
#include "lakeqa/ingest/convert.h"
#include "lakeqa/ingest/sources.h"

namespace lakeqa::ingest {
namespace {

struct Output {
  std::string relative;  // under files/
  std::string data;
};

bool IsDir(const std::string& p) {
  struct stat st;
  return ::lstat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string Extension(std::string_view rel) {
  size_t slash = rel.rfind('/');
  size_t dot = rel.rfind('.');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return "";
  return ToLowerAscii(rel.substr(dot + 1));
}

std::string Stem(std::string_view rel) {
  size_t slash = rel.rfind('/');
  size_t dot = rel.rfind('.');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash) || dot == 0) {
    return std::string(rel);
  }
  return std::string(rel.substr(0, dot));
}

bool LooksLikeHtml(std::string_view data) {
  std::string head = ToLowerAscii(data.substr(0, 1024));
  size_t first = head.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
  if (first == std::string::npos) return false;
  std::string_view h = std::string_view(head).substr(first);
  return StartsWith(h, "<!doctype html") || StartsWith(h, "<html") ||
         (StartsWith(h, "<") && head.find("<body") != std::string::npos);
}

bool IsImage(std::string_view data, const std::string& ext) {
  static const char* kExt[] = {"png",  "jpg",  "jpeg", "gif",  "bmp", "tif",
                               "tiff", "webp", "ico",  "heic", "svg"};
  for (const char* e : kExt) {
    if (ext == e) return true;
  }
  auto starts = [&](std::string_view magic) { return data.substr(0, magic.size()) == magic; };
  return starts("\x89PNG") || starts("\xFF\xD8\xFF") || starts("GIF8") || starts("BM") ||
         starts(std::string_view("II*\0", 4)) || starts(std::string_view("MM\0*", 4)) ||
         (starts("RIFF") && data.substr(8, 4) == "WEBP");
}

bool IsBinary(std::string_view data) {
  std::string_view head = data.substr(0, 8192);
  if (StartsWith(head, "\xFF\xFE") || StartsWith(head, "\xFE\xFF")) return false;  // UTF-16 text
  return head.find('\0') != std::string_view::npos;
}

Result<std::string> PdfText(std::string_view pdf, const BuildOptions& o) {
  LAKEQA_ASSIGN_OR_RETURN(CaptureResult r, RunCapture({"pdftotext", "-enc", "UTF-8", "-", "-"}, pdf,
                                                      o.convert_timeout_ms, o.max_converted_bytes));
  if (r.timed_out) {
    return Status(ErrorCode::kTimeout,
                  "pdftotext took longer than " + std::to_string(o.convert_timeout_ms) + " ms");
  }
  if (r.truncated) {
    return ResourceExhausted("PDF text exceeds " + std::to_string(o.max_converted_bytes) +
                             " bytes; not converted");
  }
  if (r.exit_code != 0) {
    std::string err(Trim(r.err.substr(0, r.err.find('\n'))));
    std::string why = r.exit_code == 3 ? "encrypted or copy-protected PDF" : "corrupt PDF";
    return ParseError(why + " (pdftotext exit " + std::to_string(r.exit_code) +
                      (err.empty() ? "" : ": " + err) + ")");
  }
  return NormalizeWhitespace(SanitizeUtf8(r.out)) + "\n";
}

// Converts one resource; an empty vector with ok status means "dropped" (reason in `dropped`).
Result<std::vector<Output>> Convert(const std::string& rel, std::string&& data, const BuildOptions& o,
                                    std::string& dropped) {
  std::vector<Output> out;
  std::string ext = Extension(rel);
  if (StartsWith(data, "%PDF-") || ext == "pdf") {
    LAKEQA_ASSIGN_OR_RETURN(std::string text, PdfText(data, o));
    out.push_back({Stem(rel) + ".txt", std::move(text)});
    return out;
  }
  if (StartsWith(data, std::string_view("PK\x03\x04", 4))) {
    std::string kind = OoxmlKind(data);
    if (kind == "xlsx") {
      LAKEQA_ASSIGN_OR_RETURN(auto sheets, XlsxToCsv(data, o.max_converted_bytes));
      for (auto& s : sheets) {
        std::string name =
            sheets.size() == 1 ? Stem(rel) + ".csv" : Stem(rel) + "." + NameToFolder(s.name) + ".csv";
        out.push_back({name, std::move(s.csv)});
      }
      return out;
    }
    if (kind == "docx") {
      LAKEQA_ASSIGN_OR_RETURN(std::string text, DocxToText(data, o.max_converted_bytes));
      out.push_back({Stem(rel) + ".txt", NormalizeWhitespace(SanitizeUtf8(text)) + "\n"});
      return out;
    }
    dropped = "zip archive (not XLSX/DOCX) dropped";
    return out;
  }
  if (IsImage(data, ext)) {
    dropped = "image dropped";
    return out;
  }
  if (IsBinary(data)) {
    dropped = "binary file dropped";
    return out;
  }
  if (ext == "html" || ext == "htm" || LooksLikeHtml(data)) {
    std::string text = NormalizeWhitespace(HtmlToText(data, o.max_converted_bytes));
    out.push_back({Stem(rel) + ".txt", text + "\n"});
    return out;
  }
  out.push_back({rel, std::move(data)});
  return out;
}

void BuildOne(BuildContext& ctx, const std::string& ns, const std::string& root, const std::string& item,
              Json record) {
  const BuildOptions& o = ctx.options();
  std::string name = record.value("name", "");
  std::string id = record.value("id", "");
  if (name.empty()) name = id;
  if (name.empty()) {
    ctx.Error(item, ParseError("record without \"name\" or \"id\""));
    return;
  }
  std::string prefix = ns + "/" + NameToFolder(name) + "/";
  if (!ctx.Claim(prefix)) {
    ctx.Skip(item + " (" + name + ")", "duplicate dataset name");
    return;
  }
  std::string dir;
  for (const std::string& cand : {name, id}) {
    if (!cand.empty() && cand.find('/') == std::string::npos && cand != "." && cand != ".." &&
        IsDir(root + "/" + cand)) {
      dir = root + "/" + cand;
      break;
    }
  }
  std::vector<LocalFile> files;
  std::vector<ReportItem> skipped;
  if (!dir.empty()) {
    Status s = ListLocalTree(dir, files, skipped);
    if (!s.ok()) ctx.Error(name, s);
  }
  for (const auto& s : skipped) ctx.Skip(name + "/" + s.item, s.reason);
  std::map<std::pair<uint64_t, size_t>, std::string> seen;  // content hash → key written
  std::map<std::string, bool> keys;
  uint64_t written = 0;
  for (const auto& f : files) {
    if (ctx.fatal()) return;
    std::string fitem = name + "/" + f.relative;
    if (f.size > o.max_file_bytes) {
      ctx.Skip(fitem, "file larger than max_file_bytes");
      continue;
    }
    auto data = ReadFile(dir + "/" + f.relative, o.max_file_bytes + 1);
    if (!data.ok()) {
      ctx.Error(fitem, data.status());
      continue;
    }
    std::string dropped;
    auto outputs = Convert(f.relative, std::move(*data), o, dropped);
    if (!outputs.ok()) {
      ctx.Error(fitem, outputs.status());
      continue;
    }
    if (outputs->empty()) {
      ctx.Skip(fitem, dropped);
      continue;
    }
    for (auto& out : *outputs) {
      std::pair<uint64_t, size_t> h{HashBytes(out.data), out.data.size()};
      auto it = seen.find(h);
      if (it != seen.end()) {
        ctx.DuplicateFile();
        ctx.Skip(fitem, "identical content already written as " + it->second);
        continue;
      }
      std::string rel = out.relative;
      if (keys.count(rel)) rel = f.relative + (rel.size() > 4 ? rel.substr(rel.rfind('.')) : "");
      std::string key = prefix + "files/" + rel;
      Status s = ctx.Put(key, out.data);
      if (!s.ok()) {
        ctx.Error(fitem, s);
        continue;
      }
      keys[rel] = true;
      seen[h] = "files/" + rel;
      ++written;
    }
  }
  Status s = ctx.Put(prefix + "metadata.json", DumpJson(record, 2) + "\n");
  if (!s.ok()) {
    ctx.Error(name, s);
    return;
  }
  ctx.Dataset(written ? "dataset" : "dataset_without_files");
}

// Regular files directly in root (folders are resource folders and are not listed).
Status ListTopLevelFiles(const std::string& root, std::vector<LocalFile>& files,
                         std::vector<ReportItem>& skipped) {
  LAKEQA_ASSIGN_OR_RETURN(std::vector<std::string> names, ListDirSorted(root));
  for (const auto& n : names) {
    struct stat st;
    if (::lstat((root + "/" + n).c_str(), &st) != 0) {
      skipped.push_back({n, ErrnoStatus(errno, "lstat").ToString()});
    } else if (S_ISREG(st.st_mode)) {
      files.push_back({n, static_cast<uint64_t>(st.st_size)});
    } else if (S_ISLNK(st.st_mode)) {
      skipped.push_back({n, "symbolic link (not followed)"});
    }
  }
  return Status::Ok();
}

Json Unwrap(Json j) {
  if (j.is_object() && j.contains("result") && j["result"].is_object()) return j["result"];
  return j;
}

}  // namespace

Status BuildDatagov(BuildContext& ctx, const std::string& path) {
  std::string ns = ctx.options().namespace_name.empty() ? "datagov" : ctx.options().namespace_name;
  std::vector<LocalFile> entries;
  std::vector<ReportItem> skipped;
  // Records are the top-level *.json / *.jsonl files; folders hold resources.
  LAKEQA_RETURN_IF_ERROR(ListTopLevelFiles(path, entries, skipped));
  ThreadPool pool(ctx.jobs());
  uint64_t records = 0;
  auto submit = [&](const std::string& item, Json record) {
    ++records;
    auto shared = std::make_shared<Json>(std::move(record));
    pool.Submit([&ctx, ns, path, item, shared] { BuildOne(ctx, ns, path, item, std::move(*shared)); });
  };
  for (const auto& e : entries) {
    if (ctx.fatal()) break;
    std::string ext = Extension(e.relative);
    std::string full = path + "/" + e.relative;
    if (ext == "json") {
      auto text = ReadFile(full, ctx.options().max_file_bytes);
      if (!text.ok()) {
        ctx.Error(e.relative, text.status());
        continue;
      }
      auto j = ParseJson(*text, e.relative);
      if (!j.ok()) {
        ctx.Error(e.relative, j.status());
        continue;
      }
      Json rec = Unwrap(std::move(*j));
      if (!rec.is_object()) {
        ctx.Error(e.relative, ParseError("not a CKAN package record (expected a JSON object)"));
        continue;
      }
      submit(e.relative, std::move(rec));
    } else if (ext == "jsonl" || ext == "ndjson") {
      ChunkedLines lines(64u << 20);
      uint64_t line_no = 0;
      auto line = [&](std::string_view l) {
        ++line_no;
        if (Trim(l).empty()) return;
        std::string item = e.relative + ":" + std::to_string(line_no);
        auto j = ParseJson(l, item);
        if (!j.ok()) {
          ctx.Error(item, j.status());
          return;
        }
        Json rec = Unwrap(std::move(*j));
        if (!rec.is_object()) {
          ctx.Error(item, ParseError("not a CKAN package record (expected a JSON object)"));
          return;
        }
        submit(item, std::move(rec));
      };
      Status s = ReadLocalFile(full, 0, 0, false, [&](std::string_view chunk) -> Status {
        LAKEQA_RETURN_IF_ERROR(lines.Feed(chunk, line));
        if (lines.overflow()) return ResourceExhausted("record line longer than 64 MiB");
        return ctx.fatal() ? ctx.fatal_status() : Status::Ok();
      });
      if (s.ok()) s = lines.Finish(line);
      if (!s.ok()) ctx.Error(e.relative, s);
    } else {
      ctx.Skip(e.relative, "top-level file is not a record (*.json, *.jsonl)");
    }
  }
  for (const auto& s : skipped) ctx.Skip(s.item, s.reason);
  pool.Wait();
  ctx.Detail("datagov", {{"records", records}});
  return Status::Ok();
}

}  // namespace lakeqa::ingest
