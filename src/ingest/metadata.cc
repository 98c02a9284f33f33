// Dataset metadata extractors. The formats, as the LakeQA lake holds them:
//  - signed-metadata.txt: the `data/signed-metadata.json` of a Harvard LIL data.gov archive bag (bag-nabit),
//    i.e. {"id", "url": catalog page, "description": "Archive of data.gov dataset \"T\" created by O. ...",
//    "data_gov_metadata": <CKAN package record>, "crawler_metadata", "collection_tasks"}. Plain CKAN records,
//    DCAT-US entries and "Key: value" text are accepted too.
//  - files/<4x4>.publisher-view.json: a Socrata view (/api/views/<4x4>.json).
//  - files/N.arcgis-layer.json: an ArcGIS REST layer description (.../FeatureServer/N?f=json).
//  - files/columns.txt: column names, one per line (optionally "name<TAB or comma>type"), a one-line
//    header, or a Socrata columns JSON array.
#include "lakeqa/ingest/metadata.h"

#include <algorithm>
#include <cctype>
#include <ctime>

#include "ingest/documents.h"
#include "lakeqa/common/json.h"
#include "lakeqa/common/strings.h"

namespace lakeqa::ingest {
namespace {

constexpr size_t kMaxMetadataBytes = 16u << 20;
constexpr size_t kMaxDescription = 4000;
constexpr size_t kMaxWikiLead = 1000;
constexpr size_t kMaxListItems = 200;

std::string Clean(std::string_view s, size_t max = 1000) {
  std::string valid = SanitizeUtf8(Trim(s));
  return std::string(Trim(TruncateUtf8(valid, max)));
}

// Socrata and ArcGIS descriptions (and some CKAN notes) are HTML fragments. Only '<' followed by a letter,
// '/' or '!' opens a tag, so "a < b" survives.
std::string StripMarkup(std::string_view s) {
  std::string text;
  text.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '<' && i + 1 < s.size() &&
        (std::isalpha(static_cast<unsigned char>(s[i + 1])) || s[i + 1] == '/' || s[i + 1] == '!')) {
      size_t close = s.find('>', i);
      if (close != std::string_view::npos) {
        text += ' ';
        i = close;
        continue;
      }
    }
    text += c;
  }
  std::string decoded = DecodeXmlEntities(text);
  // &nbsp; is the one named entity beyond XML's five that descriptions use all the time.
  for (size_t p = 0; (p = decoded.find("&nbsp;", p)) != std::string::npos;) decoded.replace(p, 6, " ");
  return Squeeze(decoded);
}

std::string CleanText(std::string_view s, size_t max = kMaxDescription) { return Clean(StripMarkup(s), max); }

