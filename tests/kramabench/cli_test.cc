// KramaBench end to end through the CLI, on a checkout made here in KramaBench's layout (no KramaBench
// data or code is committed): lake build --source kramabench:, tasks validate and stats, the solutions
// oracle in the sandbox (a solution that prints, one that ends on an expression, a missing library, a
// missing file, an exception, no solution, an unknown answer type), and `eval` with KramaBench's metrics.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "exec/sandbox_available.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/json.h"
#include "support/cli_runner.h"
#include "support/require_protection.h"

namespace lakeqa::kramabench {
namespace {

using lakeqa::testing::CmdResult;
using lakeqa::testing::LakeqaBin;
using lakeqa::testing::LakeqaJson;
using lakeqa::testing::Sh;

const char* kWorkload = R"([
 {"id": "fire-easy-1", "query": "Acres burned in WA?", "answer": 30, "answer_type": "numeric_exact",
  "data_sources": ["acres.csv"],
  "subtasks": [{"id": "fire-easy-1-1", "query": "Rows?", "answer": 3, "answer_type": "numeric_exact",
                "data_sources": ["acres.csv"]}]},
 {"id": "fire-hard-2", "query": "Most acres per person?", "answer": "OR", "answer_type": "string_exact",
  "data_sources": ["acres.csv"]},
 {"id": "fire-easy-3", "query": "Mean acres?", "answer": 60.0, "answer_type": "numeric_approximate",
  "data_sources": ["acres.csv"]},
 {"id": "fire-hard-4", "query": "States on a map?", "answer": ["CA", "OR"], "answer_type": "list_exact",
  "data_sources": ["acres.csv"]},
 {"id": "fire-easy-5", "query": "Area of the USA?", "answer": 9.8, "answer_type": "numeric_exact",
  "data_sources": ["usa.gpkg"]},
 {"id": "fire-hard-6", "query": "Broken?", "answer": 1, "answer_type": "numeric_exact", "data_sources": ["acres.csv"]},
 {"id": "fire-easy-7", "query": "Unsolved?", "answer": 1, "answer_type": "numeric_exact", "data_sources": ["acres.csv"]},
 {"id": "fire-easy-8", "query": "Odd type?", "answer": "x", "answer_type": "vibes", "data_sources": ["acres.csv"]}
])";

class KramaBenchCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!PathExists(LakeqaBin())) GTEST_SKIP() << "lakeqa binary not built at " << LakeqaBin();
    dir_ = *MakeTempDir("lakeqa-kbcli-");
    std::filesystem::permissions(dir_,
                                 std::filesystem::perms::others_exec | std::filesystem::perms::group_exec,
                                 std::filesystem::perm_options::add);
    ck_ = dir_ + "/kb";
    Put("kb/workload/fire.json", kWorkload);
    Put("kb/data/fire/input/acres.csv", "state,acres,population\nCA,100,50\nOR,50,2\nWA,30,3\n");
    Put("kb/data/fire/input/maps/regions.html",
        "<table><tr><th>region</th><th>states</th></tr><tr><td>West</td><td>CA OR WA</td></tr></table>");
    std::string load = "import pandas as pd\ndf = pd.read_csv('./data/fire/input/acres.csv')\n";
    Put("kb/solutions/fire/fire-easy-1.py",
        load + "print('loaded', len(df))\nprint(int(df[df.state == 'WA'].acres.iloc[0]))\n");
    Put("kb/solutions/fire/fire-hard-2.py",
        load + "df['pc'] = df.acres / df.population\ndf.loc[df.pc.idxmax(), 'state']\n");
    Put("kb/solutions/fire/fire-easy-3.py", load + "print(round(df.acres.mean(), 2))\n");
    Put("kb/solutions/fire/fire-hard-4.py", "import geopandas_not_installed_here\n");
    Put("kb/solutions/fire/fire-easy-5.py", "open('./data/fire/input/usa.gpkg').read()\n");
    Put("kb/solutions/fire/fire-hard-6.py", "raise ValueError('the solution itself is broken')\n");
    Put("kb/solutions/fire/fire-easy-8.py", "print('x')\n");
  }
  void TearDown() override {
    if (!dir_.empty()) (void)RemoveAll(dir_);
  }
  void Put(const std::string& rel, const std::string& text) { lakeqa::testing::PutFile(dir_, rel, text); }
  CmdResult Cli(const std::string& args) { return lakeqa::testing::Lakeqa(args); }
  std::string Workload() const { return Sh(ck_ + "/workload/fire.json"); }
  std::string dir_, ck_;
};

