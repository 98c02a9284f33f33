// Where the bearer token comes from: a file or the environment, never the command line (other users see
// a process's arguments in ps).
#include <sys/stat.h>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/server/server.h"

namespace lakeqa::server {

Result<std::string> LoadToken(const std::string& token_file) {
  if (!token_file.empty()) {
    struct stat st {};
    if (::stat(token_file.c_str(), &st) != 0) return ErrnoStatus(errno, "--token-file " + token_file);
    if ((st.st_mode & 077) != 0)
      return Status(ErrorCode::kPermissionDenied,
                    "--token-file " + token_file + " is readable by other users (chmod 600 it)");
    LAKEQA_ASSIGN_OR_RETURN(std::string text, ReadFile(token_file));
    std::string token(Trim(text.substr(0, text.find('\n'))));
    if (token.empty()) return InvalidArgument("--token-file " + token_file + " is empty");
    return token;
  }
  if (const char* t = std::getenv("LAKEQA_TOKEN")) return std::string(Trim(t));
  return std::string();
}

}  // namespace lakeqa::server
