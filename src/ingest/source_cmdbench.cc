// cmdbench: the CMDBench NBA lake (tables/nba_wikisql.sql, tables/metadata.sql, graph/*.csv) →
//   cmdbench/<table>/<table>.csv + metadata.json     one per WikiSQL table (page/section title, caption)
//   cmdbench/graph_nodes_<Label>/<Label>.csv + metadata.json, cmdbench/graph_relation_<type>/... — each
//   with the whole graph schema (labels, properties, relation endpoints) in its metadata.
#include <sys/stat.h>

#include <algorithm>
#include <map>

#include "ingest/build_internal.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/common/thread_pool.h"
#include "lakeqa/ingest/convert.h"
#include "lakeqa/ingest/sources.h"

namespace lakeqa::ingest {
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

// Splits a CSV header line (no quoted newlines in headers).
std::vector<std::string> CsvHeader(std::string_view line) {
  std::vector<std::string> out;
  std::string cur;
  bool q = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (q) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') cur += '"', ++i;
      else if (c == '"') q = false;
      else cur += c;
    } else if (c == '"') {
      q = true;
    } else if (c == ',') {
      out.push_back(cur);
      cur.clear();
    } else if (c != '\r') {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
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
    auto header = CsvHeader(h.substr(0, h.find('\n')));
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
                {"label", id_label}, {"id_column", header.empty() ? "" : header[0]}, {"properties", props}};
      schema["nodes"].push_back({{"label", id_label}, {"file", f.relative}, {"properties", props}});
    } else if (!start.empty() && !end.empty()) {
      std::string type = StartsWith(stem, "relation_") ? stem.substr(9) : stem;
      g.kind = "graph_relations";
      g.label = type;
      g.dataset = "graph_relation_" + type;
      g.meta = {{"title", "Knowledge graph relation: " + start + " " + type + " " + end},
                {"description", "Wikidata-derived " + type + " edges from " + start + " to " + end +
                                    " nodes of the NBA property graph"},
                {"relation", type}, {"start_label", start}, {"end_label", end}, {"properties", props}};
      schema["relations"].push_back(
          {{"type", type}, {"file", f.relative}, {"start", start}, {"end", end}, {"properties", props}});
    } else {
      ctx.Skip("graph/" + f.relative, "CSV without :ID or :START_ID/:END_ID columns (not Neo4j import format)");
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

}  // namespace

Status BuildCmdbench(BuildContext& ctx, const std::string& path) {
  std::string ns = ctx.options().namespace_name.empty() ? "cmdbench" : ctx.options().namespace_name;
  bool tables = PathExists(path + "/tables/nba_wikisql.sql");
  bool graph = PathExists(path + "/graph");
  if (!tables && !graph) {
    return NotFound(path + ": not a CMDBench lake (expected tables/nba_wikisql.sql and/or graph/)");
  }
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

}  // namespace lakeqa::ingest
