// Repeated runs: pass@k and pass^k against values computed by hand, epoch-aware loading of a run folder,
// the epochs section of the reports; and the stage-ablation table of `eval compare`.
#include "lakeqa/eval/epochs.h"

#include <gtest/gtest.h>

#include "lakeqa/common/fs.h"
#include "lakeqa/eval/compare.h"
#include "lakeqa/eval/report.h"
#include "lakeqa/eval/score.h"

#include "eval/run_fixture.h"

namespace lakeqa::eval {
namespace {

TEST(Epochs, PassAtKAndPassHatKByHand) {
  // n = 3 runs, c correct. pass@k = 1 - C(3-c,k)/C(3,k); pass^k = C(c,k)/C(3,k).
  EXPECT_NEAR(PassAtK(3, 1, 1), 1.0 / 3, 1e-12);
  EXPECT_NEAR(PassAtK(3, 1, 2), 2.0 / 3, 1e-12);  // 1 - C(2,2)/C(3,2) = 1 - 1/3
  EXPECT_NEAR(PassAtK(3, 1, 3), 1.0, 1e-12);
  EXPECT_NEAR(PassAtK(3, 2, 2), 1.0, 1e-12);  // C(1,2) = 0
  EXPECT_NEAR(PassAtK(3, 0, 3), 0.0, 1e-12);
  EXPECT_NEAR(PassHatK(3, 2, 1), 2.0 / 3, 1e-12);
  EXPECT_NEAR(PassHatK(3, 2, 2), 1.0 / 3, 1e-12);  // C(2,2)/C(3,2)
  EXPECT_NEAR(PassHatK(3, 2, 3), 0.0, 1e-12);
  EXPECT_NEAR(PassHatK(3, 3, 3), 1.0, 1e-12);
  // n = 10, c = 3: pass@5 = 1 - C(7,5)/C(10,5) = 1 - 21/252; pass^2 = C(3,2)/C(10,2) = 3/45.
  EXPECT_NEAR(PassAtK(10, 3, 5), 1.0 - 21.0 / 252, 1e-12);
  EXPECT_NEAR(PassHatK(10, 3, 2), 3.0 / 45, 1e-12);
  EXPECT_NEAR(PassHatK(10, 3, 5), 0.0, 1e-12);
}

TEST(Epochs, StatisticsOfAHandMadeMatrix) {
  // Four tasks × three epochs; t5 misses epoch 2 (an unfinished resume).
  std::vector<EpochTask> m = {
      {"t1", {1, 1, 1}}, {"t2", {1, 0, 1}}, {"t3", {0, 0, 1}}, {"t4", {0, 0, 0}}, {"t5", {1, -1, 1}}};
  EpochStats s = ComputeEpochStats(m, 3);
  EXPECT_EQ(s.complete, 4u);
  EXPECT_EQ(s.incomplete, std::vector<std::string>{"t5"});
  EXPECT_EQ(s.inconsistent, 2u);  // t2, t3
  // Per epoch over the tasks each scored: 3/5, 1/4, 4/5.
  ASSERT_EQ(s.epoch_accuracy.size(), 3u);
  EXPECT_NEAR(s.epoch_accuracy[0], 0.6, 1e-12);
  EXPECT_NEAR(s.epoch_accuracy[1], 0.25, 1e-12);
  EXPECT_NEAR(s.epoch_accuracy[2], 0.8, 1e-12);
  EXPECT_EQ(s.epoch_tasks, (std::vector<size_t>{5, 4, 5}));
  // mean of 0.6, 0.25, 0.8 = 0.55; squared deviations 0.0025 + 0.09 + 0.0625 = 0.155; / (3 - 1).
  ASSERT_TRUE(s.variance && s.stddev);
  EXPECT_NEAR(*s.variance, 0.0775, 1e-12);
  EXPECT_NEAR(*s.stddev, std::sqrt(0.0775), 1e-12);
  // Over t1..t4 (c = 3, 2, 1, 0 of n = 3):
  ASSERT_TRUE(s.mean);
  EXPECT_NEAR(*s.mean, (1 + 2.0 / 3 + 1.0 / 3 + 0) / 4, 1e-12);
  EXPECT_NEAR(*s.pass_at[0], 0.5, 1e-12);
  EXPECT_NEAR(*s.pass_at[1], (1 + 1 + 2.0 / 3 + 0) / 4, 1e-12);
  EXPECT_NEAR(*s.pass_at[2], 0.75, 1e-12);
  EXPECT_NEAR(*s.pass_hat[0], 0.5, 1e-12);
  EXPECT_NEAR(*s.pass_hat[1], (1 + 1.0 / 3) / 4, 1e-12);
  EXPECT_NEAR(*s.pass_hat[2], 0.25, 1e-12);  // all three epochs right: t1 only

  Json j = s.ToJson();
  EXPECT_EQ(j["epochs"], 3);
  EXPECT_NEAR(j["pass_hat_k"]["3"].get<double>(), 0.25, 1e-12);
  EXPECT_EQ(j["per_task"][4]["correct"], (Json::array({true, nullptr, true})));
  EXPECT_NE(s.FormatText().find("pass^k: k=1 50.00% k=2 33.33% k=3 25.00%"), std::string::npos)
      << s.FormatText();

  // Nothing complete, one epoch: unknown, never 0.
  EpochStats none = ComputeEpochStats({{"t1", {-1}}}, 1);
  EXPECT_FALSE(none.mean);
  EXPECT_FALSE(none.variance);
  EXPECT_FALSE(none.pass_at[0]);
  EXPECT_TRUE(none.ToJson()["mean"].is_null());
  EXPECT_NE(none.FormatText().find("mean unknown"), std::string::npos);
}

class EpochRun : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = *MakeTempDir("lakeqa-epochs"); }
  void TearDown() override { (void)RemoveAll(dir_); }
  std::string dir_;
};

