#include "lakeqa/eval/compare.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>

#include <gtest/gtest.h>

#include "lakeqa/common/fs.h"
#include "lakeqa/eval/report.h"
#include "lakeqa/eval/score.h"

#include "eval/run_fixture.h"
#include "lakeqa/common/build_paths.h"

namespace lakeqa::eval {
namespace {

class Compare : public ::testing::Test {
 protected:
  void SetUp() override {
    auto d = MakeTempDir("lakeqa-compare");
    ASSERT_TRUE(d.ok());
    dir_ = *d;
  }
  void TearDown() override { (void)RemoveAll(dir_); }

  std::string Scored(const std::string& name, const std::vector<testing::PredSpec>& preds,
                     const std::string& model) {
    std::string run = dir_ + "/" + name;
    testing::WriteRun(run, preds, Json{{"agent", "scripted"}, {"model", model}, {"tasks", dir_ + "/tasks"}});
    auto data = LoadRun(run);
    EXPECT_TRUE(data.ok());
    RunScore s = ScoreRun(*data, testing::WeakTasks());
    EXPECT_TRUE(WriteReports(s, *data, run).ok());
    return run;
  }
  std::string dir_;
};

TEST_F(Compare, TwoHandMadeRuns) {
  auto a = testing::WeakRun();
  auto b = testing::WeakRun();
  b[0].answer = "Boston";  // t1 now wrong
  b[1].answer = "[42]";    // t2 now right
  b[3].answer = "Boston";  // t4 now right
  std::string ra = Scored("run-a", a, "model-a"), rb = Scored("run-b", b, "model-b");
  auto c = CompareRuns({ra, rb});
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  ASSERT_EQ(c->runs.size(), 2u);
  EXPECT_EQ(c->runs[0].label, "scripted / model-a");
  EXPECT_EQ(c->runs[1].label, "scripted / model-b");
  ASSERT_EQ(c->pairs.size(), 1u);
  const PairedDiff& d = c->pairs[0];
  EXPECT_EQ(d.paired, 6u);
  EXPECT_NEAR(d.em_base, 1.0 / 6, 1e-12);
  EXPECT_NEAR(d.em_other, 2.0 / 6, 1e-12);
  EXPECT_NEAR(d.diff, 1.0 / 6, 1e-12);
  EXPECT_EQ(d.other_only, 2u);
  EXPECT_EQ(d.base_only, 1u);
  EXPECT_LE(d.ci_low, d.diff);
  EXPECT_GE(d.ci_high, d.diff);
  EXPECT_LT(d.ci_low, 0);  // one task flipped the other way: the interval covers 0
  // Fixed seed: the same interval every time.
  auto again = CompareRuns({ra, rb});
  EXPECT_EQ(again->pairs[0].ci_low, d.ci_low);
  EXPECT_EQ(again->pairs[0].ci_high, d.ci_high);
  std::string table = c->FormatTable();
  EXPECT_NE(table.find("Tasks where the runs differ: 3 of 6"), std::string::npos) << table;
  Json j = c->ToJson();
  EXPECT_EQ(j["per_task"].size(), 6u);
  EXPECT_EQ(j["pairs"][0]["other_only_correct"], 2);
}

TEST_F(Compare, IdenticalRunsHaveAZeroInterval) {
  std::string ra = Scored("a", testing::WeakRun(), "m"), rb = Scored("b", testing::WeakRun(), "m");
  auto c = CompareRuns({ra, rb, ra});
  ASSERT_TRUE(c.ok());
  ASSERT_EQ(c->pairs.size(), 2u);
  for (const auto& d : c->pairs) {
    EXPECT_EQ(d.diff, 0);
    EXPECT_EQ(d.ci_low, 0);
    EXPECT_EQ(d.ci_high, 0);
  }
}

TEST_F(Compare, UnscoredRunIsAClearError) {
  std::string ra = Scored("a", testing::WeakRun(), "m");
  ASSERT_TRUE(MakeDirs(dir_ + "/raw").ok());
  auto c = CompareRuns({ra, dir_ + "/raw"});
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), ErrorCode::kNotFound);
  EXPECT_NE(c.status().message().find("lakeqa eval --run"), std::string::npos);
  EXPECT_FALSE(CompareRuns({ra}).ok());
}

// Brute force: the exact bootstrap distribution of the mean difference for n = 4 (all 4^4 resamples);
// the percentile interval must sit at the exact quantiles up to Monte Carlo error.
TEST(Bootstrap, MatchesExactDistribution) {
  std::mt19937 rng(9);
  for (int trial = 0; trial < 10; ++trial) {
    std::vector<int> a(4), b(4);
    for (int i = 0; i < 4; ++i) {
      a[i] = static_cast<int>(rng() % 2);
      b[i] = static_cast<int>(rng() % 2);
    }
    std::vector<double> exact;
    for (int i0 = 0; i0 < 4; ++i0) {
      for (int i1 = 0; i1 < 4; ++i1) {
        for (int i2 = 0; i2 < 4; ++i2) {
          for (int i3 = 0; i3 < 4; ++i3) {
            exact.push_back((b[i0] - a[i0] + b[i1] - a[i1] + b[i2] - a[i2] + b[i3] - a[i3]) / 4.0);
          }
        }
      }
    }
    auto cdf = [&](double x) {
      double c = 0;
      for (double v : exact) c += v <= x + 1e-12;
      return c / exact.size();
    };
    CompareOptions o;
    o.resamples = 20000;
    auto [lo, hi] = BootstrapDiffCi(a, b, o);
    // lo is (close to) the smallest value whose exact CDF reaches 2.5%; hi the 97.5% point.
    EXPECT_GE(cdf(lo) + 0.01, 0.025) << trial;
    EXPECT_LE(cdf(lo - 0.25), 0.025 + 0.01) << trial;
    EXPECT_GE(cdf(hi) + 0.01, 0.975) << trial;
    EXPECT_LE(cdf(hi - 0.25), 0.975 + 0.01) << trial;
  }
}

