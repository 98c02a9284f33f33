// SandboxCgroup on its own: the limits RunPython asks for are the ones the kernel holds, every process
// that joined (children included) is killed, and the folders are removed. The end-to-end effects (a fork
// bomb, three children over the memory limit together) are in security_test.cc.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "exec/cgroup.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/strings.h"
#include "support/require_protection.h"

namespace lakeqa::exec {
namespace {

std::string Control(const std::string& path) {
  return std::string(Trim(ReadFile(path).value_or("<unreadable>")));
}

size_t Members(const std::vector<std::string>& dirs) {
  size_t n = 0;
  for (const auto& d : dirs) {
    std::string procs = ReadFile(d + "/cgroup.procs").value_or("");
    for (std::string_view line : Split(procs, '\n'))
      if (!Trim(line).empty()) ++n;
  }
  return n;
}

TEST(SandboxCgroupTest, LimitsAreTheKernelsAndEveryMemberIsKilled) {
  const CgroupSupport& sup = DetectCgroups();
  if (!sup.available)
    LAKEQA_SKIP_MISSING_PROTECTION("no usable cgroup here (lakeqa falls back to rlimits): " + sup.detail);
  auto cg = SandboxCgroup::Create({.memory_bytes = 256ULL << 20, .max_pids = 16, .cpus = 0.5});
  ASSERT_TRUE(cg.ok()) << cg.status().ToString();
  std::vector<std::string> dirs = (*cg)->dirs();
  ASSERT_FALSE(dirs.empty());

  bool memory = false, pids = false, cpu = false;
  for (const auto& d : dirs) {
    SCOPED_TRACE(d);
    if (sup.version == "v2") {
      EXPECT_EQ(Control(d + "/memory.max"), "268435456");
      EXPECT_EQ(Control(d + "/pids.max"), "16");
      if (sup.cpu) {
        EXPECT_EQ(Control(d + "/cpu.max"), "50000 100000");
      }
      memory = pids = true;
      cpu = sup.cpu;
      continue;
    }
    if (PathExists(d + "/memory.limit_in_bytes")) {
      EXPECT_EQ(Control(d + "/memory.limit_in_bytes"), "268435456");
      memory = true;
    }
    if (PathExists(d + "/pids.max")) {
      EXPECT_EQ(Control(d + "/pids.max"), "16");
      pids = true;
    }
    if (PathExists(d + "/cpu.cfs_quota_us")) {
      EXPECT_EQ(Control(d + "/cpu.cfs_quota_us"), "50000");
      EXPECT_EQ(Control(d + "/cpu.cfs_period_us"), "100000");
      cpu = true;
    }
  }
  EXPECT_TRUE(memory);
  EXPECT_TRUE(pids);
  EXPECT_EQ(cpu, sup.cpu);

  // A child joins the way RunPython's does (before exec), then forks a grandchild; both must die.
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    for (int fd : (*cg)->join_fds())
      if (::write(fd, "0", 1) != 1) ::_exit(3);
    if (::fork() == 0) ::pause();
    ::pause();
    ::_exit(0);
  }
  for (int i = 0; i < 500 && Members({dirs[0]}) < 2; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_EQ(Members({dirs[0]}), 2u) << "the child and its child are in the cgroup";
  (*cg)->KillAll();
  int st = 0;
  ASSERT_EQ(::waitpid(pid, &st, 0), pid);
  EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) << st;
  EXPECT_EQ(Members(dirs), 0u);
  cg->reset();
  for (const auto& d : dirs) EXPECT_FALSE(PathExists(d)) << d;
}

}  // namespace
}  // namespace lakeqa::exec
