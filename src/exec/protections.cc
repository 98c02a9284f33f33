// CheckProtections: what `lakeqa doctor` prints. Each entry names the protection, what enforces it on this
// machine, and, when it is weaker than it could be, why and what lakeqa does instead.
#include <unistd.h>

#include "access_watch.h"
#include "cgroup.h"
#include "lakeqa/common/beneath.h"
#include "lakeqa/common/json.h"
#include "lakeqa/exec/python.h"
#include "lakeqa/exec/sandbox.h"
#include "probes.h"

namespace lakeqa::exec {

Json Protection::ToJson() const {
  Json j = {{"name", name}, {"state", state}, {"mechanism", mechanism}};
  if (!detail.empty()) j["detail"] = detail;
  return j;
}

std::vector<Protection> CheckProtections() {
  std::vector<Protection> out;
  PythonOptions po;
  bool root = ::geteuid() == 0;

  std::string beneath = HaveOpenat2()
                            ? "openat2(RESOLVE_BENEATH) on every open"
                            : "one O_NOFOLLOW open per path component (no openat2: every symlink refused)";
  out.push_back(
      {"SQL reads only the sandbox's own files", "on", beneath + " (DuckDB's file system replaced)", ""});
  out.push_back({"the local lake never leaves its root", "on", beneath, ""});

  Status py = CheckPythonSandbox(po);
  out.push_back({"Python runs in a bubblewrap jail (no network, host invisible)", py.ok() ? "on" : "off",
                 "bubblewrap " + po.bwrap,
                 py.ok() ? "" : py.ToString() + "; execute_code fails with this error"});

  if (BwrapSupports(po.bwrap, "--disable-userns")) {
    out.push_back({"no user namespaces inside the jail", "on", "bwrap --disable-userns", ""});
  } else {
    out.push_back({"no user namespaces inside the jail", "degraded", "none",
                   "this bubblewrap has no --disable-userns (needs 0.8): code may create user namespaces and "
                   "mount its own tmpfs, bounded only by the memory limit below"});
  }

  const CgroupSupport& cg = DetectCgroups();
  std::string how =
      "run lakeqa where it may manage a cgroup: as root with a writable cgroup hierarchy, or under "
      "`systemd-run --user --scope -p Delegate=yes lakeqa ...` (cgroup v2)";
  if (cg.available) {
    out.push_back({"memory limit for all of a run's processes together", "on",
                   cg.version == "v2" ? "cgroup v2 memory.max (" + cg.detail + ")"
                                      : "cgroup v1 memory.limit_in_bytes (" + cg.detail + ")",
                   ""});
    out.push_back({"process limit per run", "on", "cgroup pids.max", ""});
    if (cg.cpu)
      out.push_back(
          {"CPU limit per run", "on", cg.version == "v2" ? "cgroup cpu.max" : "cgroup cpu.cfs_quota_us", ""});
    else
      out.push_back({"CPU limit per run", "degraded", "RLIMIT_CPU per process",
                     "no cpu controller in " + cg.detail +
                         ": CPU seconds are limited per process, not the run's share of "
                         "the machine"});
  } else {
    out.push_back({"memory limit for all of a run's processes together", "degraded", "RLIMIT_AS per process",
                   "no usable cgroup (" + cg.detail +
                       "): each process may use the memory limit, so a run may use "
                       "up to limit x processes; " +
                       how});
    bool nproc = !root || po.sandbox_uid >= 0;
    out.push_back(
        {"process limit per run", nproc ? "degraded" : "off",
         nproc ? "RLIMIT_NPROC for the sandbox user" : "none",
         nproc ? "counted per user, so runs in parallel share one budget; " + how
               : "lakeqa runs as root and keeps root in the jail, where RLIMIT_NPROC does not apply"});
    out.push_back({"CPU limit per run", "degraded", "RLIMIT_CPU per process", "no usable cgroup; " + how});
  }

  out.push_back({"/dev and /dev/shm cannot fill memory", "on",
                 "/dev read-only, /dev/shm a tmpfs of " + std::to_string(po.limits.shm_bytes >> 20) +
                     " MiB, /tmp of " + std::to_string(po.limits.tmp_bytes >> 20) + " MiB",
                 ""});
  out.push_back(
      {"disk quota and file-count limit per session, across runs", "on",
       "accounting: the sandbox is measured before, every 250 ms during and after each run (no entry cap: "
       "a walk past the file limit stops there, the tree is over it); a run past the quota is killed and "
       "the files it created are removed",
       "no kernel quota (tmpfs or project quota) is used: between two measurements a run can write what "
       "the disk takes in 250 ms, which is removed with the run"});

  std::string why;
  if (CanObserveOpens(&why)) {
    out.push_back({"D_acc from what code really opened", "on",
                   "fanotify mount marks on the jail's /sandbox and /lake", ""});
  } else {
    out.push_back({"D_acc from what code really opened", "degraded", "the boto3 stand-in's own log",
                   why + ": code could write that log, so execute_code's accessed datasets are marked "
                         "accessed_unverified in the trace; run lakeqa as root to observe opens"});
  }
  out.push_back({"DuckDB memory for all sessions together", "on",
                 "a process-wide budget of " + std::to_string(SqlMemoryBudget() >> 20) +
                     " MiB; each statement holds its memory_limit while it runs",
                 ""});
  if (root && po.sandbox_uid >= 0) {
    out.push_back(
        {"code runs as an unprivileged user", "on", "uid/gid " + std::to_string(po.sandbox_uid), ""});
  } else if (!root) {
    out.push_back(
        {"code runs as an unprivileged user", "degraded", "lakeqa's own uid",
         "code runs as the user running lakeqa, so it could chmod and rewrite a download-cache file it has a "
         "hard link to (the shared cache is then only as trustworthy as every session's code)"});
  }
  out.push_back({"temporary folders removed on exit and on SIGINT/SIGTERM", "on",
                 "atexit and a signal handler (sandboxes killed first)", ""});
  return out;
}

}  // namespace lakeqa::exec
