// Running the lakeqa binary (or any command) from a test through /bin/sh and capturing what it prints.
#pragma once

#include <sys/wait.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "lakeqa/common/build_paths.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/json.h"

namespace lakeqa::testing {

// Single-quotes for /bin/sh.
inline std::string Sh(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

struct CmdResult {
  int exit_code = -1;  // -1 when the command did not exit normally
  std::string out;     // stdout (redirect stderr in the command to see it here)
};

inline CmdResult RunCommand(const std::string& cmd) {
  CmdResult r;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int st = ::pclose(p);
  r.exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

// The lakeqa binary under test: $LAKEQA_BIN (CTest sets it), else the one in this build directory.
inline std::string LakeqaBin() {
  if (const char* b = std::getenv("LAKEQA_BIN"); b != nullptr && *b) return b;
  return build_paths::BinaryDir() + "/lakeqa";
}

// `lakeqa <args>` (args already quoted for /bin/sh).
inline CmdResult Lakeqa(const std::string& args) { return RunCommand(Sh(LakeqaBin()) + " " + args); }

// `lakeqa <args>` expected to exit with want_exit and print one JSON document on stdout; the document, or
// null (with a test failure saying what was printed).
inline Json LakeqaJson(const std::string& args, int want_exit = 0) {
  CmdResult r = Lakeqa(args);
  EXPECT_EQ(r.exit_code, want_exit) << args << "\n" << r.out;
  auto j = ParseJson(r.out, args);
  EXPECT_TRUE(j.ok()) << args << " printed: " << r.out;
  return j.ok() ? *j : Json();
}

// Writes text to <root>/<rel>, creating the folders on the way.
inline void PutFile(const std::string& root, const std::string& rel, const std::string& text) {
  std::string path = root + "/" + rel;
  ASSERT_TRUE(MakeDirs(path.substr(0, path.rfind('/'))).ok()) << path;
  ASSERT_TRUE(WriteFileAtomic(path, text).ok()) << path;
}

}  // namespace lakeqa::testing