std::string EpochToIso(int64_t seconds) {
  std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  if (gmtime_r(&t, &tm) == nullptr) return std::to_string(seconds);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string Str(const Json& j, std::initializer_list<const char*> keys) {
  if (!j.is_object()) return "";
  for (const char* k : keys) {
    auto it = j.find(k);
    if (it == j.end() || it->is_null()) continue;
    if (it->is_string()) {
      const std::string& v = it->get_ref<const std::string&>();
      if (!Trim(v).empty()) return v;
    } else if (it->is_object()) {
      // {"title": ...} / {"name": ...} objects (CKAN organization, DCAT publisher, Socrata owner)
      std::string v = Str(*it, {"title", "name", "display_name", "displayName"});
      if (!v.empty()) return v;
    } else if (it->is_number() || it->is_boolean()) {
      return it->dump();
    }
  }
  return "";
}

void AddUnique(std::vector<std::string>& v, std::string_view raw) {
  std::string s = Clean(raw, 200);
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"')
    s = std::string(Trim(std::string_view(s).substr(1, s.size() - 2)));
  if (s.empty() || v.size() >= kMaxListItems) return;
  if (std::find(v.begin(), v.end(), s) == v.end()) v.push_back(std::move(s));
}

// Strings from a comma-separated string, a list of strings, or a list of {"name"/"title"/...} objects.
void AddList(std::vector<std::string>& out, const Json& j) {
  if (j.is_string()) {
    for (auto part : Split(j.get_ref<const std::string&>(), ',')) AddUnique(out, part);
    return;
  }
  if (!j.is_array()) return;
  for (const auto& e : j) {
    if (e.is_string()) AddUnique(out, e.get_ref<const std::string&>());
    else if (e.is_object()) AddUnique(out, Str(e, {"display_name", "title", "name"}));
  }
}

// An extras value that may itself be a JSON list ("[\"Health\", \"Nutrition\"]") or plain text.
void AddListValue(std::vector<std::string>& out, const std::string& value) {
  std::string_view v = Trim(value);
  if (!v.empty() && v.front() == '[') {
    auto parsed = ParseJson(v, "extras");
    if (parsed.ok()) {
      AddList(out, *parsed);
      return;
    }
  }
  AddList(out, Json(value));
}

// CKAN package record (data.gov package_show result) or a DCAT-US dataset entry.
DatasetMetadata FromCatalogRecord(const Json& rec) {
  DatasetMetadata m;
  m.title = Clean(Str(rec, {"title", "name"}));
  m.description = CleanText(Str(rec, {"notes", "description"}));
  m.publisher = Clean(Str(rec, {"organization", "publisher"}));
  m.license = Clean(Str(rec, {"license_title", "license", "license_id"}));
  m.source_url = Clean(Str(rec, {"landingPage", "url"}));
  m.modified = Clean(Str(rec, {"metadata_modified", "modified", "issued"}));
  m.temporal = Clean(Str(rec, {"temporal"}));
  m.spatial = Clean(Str(rec, {"spatial"}), 2000);
  if (auto it = rec.find("tags"); it != rec.end()) AddList(m.tags, *it);
  if (auto it = rec.find("keyword"); it != rec.end()) AddList(m.tags, *it);
  if (auto it = rec.find("groups"); it != rec.end()) AddList(m.themes, *it);
  if (auto it = rec.find("theme"); it != rec.end()) AddList(m.themes, *it);
  // data.gov harvests DCAT-US fields into extras: [{"key": "publisher", "value": ...},
  // {"key": "theme", "value": "[\"Public Safety\"]"}, {"key": "temporal", ...}, ...]
  if (auto it = rec.find("extras"); it != rec.end() && it->is_array()) {
    for (const auto& e : *it) {
      if (!e.is_object()) continue;
      std::string key = ToLowerAscii(Str(e, {"key"}));
      std::string value = Str(e, {"value"});
      if (Trim(value).empty()) continue;
      if (key == "publisher" && m.publisher.empty()) m.publisher = Clean(value);
      else if (key == "theme" || key == "category" || key == "categories") AddListValue(m.themes, value);
      else if (key == "keyword" || key == "keywords") AddListValue(m.tags, value);
      else if (key == "temporal" && m.temporal.empty()) m.temporal = Clean(value);
      else if (key == "spatial" && m.spatial.empty()) m.spatial = Clean(value, 2000);
      else if (key == "modified" && m.modified.empty()) m.modified = Clean(value);
      else if (key == "landingpage" && m.source_url.empty()) m.source_url = Clean(value);
      else if (key == "license" && m.license.empty()) m.license = Clean(value);
    }
  }
  if (m.publisher.empty()) m.publisher = Clean(Str(rec, {"author", "maintainer"}));
  return m;
}

bool LooksLikeRecord(const Json& j) {
  return j.is_object() && j.contains("title") &&
         (j.contains("notes") || j.contains("description") || j.contains("organization") ||
          j.contains("tags") || j.contains("keyword") || j.contains("publisher"));
}

// The record inside an envelope: nabit's "data_gov_metadata" first, then other common wrappers, then any
// object a few levels down that looks like a record.
const Json* FindRecord(const Json& j, int depth = 0) {
  if (!j.is_object()) return nullptr;
  if (LooksLikeRecord(j)) return &j;
  if (depth >= 3) return nullptr;
  for (const char* k : {"data_gov_metadata", "result", "metadata", "dataset", "package", "record"}) {
    if (auto it = j.find(k); it != j.end()) {
      if (const Json* r = FindRecord(*it, depth + 1)) return r;
    }
  }
  for (const auto& [k, v] : j.items()) {
    if (k == "collection_tasks" || k == "crawler_metadata") continue;
    if (const Json* r = FindRecord(v, depth + 1)) return r;
  }
  return nullptr;
}

// nabit's envelope description: Archive of data.gov dataset "T" created by O. Full metadata stored in ...
void FromArchiveDescription(std::string_view d, DatasetMetadata& m) {
  constexpr std::string_view kHead = "Archive of data.gov dataset \"";
  constexpr std::string_view kBy = "\" created by ";
  if (!StartsWith(d, kHead)) return;
  size_t by = d.rfind(kBy);
  if (by == std::string_view::npos || by < kHead.size()) return;
  if (m.title.empty()) m.title = Clean(d.substr(kHead.size(), by - kHead.size()));
  std::string_view rest = d.substr(by + kBy.size());
  size_t end = rest.find(". Full metadata");
  if (m.publisher.empty()) m.publisher = Clean(rest.substr(0, end));
}

Result<DatasetMetadata> FromSignedMetadata(const Json& j, std::string_view rel) {
  const Json* rec = FindRecord(j);
  DatasetMetadata m;
  if (rec != nullptr) m = FromCatalogRecord(*rec);
  if (rec != &j && j.is_object()) {
    if (m.source_url.empty()) m.source_url = Clean(Str(j, {"url", "landingPage"}));
    FromArchiveDescription(Trim(Str(j, {"description"})), m);
    if (m.title.empty()) m.title = Clean(Str(j, {"title", "name"}));
  }
  if (m.title.empty()) {
    return ParseError(std::string(rel) +
                      ": no dataset record found (no \"title\" in the record or its envelope)");
  }
  return m;
}

// "Key: value" lines (a plain-text rendering of a record).
DatasetMetadata FromKeyValueText(std::string_view text) {
  DatasetMetadata m;
  for (auto line : Split(text, '\n')) {
    size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon > 40) continue;
    std::string key = ToLowerAscii(Trim(line.substr(0, colon)));
    std::string_view raw = Trim(line.substr(colon + 1));
    std::string value = Clean(raw, kMaxDescription);
    if (value.empty()) continue;
    if (key == "title" && m.title.empty()) m.title = value;
    else if ((key == "description" || key == "notes" || key == "summary") && m.description.empty())
      m.description = value;
    else if ((key == "publisher" || key == "organization" || key == "organisation" || key == "agency") &&
             m.publisher.empty())
      m.publisher = value;
    else if (key == "tags" || key == "keywords" || key == "keyword") AddList(m.tags, Json(value));
    else if (key == "theme" || key == "themes" || key == "category" || key == "groups")
      AddList(m.themes, Json(value));
    else if ((key == "temporal" || key == "temporal coverage") && m.temporal.empty()) m.temporal = value;
    else if ((key == "spatial" || key == "spatial coverage") && m.spatial.empty()) m.spatial = value;
    else if (key == "license" && m.license.empty()) m.license = value;
    else if ((key == "modified" || key == "last modified") && m.modified.empty()) m.modified = value;
    else if ((key == "url" || key == "landing page") && m.source_url.empty()) m.source_url = value;
  }
  return m;
}

