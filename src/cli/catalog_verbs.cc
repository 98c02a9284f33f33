// `lakeqa catalog ls|show|stats --index <dir>`: read the catalog.
#include <fmt/format.h>

#include <cstdio>

#include "cli/command.h"
#include "lakeqa/catalog/catalog.h"
#include "lakeqa/catalog/index_dir.h"
#include "lakeqa/common/progress.h"
#include "lakeqa/common/strings.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  std::string index, prefix, dataset;
  uint64_t limit = 100, offset = 0;
  bool ignore_store_fields = false;
  OutputOptions out;
};

Result<std::unique_ptr<catalog::Catalog>> OpenCatalog(const std::string& index) {
  return catalog::Catalog::Open(catalog::IndexDir(index).Catalog(), /*read_only=*/true);
}

int Ls(const Opts& o) {
  auto cat = OpenCatalog(o.index);
  if (!cat.ok()) return Fail(cat.status(), o.out);
  auto ds = (*cat)->ListDatasets(o.prefix, o.limit, o.offset);
  if (!ds.ok()) return Fail(ds.status(), o.out);
  auto total = (*cat)->CountDatasets(o.prefix);
  if (!total.ok()) return Fail(total.status(), o.out);
  if (o.out.json) {
    Json a = Json::array();
    for (const auto& d : *ds) {
      a.push_back({{"id", d.FullId()},
                   {"title", d.metadata.title},
                   {"category", d.category},
                   {"publisher", d.metadata.publisher},
                   {"file_count", d.file_count},
                   {"bytes", d.bytes},
                   {"error_count", d.error_count}});
    }
    PrintJson(
        {{"datasets", a}, {"prefix", o.prefix}, {"offset", o.offset}, {"limit", o.limit}, {"total", *total}});
    return 0;
  }
  fmt::print("{:<60} {:>11} {:>9}  {:<24} {}\n", "DATASET", "FILES", "SIZE", "CATEGORY", "TITLE");
  for (const auto& d : *ds) {
    fmt::print("{:<60} {:>5} files {:>9}  {:<24} {}\n", d.FullId(), d.file_count, HumanBytes(d.bytes),
               d.category.empty() ? "-" : d.category, d.metadata.title);
  }
  // "N of M": how much of the catalog (or of the prefix) this page shows, and how to get the rest.
  std::string scope = o.prefix.empty() ? "datasets" : fmt::format("datasets with prefix '{}'", o.prefix);
  if (ds->empty()) {
    fmt::print("0 of {} {}{}\n", *total, scope, o.offset > 0 ? fmt::format(" (--offset {})", o.offset) : "");
  } else {
    uint64_t last = o.offset + ds->size();
    fmt::print("{}-{} of {} {}{}\n", o.offset + 1, last, *total, scope,
               last < *total ? fmt::format(" (next: --offset {})", last) : "");
  }
  return 0;
}

// A column as "name (type): sample, sample, ..." with at most a few short samples.
std::string ColumnLine(const Json& c) {
  std::string line = fmt::format("{} ({})", c.value("name", ""), c.value("type", "?"));
  if (auto it = c.find("samples"); it != c.end() && it->is_array() && !it->empty()) {
    std::vector<std::string> shown;
    for (const auto& v : *it) {
      if (shown.size() == 3) break;
      std::string t = v.is_string() ? v.get<std::string>() : v.dump();
      shown.push_back(t.size() > 40 ? std::string(TruncateUtf8(t, 40)) + "…" : t);
    }
    line += ": " + fmt::format("{}", fmt::join(shown, ", "));
    if (it->size() > shown.size()) line += ", …";
  }
  return line;
}

int Show(const Opts& o) {
  auto cat = OpenCatalog(o.index);
  if (!cat.ok()) return Fail(cat.status(), o.out);
  auto d = (*cat)->ResolveDataset(o.dataset);
  if (!d.ok()) return Fail(d.status(), o.out);
  auto files = (*cat)->ListFiles(d->FullId());
  if (!files.ok()) return Fail(files.status(), o.out);
  if (o.out.json) {
    Json j = d->ToJson();
    Json fa = Json::array();
    for (const auto& f : *files) fa.push_back(f.ToJson());
    j["files"] = fa;
    PrintJson(j);
    return 0;
  }
  const auto& m = d->metadata;
  fmt::print("{}\n  title:       {}\n  publisher:   {}\n  category:    {}\n", d->FullId(), m.title,
             m.publisher, d->category.empty() ? "-" : d->category);
  if (!m.themes.empty()) fmt::print("  themes:      {}\n", fmt::join(m.themes, ", "));
  if (!m.tags.empty()) fmt::print("  tags:        {}\n", fmt::join(m.tags, ", "));
  if (!m.temporal.empty()) fmt::print("  temporal:    {}\n", m.temporal);
  if (!m.spatial.empty()) fmt::print("  spatial:     {}\n", m.spatial.substr(0, 120));
  if (!m.description.empty()) fmt::print("  description: {}\n", m.description.substr(0, 400));
  if (!d->columns.empty()) fmt::print("  columns:     {}\n", fmt::join(d->columns, ", "));
  fmt::print("  files ({}, {}):\n", d->file_count, HumanBytes(d->bytes));
  for (const auto& f : *files) {
    std::string detail = f.format;
    if (f.profile && f.profile->contains("rows")) {
      detail += fmt::format(", {}{} rows", (*f.profile)["rows"].get<uint64_t>(),
                            f.profile->value("rows_exact", true) ? "" : "+");
    }
    fmt::print("    {:<50} {:>10}  {}{}\n", f.path, HumanBytes(f.size), detail,
               f.error.empty() ? "" : "  ERROR " + f.error_code + ": " + f.error);
    if (!f.profile) continue;
    if (auto cols = f.profile->find("columns"); cols != f.profile->end() && cols->is_array()) {
      for (const auto& c : *cols) fmt::print("      {}\n", ColumnLine(c));
    }
  }
  return 0;
}

