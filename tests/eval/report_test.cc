#include "lakeqa/eval/report.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <regex>

#include <gtest/gtest.h>

#include "lakeqa/common/fs.h"

#include "eval/run_fixture.h"

namespace lakeqa::eval {
namespace {

class Report : public ::testing::Test {
 protected:
  void SetUp() override {
    auto d = MakeTempDir("lakeqa-report");
    ASSERT_TRUE(d.ok());
    dir_ = *d;
    auto preds = testing::WeakRun();
    // Hostile text must come out escaped.
    preds[1].answer = "<script>alert(1)</script> & \"quotes\"";
    testing::WriteRun(dir_, preds, Json{{"agent", "scripted"}, {"model", "weak <b>"}});
    auto run = LoadRun(dir_);
    ASSERT_TRUE(run.ok()) << run.status().ToString();
    run_ = *run;
    score_ = ScoreRun(run_, testing::WeakTasks());
  }
  void TearDown() override { (void)RemoveAll(dir_); }

  // The number in data-points="N" of the chart `id`, or -1.
  static int Points(const std::string& html, const std::string& id) {
    std::smatch m;
    std::regex re("data-chart=\"" + id + "\" data-points=\"([0-9]+)\"");
    return std::regex_search(html, m, re) ? std::stoi(m[1]) : -1;
  }

  std::string dir_;
  RunData run_;
  RunScore score_;
};

TEST_F(Report, HtmlIsSelfContainedWithChartsAndTraces) {
  std::string html = RenderHtml(score_, run_);
  EXPECT_EQ(Points(html, "em-by-hops"), 3);  // k = 1, 2, 3
  EXPECT_EQ(Points(html, "em-by-documents"), 3);
  EXPECT_EQ(Points(html, "funnel"), 5);
  EXPECT_EQ(Points(html, "discovery"), 6);
  EXPECT_EQ(Points(html, "cost-accuracy"), 6);
  // No external resource of any kind.
  EXPECT_EQ(html.find("src=\"http"), std::string::npos);
  EXPECT_EQ(html.find("href=\"http"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  // Every task row links to its embedded trace.
  for (size_t i = 0; i < score_.tasks.size(); ++i) {
    EXPECT_NE(html.find("href=\"#trace-" + std::to_string(i) + "\""), std::string::npos);
    EXPECT_NE(html.find("id=\"trace-" + std::to_string(i) + "\""), std::string::npos);
  }
  EXPECT_NE(html.find("execute_code"), std::string::npos);
  EXPECT_EQ(html.find("<script>alert(1)"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("weak &lt;b&gt;"), std::string::npos);
}

TEST_F(Report, WritesBothFiles) {
  ASSERT_TRUE(WriteReports(score_, run_, dir_).ok());
  auto j = ReadFile(dir_ + "/report.json");
  ASSERT_TRUE(j.ok());
  auto parsed = ParseJson(*j, "report.json");
  ASSERT_TRUE(parsed.ok());
  EXPECT_NEAR((*parsed)["em"].get<double>(), 1.0 / 6, 1e-12);
  EXPECT_EQ((*parsed)["per_task"].size(), 6u);
  EXPECT_TRUE(PathExists(dir_ + "/report.html"));
}

std::string FindChromium() {
  if (const char* c = std::getenv("LAKEQA_CHROMIUM"); c != nullptr && *c) return c;
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"}) {
    if (std::filesystem::exists(p)) return p;
  }
  return "";
}

std::string RunCapture(const std::string& cmd) {
  std::string out;
  FILE* f = popen(cmd.c_str(), "r");
  if (f == nullptr) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0)
    out.append(buf, n);
  pclose(f);
  return out;
}

TEST_F(Report, RendersInHeadlessChromium) {
  std::string chromium = FindChromium();
  if (chromium.empty())
    GTEST_SKIP() << "chromium not installed (apt-get install chromium; scripts/setup does it)";
  ASSERT_TRUE(WriteReports(score_, run_, dir_).ok());
  std::string err = dir_ + "/chromium.err";
  // --no-sandbox: tests may run as root, where Chromium's own sandbox refuses to start.
  std::string cmd = "timeout 90 '" + chromium +
                    "' --headless --no-sandbox --disable-gpu --disable-extensions --no-first-run "
                    "--user-data-dir='" +
                    dir_ +
                    "/chromium-profile' --enable-logging=stderr --v=0 "
                    "--virtual-time-budget=2000 --dump-dom 'file://" +
                    dir_ + "/report.html' 2>'" + err + "'";
  std::string dom = RunCapture(cmd);
  ASSERT_FALSE(dom.empty()) << "chromium printed no DOM; stderr in " << err;
  // The inline script ran to its last line.
  EXPECT_NE(dom.find("data-ready=\"1\""), std::string::npos);
  EXPECT_EQ(Points(dom, "em-by-hops"), 3);
  EXPECT_EQ(Points(dom, "funnel"), 5);
  EXPECT_GT(Points(dom, "cost-accuracy"), 0);
  EXPECT_NE(dom.find("class=\"bar\""), std::string::npos);
  auto log = ReadFile(err);
  ASSERT_TRUE(log.ok());
  // The page logs nothing, so any console line is an error or an uncaught exception.
  size_t pos = log->find(":CONSOLE");
  EXPECT_EQ(pos, std::string::npos) << log->substr(pos == std::string::npos ? 0 : pos, 400);
}

}  // namespace
}  // namespace lakeqa::eval