TEST_F(EpochRun, LoadingScoringAndReportsKeepEveryEpoch) {
  std::vector<Task> tasks = {testing::MakeTask("t1", "Boston", {"datagov/a"}),
                             testing::MakeTask("t2", "42", {"datagov/b"})};
  auto line = [](const std::string& id, int epoch, const std::string& answer,
                 const std::string& status = "ok") {
    return Json{{"task_id", id}, {"epoch", epoch}, {"answer", answer}, {"status", status}, {"runtime_s", 1}}
               .dump() +
           "\n";
  };
  // Epoch 2 of t2 failed and was retried: the retry counts, the failure is superseded within epoch 2 only.
  std::string preds = line("t1", 1, "Boston") + line("t2", 1, "41") + line("t1", 2, "Boston") +
                      line("t2", 2, "", "error") + line("t2", 2, "42") + line("t1", 3, "Paris") +
                      line("t2", 3, "42");
  ASSERT_TRUE(WriteFileAtomic(dir_ + "/predictions.jsonl", preds).ok());
  ASSERT_TRUE(WriteFileAtomic(dir_ + "/run.json", Json{{"agent", "llm"}, {"epochs", 3}}.dump()).ok());
  ASSERT_TRUE(WriteFileAtomic(dir_ + "/traces/t1.jsonl",
                              testing::Event(1, "search_keyword", {"datagov/a"}, {}).dump() + "\n")
                  .ok());
  ASSERT_TRUE(MakeDirs(dir_ + "/traces/epoch-2").ok());
  ASSERT_TRUE(WriteFileAtomic(dir_ + "/traces/epoch-2/t1.jsonl",
                              testing::Event(1, "download", {}, {"datagov/a"}).dump() + "\n")
                  .ok());
  auto run = LoadRun(dir_);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(run->Epochs(), 3);
  ASSERT_EQ(run->predictions.size(), 2u);  // epoch 1
  EXPECT_EQ(run->predictions[1].answer, "41");
  ASSERT_EQ(run->later_predictions.at(2).size(), 2u);
  EXPECT_EQ(run->later_predictions.at(2)[1].answer, "42");
  ASSERT_EQ(run->superseded.size(), 1u);
  EXPECT_EQ(run->superseded[0].line, 4u);
  EXPECT_EQ(run->superseded[0].by_line, 5u);
  EXPECT_EQ(run->later_traces.at(2).at("t1")[0].tool, "download");
  RunData e2 = EpochView(*run, 2);
  EXPECT_EQ(e2.traces.at("t1")[0].tool, "download");
  EXPECT_TRUE(e2.later_predictions.empty());

  // t1: right, right, wrong; t2: wrong, right, right.
  RunScore score = ScoreRun(*run, tasks);
  EXPECT_NEAR(score.em, 0.5, 1e-12);  // epoch 1
  score.epochs = ScoreEpochs(*run, tasks);
  const EpochStats& s = *score.epochs;
  EXPECT_EQ(s.epochs, 3);
  EXPECT_EQ(s.tasks[0].correct, (std::vector<int>{1, 1, 0}));
  EXPECT_EQ(s.tasks[1].correct, (std::vector<int>{0, 1, 1}));
  EXPECT_NEAR(*s.mean, 2.0 / 3, 1e-12);
  EXPECT_NEAR(*s.pass_hat[2], 0.0, 1e-12);
  EXPECT_NEAR(*s.pass_at[1], 1.0, 1e-12);
  EXPECT_NEAR(s.epoch_accuracy[1], 1.0, 1e-12);

  ASSERT_TRUE(WriteReports(score, *run, dir_).ok());
  Json report = Json::parse(*ReadFile(dir_ + "/report.json"));
  EXPECT_EQ(report["epochs"]["epochs"], 3);
  EXPECT_NEAR(report["epochs"]["pass_at_k"]["2"].get<double>(), 1.0, 1e-12);
  std::string html = *ReadFile(dir_ + "/report.html");
  EXPECT_NE(html.find("id=\"epochs\""), std::string::npos);
  EXPECT_NE(html.find("data-chart=\"pass-k\" data-points=\"6\""), std::string::npos);
  EXPECT_NE(html.find("data-chart=\"epoch-accuracy\" data-points=\"3\""), std::string::npos);

  // A bad epoch is an error on its line, not a silent epoch 1.
  ASSERT_TRUE(WriteFileAtomic(dir_ + "/predictions.jsonl", line("t1", 0, "Boston")).ok());
  auto bad = LoadRun(dir_);
  ASSERT_TRUE(bad.ok());
  EXPECT_TRUE(bad->predictions.empty());
  ASSERT_FALSE(bad->warnings.empty());
  EXPECT_NE(bad->warnings[0].find("epoch"), std::string::npos) << bad->warnings[0];
}

