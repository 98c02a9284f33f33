#include "lakeqa/ingest/profile.h"

#include <optional>

#include "ingest/csv_profile.h"
#include "ingest/documents.h"
#include "ingest/json_profile.h"
#include "ingest/zip_ranges.h"
#include "lakeqa/common/encoding.h"
#include "lakeqa/common/json.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/lake/store.h"

namespace lakeqa::ingest {
namespace {

constexpr size_t kSniffBytes = 64 * 1024;
constexpr size_t kMaxDocumentBytes = 64u << 20;  // HTML/PDF/OOXML are read whole up to this size

}  // namespace

struct Profiler::Impl {
  std::string name;
  ProfileOptions options;
  std::string head;   // first bytes, until the format is known
  std::string magic;  // the first 8 bytes, kept to name a binary format
  bool sniffed = false;
  Format format = Format::kUnknown;
  Encoding encoding = Encoding::kUtf8;
  std::optional<Transcoder> transcoder;
  std::optional<CsvProfiler> csv;
  std::optional<JsonProfiler> json;
  std::string document;  // HTML/XML/PDF/zip bytes, whole up to kMaxDocumentBytes
  bool document_overflow = false;
  std::string text_sample;  // UTF-8, from the first converted bytes
  uint64_t bytes = 0;
  uint64_t lines = 0;
  bool ends_with_newline = true;
  bool done = false;  // the profiler needs no more bytes

  void Sniff(bool complete) {
    magic = head.substr(0, 8);
    sniffed = true;
    encoding = DetectEncoding(head, complete);
    transcoder.emplace(encoding);
    std::optional<CsvDialect> dialect;
    format = SniffFormatAndDialect(head, name, &dialect);
    if (format == Format::kCsv) {
      if (encoding != Encoding::kUtf8 && encoding != Encoding::kLatin1) {
        // UTF-16 heads are sniffed again once converted (the raw bytes are full of NULs).
        std::string probe(Transcoder(encoding).Convert(head));
        dialect = DetectCsvDialect(probe);
      }
      CsvDialect d;
      if (dialect) d = *dialect;
      else d.has_header = true;  // a one-column CSV by name: its first line names the column
      csv.emplace(d, options);
    } else if (format == Format::kJson || format == Format::kJsonLines || format == Format::kGeoJson) {
      json.emplace(format, options);
    }
    std::string pending = std::move(head);
    head.clear();
    Consume(pending);
  }