// Socrata custom metadata: {"custom_fields": {"Dataset Information": {"Agency": "...", ...}, ...}}.
void FromSocrataCustomFields(const Json& fields, DatasetMetadata& m) {
  if (!fields.is_object()) return;
  for (const auto& [section, entries] : fields.items()) {
    if (!entries.is_object()) continue;
    for (const auto& [name, value] : entries.items()) {
      if (!value.is_string()) continue;
      std::string key = ToLowerAscii(name);
      const std::string& v = value.get_ref<const std::string&>();
      auto has = [&](const char* w) { return key.find(w) != std::string::npos; };
      if (m.publisher.empty() &&
          (has("agency") || has("department") || has("publisher") || has("organization"))) {
        m.publisher = Clean(v);
      } else if (m.temporal.empty() &&
                 (has("period") || has("temporal") || has("date range") || has("time frame"))) {
        m.temporal = Clean(v);
      } else if (m.spatial.empty() &&
                 (has("coverage") || has("geograph") || has("jurisdiction") || has("spatial"))) {
        m.spatial = Clean(v, 2000);
      }
    }
  }
}

DatasetMetadata FromSocrataView(const Json& v) {
  DatasetMetadata m;
  m.title = Clean(Str(v, {"name"}));
  m.description = CleanText(Str(v, {"description"}));
  m.publisher = Clean(Str(v, {"attribution"}));
  if (auto it = v.find("category"); it != v.end() && it->is_string())
    AddUnique(m.themes, it->get_ref<const std::string&>());
  if (auto it = v.find("tags"); it != v.end()) AddList(m.tags, *it);
  m.license = Clean(Str(v, {"license", "licenseId"}));
  m.source_url = Clean(Str(v, {"attributionLink"}));
  if (auto it = v.find("columns"); it != v.end() && it->is_array()) {
    for (const auto& c : *it) {
      // ":@computed_region_..." columns are Socrata's own hidden geocoding, not the publisher's.
      if (!c.is_object() || StartsWith(Str(c, {"fieldName"}), ":@")) continue;
      AddUnique(m.columns, Str(c, {"name", "fieldName"}));
    }
  }
  for (const char* k : {"rowsUpdatedAt", "viewLastModified", "indexUpdatedAt", "createdAt"}) {
    if (auto it = v.find(k); it != v.end() && it->is_number_integer()) {
      m.modified = EpochToIso(it->get<int64_t>());
      break;
    }
  }
  if (auto it = v.find("metadata"); it != v.end() && it->is_object()) {
    if (auto cf = it->find("custom_fields"); cf != it->end()) FromSocrataCustomFields(*cf, m);
  }
  if (m.publisher.empty()) m.publisher = Clean(Str(v, {"owner", "tableAuthor"}));
  return m;
}