TEST_F(EpochRun, CompareShowsEachAblationAgainstTheStandardRun) {
  std::vector<Task> tasks;
  for (int i = 1; i <= 6; ++i)
    tasks.push_back(testing::MakeTask("t" + std::to_string(i), "yes", {"datagov/a"}));
  // Right answers per run (6 tasks): standard 2, search=ideal 5, decompose=ideal 3, search=naive 1.
  auto make = [&](const std::string& name, const Json& ablation, std::vector<int> right) {
    std::vector<testing::PredSpec> preds;
    for (int i = 1; i <= 6; ++i) {
      bool ok = std::find(right.begin(), right.end(), i) != right.end();
      testing::PredSpec p;
      p.task_id = "t" + std::to_string(i);
      p.answer = ok ? "yes" : "no";
      preds.push_back(p);
    }
    std::string run = dir_ + "/" + name;
    Json rj = {{"agent", "llm"}, {"model", "openai:m"}};
    if (!ablation.is_null()) rj["ablation"] = ablation;
    testing::WriteRun(run, preds, rj);
    auto data = LoadRun(run);
    EXPECT_TRUE(WriteReports(ScoreRun(*data, tasks), *data, run).ok());
    return run;
  };
  std::string ideal = make("ideal", {{"search", "ideal"}, {"decompose", "standard"}, {"compute", "standard"}},
                           {1, 2, 3, 4, 5});
  std::string standard = make("standard", Json(), {1, 2});
  std::string decomp =
      make("decomp", {{"search", "standard"}, {"decompose", "ideal"}, {"compute", "standard"}}, {1, 2, 3});
  std::string naive = make("naive", {{"search", "naive"}}, {1});
  std::string both = make("both", {{"search", "ideal"}, {"decompose", "ideal"}}, {1, 2, 3, 4, 5, 6});

  CompareOptions o;
  o.resamples = 2000;
  auto c = CompareRuns({ideal, standard, decomp, naive, both}, o);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  ASSERT_TRUE(c->standard_run.has_value());
  EXPECT_EQ(*c->standard_run, 1u);  // the first standard run, wherever it is
  ASSERT_EQ(c->ablations.size(), 4u);
  EXPECT_EQ(c->ablations[0].ablation, "search=ideal");
  EXPECT_NEAR(c->ablations[0].diff.em_base, 2.0 / 6, 1e-12);
  EXPECT_NEAR(c->ablations[0].diff.diff, 3.0 / 6, 1e-12);
  EXPECT_EQ(c->ablations[0].diff.other_only, 3u);
  EXPECT_LE(c->ablations[0].diff.ci_low, c->ablations[0].diff.diff);
  EXPECT_GE(c->ablations[0].diff.ci_high, c->ablations[0].diff.diff);
  EXPECT_GT(c->ablations[0].diff.ci_low, 0.0);  // three tasks gained, none lost: every resample gains
  EXPECT_NEAR(c->ablations[1].diff.diff, 1.0 / 6, 1e-12);
  EXPECT_EQ(c->ablations[2].ablation, "search=naive");
  EXPECT_NEAR(c->ablations[2].diff.diff, -1.0 / 6, 1e-12);
  EXPECT_EQ(c->ablations[3].ablation, "search=ideal,decompose=ideal");
  EXPECT_EQ(c->ablations[3].stages, 2u);
  EXPECT_EQ(c->bottleneck, "search");
  EXPECT_EQ(c->runs[0].label, "llm / openai:m [search=ideal]");

  // The same seed gives the same interval.
  auto again = CompareRuns({ideal, standard, decomp, naive, both}, o);
  EXPECT_EQ(again->ablations[1].diff.ci_low, c->ablations[1].diff.ci_low);
  EXPECT_EQ(again->ablations[1].diff.ci_high, c->ablations[1].diff.ci_high);

  Json j = c->ToJson();
  EXPECT_EQ(j["ablation"]["standard_run"], standard);
  EXPECT_EQ(j["ablation"]["bottleneck"], "search");
  EXPECT_EQ(j["ablation"]["rows"][0]["gain"], 0.5);
  EXPECT_EQ(j["runs"][3]["ablation"], "search=naive");
  std::string text = c->FormatTable();
  EXPECT_NE(text.find("Stage ablations against run 1"), std::string::npos) << text;
  EXPECT_NE(text.find("bottleneck: search"), std::string::npos) << text;
  std::string html = RenderCompareHtml(*c);
  EXPECT_NE(html.find("data-chart=\"ablation-gain\" data-points=\"4\""), std::string::npos);
  EXPECT_NE(html.find("Bottleneck: search"), std::string::npos);

  // Without a standard run there is nothing to gain against: a warning, no rows.
  auto only = CompareRuns({ideal, naive}, o);
  ASSERT_TRUE(only.ok());
  EXPECT_TRUE(only->ablations.empty());
  ASSERT_FALSE(only->warnings.empty());
  EXPECT_NE(only->warnings.back().find("needs a standard run"), std::string::npos);
  // Runs without ablations: no ablation table at all.
  auto plain = CompareRuns({standard, standard}, o);
  EXPECT_FALSE(plain->ToJson().contains("ablation"));
}

