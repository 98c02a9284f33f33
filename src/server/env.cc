#include <sys/stat.h>

#include "lakeqa/common/fs.h"
#include "lakeqa/server/server.h"

namespace lakeqa::server {

Env::~Env() {
  sessions.reset();
  tools.reset();
  if (!owned_dir.empty()) (void)RemoveAll(owned_dir);
}

Result<std::unique_ptr<Env>> OpenEnv(std::unique_ptr<lake::Store> store, const EnvOptions& options) {
  auto env = std::make_unique<Env>();
  std::string sessions_dir = options.sessions_dir;
  std::string cache_dir = options.cache_dir;
  if (sessions_dir.empty()) {
    LAKEQA_ASSIGN_OR_RETURN(env->owned_dir, MakeTempDir("lakeqa-serve-"));
    // The Python sandbox runs as an unprivileged user that must reach the sandboxes.
    ::chmod(env->owned_dir.c_str(), 0755);
    sessions_dir = env->owned_dir + "/sessions";
    if (cache_dir.empty()) cache_dir = env->owned_dir + "/cache";
  } else if (cache_dir.empty()) {
    cache_dir = sessions_dir + "/../lakeqa-download-cache";
  }
  LAKEQA_RETURN_IF_ERROR(MakeDirs(sessions_dir));
  ::chmod(sessions_dir.c_str(), 0755);
  tools::ToolSetOptions to;
  to.index_dir = options.index_dir;
  to.cache_dir = cache_dir;
  LAKEQA_ASSIGN_OR_RETURN(env->tools, tools::ToolSet::Open(std::move(store), to));
  env->sessions = std::make_unique<SessionManager>(*env->tools, sessions_dir, options.limits, options.policy);
  return env;
}

}  // namespace lakeqa::server