DatasetMetadata FromArcgisLayer(const Json& l) {
  DatasetMetadata m;
  m.title = Clean(Str(l, {"name", "title"}));
  m.description = CleanText(Str(l, {"description", "serviceDescription"}));
  m.publisher = CleanText(Str(l, {"copyrightText"}), 1000);
  if (auto it = l.find("fields"); it != l.end() && it->is_array()) {
    for (const auto& f : *it) {
      if (f.is_object()) AddUnique(m.columns, Str(f, {"alias", "name"}));
    }
  }
  if (auto it = l.find("extent"); it != l.end() && it->is_object()) {
    Json e = *it;
    e.erase("spatialReference");
    m.spatial = Clean(DumpJson(e), 500);
  }
  if (auto it = l.find("editingInfo"); it != l.end() && it->is_object()) {
    auto d = it->find("lastEditDate");  // milliseconds since the epoch
    if (d != it->end() && d->is_number_integer()) m.modified = EpochToIso(d->get<int64_t>() / 1000);
  }
  return m;
}

std::string_view Unquote(std::string_view s) {
  s = Trim(s);
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 1 - 1);
  return Trim(s);
}

Result<DatasetMetadata> FromColumnsFile(std::string_view content, std::string_view rel) {
  DatasetMetadata m;
  std::string_view body = Trim(content);
  if (!body.empty() && (body.front() == '[' || body.front() == '{')) {
    // Socrata /api/views/<4x4>/columns.json: [{"name": ..., "fieldName": ..., "dataTypeName": ...}, ...]
    LAKEQA_ASSIGN_OR_RETURN(Json j, ParseJson(content, rel));  // whole content: true line numbers
    const Json* list = &j;
    if (j.is_object()) {
      auto it = j.find("columns");
      if (it == j.end()) return ParseError(std::string(rel) + ": JSON object without a \"columns\" list");
      list = &*it;
    }
    if (!list->is_array()) return ParseError(std::string(rel) + ": \"columns\" is not a list");
    for (const auto& c : *list) {
      if (c.is_string()) AddUnique(m.columns, c.get_ref<const std::string&>());
      else if (c.is_object() && !StartsWith(Str(c, {"fieldName"}), ":@"))
        AddUnique(m.columns, Str(c, {"name", "fieldName"}));
    }
    return m;
  }
  std::vector<std::string_view> lines;
  for (auto line : Split(content, '\n')) {
    if (!Trim(line).empty()) lines.push_back(Trim(line));
  }
  // A single line with several commas is a header row, not "name,type".
  if (lines.size() == 1 && std::count(lines[0].begin(), lines[0].end(), ',') >= 2) {
    for (auto part : Split(lines[0], ',')) AddUnique(m.columns, Unquote(part));
    return m;
  }
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string_view first = Unquote(lines[i].substr(0, lines[i].find_first_of("\t,")));
    // A "name,type" heading line above the list is not a column.
    std::string lower = ToLowerAscii(first);
    if (i == 0 && lines.size() > 1 && lines[i].find_first_of("\t,") != std::string_view::npos &&
        (lower == "name" || lower == "column" || lower == "column name" || lower == "column_name" ||
         lower == "field" || lower == "field name" || lower == "fieldname")) {
      continue;
    }
    AddUnique(m.columns, first);
  }
  return m;
}

