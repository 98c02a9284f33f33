// The `lakeqa run` CLI tests' common ground: spawning the real binary, and a fixture with a small lake
// (one datagov table, one Wikipedia page), its index built by `lakeqa index build`, and four tasks whose
// facts read the table through a local path or through the boto3 stand-in.
#pragma once

#include <chrono>
#include <fstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include "lakeqa/common/build_paths.h"
#include "lakeqa/common/fs.h"

#include "agent/fake_env.h"

extern char** environ;

namespace lakeqa::agent::testing {

inline std::string Bin() {
  const char* b = std::getenv("LAKEQA_BIN");
  return b != nullptr ? std::string(b) : lakeqa::build_paths::BinaryDir() + "/lakeqa";
}

inline pid_t Spawn(const std::vector<std::string>& args, const std::string& log) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid = 0;
  EXPECT_EQ(posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&fa);
  return pid;
}

inline int Wait(pid_t pid) {
  int st = 0;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

inline int RunCli(const std::vector<std::string>& args, const std::string& log) {
  std::vector<std::string> full = {Bin()};
  full.insert(full.end(), args.begin(), args.end());
  return Wait(Spawn(full, log));
}

inline std::vector<Json> Lines(const std::string& path) {
  std::vector<Json> out;
  std::ifstream in(path);
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) out.push_back(Json::parse(l));
  return out;
}

inline Json Task(const std::string& id, const std::string& fact) {
  return {
      {"question_id", id},
      {"question",
       "Task " + id + ": the founding year of Springfield plus the acres of its largest city park? [Answer]"},
      {"answer", "1853"},
      {"nodes",
       {{"1",
         {{"source", "datagov/city-parks-inventory/files/rows.txt"},
          {"subquestion", "largest city parks inventory acres"},
          {"fact", fact},
          {"answer", "32"}}},
        {"2",
         {{"source", "wikipedia/Springfield/content.txt"},
          {"subquestion", "Springfield founded"},
          {"fact", "Springfield was founded in 1821."},
          {"answer", "1821"}}}}},
      {"datasets_used", {"datagov/city-parks-inventory/files/rows.txt", "wikipedia/Springfield/content.txt"}},
      {"reasoning_hops", {{{"hop", 1}, {"node_ids", {1, 2}}, {"reasoning", {"Add."}}, {"answer", "1853"}}}}};
}

class CliRun : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!PathExists(Bin())) GTEST_SKIP() << "lakeqa binary not built at " << Bin();
    dir_ = *MakeTempDir("cli-run");
    // The code sandbox runs as an unprivileged user that must be able to reach the run folder.
    std::filesystem::permissions(dir_,
                                 std::filesystem::perms::others_exec | std::filesystem::perms::group_exec,
                                 std::filesystem::perm_options::add);
    WriteText(dir_ + "/lake/datagov/city-parks-inventory/files/rows.txt", "name,acres\nA,10\nB,32\nC,5\n");
    WriteText(dir_ + "/lake/datagov/city-parks-inventory/metadata.json",
              "{\"title\": \"City Parks Inventory\"}");
    WriteText(dir_ + "/lake/wikipedia/Springfield/content.txt", "Springfield was founded in 1821.");
    const std::string local =
        "import csv\nrows = list(csv.DictReader(open(local_path)))\nanswer = str(max(int(r['acres']) for r "
        "in rows))\n";
    const std::string s3 =
        "import boto3, io\nimport pandas as pd\nobj = "
        "boto3.client('s3').get_object(Bucket='lakeqa-yc4103-datalake', "
        "Key='datagov/city-parks-inventory/files/rows.txt')\ndf = "
        "pd.read_csv(io.BytesIO(obj['Body'].read()))\n"
        "answer = str(int(df['acres'].max()))\n";
    for (int i = 1; i <= 4; ++i) {
      WriteText(dir_ + "/tasks/k-1-d-2/task_" + std::to_string(i) + ".json",
                Task("C" + std::to_string(i), i % 2 ? local : s3).dump());
    }
    ASSERT_EQ(
        RunCli({"index", "build", "--lake", dir_ + "/lake", "--index", dir_ + "/idx"}, dir_ + "/index.log"),
        0)
        << *ReadFile(dir_ + "/index.log");
  }
  void TearDown() override {
    if (!dir_.empty()) (void)RemoveAll(dir_);
  }
  std::vector<std::string> Base(const std::string& out) {
    return {"run",    "--tasks",      dir_ + "/tasks", "--index",       dir_ + "/idx",
            "--lake", dir_ + "/lake", "--out",         dir_ + "/" + out};
  }
  std::string dir_;
};

}  // namespace lakeqa::agent::testing
