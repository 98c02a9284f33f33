// `lakeqa lake build --source <kind>:<path> --out <uri> [--jobs N]`: raw sources → a LakeQA-layout lake,
// with a JSON build report (counts, bytes, skipped items with reasons, errors with item names).
#include <fmt/format.h>

#include "cli/store_options.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/ingest/build.h"
#include "lakeqa/ingest/source_kind.h"
#include "lakeqa/lake/s3_store.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  std::string source;
  std::string out_uri;
  std::string report_path;
  bool strict = false;
  ingest::BuildOptions build;
  StoreFlags store;
  OutputOptions out;
};

int Run(const Opts& o) {
  auto source = ingest::ParseSourceSpec(o.source);
  if (!source.ok()) return Fail(source.status(), o.out);
  auto store = OpenFromFlags(o.out_uri, o.store);
  if (!store.ok()) return Fail(store.status(), o.out);
  if (auto* s3 = dynamic_cast<lake::S3Store*>(store->get())) {
    Status s = s3->CreateBucket();  // harmless when it exists; needed on a fresh test server
    if (!s.ok() && s.code() != ErrorCode::kPermissionDenied) return Fail(s, o.out);
  }
  ProgressBar bar("building", 0, "datasets", !o.out.quiet);
  auto report = ingest::BuildLake(**store, *source, o.build, &bar);
  bar.Finish();
  if (!report.ok()) return Fail(report.status(), o.out);
  Json j = report->ToJson();
  if (!o.report_path.empty()) {
    Status s = WriteFileAtomic(o.report_path, DumpJson(j, 2) + "\n");
    if (!s.ok()) return Fail(s, o.out);
  }
  if (o.out.json) {
    PrintJson(j);
  } else {
    fmt::print("wrote {} datasets, {} files, {} to {}\n", report->DatasetsTotal(), report->files,
               HumanBytes(report->bytes), report->lake);
    for (const auto& [kind, n] : report->datasets) fmt::print("  {}: {}\n", kind, n);
    if (report->skipped_total) {
      fmt::print("skipped {} items:\n", report->skipped_total);
      for (const auto& [reason, n] : report->skipped_by_reason) fmt::print("  {}: {}\n", reason, n);
    }
    if (report->errors_total) {
      fmt::print("{} errors{}:\n", report->errors_total,
                 report->errors.size() < report->errors_total ? " (first ones)" : "");
      for (const auto& e : report->errors) fmt::print("  {}: {}\n", e.item, e.reason);
    }
  }
  // Item-level errors do not fail the build (the report lists them) unless asked to.
  return report->errors_total && o.strict ? ExitCodeFor(ErrorCode::kParseError) : 0;
}

// "enwiki | datagov | ...": the registered source kinds (ingest/source_kind.h).
std::string KindNames() {
  std::string out;
  for (const ingest::SourceKindSpec& k : ingest::SourceKinds()) out += (out.empty() ? "" : " | ") + k.name;
  return out;
}

// "Namespace (default: wikipedia, datagov, ...; <kind>: <what it means there>)".
std::string NamespaceHelp() {
  std::string defaults, other;
  for (const ingest::SourceKindSpec& k : ingest::SourceKinds()) {
    bool own_meaning = k.namespace_help.rfind(k.name + ": ", 0) == 0;
    std::string& to = own_meaning ? other : defaults;
    to += (to.empty() ? "" : own_meaning ? "; " : ", ") + k.namespace_help;
  }
  return "Namespace (default: " + defaults + (other.empty() ? "" : "; " + other) + ")";
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd =
      Commands::Group(root, "lake", "Lakes: list, read, synthesise, build")
          ->add_subcommand("build", "Build a LakeQA-layout lake from raw sources (docs/lake-build.md)");
  cmd->add_option("--source", o->source, "<kind>:<path>, kind = " + KindNames())->required();
  cmd->add_option("--out", o->out_uri, "Where to write: a path or s3://bucket[/prefix]")->required();
  cmd->add_option("--jobs", o->build.jobs, "Worker threads (default: cores)");
  cmd->add_option("--namespace", o->build.namespace_name, NamespaceHelp());
  cmd->add_option("--report", o->report_path, "Also write the JSON build report to this file");
  cmd->add_option("--index", o->build.index_path, "enwiki: multistream index (default: next to the dump)");
  cmd->add_flag(
      "--no-index", [o](int64_t) { o->build.use_index = false; }, "enwiki: read the dump as one stream");
  cmd->add_flag("--keep-redirects", o->build.keep_redirects, "enwiki: write redirect pages as datasets too");
  cmd->add_flag("--all-namespaces", o->build.all_namespaces, "enwiki: write Talk:, User:, ... pages too");
  cmd->add_flag("--one-dataset-per-file", o->build.one_dataset_per_file, "dir: each file is a dataset");
  cmd->add_option("--max-file-bytes", o->build.max_file_bytes, "Skip larger files")->capture_default_str();
  cmd->add_option("--max-converted-bytes", o->build.max_converted_bytes, "Cap on text from PDF/XLSX/DOCX")
      ->capture_default_str();
  cmd->add_option("--temp-dir", o->build.temp_dir, "Folder for spill files (default: $TMPDIR)");
  cmd->add_flag("--strict", o->strict, "Exit with code 6 when any item failed (the build still goes on)");
  AddStoreFlags(cmd, o->store);
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Run(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
