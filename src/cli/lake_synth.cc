// `lakeqa lake synth --out <uri> --datasets N --seed S [--first K]`: a deterministic synthetic LakeQA-layout
// lake.
#include <fmt/format.h>

#include "cli/store_options.h"
#include "lakeqa/ingest/synth.h"
#include "lakeqa/lake/s3_store.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  std::string out_uri;
  ingest::SynthOptions synth;
  StoreFlags store;
  OutputOptions out;
};

int Run(const Opts& o) {
  auto store = OpenFromFlags(o.out_uri, o.store);
  if (!store.ok()) return Fail(store.status(), o.out);
  if (auto* s3 = dynamic_cast<lake::S3Store*>(store->get())) {
    Status s = s3->CreateBucket();  // harmless when it exists; needed on a fresh test server
    if (!s.ok() && s.code() != ErrorCode::kPermissionDenied) return Fail(s, o.out);
  }
  ProgressBar bar("synthesising", o.synth.datasets, "datasets", !o.out.quiet);
  auto report = ingest::SynthesizeLake(**store, o.synth, &bar);
  bar.Finish();
  if (!report.ok()) return Fail(report.status(), o.out);
  if (o.out.json) {
    Json j = report->ToJson();
    j["lake"] = (*store)->Uri();
    j["seed"] = o.synth.seed;
    j["first"] = o.synth.first;
    PrintJson(j);
  } else {
    fmt::print("wrote {} datasets ({} datagov, {} wikipedia), {} files, {} bytes to {}\n", report->datasets,
               report->datagov, report->wikipedia, report->files, report->bytes, (*store)->Uri());
  }
  return 0;
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = Commands::Group(root, "lake", "Lakes: list, read, synthesise, build")
                      ->add_subcommand("synth", "Write a deterministic synthetic lake in the LakeQA layout");
  cmd->add_option("--out", o->out_uri, "Where to write: a path or s3://bucket[/prefix]")->required();
  cmd->add_option("--datasets", o->synth.datasets, "Number of datasets")->capture_default_str();
  cmd->add_option("--seed", o->synth.seed, "Seed: the same seed gives the same bytes")->capture_default_str();
  cmd->add_option("--wikipedia-fraction", o->synth.wikipedia_fraction, "Share of wikipedia pages")
      ->capture_default_str();
  cmd->add_flag("--with-bad-files", o->synth.with_bad_files,
                "Add hostile files (empty, bad UTF-8, ragged, ...)");
  cmd->add_option("--first", o->synth.first, "First dataset number (to split one lake over several runs)")
      ->capture_default_str();
  cmd->add_option("--jobs", o->synth.jobs, "Writer threads (default: cores)");
  AddStoreFlags(cmd, o->store);
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Run(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