TEST_F(EpochRun, CompareOfRepeatedRunsPairsTasksOnTheirMeanOverEpochs) {
  std::vector<Task> tasks = {testing::MakeTask("t1", "yes", {"datagov/a"}),
                             testing::MakeTask("t2", "yes", {"datagov/a"})};
  // right[task][epoch] for a run of three epochs, written and scored as `lakeqa run` and `lakeqa eval` do.
  auto make = [&](const std::string& name, const Json& ablation, std::vector<std::vector<int>> right) {
    std::string run = dir_ + "/" + name, lines;
    for (int e = 1; e <= 3; ++e)
      for (size_t t = 0; t < tasks.size(); ++t)
        lines += Json{{"task_id", tasks[t].id},
                      {"epoch", e},
                      {"answer", right[t][size_t(e - 1)] ? "yes" : "no"},
                      {"status", "ok"}}
                     .dump() +
                 "\n";
    EXPECT_TRUE(WriteFileAtomic(run + "/predictions.jsonl", lines).ok());
    Json rj = {{"agent", "llm"}, {"model", "openai:m"}, {"epochs", 3}};
    if (!ablation.is_null()) rj["ablation"] = ablation;
    EXPECT_TRUE(WriteFileAtomic(run + "/run.json", rj.dump()).ok());
    auto data = LoadRun(run);
    RunScore score = ScoreRun(*data, tasks);
    score.epochs = ScoreEpochs(*data, tasks);
    EXPECT_TRUE(WriteReports(score, *data, run).ok());
    return run;
  };
  // Standard: t1 right 1 of 3, t2 right 0 of 3. search=ideal: t1 3 of 3, t2 1 of 3.
  std::string standard = make("std", Json(), {{1, 0, 0}, {0, 0, 0}});
  std::string ideal = make("ideal", {{"search", "ideal"}}, {{0, 1, 1}, {1, 0, 0}});
  auto c = CompareRuns({standard, ideal});
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->runs[1].epochs, 3);
  EXPECT_EQ(c->em[0][1], 0);  // epoch 1's table: t1 wrong in the variant
  EXPECT_NEAR(c->score[0][0], 1.0 / 3, 1e-12);
  EXPECT_NEAR(c->score[0][1], 2.0 / 3, 1e-12);
  ASSERT_EQ(c->ablations.size(), 1u);
  const PairedDiff& d = c->ablations[0].diff;
  EXPECT_NEAR(d.em_base, (1.0 / 3 + 0) / 2, 1e-12);
  EXPECT_NEAR(d.em_other, (2.0 / 3 + 1.0 / 3) / 2, 1e-12);
  EXPECT_NEAR(d.diff, 1.0 / 3, 1e-12);
  EXPECT_EQ(d.other_only, 2u);  // higher on both tasks
  EXPECT_EQ(d.base_only, 0u);
  EXPECT_EQ(c->bottleneck, "search");
}

}  // namespace
}  // namespace lakeqa::eval
