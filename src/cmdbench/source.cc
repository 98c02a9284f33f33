// cmdbench: the CMDBench NBA lake (tables/nba_wikisql.sql, tables/metadata.sql, graph/*.csv) →
//   cmdbench/<table>/<table>.csv + metadata.json     one per WikiSQL table (page/section title, caption)
//   cmdbench/graph_nodes_<Label>/<Label>.csv + metadata.json, cmdbench/graph_relation_<type>/... — each
//   with the whole graph schema (labels, properties, relation endpoints) in its metadata;
//   docs/*.json[l] (CMDBench's KILT page export, when the user has it) → wikipedia/<title>/content.txt (one
//   KILT paragraph per line, so line i is paragraph i) + metadata.json.
#include <sys/stat.h>

#include <algorithm>
#include <map>

#include "lakeqa/cmdbench/cmdbench.h"
#include "lakeqa/common/csv.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/lines.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/common/thread_pool.h"
#include "lakeqa/ingest/build_context.h"
#include "lakeqa/ingest/convert.h"
#include "lakeqa/ingest/sources.h"

namespace lakeqa::cmdbench {

using namespace ingest;  // the lake builder's context and helpers

namespace {

struct TableContext {
  std::string page_title, section_title, caption;
  Json header = Json::array();
};

// "t_1_10015132_1" → "1-10015132-1" (the nba_context id).
std::string WikisqlId(std::string_view table) {
  std::string id(table);
  if (StartsWith(id, "t_")) id = id.substr(2);
  std::replace(id.begin(), id.end(), '_', '-');
  return id;
}

Result<std::map<std::string, TableContext>> ReadContext(BuildContext& ctx, const std::string& path) {
  std::map<std::string, TableContext> out;
  PgDumpCallbacks cb;
  std::vector<std::string> columns;
  cb.on_table = [&](const PgTable& t) {
    columns = t.columns;
    return Status::Ok();
  };
  cb.on_row = [&](const PgTable& t, std::vector<PgField>&& f) -> Status {
    if (t.name != "nba_context") return Status::Ok();
    TableContext c;
    std::string id;
    for (size_t i = 0; i < columns.size() && i < f.size(); ++i) {
      if (columns[i] == "id") id = f[i].value;
      else if (columns[i] == "page_title") c.page_title = f[i].value;
      else if (columns[i] == "section_title") c.section_title = f[i].value;
      else if (columns[i] == "caption") c.caption = f[i].value;
      else if (columns[i] == "doc" && !f[i].null) {
        auto doc = ParseJson(f[i].value, path + " doc of " + id);
        if (doc.ok() && doc->contains("header")) c.header = (*doc)["header"];
      }
    }
    if (!id.empty()) out[id] = std::move(c);
    return Status::Ok();
  };
  cb.on_error = [&](const PgTable& t, const Status& s) { ctx.Error(path + " (" + t.name + ")", s); };
  LAKEQA_RETURN_IF_ERROR(ReadPgDump(path, cb));
  return out;
}

Status BuildTables(BuildContext& ctx, const std::string& ns, const std::string& dir, ThreadPool& pool) {
  std::map<std::string, TableContext> context;
  std::string meta_path = dir + "/metadata.sql";
  if (PathExists(meta_path)) {
    auto c = ReadContext(ctx, meta_path);
    if (!c.ok()) ctx.Error(meta_path, c.status().WithContext("table context unavailable"));
    else context = std::move(*c);
  } else {
    ctx.Error(meta_path, NotFound("no metadata.sql: tables get no page/section titles"));
  }
  std::string sql = dir + "/nba_wikisql.sql";
  std::string csv;
  uint64_t rows = 0;
  bool too_big = false;
  PgDumpCallbacks cb;
  cb.on_table = [&](const PgTable& t) {
    csv.clear();
    rows = 0;
    too_big = false;
    for (size_t i = 0; i < t.columns.size(); ++i) {
      if (i) csv += ',';
      AppendCsvField(t.columns[i], csv);
    }
    csv += '\n';
    return Status::Ok();
  };
  cb.on_row = [&](const PgTable&, std::vector<PgField>&& fields) {
    if (too_big) return Status::Ok();
    for (size_t i = 0; i < fields.size(); ++i) {
      if (i) csv += ',';
      AppendCsvField(fields[i].value, csv);  // NULL → empty field
    }
    csv += '\n';
    ++rows;
    if (csv.size() > ctx.options().max_file_bytes) too_big = true;
    return ctx.fatal() ? ctx.fatal_status() : Status::Ok();
  };
  cb.on_end = [&](const PgTable& t, uint64_t) -> Status {
    if (too_big) {
      ctx.Skip(t.name, "table larger than max_file_bytes");
      return Status::Ok();
    }
    std::string folder = NameToFolder(t.name);
    std::string prefix = ns + "/" + folder + "/";
    if (!ctx.Claim(prefix)) {
      ctx.Skip(t.name, "duplicate table name");
      return Status::Ok();
    }
    Json meta;
    meta["kind"] = "table";
    meta["table"] = t.name;
    meta["schema"] = t.schema;
    std::string id = WikisqlId(t.name);
    meta["wikisql_id"] = id;
    auto it = context.find(id);
    // title/description are what the catalog (and so search) reads from every dataset record.
    meta["title"] = t.name;
    if (it != context.end()) {
      const auto& c = it->second;
      std::string title = c.page_title;
      if (!c.section_title.empty() && c.section_title != c.page_title) title += " — " + c.section_title;
      if (!title.empty()) meta["title"] = title;
      if (!c.caption.empty()) meta["description"] = c.caption;
      meta["page_title"] = it->second.page_title;
      meta["section_title"] = it->second.section_title;
      meta["caption"] = it->second.caption;
      meta["header"] = it->second.header;
    }
    meta["columns"] = t.columns;
    meta["rows"] = rows;
    meta["source"] = "cmdbench";
    auto data = std::make_shared<std::string>(std::move(csv));
    csv.clear();
    auto meta_text = std::make_shared<std::string>(DumpJson(meta, 2) + "\n");
    std::string name = t.name;
    pool.Submit([&ctx, prefix, folder, name, data, meta_text] {
      Status s = ctx.Put(prefix + folder + ".csv", *data);
      if (s.ok()) s = ctx.Put(prefix + "metadata.json", *meta_text);
      if (!s.ok()) ctx.Error(name, s);
      else ctx.Dataset("table");
    });
    return Status::Ok();
  };
  cb.on_error = [&](const PgTable& t, const Status& s) { ctx.Error(sql + " (" + t.name + ")", s); };
  Status s = ReadPgDump(sql, cb);
  if (!s.ok()) ctx.Error(sql, s);
  return Status::Ok();
}

// Records (not lines) in a CSV body: newlines inside quotes do not count.
uint64_t CsvRecords(std::string_view data) {
  uint64_t n = 0;
  bool q = false, any = false;
  for (char c : data) {
    if (c == '"') q = !q;
    if (c == '\n' && !q) {
      ++n;
      any = false;
    } else {
      any = true;
    }
  }
  return n + (any ? 1 : 0);
}

// "wikidata_id:ID(Player)" → ("wikidata_id", "ID", "Player").
bool ParseTypedColumn(std::string_view col, std::string_view kind, std::string& label) {
  size_t p = col.find(":" + std::string(kind) + "(");
  if (p == std::string_view::npos || col.back() != ')') return false;
  size_t open = p + kind.size() + 2;
  label = std::string(col.substr(open, col.size() - 1 - open));
  return true;
}

Status BuildGraph(BuildContext& ctx, const std::string& ns, const std::string& dir) {
  std::vector<LocalFile> files;
  std::vector<ReportItem> skipped;
  LAKEQA_RETURN_IF_ERROR(ListLocalTree(dir, files, skipped));
  for (const auto& s : skipped) ctx.Skip("graph/" + s.item, s.reason);
  struct GraphFile {
    std::string file, dataset, kind, label;
    Json meta;
  };
  std::vector<GraphFile> graph;
  Json schema = {{"nodes", Json::array()}, {"relations", Json::array()}};
  for (const auto& f : files) {
    if (!EndsWith(f.relative, ".csv") || f.relative.find('/') != std::string::npos) {
      ctx.Skip("graph/" + f.relative, "not a graph CSV");
      continue;
    }
    std::string head;
    Status hs = ReadLocalFile(dir + "/" + f.relative, 0, 1 << 16, false, [&](std::string_view c) {
      head.append(c);
      return Status::Ok();
    });
    if (!hs.ok()) {
      ctx.Error("graph/" + f.relative, hs);
      continue;
    }
    std::string_view h = head;
    auto header = CsvFirstRecord(h.substr(0, h.find('\n')));
    GraphFile g;
    g.file = f.relative;
    std::string id_label, start, end;
    Json props = Json::array();
    for (const auto& c : header) {
      std::string label;
      if (ParseTypedColumn(c, "ID", label)) id_label = label;
      else if (ParseTypedColumn(c, "START_ID", label)) start = label;
      else if (ParseTypedColumn(c, "END_ID", label)) end = label;
      else props.push_back(c);
    }
    std::string stem = f.relative.substr(0, f.relative.size() - 4);
    if (!id_label.empty()) {
      g.kind = "graph_nodes";
      g.label = id_label;
      g.dataset = "graph_nodes_" + id_label;
      g.meta = {{"title", "Knowledge graph nodes: " + id_label},
                {"description", "Wikidata-derived " + id_label + " nodes of the NBA property graph"},
                {"label", id_label},
                {"id_column", header.empty() ? "" : header[0]},
                {"properties", props}};
      schema["nodes"].push_back({{"label", id_label}, {"file", f.relative}, {"properties", props}});
    } else if (!start.empty() && !end.empty()) {
      std::string type = StartsWith(stem, "relation_") ? stem.substr(9) : stem;
      g.kind = "graph_relations";
      g.label = type;
      g.dataset = "graph_relation_" + type;
      g.meta = {{"title", "Knowledge graph relation: " + start + " " + type + " " + end},
                {"description", "Wikidata-derived " + type + " edges from " + start + " to " + end +
                                    " nodes of the NBA property graph"},
                {"relation", type},
                {"start_label", start},
                {"end_label", end},
                {"properties", props}};
      schema["relations"].push_back(
          {{"type", type}, {"file", f.relative}, {"start", start}, {"end", end}, {"properties", props}});
    } else {
      ctx.Skip("graph/" + f.relative,
               "CSV without :ID or :START_ID/:END_ID columns (not Neo4j import format)");
      continue;
    }
    graph.push_back(std::move(g));
  }
  for (auto& g : graph) {
    std::string item = "graph/" + g.file;
    auto data = ReadFile(dir + "/" + g.file, ctx.options().max_file_bytes + 1);
    if (!data.ok()) {
      ctx.Error(item, data.status());
      continue;
    }
    if (data->size() > ctx.options().max_file_bytes) {
      ctx.Skip(item, "file larger than max_file_bytes");
      continue;
    }
    std::string prefix = ns + "/" + NameToFolder(g.dataset) + "/";
    if (!ctx.Claim(prefix)) {
      ctx.Skip(item, "duplicate graph dataset name");
      continue;
    }
    uint64_t records = CsvRecords(*data);
    g.meta["kind"] = g.kind;
    g.meta["file"] = g.file;
    g.meta["rows"] = records > 0 ? records - 1 : 0;
    g.meta["graph_schema"] = schema;
    g.meta["format"] = "neo4j-admin import CSV";
    g.meta["source"] = "cmdbench";
    Status s = ctx.Put(prefix + NameToFolder(g.file), *data);
    if (s.ok()) s = ctx.Put(prefix + "metadata.json", DumpJson(g.meta, 2) + "\n");
    if (!s.ok()) {
      ctx.Error(item, s);
      continue;
    }
    ctx.Dataset(g.kind);
  }
  return Status::Ok();
}

// One KILT page (CMDBench's MongoDB collection nba-datalake.wiki-documents, as tasks/run_doc_discovery.py
// reads it: wikipedia_id, wikipedia_title, categories, and `text`, the list of paragraphs whose first entry
// is the title) → wikipedia/<title>/content.txt with one paragraph per line, so line i is KILT paragraph i.
void WriteKiltPage(BuildContext& ctx, const Json& page, const std::string& where) {
  if (!page.is_object() || !page.contains("wikipedia_title") || !page["wikipedia_title"].is_string() ||
      !page.contains("text") || !page["text"].is_array()) {
    ctx.Error(where, ParseError("not a KILT page (needs \"wikipedia_title\" and a \"text\" list)"));
    return;
  }
  std::string title = page["wikipedia_title"].get<std::string>();
  std::string folder = TitleToFolder(title);
  std::string prefix = "wikipedia/" + folder + "/";
  if (!ctx.Claim(prefix)) {
    ctx.Skip(where + " (" + title + ")", "duplicate page title");
    return;
  }
  std::string content, lead;
  bool in_lead = true;
  for (size_t i = 0; i < page["text"].size(); ++i) {
    const Json& p = page["text"][i];
    std::string para = p.is_string() ? p.get<std::string>() : "";
    // A paragraph is one line: KILT ends each with "\n"; an inner newline would shift every later id.
    while (!para.empty() && (para.back() == '\n' || para.back() == '\r')) para.pop_back();
    for (char& c : para) {
      if (c == '\n' || c == '\r') c = ' ';
    }
    if (i > 0 && in_lead) {
      if (StartsWith(para, "Section::::") || StartsWith(para, "BULLET::::")) in_lead = false;
      else if (!para.empty()) lead += (lead.empty() ? "" : " ") + para;
    }
    content += SanitizeUtf8(para) + "\n";
  }
  Json meta = {{"title", title},
               {"description", std::string(TruncateUtf8(lead, 2000))},
               {"source", "cmdbench-kilt"},
               {"folder", folder},
               {"paragraphs", page["text"].size()}};
  if (page.contains("wikipedia_id")) meta["wikipedia_id"] = page["wikipedia_id"];
  if (page.contains("categories")) meta["categories"] = page["categories"];
  Status st = ctx.Put(prefix + "content.txt", content);
  if (st.ok()) st = ctx.Put(prefix + "metadata.json", DumpJson(meta, 2) + "\n");
  if (!st.ok()) ctx.Error(where, st);
  else ctx.Dataset("article");
}

// The document export, when the user has it: <path>/docs/*.json (a JSON array, mongoexport --jsonArray) or
// *.jsonl / *.ndjson (one page per line, mongoexport's default).
void BuildKiltDocs(BuildContext& ctx, const std::string& dir) {
  std::vector<LocalFile> files;
  std::vector<ReportItem> skipped;
  Status ls = ListLocalTree(dir, files, skipped);
  if (!ls.ok()) {
    ctx.Error(dir, ls);
    return;
  }
  for (const auto& f : files) {
    std::string path = dir + "/" + f.relative;
    bool lines = EndsWith(f.relative, ".jsonl") || EndsWith(f.relative, ".ndjson");
    if (!lines && !EndsWith(f.relative, ".json")) {
      ctx.Skip("docs/" + f.relative, "not a .json/.jsonl document export");
      continue;
    }
    if (lines) {
      ChunkedLines chunks(64u << 20);
      uint64_t line_no = 0;
      auto take = [&](std::string_view line) {
        ++line_no;
        if (Trim(line).empty()) return;
        std::string where = "docs/" + f.relative + ":" + std::to_string(line_no);
        auto j = ParseJson(line, where);
        if (!j.ok()) ctx.Error(where, j.status());
        else WriteKiltPage(ctx, *j, where);
      };
      Status s = ReadLocalFile(path, 0, 0, false, [&](std::string_view chunk) {
        LAKEQA_RETURN_IF_ERROR(chunks.Feed(chunk, take));
        if (chunks.overflow()) return ResourceExhausted("a line longer than 64 MiB");
        return ctx.fatal() ? ctx.fatal_status() : Status::Ok();
      });
      if (s.ok()) s = chunks.Finish(take);
      if (!s.ok()) ctx.Error("docs/" + f.relative, s);
      continue;
    }
    auto text = ReadFile(path, ctx.options().max_file_bytes);
    if (!text.ok()) {
      ctx.Error("docs/" + f.relative, text.status());
      continue;
    }
    auto j = ParseJson(*text, "docs/" + f.relative);
    if (!j.ok()) {
      ctx.Error("docs/" + f.relative, j.status());
      continue;
    }
    if (j->is_array()) {
      for (size_t i = 0; i < j->size(); ++i)
        WriteKiltPage(ctx, (*j)[i], "docs/" + f.relative + "[" + std::to_string(i) + "]");
    } else {
      WriteKiltPage(ctx, *j, "docs/" + f.relative);
    }
  }
}

}  // namespace

Status BuildCmdbench(BuildContext& ctx, const std::string& path) {
  std::string ns = ctx.options().namespace_name.empty() ? "cmdbench" : ctx.options().namespace_name;
  bool tables = PathExists(path + "/tables/nba_wikisql.sql");
  bool graph = PathExists(path + "/graph");
  bool docs = PathExists(path + "/docs");
  if (!tables && !graph && !docs) {
    return NotFound(path + ": not a CMDBench lake (expected tables/nba_wikisql.sql, graph/ and/or docs/)");
  }
  // CMDBench's document collection is not in its public repository; a user who has the export puts it in
  // docs/ (docs/cmdbench.md). Pages go to the wikipedia namespace, as lakeqa's other Wikipedia pages.
  if (docs) BuildKiltDocs(ctx, path + "/docs");
  if (tables) {
    ThreadPool pool(ctx.jobs());
    LAKEQA_RETURN_IF_ERROR(BuildTables(ctx, ns, path + "/tables", pool));
    pool.Wait();
  } else {
    ctx.Error(path + "/tables/nba_wikisql.sql", NotFound("no WikiSQL tables"));
  }
  if (graph) {
    LAKEQA_RETURN_IF_ERROR(BuildGraph(ctx, ns, path + "/graph"));
  } else {
    ctx.Error(path + "/graph", NotFound("no graph folder"));
  }
  return Status::Ok();
}

}  // namespace lakeqa::cmdbench