TEST_F(KramaBenchCliTest, BadCheckoutsFailWithTheReason) {
  CmdResult b = Cli("lake build -q --source kramabench:" + Sh(dir_ + "/nothing") + " --out " +
                    Sh(dir_ + "/l") + " 2>&1");
  EXPECT_NE(b.exit_code, 0);
  EXPECT_NE(b.out.find("nothing"), std::string::npos) << b.out;
  Json s = LakeqaJson("kramabench solutions --json --checkout " + Sh(dir_) + " --lake " + Sh(dir_),
                      3);  // not_found
  EXPECT_NE(s["error"]["message"].get<std::string>().find("no workload/<domain>.json"), std::string::npos)
      << s;
  Json d = LakeqaJson(
      "kramabench solutions --json --checkout " + Sh(ck_) + " --lake " + Sh(dir_) + " --domain wind", 3);
  EXPECT_NE(d["error"]["message"].get<std::string>().find("--domain wind"), std::string::npos) << d;
}

TEST_F(KramaBenchCliTest, BuildValidateStatsOracleAndEval) {
  Json b = LakeqaJson("lake build -q --json --source kramabench:" + Sh(ck_) + " --out " + Sh(dir_ + "/lake"));
  EXPECT_EQ(b["datasets_total"], 2);
  EXPECT_EQ(b["domains"]["fire"]["namespace"], "kramabench-fire");

  // validate: the unknown answer type is an error (exit non-zero), the missing file a warning; per task.
  CmdResult v = Cli("tasks validate " + Workload() + " 2>&1");
  EXPECT_NE(v.exit_code, 0);
  EXPECT_NE(v.out.find("[fire-easy-8] unknown answer_type 'vibes'"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("[fire-easy-5] data source 'usa.gpkg' names no file"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("8 tasks loaded, 7 valid"), std::string::npos) << v.out;

  Json st = LakeqaJson("tasks stats --json " + Workload());
  EXPECT_EQ(st["kramabench"]["tasks"], 8);
  EXPECT_EQ(st["kramabench"]["subtasks"], 1);
  EXPECT_EQ(st["kramabench"]["difficulty"]["hard"], 3);
  EXPECT_EQ(st["kramabench"]["answer_types"]["numeric_exact"], 4);

  if (!exec::SandboxAvailable().ok()) {
    LAKEQA_SKIP_MISSING_PROTECTION("Python sandbox unavailable: " +
                                   std::string(exec::SandboxAvailable().message()));
  }
  Json o = LakeqaJson("kramabench solutions --json --timeout-s 60 --checkout " + Sh(ck_) + " --lake " +
                      Sh(dir_ + "/lake") + " --out " + Sh(dir_ + "/oracle.json"));
  std::map<std::string, Json> by;
  for (const auto& t : o["tasks"]) by[t["task_id"].get<std::string>()] = t;
  EXPECT_EQ(by["fire-easy-1"]["status"], "scored") << by["fire-easy-1"];
  EXPECT_EQ(by["fire-easy-1"]["answer"], "30");  // the last line printed
  EXPECT_EQ(by["fire-easy-1"]["score"], 1.0);
  EXPECT_EQ(by["fire-hard-2"]["answer_from"], "expression");  // notebook style: the last expression's value
  EXPECT_EQ(by["fire-hard-2"]["score"], 1.0);
  EXPECT_EQ(by["fire-easy-3"]["main_metric"], "rae_score");
  EXPECT_DOUBLE_EQ(by["fire-easy-3"]["score"].get<double>(), 1.0);
  EXPECT_EQ(by["fire-hard-4"]["status"], "missing_library");
  EXPECT_NE(by["fire-hard-4"]["reason"].get<std::string>().find("geopandas_not_installed_here"),
            std::string::npos);
  EXPECT_EQ(by["fire-easy-5"]["status"], "missing_file");
  EXPECT_EQ(by["fire-easy-5"]["missing_sources"], Json::array({"usa.gpkg"}));
  EXPECT_EQ(by["fire-hard-6"]["status"], "failed");
  EXPECT_NE(by["fire-hard-6"]["reason"].get<std::string>().find("ValueError: the solution itself is broken"),
            std::string::npos);
  EXPECT_EQ(by["fire-easy-7"]["status"], "no_solution");
  EXPECT_EQ(by["fire-easy-8"]["status"], "unscored");
  EXPECT_EQ(o["counts"]["scored"], 3);
  EXPECT_DOUBLE_EQ(o["leaderboard"]["overall"]["score"].get<double>(), 1.0);
  EXPECT_TRUE(PathExists(dir_ + "/oracle.json"));

  // eval over a run on the same tasks: KramaBench's metrics beside EM, subtasks when answered.
  Put("run/predictions.jsonl",
      "{\"task_id\": \"fire-easy-1\", \"status\": \"answered\", \"answer\": \"30\"}\n"
      "{\"task_id\": \"fire-easy-1-1\", \"status\": \"answered\", \"answer\": \"4\"}\n"
      "{\"task_id\": \"fire-hard-2\", \"status\": \"answered\", \"answer\": \"Oregon\"}\n"
      "{\"task_id\": \"fire-easy-3\", \"status\": \"answered\", \"answer\": \"50\"}\n"
      "{\"task_id\": \"fire-easy-8\", \"status\": \"answered\", \"answer\": \"x\"}\n");
  Json e = LakeqaJson("eval --json --run " + Sh(dir_ + "/run") + " --tasks " + Workload());
  const Json& kb = e["kramabench"];
  ASSERT_TRUE(kb.is_object()) << e;
  EXPECT_EQ(kb["tasks"].size(), 3u);
  EXPECT_EQ(kb["unscored"][0]["task_id"], "fire-easy-8");
  EXPECT_EQ(kb["subtasks"][0]["score"], 0.0);
  // (1 + 0 + 1/(1+1/6)) / 3 over success and rae_score
  EXPECT_NEAR(kb["leaderboard"]["fire"]["score"].get<double>(), (1 + 0 + 1 / (1 + 1.0 / 6)) / 3, 1e-12);
  CmdResult text = Cli("eval --run " + Sh(dir_ + "/run") + " --tasks " + Workload());
  EXPECT_NE(text.out.find("KramaBench metrics (tasks):"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("KramaBench metrics (subtasks):"), std::string::npos) << text.out;
}

// Issue 30, item 7: report.html has a KramaBench section (the leaderboard per domain as evaluate.py
// aggregates it, the main metric per task); a metric of one value has std 0 as in evaluate.py
// (`std() if len > 1 else 0`), and the page says it is one value; the report speaks one answer-type
// vocabulary (KramaBench's, for KramaBench tasks).
TEST_F(KramaBenchCliTest, ReportHtmlHasTheKramaBenchLeaderboardAndOneAnswerTypeVocabulary) {
  Put("run/predictions.jsonl",
      "{\"task_id\": \"fire-easy-1\", \"status\": \"answered\", \"answer\": \"30\", \"elapsed_s\": 1}\n"
      "{\"task_id\": \"fire-hard-2\", \"status\": \"answered\", \"answer\": \"Oregon\", \"elapsed_s\": 1}\n"
      "{\"task_id\": \"fire-easy-3\", \"status\": \"answered\", \"answer\": \"50\", \"elapsed_s\": 1}\n");
  Json e = LakeqaJson("eval --json --run " + Sh(dir_ + "/run") + " --tasks " + Workload());
  const Json& lb = e["kramabench"]["leaderboard"]["fire"];
  EXPECT_EQ(lb["metrics"]["rae_score"]["support"], 1) << lb;
  EXPECT_EQ(lb["metrics"]["rae_score"]["std"], 0.0) << lb;  // evaluate.py: std of one value is 0
  EXPECT_NEAR(lb["metrics"]["success"]["std"].get<double>(), std::sqrt(0.5), 1e-12) << lb;  // [1, 0], ddof 1
  for (const auto& [type, bucket] : e["by_answer_type"].items())
    EXPECT_TRUE(type == "numeric_exact" || type == "string_exact" || type == "numeric_approximate") << type;
  Json report = Json::parse(*ReadFile(dir_ + "/run/report.json"));
  EXPECT_EQ(report["per_task"][0]["answer_type"], "numeric_exact");

  std::string html = *ReadFile(dir_ + "/run/report.html");
  size_t at = html.find("<h2 id=\"kramabench\">KramaBench</h2>");
  ASSERT_NE(at, std::string::npos);
  std::string section = html.substr(at, html.find("<h2", at + 10) - at);
  // The domain's score: (1 + 0 + 1/(1+1/6)) / 3 over success and rae_score.
  EXPECT_NE(section.find(fmt::format("<td>fire</td><td>3</td><td>{:.2f}%</td>",
                                     100 * (1 + 0 + 1 / (1 + 1.0 / 6)) / 3)),
            std::string::npos)
      << section;
  EXPECT_NE(section.find("0.500 ± 0.707 (2 of 2)"), std::string::npos) << section;
  EXPECT_NE(section.find("(std: one value)"), std::string::npos) << section;
  EXPECT_NE(
      section.find(
          "<td>fire-easy-3</td><td>fire</td><td>numeric_approximate</td><td>rae_score</td><td>0.857</td>"),
      std::string::npos)
      << section;
  EXPECT_EQ(html.find(">numeric<"),
            std::string::npos);  // lakeqa's own class does not appear beside KramaBench's
}

// Issue 30, item 6: the oracle follows gold trails; a KramaBench task has none. Each task is recorded as
// not_applicable (with the reason, which names the solutions oracle), counted in the run's summary and in
// eval's status counts, and the run exits non-zero because no task could be attempted.
TEST_F(KramaBenchCliTest, TheOracleOnTasksWithoutAGoldTrailIsNotApplicable) {
  LakeqaJson("lake build -q --json --source kramabench:" + Sh(ck_) + " --out " + Sh(dir_ + "/lake"));
  LakeqaJson("index build -q --json --lake " + Sh(dir_ + "/lake") + " --index " + Sh(dir_ + "/index"));
  CmdResult r = Cli("run --json --agent oracle --tasks " + Workload() + " --lake " + Sh(dir_ + "/lake") +
                    " --index " + Sh(dir_ + "/index") + " --out " + Sh(dir_ + "/run") + " 2>/dev/null");
  EXPECT_EQ(r.exit_code, 12) << r.out;
  Json sum = Json::parse(r.out, nullptr, false);
  ASSERT_TRUE(sum.is_object()) << r.out;
  EXPECT_EQ(sum["ran"], 8) << r.out;
  EXPECT_EQ(sum["answered"], 0) << r.out;
  EXPECT_EQ(sum["not_applicable"], 8) << r.out;
  EXPECT_NE(sum["error"]["message"].get<std::string>().find("not applicable"), std::string::npos) << r.out;
  auto preds = ReadFile(dir_ + "/run/predictions.jsonl");
  ASSERT_TRUE(preds.ok());
  Json first = Json::parse(preds->substr(0, preds->find('\n')));
  EXPECT_EQ(first["status"], "not_applicable") << first;
  EXPECT_NE(first["error"].get<std::string>().find("kramabench solutions"), std::string::npos) << first;
  // Final: a resumed run does not retry them.
  CmdResult again = Cli("run --json --agent oracle --tasks " + Workload() + " --lake " + Sh(dir_ + "/lake") +
                        " --index " + Sh(dir_ + "/index") + " --out " + Sh(dir_ + "/run") + " 2>/dev/null");
  EXPECT_EQ(Json::parse(again.out, nullptr, false)["skipped"], 8) << again.out;
  // The text summary names them.
  CmdResult text = Cli("run --agent oracle --tasks " + Workload() + " --lake " + Sh(dir_ + "/lake") +
                       " --index " + Sh(dir_ + "/index") + " --out " + Sh(dir_ + "/run2") + " 2>&1");
  EXPECT_NE(text.out.find("8 not applicable"), std::string::npos) << text.out;

  Json e = LakeqaJson("eval --json --run " + Sh(dir_ + "/run") + " --tasks " + Workload());
  EXPECT_EQ(e["status"]["not_applicable"], 8) << e["status"];
}

}  // namespace
}  // namespace lakeqa::kramabench
