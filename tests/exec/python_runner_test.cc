#include "lakeqa/common/json.h"
#include "lakeqa/exec/python.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "exec/sandbox_available.h"
#include "lakeqa/common/fs.h"
#include "support/require_protection.h"

namespace lakeqa::exec {
namespace {

class PythonRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!SandboxAvailable().ok())
      LAKEQA_SKIP_MISSING_PROTECTION("Python sandbox unavailable: " + SandboxAvailable().ToString());
    root_ = *MakeTempDir("lakeqa-py-test-");
    ::chmod(root_.c_str(), 0755);  // the sandbox user (nobody, when tests run as root) must reach it
    dir_ = root_ + "/sandbox";
    ASSERT_TRUE(MakeDirs(dir_).ok());
    ASSERT_TRUE(WriteFileAtomic(root_ + "/secret.txt", "hunter2").ok());
  }
  void TearDown() override {
    if (!root_.empty()) (void)RemoveAll(root_);
  }
  PythonResult Run(std::string_view code, PythonOptions o = {}) {
    auto r = RunPython(dir_, code, o);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *r : PythonResult{};
  }
  static PythonOptions Limits(int wall_ms) {
    PythonOptions o;
    o.limits.wall_ms = wall_ms;
    return o;
  }
  std::string root_, dir_;
};