  void Consume(std::string_view raw) {
    switch (format) {
      case Format::kHtml:
      case Format::kXml:
      case Format::kPdf:
      case Format::kZip:
      case Format::kXlsx:
      case Format::kDocx:
        if (document.size() + raw.size() > kMaxDocumentBytes) {
          document_overflow = true;
          document.append(raw.substr(0, kMaxDocumentBytes - document.size()));
          done = true;
        } else {
          document.append(raw);
        }
        return;
      case Format::kBinary:
        done = true;  // nothing more to learn; the size comes from the store
        return;
      default: break;
    }
    std::string_view text = transcoder->Convert(raw);
    if (text_sample.size() < options.text_sample_bytes) {
      text_sample.append(text.substr(0, options.text_sample_bytes - text_sample.size()));
    }
    if (csv) {
      csv->Feed(text);
    } else if (json) {
      json->Feed(text);
    } else {
      for (char c : text) lines += (c == '\n');
      if (!text.empty()) ends_with_newline = text.back() == '\n';
    }
  }
};

// Why a binary file has no columns, naming the scientific formats met in data lakes (KramaBench's CDF and
// NetCDF): lakeqa links no reader for them, so they are stored and searchable by name only.
static std::string BinaryNote(std::string_view magic) {
  using namespace std::string_view_literals;
  std::string kind;
  if (StartsWith(magic, "\xCD\xF3\x00\x01"sv) || StartsWith(magic, "\xCD\xF2\x60\x02")) kind = "NASA CDF";
  else if (StartsWith(magic, "CDF\x01") || StartsWith(magic, "CDF\x02") || StartsWith(magic, "CDF\x05"))
    kind = "NetCDF classic";
  else if (StartsWith(magic, "\x89HDF")) kind = "HDF5/NetCDF-4";
  return kind.empty() ? "binary, not profiled (no reader for this format)"
                      : "binary, not profiled (" + kind + ": no reader linked)";
}

Profiler::Profiler(std::string_view name_hint, ProfileOptions options) : impl_(std::make_unique<Impl>()) {
  impl_->name = std::string(name_hint);
  impl_->options = options;
}

Profiler::~Profiler() = default;

bool Profiler::Feed(std::string_view chunk) {
  Impl& m = *impl_;
  if (m.done) return false;
  if (m.bytes + chunk.size() > m.options.max_bytes) {
    chunk = chunk.substr(0, static_cast<size_t>(m.options.max_bytes - m.bytes));
  }
  m.bytes += chunk.size();
  if (!m.sniffed) {
    size_t take = std::min(chunk.size(), kSniffBytes - m.head.size());
    m.head.append(chunk.substr(0, take));
    chunk.remove_prefix(take);
    if (m.head.size() < kSniffBytes) return m.bytes < m.options.max_bytes;
    m.Sniff(false);
  }
  if (!chunk.empty()) m.Consume(chunk);
  return !m.done && m.bytes < m.options.max_bytes;
}

size_t Profiler::BufferedBytes() const {
  const Impl& m = *impl_;
  size_t n = sizeof(Impl) + m.head.capacity() + m.document.capacity() + m.text_sample.capacity();
  if (m.csv) n += m.csv->BufferedBytes();
  if (m.json) n += m.json->BufferedBytes();
  if (m.transcoder) n += m.transcoder->BufferedBytes();
  return n;
}

Result<FileProfile> Profiler::Finish(bool truncated) {
  Impl& m = *impl_;
  if (m.bytes >= m.options.max_bytes && m.options.max_bytes != UINT64_MAX) truncated = true;
  if (!m.sniffed) m.Sniff(!truncated);
  FileProfile p;
  p.format = m.format;
  p.encoding = std::string(EncodingName(m.encoding));
  p.bytes_read = m.bytes;
  p.rows_exact = !truncated && !m.done;
  switch (m.format) {
    case Format::kEmpty:
      p.encoding.clear();
      p.rows_exact = true;
      break;
    case Format::kBinary:
      p.encoding = "binary";
      p.rows_exact = false;
      p.warnings.push_back(BinaryNote(m.magic));
      break;
    case Format::kCsv: m.csv->Finish(p); break;
    case Format::kJson:
    case Format::kJsonLines:
    case Format::kGeoJson: m.json->Finish(p, truncated); break;
    case Format::kText: p.rows = m.lines + (m.ends_with_newline || m.bytes == 0 ? 0 : 1); break;
    case Format::kHtml:
      p.text_sample = HtmlToText(m.document, m.options.text_sample_bytes);
      ProfileHtmlTables(m.document, m.options, p);
      break;
    case Format::kXml: {
      p.text_sample = StripTags(m.document.substr(0, 1 << 20), m.options.text_sample_bytes);
      p.json_paths = XmlElementPaths(m.document, m.options.max_json_paths);
      break;
    }
    case Format::kPdf:
      if (m.document_overflow || truncated) {
        p.warnings.push_back("PDF text not extracted: only the first " + std::to_string(m.document.size()) +
                             " bytes were read");
      } else {
        auto text = PdfToText(m.document, m.options.text_sample_bytes);
        if (text.ok()) p.text_sample = *text;
        else p.corrupt = text.status().message();
      }
      p.encoding = "binary";
      break;
    case Format::kZip:
    case Format::kXlsx:
    case Format::kDocx:
      p.encoding = "binary";
      if (m.document_overflow || truncated) {
        p.warnings.push_back("zip contents not read: only the first " + std::to_string(m.document.size()) +
                             " bytes were read");
      } else {
        Status s = ProfileZip(m.document, m.options, p);
        if (!s.ok()) p.corrupt = s.message();
      }
      break;
    case Format::kUnknown: break;
  }
  if (p.text_sample.empty() && m.format != Format::kBinary) {
    p.text_sample = SanitizeUtf8(TruncateUtf8(m.text_sample, m.options.text_sample_bytes));
  }
  if (m.encoding == Encoding::kLatin1 && m.format != Format::kBinary && m.format != Format::kPdf) {
    p.warnings.push_back("not valid UTF-8; read as Latin-1");
  }
  return p;
}

Json FileProfile::ToJson() const {
  Json j;
  j["format"] = std::string(FormatName(format));
  if (!encoding.empty()) j["encoding"] = encoding;
  if (format == Format::kCsv) {
    j["delimiter"] = std::string(1, delimiter);
    j["has_header"] = has_header;
  }
  j["rows"] = rows;
  j["rows_exact"] = rows_exact;
  j["bytes_read"] = bytes_read;
  Json cols = Json::array();
  for (const auto& c : columns) {
    cols.push_back({{"name", c.name}, {"type", c.type}, {"non_empty", c.non_empty}, {"samples", c.samples}});
  }
  j["columns"] = std::move(cols);
  if (!json_paths.empty()) j["json_paths"] = json_paths;
  if (!geometry_types.empty()) j["geometry_types"] = geometry_types;
  if (!text_sample.empty()) j["text_sample"] = text_sample;
  if (!warnings.empty()) j["warnings"] = warnings;
  if (!corrupt.empty()) j["corrupt"] = corrupt;
  return j;
}

Result<FileProfile> FileProfile::FromJson(const Json& j) {
  try {
    FileProfile p;
    p.format = FormatFromName(j.at("format").get<std::string>());
    p.encoding = j.value("encoding", "");
    std::string d = j.value("delimiter", "");
    p.delimiter = d.empty() ? 0 : d[0];
    p.has_header = j.value("has_header", false);
    p.rows = j.value("rows", uint64_t{0});
    p.rows_exact = j.value("rows_exact", true);
    p.bytes_read = j.value("bytes_read", uint64_t{0});
    for (const auto& c : j.value("columns", Json::array())) {
      ColumnProfile cp;
      cp.name = c.at("name").get<std::string>();
      cp.type = c.value("type", "string");
      cp.non_empty = c.value("non_empty", uint64_t{0});
      cp.samples = c.value("samples", std::vector<std::string>{});
      p.columns.push_back(std::move(cp));
    }
    p.json_paths = j.value("json_paths", std::vector<std::string>{});
    p.geometry_types = j.value("geometry_types", std::map<std::string, uint64_t>{});
    p.text_sample = j.value("text_sample", "");
    p.warnings = j.value("warnings", std::vector<std::string>{});
    p.corrupt = j.value("corrupt", "");
    return p;
  } catch (const std::exception& e) {
    return Corrupt(std::string("stored profile is not valid: ") + e.what());
  }
}

Result<FileProfile> ProfileObject(lake::Store& store, std::string_view key, const ProfileOptions& options) {
  Profiler profiler(key, options);
  bool stopped = false;
  Status s = store.ReadStream(key, [&](std::string_view chunk) {
    if (!profiler.Feed(chunk)) {
      stopped = true;
      return false;
    }
    return true;
  });
  if (!s.ok()) return s;
  return profiler.Finish(stopped && options.max_bytes != UINT64_MAX);
}

Result<FileProfile> ProfileHead(lake::Store& store, std::string_view key, uint64_t size,
                                std::string_view name_hint, const ProfileOptions& options, HeadRead* read) {
  HeadRead local;
  HeadRead& r = read ? *read : local;
  LAKEQA_ASSIGN_OR_RETURN(r.head, store.ReadRange(key, 0, options.max_bytes));
  r.bytes_read += r.head.size();
  ++r.requests;
  bool truncated = size > r.head.size();
  Profiler profiler(name_hint, options);
  profiler.Feed(r.head);
  LAKEQA_ASSIGN_OR_RETURN(FileProfile p, profiler.Finish(truncated));
  bool zip = p.format == Format::kZip || p.format == Format::kXlsx || p.format == Format::kDocx;
  if (!truncated || !zip) return p;
  FileProfile inside;
  uint64_t requests = 0;
  Status s = ProfileZipByRanges(store, key, size, options, inside, &requests);
  r.requests += requests;
  r.bytes_read += inside.bytes_read;
  if (!s.ok()) {
    p.warnings.push_back("zip contents not read from the end of the file: " + s.message());
    p.bytes_read = r.bytes_read;
    return p;
  }
  inside.bytes_read = r.bytes_read;
  return inside;
}

}  // namespace lakeqa::ingest
