#include "lakeqa/eval/report.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <regex>

#include <gtest/gtest.h>

#include "lakeqa/common/fs.h"
#include "lakeqa/eval/run_dir.h"

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
    // Task t5's code call as an llm agent records it: the model's text, its tokens and time, the code with
    // real line breaks, and a result longer than the report shows.
    Json& code = preds[4].events[2];
    code["arguments"] = {{"code", "import csv\nrows = list(csv.reader(open('x.csv')))\nprint(len(rows))"}};
    code["content"] = "Counting the rows <b>now</b>.";
    code["model_ms"] = 820.4;
    code["usage"] = {{"input_tokens", 1234567}, {"output_tokens", 50}};
    code["result"] = "{\"output\": \"41\\n\"}" + std::string(5000, 'x');
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

TEST_F(Report, HtmlHasChartsTilesFiltersAndTraceLinks) {
  std::string html = RenderHtml(score_, run_);
  EXPECT_EQ(Points(html, "em-by-hops"), 3);  // k = 1, 2, 3
  EXPECT_EQ(Points(html, "em-by-documents"), 3);
  EXPECT_EQ(Points(html, "funnel"), 6);
  EXPECT_EQ(Points(html, "discovery"), 6);
  EXPECT_EQ(Points(html, "cost-accuracy"), 6);
  // No external resource of any kind.
  EXPECT_EQ(html.find("src=\"http"), std::string::npos);
  EXPECT_EQ(html.find("href=\"http"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  // Every task row (and its id) links to its trace, which links back; the trace itself is not in the page.
  for (size_t i = 0; i < score_.tasks.size(); ++i) {
    std::string n = std::to_string(i);
    EXPECT_NE(html.find("<tr id=\"row-" + n + "\""), std::string::npos);
    EXPECT_NE(html.find("<a class=\"tr\" href=\"#trace-" + n + "\">" + score_.tasks[i].task_id + "</a>"),
              std::string::npos);
    EXPECT_NE(html.find("id=\"trace-" + n + "\" data-index=\"" + n + "\""), std::string::npos);
    EXPECT_NE(html.find("<a href=\"#row-" + n + "\">task row</a>"), std::string::npos);
  }
  EXPECT_EQ(html.find("execute_code result"), std::string::npos);
  // The tokens tile sums the predictions' tokens (6 tasks × 1,000 in, 100 out, 500 cached).
  EXPECT_NE(html.find("6,000 / 600 (3,000)"), std::string::npos);
  // One filter per facet, with the values the run has.
  for (const char* attr : {"stage", "k", "status", "type", "ns"}) {
    EXPECT_NE(html.find("data-attr=\"" + std::string(attr) + "\""), std::string::npos) << attr;
  }
  EXPECT_NE(html.find("<option>timeout</option>"), std::string::npos);
  EXPECT_NE(html.find("data-stage=\"correct\""), std::string::npos);
  EXPECT_EQ(html.find("<script>alert(1)"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("weak &lt;b&gt;"), std::string::npos);
  // Issue 30, item 8: the answer EM scored (cleaned) beside the raw one; a task that was not answered is
  // not scored (t6 timed out).
  EXPECT_NE(html.find("<td>Final answer: [Pittsburgh]</td><td class=\"scored\">Pittsburgh</td>"),
            std::string::npos);
  EXPECT_NE(html.find("<td class=\"scored\"><i>not scored</i></td>"), std::string::npos);
}

// report-traces/<n>.js: "lakeqaTrace(n, {...});" with the trace's data, capped.
Json ReadTraceScript(const std::string& dir, size_t n) {
  auto text = ReadFile(dir + "/" + RunDir::ReportTraceScript(n));
  EXPECT_TRUE(text.ok()) << RunDir::ReportTraceScript(n);
  if (!text.ok()) return Json();
  std::string prefix = "lakeqaTrace(" + std::to_string(n) + ",";
  EXPECT_EQ(text->rfind(prefix, 0), 0u);
  EXPECT_EQ(text->substr(text->size() - 3), ");\n");
  auto j =
      ParseJson(text->substr(prefix.size(), text->size() - prefix.size() - 3), RunDir::ReportTraceScript(n));
  EXPECT_TRUE(j.ok()) << j.status().ToString();
  return j.ok() ? *j : Json();
}

TEST_F(Report, WritesReportJsonHtmlAndOneTraceScriptPerTask) {
  ASSERT_TRUE(MakeDirs(dir_ + "/report-traces").ok());
  ASSERT_TRUE(WriteFileAtomic(dir_ + "/report-traces/99.js", "stale").ok());
  ASSERT_TRUE(WriteReports(score_, run_, dir_).ok());
  auto j = ReadFile(dir_ + "/report.json");
  ASSERT_TRUE(j.ok());
  auto parsed = ParseJson(*j, "report.json");
  ASSERT_TRUE(parsed.ok());
  EXPECT_NEAR((*parsed)["em"].get<double>(), 1.0 / 6, 1e-12);
  EXPECT_EQ((*parsed)["per_task"].size(), 6u);
  EXPECT_TRUE(PathExists(dir_ + "/report.html"));
  EXPECT_FALSE(PathExists(dir_ + "/report-traces/99.js"));  // a stale trace of an earlier report is gone
  for (size_t i = 0; i < score_.tasks.size(); ++i) {
    Json t = ReadTraceScript(dir_, i);
    EXPECT_EQ(t["task_id"], score_.tasks[i].task_id);
  }
  Json t5 = ReadTraceScript(dir_, 4);
  ASSERT_EQ(t5["events"].size(), 3u);
  const Json& code = t5["events"][2];
  EXPECT_EQ(code["tool"], "execute_code");
  EXPECT_EQ(code["content"], "Counting the rows <b>now</b>.");  // text; the page never parses it as markup
  EXPECT_EQ(code["model_ms"], 820.4);
  EXPECT_EQ(code["input_tokens"], 1234567);
  EXPECT_EQ(code["output_tokens"], 50);
  EXPECT_NE(code["arguments"]["code"].get<std::string>().find("csv\nrows"), std::string::npos);
  std::string result = code["result"];
  EXPECT_LT(result.size(), 2100u);  // capped at ReportOptions::max_result_chars
  EXPECT_EQ(result.rfind("{\"output\"", 0), 0u);
  EXPECT_NE(result.find(" bytes)"), std::string::npos) << result.substr(result.size() - 40);
  // Events without model data say so (null), not 0.
  EXPECT_TRUE(t5["events"][0]["model_ms"].is_null());
  EXPECT_TRUE(t5["events"][0]["input_tokens"].is_null());
  EXPECT_EQ(ReadTraceScript(dir_, 5)["events"].size(), 0u);  // t6 has no trace
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
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  pclose(f);
  return out;
}

// The DOM headless Chromium ends up with after running the page's script on `url` (file://...), or "".
// Its console log goes to <dir>/chromium.err; the page logs nothing, so any console line is an error.
std::string DumpDom(const std::string& chromium, const std::string& dir, const std::string& url) {
  // --no-sandbox: tests may run as root, where Chromium's own sandbox refuses to start.
  std::string cmd = "timeout 90 '" + chromium +
                    "' --headless --no-sandbox --disable-gpu --disable-extensions --no-first-run "
                    "--user-data-dir='" +
                    dir +
                    "/chromium-profile' --enable-logging=stderr --v=0 "
                    "--virtual-time-budget=5000 --dump-dom '" +
                    url + "' 2>'" + dir + "/chromium.err'";
  return RunCapture(cmd);
}

void ExpectNoConsoleOutput(const std::string& dir) {
  auto log = ReadFile(dir + "/chromium.err");
  ASSERT_TRUE(log.ok());
  size_t pos = log->find(":CONSOLE");
  EXPECT_EQ(pos, std::string::npos) << log->substr(pos == std::string::npos ? 0 : pos, 400);
}

TEST_F(Report, RendersInHeadlessChromium) {
  std::string chromium = FindChromium();
  if (chromium.empty())
    GTEST_SKIP() << "chromium not installed (apt-get install chromium; scripts/setup does it)";
  ASSERT_TRUE(WriteReports(score_, run_, dir_).ok());
  std::string dom = DumpDom(chromium, dir_, "file://" + dir_ + "/report.html");
  ASSERT_FALSE(dom.empty()) << "chromium printed no DOM; stderr in " << dir_ << "/chromium.err";
  // The inline script ran to its last line.
  EXPECT_NE(dom.find("data-ready=\"1\""), std::string::npos);
  EXPECT_EQ(Points(dom, "em-by-hops"), 3);
  EXPECT_EQ(Points(dom, "funnel"), 6);  // one bar per funnel stage, correct_lenient included
  EXPECT_GT(Points(dom, "cost-accuracy"), 0);
  EXPECT_NE(dom.find("class=\"bar\""), std::string::npos);
  EXPECT_NE(dom.find("6 of 6 tasks shown"), std::string::npos);
  // No trace is loaded until one is opened.
  EXPECT_EQ(dom.find("data-loaded=\""), std::string::npos);
  ExpectNoConsoleOutput(dir_);
}

// Opening a trace (here through its #trace-<n> address, as the table's links do) loads its script and
// shows every event: the tool result (capped), the model's own text as text, per-turn tokens and model
// time, and code with its real line breaks.
TEST_F(Report, TraceLoadsWhenOpenedAndShowsResultsTextTokensAndCode) {
  std::string chromium = FindChromium();
  if (chromium.empty()) GTEST_SKIP() << "chromium not installed";
  ASSERT_TRUE(WriteReports(score_, run_, dir_).ok());
  std::string dom = DumpDom(chromium, dir_, "file://" + dir_ + "/report.html#trace-4");
  ASSERT_FALSE(dom.empty());
  std::smatch m;
  ASSERT_TRUE(std::regex_search(dom, m, std::regex("<details[^>]*id=\"trace-4\"[^>]*>")));
  EXPECT_NE(m.str().find("data-loaded=\"1\""), std::string::npos) << m.str();
  EXPECT_NE(m.str().find(" open="), std::string::npos) << m.str();
  size_t at = dom.find("id=\"trace-4\"");
  std::string trace = dom.substr(at, dom.find("</details>", at) - at);
  EXPECT_NE(trace.find("turn 3 · execute_code · ok"), std::string::npos) << trace.substr(0, 2000);
  EXPECT_NE(trace.find("model 820 ms"), std::string::npos);
  EXPECT_NE(trace.find("tokens 1,234,567 in / 50 out"), std::string::npos);
  EXPECT_NE(trace.find("Counting the rows &lt;b&gt;now&lt;/b&gt;."), std::string::npos);  // text, not markup
  EXPECT_NE(trace.find("<pre class=\"code\">import csv\nrows = list("), std::string::npos);
  EXPECT_NE(trace.find("<pre class=\"result\">{\"output\": \"41\\n\"}xxxx"), std::string::npos);
  EXPECT_NE(trace.find(" bytes)</pre>"), std::string::npos);          // the cap is shown
  EXPECT_NE(trace.find("search_keyword result"), std::string::npos);  // a summary-only event
  // Other traces stay unloaded.
  EXPECT_EQ(dom.find("data-loaded=\"", dom.find("id=\"trace-5\"")), std::string::npos);
  ExpectNoConsoleOutput(dir_);
}

// The filters hide every row that does not match, and can be preset from the address.
TEST_F(Report, FiltersByStageHopsStatusAndType) {
  std::string chromium = FindChromium();
  if (chromium.empty()) GTEST_SKIP() << "chromium not installed";
  ASSERT_TRUE(WriteReports(score_, run_, dir_).ok());
  auto visible = [&](const std::string& query) {
    std::string dom = DumpDom(chromium, dir_, "file://" + dir_ + "/report.html?" + query);
    std::vector<std::string> rows;
    std::regex row("<tr id=\"row-[0-9]+\"([^>]*)><td><a class=\"tr\" href=\"#trace-[0-9]+\">([^<]+)</a>");
    for (auto it = std::sregex_iterator(dom.begin(), dom.end(), row); it != std::sregex_iterator(); ++it) {
      if ((*it)[1].str().find("display: none") == std::string::npos) rows.push_back((*it)[2]);
    }
    return rows;
  };
  EXPECT_EQ(visible("status=timeout"), (std::vector<std::string>{"t6"}));
  EXPECT_EQ(visible("stage=correct"), (std::vector<std::string>{"t1"}));
  EXPECT_EQ(visible("k=3"), (std::vector<std::string>{"t3"}));
  EXPECT_EQ(visible("k=1&status=ok").size(), 3u);  // t2, t4, t5
  // Two filters together: the rows that match both, as the scores say (the hostile answer makes t2 wrong).
  std::vector<std::string> wrong_two_hops;
  for (const auto& t : score_.tasks)
    if (std::string(FunnelStageName(t.stage)) == "wrong_answer" && t.hops == 2)
      wrong_two_hops.push_back(t.task_id);
  EXPECT_EQ(visible("stage=wrong_answer&k=2"), wrong_two_hops);
  std::string type = score_.tasks[1].answer_type;
  std::vector<std::string> same_type;
  for (const auto& t : score_.tasks)
    if (t.answer_type == type) same_type.push_back(t.task_id);
  EXPECT_EQ(visible("type=" + type), same_type);
}

// A run as large as LakeQA's (1,006 tasks with long traces): the page holds the table, not the traces.
TEST(ReportScale, PageStaysSmallAndTracesAreSeparateFiles) {
  auto d = MakeTempDir("lakeqa-report-scale");
  ASSERT_TRUE(d.ok());
  std::vector<testing::PredSpec> preds;
  std::vector<Task> tasks;
  for (int i = 0; i < 1006; ++i) {
    std::string id = "T" + std::to_string(i);
    tasks.push_back(testing::MakeTask(id, "x", {"datagov/d" + std::to_string(i % 50)}));
    testing::PredSpec p{id, "x", "ok", 10, 0.1, 12, {}};
    for (int e = 1; e <= 12; ++e) {
      Json ev = testing::Event(e, "execute_code", {}, {"datagov/d1"});
      ev["result"] = std::string(1500, 'r');
      ev["content"] = std::string(300, 'c');
      p.events.push_back(ev);
    }
    preds.push_back(std::move(p));
  }
  testing::WriteRun(*d, preds);
  auto run = LoadRun(*d);
  ASSERT_TRUE(run.ok());
  RunScore score = ScoreRun(*run, tasks);
  ASSERT_TRUE(WriteReports(score, *run, *d).ok());
  auto html = ReadFile(*d + "/report.html");
  ASSERT_TRUE(html.ok());
  // ~1 KB per task row and closed trace; the ~22 MB of traces live in report-traces/.
  EXPECT_LT(html->size(), 2u << 20) << html->size();
  size_t scripts = 0, trace_bytes = 0;
  for (const auto& f : std::filesystem::directory_iterator(*d + "/report-traces")) {
    ++scripts;
    trace_bytes += f.file_size();
  }
  EXPECT_EQ(scripts, 1006u);
  EXPECT_GT(trace_bytes, 10u * html->size());
  (void)RemoveAll(*d);
}

}  // namespace
}  // namespace lakeqa::eval
