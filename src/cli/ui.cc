// `lakeqa ui --index <dir> --lake <uri> [--project <file>] [--listen 127.0.0.1:8090] [--runs <dir>...]
//  [serve's HTTP flags] [--model provider:model [--base-url URL]]`: the workbench (docs/ui.md) — explore the
// lake, compose and review LakeQA tasks, read agent runs — served with the tool API (/v1, /mcp) on one
// server.
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "lakeqa/server/server.h"
#include "lakeqa/workbench/workbench.h"

#include "cli/command.h"
#include "cli/http_flags.h"
#include "cli/serve_until_signal.h"
#include "cli/tool_env_flags.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  ToolEnvFlags env;
  HttpFlags http;
  std::string project = "lakeqa-project.sqlite", export_dir, model, base_url;
  std::vector<std::string> runs;
  OutputOptions out;
};

std::string Absolute(const std::string& p) {
  std::error_code ec;
  auto a = std::filesystem::absolute(p, ec);
  return ec ? p : a.lexically_normal().string();
}

int Ui(const Opts& o) {
  std::string host;
  auto so = ServerOptionsFromFlags(o.http, o.env, &host);
  if (!so.ok()) return Fail(so.status(), o.out);
  const std::string& token = so->token;
  std::string model = o.model, base_url = o.base_url;
  if (model.empty()) {
    if (const char* m = std::getenv("LAKEQA_MODEL")) model = m;
  }
  if (base_url.empty()) {
    if (const char* b = std::getenv("LAKEQA_BASE_URL")) base_url = b;
  }
  auto store = OpenFromFlags(o.env.lake, o.env.store);
  if (!store.ok()) return Fail(store.status(), o.out);
  workbench::WorkbenchOptions wo;
  wo.index_dir = Absolute(o.env.index);
  wo.lake_uri = o.env.lake;
  wo.project_path = Absolute(o.project);
  wo.export_dir = o.export_dir.empty() ? "" : Absolute(o.export_dir);
  for (const auto& r : o.runs) wo.runs.push_back(Absolute(r));
  wo.work_dir = o.env.sessions_dir;
  wo.limits = o.env.limits;
  wo.model = model;
  wo.base_url = base_url;
  auto wb = workbench::Workbench::Open(std::move(*store), wo);
  if (!wb.ok()) return Fail(wb.status(), o.out);
  so->mounts = (*wb)->Mounts();
  server::HttpServer http((*wb)->sessions(), *so);
  Status st = ServeUntilSignal(http, [&] {
    std::string shown = host.find(':') != std::string::npos ? "[" + host + "]" : host;
    std::string url = "http://" + shown + ":" + std::to_string(http.port()) + "/ui/";
    // The token travels in the fragment, which the browser keeps to itself: the page reads it once and sends
    // it as a bearer header.
    std::string open = token.empty() ? url : url + "#token=" + token;
    std::fprintf(stderr, "lakeqa: workbench at %s (project %s)\n", open.c_str(), wo.project_path.c_str());
    if (o.out.json) {
      PrintJson({{"url", url}, {"port", http.port()}, {"project", wo.project_path}});
      std::fflush(stdout);
    }
  });
  if (!st.ok()) return Fail(st, o.out);
  return 0;
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd =
      root.add_subcommand("ui", "The workbench: explore the lake, compose and review tasks, read runs");
  AddToolEnvFlags(cmd, o->env,
                  "Where the workbench's sandboxes and download cache go (default: a temporary folder)");
  cmd->add_option("--project", o->project,
                  "Project file (SQLite) holding tasks, reviews and the audit log; created "
                  "when missing")
      ->capture_default_str();
  cmd->add_option("--export-dir", o->export_dir, "Where exported task files go (default: <project>.export/)");
  cmd->add_option("--runs", o->runs, "Run directories, or folders of them, to read (repeatable)");
  o->http.listen = "127.0.0.1:8090";
  o->http.http.workers = 16;
  AddHttpFlags(cmd, o->http);
  cmd->add_option("--model", o->model, "provider:model to draft subquestions and rewrites (or LAKEQA_MODEL)");
  cmd->add_option("--base-url", o->base_url, "OpenAI-compatible server for --model (or LAKEQA_BASE_URL)");
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Ui(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
