#include "lakeqa/ingest/metadata.h"

#include <algorithm>
#include <set>

#include "lakeqa/common/strings.h"

namespace lakeqa::ingest {
namespace {

constexpr size_t kMaxMetadataBytes = 16u << 20;
constexpr size_t kMaxDescription = 4000;

std::string Clean(std::string_view s, size_t max = 1000) {
  return SanitizeUtf8(TruncateUtf8(Trim(s), max));
}

std::string Str(const Json& j, std::initializer_list<const char*> keys) {
  for (const char* k : keys) {
    auto it = j.find(k);
    if (it == j.end() || it->is_null()) continue;
    if (it->is_string()) {
      std::string v = it->get<std::string>();
      if (!Trim(v).empty()) return v;
    } else if (it->is_object()) {
      // {"name": ...} / {"title": ...} objects (CKAN organization, DCAT publisher)
      std::string v = Str(*it, {"title", "name", "display_name"});
      if (!v.empty()) return v;
    } else if (it->is_number()) {
      return it->dump();
    }
  }
  return "";
}

void AddUnique(std::vector<std::string>& v, std::string s) {
  s = Clean(s, 200);
  if (s.empty()) return;
  if (std::find(v.begin(), v.end(), s) == v.end() && v.size() < 200) v.push_back(std::move(s));
}

// Strings from a list of strings or of {"name"/"title"/"display_name": ...} objects.
void AddList(std::vector<std::string>& out, const Json& j) {
  if (j.is_string()) {
    // Comma-separated keyword strings occur in Socrata and ArcGIS records.
    const std::string& text = j.get_ref<const std::string&>();
    for (auto part : Split(text, ',')) AddUnique(out, std::string(part));
    return;
  }
  if (!j.is_array()) return;
  for (const auto& e : j) {
    if (e.is_string()) AddUnique(out, e.get<std::string>());
    else if (e.is_object()) AddUnique(out, Str(e, {"display_name", "title", "name"}));
  }
}

// CKAN package record (data.gov catalog, package_show result) or DCAT-US dataset.
DatasetMetadata FromCatalogRecord(const Json& rec) {
  DatasetMetadata m;
  m.title = Clean(Str(rec, {"title", "name"}));
  m.description = Clean(Str(rec, {"notes", "description"}), kMaxDescription);
  m.publisher = Clean(Str(rec, {"organization", "publisher", "author", "maintainer"}));
  m.license = Clean(Str(rec, {"license_title", "license", "license_id"}));
  m.source_url = Clean(Str(rec, {"landingPage", "url", "source_url"}));
  m.modified = Clean(Str(rec, {"metadata_modified", "modified", "issued"}));
  m.temporal = Clean(Str(rec, {"temporal"}));
  m.spatial = Clean(Str(rec, {"spatial"}), 2000);
  if (auto it = rec.find("tags"); it != rec.end()) AddList(m.tags, *it);
  if (auto it = rec.find("keyword"); it != rec.end()) AddList(m.tags, *it);
  if (auto it = rec.find("groups"); it != rec.end()) AddList(m.themes, *it);
  if (auto it = rec.find("theme"); it != rec.end()) AddList(m.themes, *it);
  // CKAN extras: [{"key": "publisher", "value": ...}, {"key": "theme", "value": "[\"Health\"]"}, ...]
  if (auto it = rec.find("extras"); it != rec.end() && it->is_array()) {
    for (const auto& e : *it) {
      if (!e.is_object()) continue;
      std::string key = ToLowerAscii(Str(e, {"key"}));
      std::string value = Str(e, {"value"});
      if (value.empty()) continue;
      if (key == "publisher" && m.publisher.empty()) m.publisher = Clean(value);
      else if (key == "theme" || key == "category" || key == "categories") {
        auto parsed = ParseJson(value, "extras.theme");
        if (parsed.ok()) AddList(m.themes, *parsed);
        else AddList(m.themes, Json(value));
      } else if (key == "temporal" && m.temporal.empty()) m.temporal = Clean(value);
      else if (key == "spatial" && m.spatial.empty()) m.spatial = Clean(value, 2000);
      else if (key == "modified" && m.modified.empty()) m.modified = Clean(value);
      else if (key == "landingpage" && m.source_url.empty()) m.source_url = Clean(value);
    }
  }
  return m;
}

// The record may be wrapped (signatures, an envelope with "metadata"/"result"/"data_gov_metadata"):
// find the object that looks like a dataset record, breadth-first, a few levels deep.
const Json* FindRecord(const Json& j, int depth = 0) {
  if (!j.is_object()) return nullptr;
  if (j.contains("title") && (j.contains("notes") || j.contains("description") || j.contains("organization") ||
                              j.contains("tags") || j.contains("keyword"))) {
    return &j;
  }
  if (depth >= 3) return nullptr;
  for (const char* k : {"result", "metadata", "data_gov_metadata", "dataset", "package", "record"}) {
    if (auto it = j.find(k); it != j.end()) {
      if (const Json* r = FindRecord(*it, depth + 1)) return r;
    }
  }
  for (const auto& [k, v] : j.items()) {
    if (const Json* r = FindRecord(v, depth + 1)) return r;
  }
  return j.contains("title") ? &j : nullptr;
}

// "Key: value" lines (a plain-text rendering of a record).
DatasetMetadata FromKeyValueText(std::string_view text) {
  DatasetMetadata m;
  for (auto line : Split(text, '\n')) {
    size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon > 40) continue;
    std::string key = ToLowerAscii(Trim(line.substr(0, colon)));
    std::string value = Clean(line.substr(colon + 1), kMaxDescription);
    if (value.empty()) continue;
    if (key == "title" && m.title.empty()) m.title = value;
    else if ((key == "description" || key == "notes" || key == "summary") && m.description.empty()) m.description = value;
    else if ((key == "publisher" || key == "organization" || key == "organisation" || key == "agency") && m.publisher.empty()) m.publisher = value;
    else if (key == "tags" || key == "keywords" || key == "keyword") AddList(m.tags, Json(value));
    else if (key == "theme" || key == "themes" || key == "category" || key == "groups") AddList(m.themes, Json(value));
    else if (key == "temporal" || key == "temporal coverage") m.temporal = value;
    else if (key == "spatial" || key == "spatial coverage") m.spatial = value;
    else if (key == "license") m.license = value;
    else if (key == "modified" || key == "last modified") m.modified = value;
    else if (key == "url" || key == "landing page") m.source_url = value;
  }
  return m;
}

DatasetMetadata FromSocrataView(const Json& v) {
  DatasetMetadata m;
  m.title = Clean(Str(v, {"name"}));
  m.description = Clean(Str(v, {"description"}), kMaxDescription);
  m.publisher = Clean(Str(v, {"attribution", "owner"}));
  if (auto it = v.find("owner"); m.publisher.empty() && it != v.end() && it->is_object()) m.publisher = Clean(Str(*it, {"displayName"}));
  std::string cat = Str(v, {"category"});
  if (!cat.empty()) AddUnique(m.themes, cat);
  if (auto it = v.find("tags"); it != v.end()) AddList(m.tags, *it);
  m.license = Clean(Str(v, {"license"}));
  if (auto it = v.find("license"); it != v.end() && it->is_object()) m.license = Clean(Str(*it, {"name"}));
  if (auto it = v.find("columns"); it != v.end() && it->is_array()) {
    for (const auto& c : *it) {
      if (c.is_object()) AddUnique(m.columns, Str(c, {"name", "fieldName"}));
    }
  }
  if (auto it = v.find("rowsUpdatedAt"); it != v.end() && it->is_number()) m.modified = it->dump();
  return m;
}

DatasetMetadata FromArcgisLayer(const Json& l) {
  DatasetMetadata m;
  m.title = Clean(Str(l, {"name", "title"}));
  std::string desc = Str(l, {"description", "serviceDescription"});
  // ArcGIS descriptions are often HTML fragments.
  std::string text;
  bool in_tag = false;
  for (char c : desc) {
    if (c == '<') in_tag = true;
    else if (c == '>') { in_tag = false; text += ' '; }
    else if (!in_tag) text += c;
  }
  m.description = Clean(text, kMaxDescription);
  m.publisher = Clean(Str(l, {"copyrightText"}));
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
  return m;
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
    if (std::find(metadata_files.begin(), metadata_files.end(), f) == metadata_files.end()) metadata_files.push_back(f);
  }
}