// Issue 14, defect 9: only tasks that every run scored are compared; the rest are counted and warned
// about, runs are labelled by agent and model, and the JSON is rounded.
TEST_F(Compare, OnlyPairedTasksAreCompared) {
  auto a = testing::WeakRun();
  auto b = testing::WeakRun();
  b.resize(3);             // run b scored t1..t3 only
  b[1].answer = "[42]";    // t2 now right
  b[2].answer = "Boston";  // t3 still wrong
  std::string ra = Scored("run-a", a, "model-a");
  std::string rb = dir_ + "/run-b";
  testing::WriteRun(rb, b, Json{{"agent", "llm"}, {"model", "model-b"}});
  auto data = LoadRun(rb);
  ASSERT_TRUE(data.ok());
  std::vector<Task> three = testing::WeakTasks();
  three.resize(3);
  ASSERT_TRUE(WriteReports(ScoreRun(*data, three), *data, rb).ok());
  // The same agent and model twice: the folder tells them apart.
  std::string rc = Scored("run-c", a, "model-a");

  auto c = CompareRuns({ra, rb, rc});
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->runs[1].label, "llm / model-b");
  EXPECT_EQ(c->runs[0].label, "scripted / model-a (run-a)");
  EXPECT_EQ(c->runs[2].label, "scripted / model-a (run-c)");
  EXPECT_EQ(c->pairs[0].paired, 3u);
  EXPECT_EQ(c->pairs[1].paired, 6u);
  std::string table = c->FormatTable();
  EXPECT_NE(table.find("Tasks where the runs differ: 1 of 3"), std::string::npos) << table;
  EXPECT_NE(table.find("3 tasks were not scored by every run"), std::string::npos) << table;
  Json j = c->ToJson();
  EXPECT_EQ(j["paired_tasks"], 3);
  EXPECT_EQ(j["unpaired_tasks"], (Json{"t4", "t5", "t6"}));
  ASSERT_EQ(j["warnings"].size(), 1u) << j.dump();
  EXPECT_EQ(j["per_task"].size(), 3u);
  EXPECT_EQ(j["runs"][0]["em"].dump(), "0.1667");
  EXPECT_EQ(j["pairs"][0]["em_base"].dump(), "0.3333");
  EXPECT_EQ(j["pairs"][0]["em_other"].dump(), "0.6667");
  EXPECT_EQ(j["runs"][1]["label"], "llm / model-b");
}

std::string Shell(const std::string& cmd, int* rc) {
  std::string out;
  FILE* f = popen(cmd.c_str(), "r");
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  *rc = pclose(f);
  return out;
}

// The CLI end to end: eval --run writes both reports, eval compare reads them.
TEST_F(Compare, Cli) {
  const char* env = std::getenv("LAKEQA_BIN");
  std::string bin = env && *env ? env : lakeqa::build_paths::BinaryDir() + "/lakeqa";
  if (!std::filesystem::exists(bin)) GTEST_SKIP() << bin << " not built";
  std::vector<std::string> runs;
  for (const std::string name : {"cli-a", "cli-b"}) {
    std::string run = dir_ + "/" + name;
    auto preds = testing::WeakRun();
    if (name == "cli-b") preds[1].answer = "42";
    testing::WriteRun(run, preds, Json{{"model", name}});
    runs.push_back(run);
  }
  ASSERT_TRUE(MakeDirs(dir_ + "/tasks").ok());
  for (const Task& t : testing::WeakTasks()) {
    Json tj =
        testing::TaskJson(t.id, t.answer, GoldDatasets(t), t.datasets_used.size() - GoldDatasets(t).size());
    ASSERT_TRUE(WriteFileAtomic(dir_ + "/tasks/" + t.id + ".json", tj.dump()).ok());
  }
  int rc = 0;
  for (const auto& run : runs) {
    std::string out = Shell(bin + " eval --run '" + run + "' --tasks '" + dir_ + "/tasks' --json 2>&1", &rc);
    ASSERT_EQ(rc, 0) << out;
    auto j = ParseJson(out, "stdout");
    ASSERT_TRUE(j.ok()) << out;
    EXPECT_EQ((*j)["tasks"], 6);
    EXPECT_TRUE(PathExists(run + "/report.html"));
  }
  std::string out = Shell(bin + " eval compare '" + runs[0] + "' '" + runs[1] + "' --json 2>&1", &rc);
  ASSERT_EQ(rc, 0) << out;
  auto j = ParseJson(out, "stdout");
  ASSERT_TRUE(j.ok()) << out;
  EXPECT_EQ((*j)["pairs"][0]["em_diff"].dump(), "0.1667");  // rounded: 4 decimals for fractions
  out = Shell(bin + " eval compare '" + runs[0] + "' 2>&1", &rc);
  EXPECT_NE(rc, 0);
  out = Shell(bin + " eval --run '" + dir_ + "/nope' --tasks '" + dir_ + "/tasks' 2>&1", &rc);
  EXPECT_NE(rc, 0);
  EXPECT_NE(out.find("predictions.jsonl"), std::string::npos) << out;
}

}  // namespace
}  // namespace lakeqa::eval
