#include "cli/tool_env_flags.h"

#include <fmt/format.h>

#include "lakeqa/catalog/lake_check.h"
#include "lakeqa/exec/sandbox.h"

namespace lakeqa::cli {

void AddToolEnvFlags(CLI::App* cmd, ToolEnvFlags& f, const std::string& sessions_help) {
  cmd->add_option("--index", f.index, "Index directory (catalog.sqlite, text/)")->required();
  cmd->add_option("--lake", f.lake, "Lake root: a folder, file:///path or s3://bucket[/prefix]")->required();
  cmd->add_option("--sessions-dir", f.sessions_dir, sessions_help);
  cmd->add_option("--cache-dir", f.cache_dir,
                  "Shared download cache (same filesystem as the sessions, for hard links)");
  cmd->add_option("--max-output-chars", f.limits.max_output_chars, "Cap on one tool result")
      ->capture_default_str();
  cmd->add_option("--call-timeout-ms", f.limits.call_timeout_ms,
                  "Wall time of one query/execute_code/download")
      ->capture_default_str();
  cmd->add_option("--max-download-bytes", f.limits.max_download_bytes, "Bytes one session may download")
      ->capture_default_str();
  cmd->add_option(
         "--sandbox-disk-bytes", f.limits.sandbox_disk_bytes,
         "Bytes the agent's code may keep in one session's sandbox, across runs (downloads not counted)")
      ->capture_default_str();
  cmd->add_option("--sandbox-max-files", f.limits.sandbox_max_files,
                  "Files and folders one session's sandbox may hold")
      ->capture_default_str();
  cmd->add_option(
      "--sql-memory-budget", f.sql_memory_budget,
      "Bytes of DuckDB memory for all sessions' queries together (default: half the machine's memory)");
  cmd->add_flag("--force", f.force, "Serve a lake other than the one the index was built from");
  cmd->add_option("--max-json-depth", f.input.json.max_depth,
                  "Deepest nesting accepted in a JSON request body, MCP message or tool arguments")
      ->capture_default_str();
  cmd->add_option("--max-body-bytes", f.input.json.max_bytes,
                  "Largest request body / MCP message accepted, in bytes")
      ->capture_default_str();
  cmd->add_option("--session-ttl-s", f.policy.idle_ttl_s,
                  "Close a session unused this many seconds (0 = never; stdio's own session never expires)")
      ->capture_default_str();
  cmd->add_option("--max-sessions", f.policy.max_sessions, "Open sessions in all")->capture_default_str();
  cmd->add_option("--max-sessions-per-client", f.policy.max_per_client, "Open sessions per client address")
      ->capture_default_str();
  AddStoreFlags(cmd, f.store);
}

Result<std::unique_ptr<server::Env>> OpenToolEnv(const ToolEnvFlags& f) {
  exec::SetSqlMemoryBudget(f.sql_memory_budget);
  LAKEQA_ASSIGN_OR_RETURN(auto store, OpenFromFlags(f.lake, f.store));
  LAKEQA_ASSIGN_OR_RETURN(catalog::LakeCheck check, catalog::CheckLake(*store, f.index, true));
  if (check.differs && !f.force) {
    return InvalidArgument("--lake " + check.lake + " is not the lake the index " + f.index +
                           " was built from (" + check.index_lake +
                           "): point --lake at that lake, rebuild the index, or pass --force");
  }
  if (check.differs) fmt::print(stderr, "lakeqa: warning: {}\n", check.Warning());
  server::EnvOptions eo;
  eo.index_dir = f.index;
  eo.sessions_dir = f.sessions_dir;
  eo.cache_dir = f.cache_dir;
  eo.limits = f.limits;
  eo.policy = f.policy;
  return server::OpenEnv(std::move(store), eo);
}

}  // namespace lakeqa::cli