TEST_F(PythonRunnerTest, PrintsAndReportsExitCode) {
  auto r = Run("print('hello', 6 * 7)\nimport sys\nprint('warn', file=sys.stderr)\n");
  EXPECT_EQ(r.stdout_text, "hello 42\n");
  EXPECT_EQ(r.stderr_text, "warn\n");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_FALSE(r.timed_out);
  EXPECT_FALSE(r.truncated);
  EXPECT_TRUE(r.ToJson()["success"].get<bool>());

  r = Run("raise SystemExit(3)");
  EXPECT_EQ(r.exit_code, 3);
  r = Run("x = 1\n1/0\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.stderr_text.find("ZeroDivisionError"), std::string::npos) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find("line 2"), std::string::npos) << r.stderr_text;
  EXPECT_EQ(r.stderr_text.find("lakeqa_runner"), std::string::npos) << r.stderr_text;
  r = Run("def f(:\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.stderr_text.find("SyntaxError"), std::string::npos) << r.stderr_text;
}

TEST_F(PythonRunnerTest, PaperGlobalsAndPandas) {
  ASSERT_TRUE(WriteFileAtomic(dir_ + "/ds/files/rows.txt", "Year,Value\n2021,3\n2022,4\n2022,5\n").ok());
  auto r =
      Run("df = pd.read_csv(SANDBOX_DIR + '/ds/files/rows.txt')\n"
          "print(df.groupby('Year')['Value'].sum().to_dict())\n"
          "print(FILES)\n"
          "print(os.getcwd() == SANDBOX_DIR, os.environ['SANDBOX_DIR'] == SANDBOX_DIR)\n"
          "print(json.dumps({'a': 1}), re.sub('a', 'b', 'aa'), Path(FILES[0]).name)\n");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  // The sandbox is /sandbox inside: its host path is never shown to the code.
  EXPECT_EQ(r.stdout_text,
            "{2021: 3, 2022: 9}\n['/sandbox/ds/files/rows.txt']\nTrue True\n{\"a\": 1} bb rows.txt\n");
  EXPECT_EQ(r.stdout_text.find(root_), std::string::npos);
}

TEST_F(PythonRunnerTest, NoNetworkNotEvenLoopback) {
  int s = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(s, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(::listen(s, 4), 0);
  socklen_t len = sizeof addr;
  ASSERT_EQ(::getsockname(s, reinterpret_cast<sockaddr*>(&addr), &len), 0);
  int port = ntohs(addr.sin_port);
  auto r =
      Run("import socket\n"
          "try:\n"
          "    socket.create_connection(('127.0.0.1', " +
          std::to_string(port) +
          "), timeout=2)\n"
          "    print('connected')\n"
          "except OSError as e:\n"
          "    print('refused', type(e).__name__)\n"
          "try:\n"
          "    socket.getaddrinfo('example.com', 80)\n"
          "    print('resolved')\n"
          "except OSError as e:\n"
          "    print('no dns')\n"
          "import os\nprint(sorted(os.listdir('/sys/class/net')) if os.path.exists('/sys/class/net') else "
          "'no sysfs')\n");
  ::close(s);
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_NE(r.stdout_text.find("refused"), std::string::npos) << r.stdout_text;
  EXPECT_EQ(r.stdout_text.find("connected"), std::string::npos);
  EXPECT_NE(r.stdout_text.find("no dns"), std::string::npos) << r.stdout_text;
}

TEST_F(PythonRunnerTest, HostIsInvisibleAndReadOnly) {
  auto r =
      Run("import os\n"
          "def probe(p):\n"
          "    try:\n"
          "        with open(p) as f: return 'read:' + f.read(20)\n"
          "    except OSError as e: return type(e).__name__\n"
          "print(probe('/etc/passwd'))\n"
          "print(probe('" +
          root_ +
          "/secret.txt'))\n"
          "print(probe('../secret.txt'))\n"
          "for d in ['/home', '/root', '/work', '/etc/ssl', '/var', '/run']:\n"
          "    print(d, os.path.exists(d))\n"
          "for p in ['/usr/evil', '/evil', '/tmp/x', SANDBOX_DIR + '/ok.txt']:\n"
          "    try:\n"
          "        open(p, 'w').write('x'); print(p, 'written')\n"
          "    except OSError as e: print(p, type(e).__name__)\n"
          "print(len(open('/proc/1/cmdline').read()) > 0, os.getpid() < 10)\n");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  std::istringstream lines(r.stdout_text);
  std::string line;
  std::vector<std::string> got;
  while (std::getline(lines, line)) got.push_back(line);
  ASSERT_EQ(got.size(), 14u) << r.stdout_text;
  EXPECT_EQ(got[0], "FileNotFoundError");
  EXPECT_EQ(got[1], "FileNotFoundError");
  EXPECT_EQ(got[2], "FileNotFoundError");
  for (int i = 3; i < 9; ++i) EXPECT_NE(got[i].find("False"), std::string::npos) << got[i];
  EXPECT_NE(got[9].find("OSError"), std::string::npos) << got[9];  // read-only /usr
  EXPECT_EQ(got[10].find("written"), std::string::npos) << got[10];
  EXPECT_NE(got[11].find("written"), std::string::npos) << got[11];  // private /tmp is writable
  EXPECT_NE(got[12].find("written"), std::string::npos) << got[12];
  EXPECT_EQ(got[13], "True True");  // own pid namespace
  EXPECT_FALSE(PathExists("/tmp/x") && ReadFile("/tmp/x").value_or("") == "x");
  EXPECT_TRUE(PathExists(dir_ + "/ok.txt"));
  EXPECT_EQ(*ReadFile(root_ + "/secret.txt"), "hunter2");
}

// True if a process whose command line contains marker is alive.
bool ProcessWithMarker(const std::string& marker) {
  DIR* d = ::opendir("/proc");
  if (d == nullptr) return false;
  bool found = false;
  while (struct dirent* e = ::readdir(d)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    std::ifstream f(std::string("/proc/") + e->d_name + "/cmdline", std::ios::binary);
    std::string cmd((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (cmd.find(marker) != std::string::npos && cmd.find("test_exec") == std::string::npos) found = true;
  }
  ::closedir(d);
  return found;
}

TEST_F(PythonRunnerTest, WallTimeoutKillsTheWholeTree) {
  std::string marker = "lakeqa_marker_" + std::to_string(::getpid());
  auto r =
      Run("import subprocess, os\n"
          "subprocess.Popen(['/usr/bin/sleep', '1000'], start_new_session=True, "
          "env={'M': '" +
              marker +
              "'})\n"
              "subprocess.Popen(['/usr/bin/python3', '-c', 'import time\\nwhile True: time.sleep(1)', '" +
              marker +
              "'])\n"
              "if os.fork() == 0:\n"
              "    os.setsid()\n"
              "    os.execv('/usr/bin/sleep', ['sleep', '999', '" +
              marker +
              "'])\n"
              "print('spawned', flush=True)\n"
              "while True: pass\n",
          Limits(6000));
  EXPECT_TRUE(r.timed_out);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(r.stdout_text, "spawned\n");
  EXPECT_NE(r.stderr_text.find("wall-time limit"), std::string::npos) << r.stderr_text;
  EXPECT_FALSE(r.ToJson()["success"].get<bool>());
  // The pid namespace dies with its init; give the kernel a moment to reap.
  bool alive = true;
  for (int i = 0; i < 50 && alive; ++i) {
    alive = ProcessWithMarker(marker);
    if (alive) ::usleep(100000);
  }
  EXPECT_FALSE(alive) << "a sandboxed process survived the timeout";
}

TEST_F(PythonRunnerTest, OutputIsCappedAndSaved) {
  PythonOptions o;
  o.limits.max_output_bytes = 1000;
  auto r = Run("for i in range(10000): print('line', i)\n", o);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(r.truncated);
  EXPECT_LT(r.stdout_text.size(), 1300u);
  EXPECT_NE(r.stdout_text.find("output truncated"), std::string::npos);
  // The head and the tail are kept: the last printed line (where an answer usually is) survives the cap.
  EXPECT_EQ(r.stdout_text.substr(0, 7), "line 0\n");
  EXPECT_EQ(r.stdout_text.substr(r.stdout_text.size() - 10), "line 9999\n") << r.stdout_text;
  ASSERT_FALSE(r.stdout_file.empty());
  auto full = ReadFile(dir_ + "/" + r.stdout_file);
  ASSERT_TRUE(full.ok());
  EXPECT_NE(full->find("line 9999\n"), std::string::npos);
  EXPECT_EQ(full->substr(0, 7), "line 0\n");
}

// The data-work packages scripts/setup installs (the execute_code description lists them) import inside
// bubblewrap, and each does a little real work there.
TEST_F(PythonRunnerTest, DataPackagesImportInTheSandbox) {
  auto r = Run(
      "import io, numpy, scipy.stats, openpyxl, bs4, geopandas, shapely.geometry\n"
      "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n"
      "wb = openpyxl.Workbook(); wb.active.append(['a', 'b']); wb.active.append([1, 2]); wb.save('t.xlsx')\n"
      "print(pd.read_excel('t.xlsx')['b'].sum())\n"
      "print(bs4.BeautifulSoup('<p>hi</p>', 'html.parser').p.text)\n"
      "print(round(scipy.stats.pearsonr([1, 2, 3], [2, 4, 7])[0], 3))\n"
      "plt.plot([1, 2]); buf = io.BytesIO(); plt.savefig(buf, format='png'); print(buf.getvalue()[:4] == "
      "b'\\x89PNG')\n"
      "g = geopandas.GeoDataFrame(geometry=[shapely.geometry.Point(0, 0).buffer(1)]); print(round(g.area[0], "
      "1))\n",
      Limits(60000));
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.stdout_text, "2\nhi\n0.993\nTrue\n3.1\n") << r.stderr_text;
}

TEST_F(PythonRunnerTest, MemoryLimitGivesMemoryError) {
  auto r =
      Run("import numpy as np\n"
          "try:\n"
          "    a = np.ones(3 * 2**30 // 8)\n"
          "    print('allocated')\n"
          "except MemoryError:\n"
          "    print('MemoryError')\n"
          "try:\n"
          "    b = bytearray(3 * 2**30)\n"
          "except MemoryError:\n"
          "    print('MemoryError')\n");
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.stdout_text, "MemoryError\nMemoryError\n");
}

TEST_F(PythonRunnerTest, FileSizeAndDiskLimits) {
  PythonOptions o;
  o.limits.max_file_bytes = 1 << 20;
  auto r =
      Run("try:\n"
          "    with open('big.bin', 'wb') as f: f.write(b'x' * (2 << 20))\n"
          "    print('wrote')\n"
          "except OSError as e:\n"
          "    print('refused', e.errno)\n",
          o);
  EXPECT_EQ(r.stdout_text, "refused 27\n") << r.stderr_text;  // EFBIG
  struct stat st {};
  ASSERT_EQ(::stat((dir_ + "/big.bin").c_str(), &st), 0);
  EXPECT_LE(st.st_size, 1 << 20);

  o.limits.max_disk_bytes = 8 << 20;
  o.limits.wall_ms = 20000;
  r =
      Run("import time\n"
          "for i in range(1000):\n"
          "    with open(f'f{i}.bin', 'wb') as f: f.write(b'y' * (1 << 20))\n"
          "    time.sleep(0.01)\n"
          "print('done')\n",
          o);
  EXPECT_TRUE(r.disk_exceeded);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.stdout_text.find("done"), std::string::npos);
  EXPECT_NE(r.stderr_text.find("disk quota"), std::string::npos) << r.stderr_text;
}

TEST_F(PythonRunnerTest, OpenFileLimit) {
  PythonOptions o;
  o.limits.max_open_files = 32;
  auto r =
      Run("import os\n"
          "fds = []\n"
          "try:\n"
          "    while len(fds) < 1000: fds.append(os.open('/dev/null', os.O_RDONLY))\n"
          "    print('opened', len(fds))\n"
          "except OSError as e:\n"
          "    print('refused', e.errno, len(fds) < 32)\n",
          o);
  EXPECT_EQ(r.stdout_text, "refused 24 True\n") << r.stderr_text;  // EMFILE
}

TEST_F(PythonRunnerTest, CpuLimit) {
  PythonOptions o;
  o.limits.cpu_s = 1;
  o.limits.wall_ms = 20000;
  auto r = Run("while True: pass\n", o);
  EXPECT_FALSE(r.timed_out);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.stderr_text.find("CPU limit"), std::string::npos) << r.stderr_text;
}

// Fork bombs: SandboxAttack.ForkBombIsBoundedAndTheNextRunWorks (tests/exec/security_test.cc).

TEST_F(PythonRunnerTest, SymlinksStayHarmlessInsideTheJail) {
  // Links are the code's own business: inside the jail /etc/passwd does not exist, and host-side readers
  // (SQL, the tools) never follow a link out of the sandbox (tests/exec/security_test.cc).
  auto r =
      Run("import os\nos.symlink('/etc/passwd', 'pw')\nos.symlink('inside.txt', 'ok_link')\n"
          "open('inside.txt', 'w').write('x')\n"
          "try:\n    open('pw').read()\nexcept OSError as e:\n    print(type(e).__name__)\n"
          "print(open('ok_link').read())\n");
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.stdout_text, "FileNotFoundError\nx\n");
}