Json DatasetMetadata::ToJson() const {
  return Json{{"title", title},     {"description", description}, {"publisher", publisher},
              {"tags", tags},       {"themes", themes},           {"temporal", temporal},
              {"spatial", spatial}, {"license", license},         {"source_url", source_url},
              {"modified", modified}, {"columns", columns},       {"metadata_files", metadata_files}};
}

DatasetMetadata DatasetMetadata::FromJson(const Json& j) {
  DatasetMetadata m;
  if (!j.is_object()) return m;
  m.title = j.value("title", "");
  m.description = j.value("description", "");
  m.publisher = j.value("publisher", "");
  m.tags = j.value("tags", std::vector<std::string>{});
  m.themes = j.value("themes", std::vector<std::string>{});
  m.temporal = j.value("temporal", "");
  m.spatial = j.value("spatial", "");
  m.license = j.value("license", "");
  m.source_url = j.value("source_url", "");
  m.modified = j.value("modified", "");
  m.columns = j.value("columns", std::vector<std::string>{});
  m.metadata_files = j.value("metadata_files", std::vector<std::string>{});
  return m;
}

bool IsMetadataFile(std::string_view rel) {
  return rel == "signed-metadata.txt" || rel == "metadata.json" || rel == "files/columns.txt" ||
         (StartsWith(rel, "files/") && (EndsWith(rel, ".publisher-view.json") || EndsWith(rel, ".arcgis-layer.json")));
}