// Strips a leading "v<digits>/" (archive versions: datagov/<id>/v1/files/...).
std::string_view StripVersion(std::string_view rel) {
  if (rel.size() > 2 && rel[0] == 'v' && std::isdigit(static_cast<unsigned char>(rel[1]))) {
    size_t i = 1;
    while (i < rel.size() && std::isdigit(static_cast<unsigned char>(rel[i]))) ++i;
    if (i < rel.size() && rel[i] == '/') return rel.substr(i + 1);
  }
  return rel;
}

enum class Kind { kNone, kRecord, kColumns, kSocrata, kArcgis };

Kind KindOf(std::string_view rel) {
  rel = StripVersion(rel);
  if (rel == "signed-metadata.txt" || rel == "signed-metadata.json" || rel == "metadata.json")
    return Kind::kRecord;
  if (rel == "files/columns.txt") return Kind::kColumns;
  if (StartsWith(rel, "files/") && rel.find('/', 6) == std::string_view::npos) {
    if (EndsWith(rel, ".publisher-view.json")) return Kind::kSocrata;
    if (EndsWith(rel, ".arcgis-layer.json")) return Kind::kArcgis;
  }
  return Kind::kNone;
}

// Lines that wikitext-to-text conversion leaves behind from templates, tables and images.
bool IsMarkupRemnant(std::string_view l) {
  for (std::string_view p : {"{{", "}}", "{|", "|", "!", "[[File:", "[[Image:", "File:", "Image:", "thumb|",
                             "<", "__", "Category:", "="}) {
    if (StartsWith(l, p)) return true;
  }
  return false;
}

}  // namespace

void DatasetMetadata::MergeFrom(const DatasetMetadata& o) {
  auto fill = [](std::string& a, const std::string& b) {
    if (a.empty()) a = b;
  };
  fill(title, o.title);
  fill(description, o.description);
  fill(publisher, o.publisher);
  fill(temporal, o.temporal);
  fill(spatial, o.spatial);
  fill(license, o.license);
  fill(source_url, o.source_url);
  fill(modified, o.modified);
  for (const auto& t : o.tags) AddUnique(tags, t);
  for (const auto& t : o.themes) AddUnique(themes, t);
  for (const auto& c : o.columns) AddUnique(columns, c);
  for (const auto& f : o.metadata_files) {
    if (std::find(metadata_files.begin(), metadata_files.end(), f) == metadata_files.end())
      metadata_files.push_back(f);
  }
}

Json DatasetMetadata::ToJson() const {
  return Json{{"title", title},       {"description", description}, {"publisher", publisher},
              {"tags", tags},         {"themes", themes},           {"temporal", temporal},
              {"spatial", spatial},   {"license", license},         {"source_url", source_url},
              {"modified", modified}, {"columns", columns},         {"metadata_files", metadata_files}};
}