TEST_F(PythonRunnerTest, PlantedInternalSymlinkDoesNotRedirectHostWrites) {
  PythonOptions o;
  o.limits.max_output_bytes = 100;
  // Try to replace .lakeqa by a link to the sandbox's parent (invisible inside, real on the host), then
  // overflow the output so the host saves it. Inside, .lakeqa is a read-only mount: the attempt fails.
  auto r = Run("import os, shutil\ntry:\n    shutil.rmtree('.lakeqa')\n    os.symlink('" + root_ +
                   "', '.lakeqa')\nexcept OSError as e:\n    print(type(e).__name__)\nprint('x' * 1000)\n",
               o);
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_TRUE(r.truncated);
  EXPECT_FALSE(PathExists(root_ + "/run_1.stdout"));
  r = Run("print('again')\n");
  EXPECT_EQ(r.stdout_text, "again\n") << r.stderr_text;
  EXPECT_FALSE(PathExists(root_ + "/run_1.py"));
  struct stat st {};
  ASSERT_EQ(::lstat((dir_ + "/.lakeqa").c_str(), &st), 0);
  EXPECT_TRUE(S_ISDIR(st.st_mode));
}

// lakeqa's own files (run_<n>.py, saved outputs) are not in a walk of the sandbox: they are at /lakeqa.
TEST_F(PythonRunnerTest, AWalkOfTheSandboxFindsOnlyTheAgentsFiles) {
  PythonOptions o;
  o.limits.max_output_bytes = 100;
  Run("open('mine.txt', 'w').write('x')\nprint('y' * 1000)\n", o);
  ASSERT_TRUE(PathExists(dir_ + "/.lakeqa/run_1.py"));
  auto r =
      Run("from pathlib import Path\n"
          "print(sorted(os.path.relpath(os.path.join(d, f)) for d, _, fs in os.walk('.') for f in fs))\n"
          "print(sorted(str(p) for p in Path('.').rglob('*') if p.is_file()))\n"
          "print(len(open('/lakeqa/run_1.stdout').read()))\n");
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.stdout_text, "['mine.txt']\n['mine.txt']\n1001\n");
}

TEST_F(PythonRunnerTest, BadSetupIsAClearError) {
  auto r = RunPython(root_ + "/missing", "print(1)", PythonOptions{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kNotFound) << r.status().ToString();
  PythonOptions o;
  o.bwrap = "/nonexistent/bwrap";
  r = RunPython(dir_, "print(1)", o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("bubblewrap"), std::string::npos);
  r = RunPython("/", "print(1)", PythonOptions{});
  EXPECT_FALSE(r.ok());
}

}  // namespace
}  // namespace lakeqa::exec