Result<DatasetMetadata> ParseMetadataFile(std::string_view rel, std::string_view content) {
  if (content.size() > kMaxMetadataBytes) {
    return ResourceExhausted(std::string(rel) + ": metadata file of " + std::to_string(content.size()) +
                             " bytes exceeds the " + std::to_string(kMaxMetadataBytes >> 20) + " MiB limit");
  }
  DatasetMetadata m;
  if (rel == "files/columns.txt") {
    // One column per line; some list "name<TAB or comma>type/description": keep the first field.
    for (auto line : Split(content, '\n')) {
      std::string_view l = Trim(line);
      if (l.empty()) continue;
      size_t cut = l.find_first_of("\t,");
      AddUnique(m.columns, std::string(Trim(l.substr(0, cut))));
    }
  } else if (EndsWith(rel, ".publisher-view.json") || EndsWith(rel, ".arcgis-layer.json") ||
             rel == "metadata.json" || rel == "signed-metadata.txt") {
    std::string_view body = Trim(content);
    bool json_like = !body.empty() && (body.front() == '{' || body.front() == '[');
    if (!json_like && rel == "signed-metadata.txt") {
      m = FromKeyValueText(content);
    } else {
      LAKEQA_ASSIGN_OR_RETURN(Json j, ParseJson(content, rel));
      if (EndsWith(rel, ".publisher-view.json")) {
        m = FromSocrataView(j);
      } else if (EndsWith(rel, ".arcgis-layer.json")) {
        m = FromArcgisLayer(j);
      } else {
        const Json* rec = FindRecord(j);
        if (rec == nullptr) return ParseError(std::string(rel) + ": no dataset record (no \"title\") found");
        m = FromCatalogRecord(*rec);
      }
    }
  } else {
    return Unsupported(std::string(rel) + ": not a metadata file lakeqa reads");
  }
  m.metadata_files.push_back(std::string(rel));
  return m;
}

DatasetMetadata WikipediaMetadata(std::string_view dataset_id, std::string_view content_head) {
  DatasetMetadata m;
  std::string title(dataset_id);
  std::replace(title.begin(), title.end(), '_', ' ');
  m.title = Clean(title);
  // Lead paragraph: the first non-empty paragraph that is not just the title.
  std::string para;
  for (auto line : Split(content_head, '\n')) {
    std::string_view l = Trim(line);
    if (l.empty()) {
      if (!para.empty()) break;
      continue;
    }
    if (para.empty() && (l == m.title || l == "# " + m.title)) continue;
    if (!para.empty()) para += ' ';
    para.append(l);
    if (para.size() > 1000) break;
  }
  m.description = Clean(para, 1000);
  m.metadata_files.push_back("content.txt");
  return m;
}

}  // namespace lakeqa::ingest