int Stats(const Opts& o) {
  auto cat = OpenCatalog(o.index);
  if (!cat.ok()) return Fail(cat.status(), o.out);
  auto st = (*cat)->Stats();
  if (!st.ok()) return Fail(st.status(), o.out);
  if (o.out.json) {
    Json j = st->ToJson();
    j["build_state"] = (*cat)->GetMeta("build_state").value_or("");
    PrintJson(j);
    return 0;
  }
  fmt::print("{} datasets, {} files, {} ({} files with errors, {} not yet profiled; build: {})\n",
             st->datasets, st->files, HumanBytes(st->bytes), st->file_errors, st->unprofiled,
             (*cat)->GetMeta("build_state").value_or("?"));
  auto table = [](const char* title, const auto& rows) {
    fmt::print("\n{}\n", title);
    for (const auto& [k, v] : rows)
      fmt::print("  {:<28} {:>10} {:>12}\n", k.empty() ? "(none)" : k, v.count, HumanBytes(v.bytes));
  };
  table("by namespace (datasets)", st->by_namespace);
  table("by format (files)", st->by_format);
  table("by category (datasets)", st->by_category);
  if (!st->errors_by_code.empty()) {
    fmt::print("\nfile errors\n");
    for (const auto& [k, v] : st->errors_by_code) fmt::print("  {:<28} {:>10}\n", k, v);
  }
  return 0;
}

// Text: the catalog's dump lines ("dataset {...}", "file {...}") as they come. --json: one document,
// {"index", "rows": [{"kind": "dataset"|"file", "row": {...}}, ...]}, printed only once the whole dump
// succeeded, so a failure half-way prints the error object alone.
int DumpAll(const Opts& o) {
  auto cat = OpenCatalog(o.index);
  if (!cat.ok()) return Fail(cat.status(), o.out);
  if (!o.out.json) {
    Status s = (*cat)->Dump(
        [](const std::string& line) {
          std::fwrite(line.data(), 1, line.size(), stdout);
          std::fputc('\n', stdout);
        },
        o.ignore_store_fields);
    return s.ok() ? 0 : Fail(s, o.out);
  }
  Json rows = Json::array();
  Status bad;
  Status s = (*cat)->Dump(
      [&](const std::string& line) {
        size_t sp = line.find(' ');
        auto row = ParseJson(std::string_view(line).substr(sp + 1), "catalog dump line");
        if (!row.ok()) {
          if (bad.ok()) bad = row.status();
          return;
        }
        rows.push_back({{"kind", line.substr(0, sp)}, {"row", std::move(*row)}});
      },
      o.ignore_store_fields);
  if (s.ok()) s = bad;
  if (!s.ok()) return Fail(s, o.out);
  PrintJson({{"index", o.index}, {"rows", std::move(rows)}});
  return 0;
}

Registration reg([](CLI::App& root, Commands& commands) {
  CLI::App* group = Commands::Group(root, "catalog", "Browse the catalog of an index");
  {
    auto o = std::make_shared<Opts>();
    CLI::App* cmd =
        group->add_subcommand("dump", "Every dataset and file row as JSON lines, in key order (for diffs)");
    cmd->add_option("--index", o->index, "Index directory")->required();
    cmd->add_flag(
        "--ignore-etag-mtime", o->ignore_store_fields,
        "Leave out ETags and mtimes, which differ between a folder and an S3 copy of the same lake");
    AddOutputOptions(cmd, o->out);
    commands.Bind(cmd, [o] { return DumpAll(*o); });
  }
  {
    auto o = std::make_shared<Opts>();
    CLI::App* cmd = group->add_subcommand("ls", "List datasets");
    cmd->add_option("--index", o->index, "Index directory")->required();
    cmd->add_option("--prefix", o->prefix, "Only ids starting with this (e.g. datagov/apd-)");
    cmd->add_option("--limit", o->limit, "At most this many")->capture_default_str();
    cmd->add_option("--offset", o->offset, "Skip this many");
    AddOutputOptions(cmd, o->out);
    commands.Bind(cmd, [o] { return Ls(*o); });
  }
  {
    auto o = std::make_shared<Opts>();
    CLI::App* cmd = group->add_subcommand("show", "Show one dataset with its files and profiles");
    cmd->add_option("--index", o->index, "Index directory")->required();
    cmd->add_option("dataset", o->dataset, "<namespace>/<id>, or a bare <id> when one namespace has it")
        ->required();
    AddOutputOptions(cmd, o->out);
    commands.Bind(cmd, [o] { return Show(*o); });
  }
  {
    auto o = std::make_shared<Opts>();
    CLI::App* cmd = group->add_subcommand("stats", "Totals per namespace, format and category; errors");
    cmd->add_option("--index", o->index, "Index directory")->required();
    AddOutputOptions(cmd, o->out);
    commands.Bind(cmd, [o] { return Stats(*o); });
  }
});

}  // namespace
}  // namespace lakeqa::cli