DatasetMetadata DatasetMetadata::FromJson(const Json& j) {
  DatasetMetadata m;
  if (!j.is_object()) return m;
  auto str = [&](const char* k) {
    auto it = j.find(k);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  auto list = [&](const char* k) {
    std::vector<std::string> out;
    auto it = j.find(k);
    if (it == j.end() || !it->is_array()) return out;
    for (const auto& e : *it) {
      if (e.is_string()) out.push_back(e.get<std::string>());
    }
    return out;
  };
  m.title = str("title");
  m.description = str("description");
  m.publisher = str("publisher");
  m.tags = list("tags");
  m.themes = list("themes");
  m.temporal = str("temporal");
  m.spatial = str("spatial");
  m.license = str("license");
  m.source_url = str("source_url");
  m.modified = str("modified");
  m.columns = list("columns");
  m.metadata_files = list("metadata_files");
  return m;
}

bool IsMetadataFile(std::string_view rel) { return KindOf(rel) != Kind::kNone; }

Result<DatasetMetadata> ParseMetadataFile(std::string_view rel, std::string_view content) {
  Kind kind = KindOf(rel);
  if (kind == Kind::kNone) return Unsupported(std::string(rel) + ": not a metadata file lakeqa reads");
  if (content.size() > kMaxMetadataBytes) {
    return ResourceExhausted(std::string(rel) + ": metadata file of " + std::to_string(content.size()) +
                             " bytes exceeds the " + std::to_string(kMaxMetadataBytes >> 20) + " MiB limit");
  }
  // The JSON parser rejects invalid UTF-8; replacing bad bytes keeps line numbers and the rest of the record.
  std::string sanitized;
  if (!IsValidUtf8(content)) {
    sanitized = SanitizeUtf8(content);
    content = sanitized;
  }
  std::string_view body = Trim(content);
  bool json_like = !body.empty() && (body.front() == '{' || body.front() == '[');
  DatasetMetadata m;
  switch (kind) {
    case Kind::kColumns: {
      LAKEQA_ASSIGN_OR_RETURN(m, FromColumnsFile(content, rel));
      break;
    }
    case Kind::kRecord: {
      if (!json_like) {
        m = FromKeyValueText(content);
        if (m.title.empty())
          return ParseError(std::string(rel) + ": neither a JSON record nor \"Title: ...\" lines");
        break;
      }
      LAKEQA_ASSIGN_OR_RETURN(Json j, ParseJson(content, rel));
      LAKEQA_ASSIGN_OR_RETURN(m, FromSignedMetadata(j, rel));
      break;
    }
    case Kind::kSocrata:
    case Kind::kArcgis: {
      LAKEQA_ASSIGN_OR_RETURN(Json j, ParseJson(content, rel));
      if (!j.is_object()) return ParseError(std::string(rel) + ": expected a JSON object");
      m = kind == Kind::kSocrata ? FromSocrataView(j) : FromArcgisLayer(j);
      break;
    }
    case Kind::kNone: break;
  }
  m.metadata_files.push_back(std::string(rel));
  return m;
}

DatasetMetadata WikipediaMetadata(std::string_view dataset_id, std::string_view content_head) {
  DatasetMetadata m;
  std::string title(dataset_id);
  std::replace(title.begin(), title.end(), '_', ' ');
  m.title = Clean(title);
  m.metadata_files.push_back("content.txt");
  // Lead paragraph: the first non-empty paragraph that is neither the title nor conversion debris.
  std::string para;
  bool first_line = true;
  for (auto line : Split(content_head, '\n')) {
    std::string_view l = Trim(line);
    if (l.empty()) {
      if (!para.empty()) break;
      continue;
    }
    if (first_line) {
      first_line = false;
      // Redirect pages: "#REDIRECT [[Target]]" in wikitext, "REDIRECT Target" once converted to text.
      std::string lower = ToLowerAscii(l.substr(0, 10));
      if (StartsWith(lower, "#redirect") || StartsWith(lower, "redirect ")) {
        size_t space = l.find_first_of(" \t");
        std::string t(Trim(space == std::string_view::npos ? std::string_view() : l.substr(space)));
        t.erase(std::remove(t.begin(), t.end(), '['), t.end());
        t.erase(std::remove(t.begin(), t.end(), ']'), t.end());
        m.description = Clean("Redirect to " + t, kMaxWikiLead);
        return m;
      }
    }
    if (para.empty()) {
      if (l == m.title || (StartsWith(l, "#") && Trim(l.substr(l.find_first_not_of('#'))) == m.title))
        continue;
      if (IsMarkupRemnant(l)) continue;
    } else if (StartsWith(l, "==")) {
      break;  // the next section heading
    }
    if (!para.empty()) para += ' ';
    para.append(l);
    if (para.size() > kMaxWikiLead) break;
  }
  m.description = Clean(para, kMaxWikiLead);
  return m;
}

}  // namespace lakeqa::ingest
