// A resumed run appends a new line for every task it runs again, so predictions.jsonl can hold several
// lines per task. The one rule (shared with `lakeqa run`, see tests/agent/run_test.cc): the last final line
// wins, else the last line; every other line is listed in the report as superseded.
#include <gtest/gtest.h>

#include "lakeqa/common/fs.h"
#include "lakeqa/eval/score.h"

#include "eval/run_fixture.h"

namespace lakeqa::eval {
namespace {

class ResumeRule : public ::testing::Test {
 protected:
  void SetUp() override {
    auto d = MakeTempDir("lakeqa-resume-rule");
    ASSERT_TRUE(d.ok());
    dir_ = *d;
  }
  void TearDown() override { (void)RemoveAll(dir_); }
  std::string dir_;
};

TEST_F(ResumeRule, AnErrorFixedOnResumeIsScoredAsTheAnswer) {
  auto preds = testing::WeakRun();
  testing::PredSpec failed = preds[0];
  failed.answer = nullptr;
  failed.status = "error";
  failed.events.clear();
  preds.insert(preds.begin(), failed);  // line 1: t1 failed; line 2: t1 answered on resume
  testing::WriteRun(dir_, preds);
  auto run = LoadRun(dir_);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  RunScore s = ScoreRun(*run, testing::WeakTasks());
  ASSERT_EQ(s.tasks.size(), 6u);
  EXPECT_EQ(s.tasks[0].task_id, "t1");
  EXPECT_EQ(s.tasks[0].status, "ok");
  EXPECT_TRUE(s.tasks[0].answer.em);
  for (const std::string& w : s.warnings) EXPECT_EQ(w.find("duplicate"), std::string::npos) << w;
  Json j = s.ToJson();
  ASSERT_TRUE(j["superseded"].is_array()) << j.dump();
  ASSERT_EQ(j["superseded"].size(), 1u);
  EXPECT_EQ(j["superseded"][0], (Json{{"task_id", "t1"}, {"line", 1}, {"status", "error"}, {"by_line", 2}}));
}

TEST_F(ResumeRule, ALaterFailureDoesNotReplaceAFinalLine) {
  auto preds = testing::WeakRun();
  testing::PredSpec crashed = preds[0];
  crashed.answer = nullptr;
  crashed.status = "crashed";
  crashed.events.clear();
  preds.push_back(crashed);  // line 7: t1 crashed after it had been answered on line 1
  // t2 failed twice: the last of its lines stands, and it is a failure.
  testing::PredSpec e1 = preds[1], e2 = preds[1];
  e1.status = e2.status = "error";
  e1.events.clear();
  e2.events.clear();
  preds.erase(preds.begin() + 1);
  preds.push_back(e1);
  preds.push_back(e2);
  testing::WriteRun(dir_, preds);
  auto run = LoadRun(dir_);
  ASSERT_TRUE(run.ok());
  RunScore s = ScoreRun(*run, testing::WeakTasks());
  EXPECT_EQ(s.tasks[0].status, "ok");
  EXPECT_TRUE(s.tasks[0].answer.em);
  EXPECT_EQ(s.tasks[1].status, "error");
  Json sup = s.ToJson()["superseded"];
  ASSERT_EQ(sup.size(), 2u) << sup.dump();
  EXPECT_EQ(sup[0], (Json{{"task_id", "t1"}, {"line", 6}, {"status", "crashed"}, {"by_line", 1}}));
  EXPECT_EQ(sup[1], (Json{{"task_id", "t2"}, {"line", 7}, {"status", "error"}, {"by_line", 8}}));
}

}  // namespace
}  // namespace lakeqa::eval
