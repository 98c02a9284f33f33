// The run folder's layout (docs/formats-run.md): a rename here would orphan every run on disk, so the
// names are spelled out, and a run written through RunDir's paths is what LoadRun reads.
#include "lakeqa/eval/run_dir.h"

#include <gtest/gtest.h>

#include "lakeqa/common/fs.h"
#include "lakeqa/eval/prediction.h"
#include "lakeqa/eval/score.h"

namespace lakeqa::eval {
namespace {

TEST(RunDirTest, NamesEveryPartOfTheFolder) {
  RunDir d("/runs/a");
  EXPECT_EQ(d.dir(), "/runs/a");
  EXPECT_EQ(d.RunJson(), "/runs/a/run.json");
  EXPECT_EQ(d.Predictions(), "/runs/a/predictions.jsonl");
  EXPECT_EQ(d.TracesDir(), "/runs/a/traces");
  EXPECT_EQ(d.TracesDir(1), "/runs/a/traces");
  EXPECT_EQ(d.TracesDir(3), "/runs/a/traces/epoch-3");
  EXPECT_EQ(d.Trace("t1"), "/runs/a/traces/t1.jsonl");
  EXPECT_EQ(d.Trace("t1", 2), "/runs/a/traces/epoch-2/t1.jsonl");
  EXPECT_EQ(d.Cassette(), "/runs/a/cassette.jsonl");
  EXPECT_EQ(d.WorkDir(), "/runs/a/work");
  EXPECT_EQ(d.ReportJson(), "/runs/a/report.json");
  EXPECT_EQ(d.ReportHtml(), "/runs/a/report.html");
  EXPECT_EQ(d.ReportTracesDir(), "/runs/a/report-traces");
  EXPECT_EQ(d.JudgeDir(), "/runs/a/judge");
  EXPECT_EQ(RunDir::ReportTraceScript(7), "report-traces/7.js");
}

// Task ids become file names (TraceFileName): no id can climb out of traces/ or hide as a dot file.
TEST(RunDirTest, TraceNamesAreSafeFileNames) {
  EXPECT_EQ(RunDir::TraceRelative("21 June 2018"), "traces/21_June_2018.jsonl");
  EXPECT_EQ(RunDir::TraceRelative("../../etc/passwd", 2), "traces/epoch-2/_.._.._etc_passwd.jsonl");
  EXPECT_EQ(RunDir::TraceRelative(""), "traces/_.jsonl");
  EXPECT_EQ(RunDir("r").Trace(".hidden"), "r/traces/_.hidden.jsonl");
}

// A folder given with a trailing '/' (shell completion) names the same files, without "//".
TEST(RunDirTest, TrailingSlashAndRelativeFolders) {
  EXPECT_EQ(RunDir("runs/a/").Predictions(), "runs/a/predictions.jsonl");
  EXPECT_EQ(RunDir("runs/a").RunJson(), "runs/a/run.json");
  EXPECT_EQ(RunDir("").RunJson(), "run.json");
}

// Written where RunDir says, read back by the scorer: epoch 1 and a later epoch, predictions and traces.
TEST(RunDirTest, ScorerReadsWhatIsWrittenAtRunDirPaths) {
  std::string dir = *MakeTempDir("lakeqa-rundir-");
  RunDir d(dir);
  std::string lines;
  for (int epoch : {1, 2}) {
    PredictionRecord r;
    r.task_id = "a b";
    r.answer = "x";
    r.raw_answer = "x";
    r.elapsed_s = 1;
    r.epoch = epoch;
    lines += DumpJson(r.ToJson()) + "\n";
    ASSERT_TRUE(MakeDirs(d.TracesDir(epoch)).ok());
    Json ev = {{"turn", 1}, {"tool", "search"}, {"status", "ok"}, {"epoch", epoch}};
    ASSERT_TRUE(WriteFileAtomic(d.Trace("a b", epoch), DumpJson(ev) + "\n").ok());
  }
  ASSERT_TRUE(WriteFileAtomic(d.Predictions(), lines).ok());
  ASSERT_TRUE(WriteFileAtomic(d.RunJson(), R"({"format": "lakeqa-run/1"})").ok());
  auto run = LoadRun(dir);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_TRUE(run->warnings.empty()) << run->warnings[0];
  EXPECT_EQ(run->run_json["format"], "lakeqa-run/1");
  ASSERT_EQ(run->predictions.size(), 1u);
  EXPECT_EQ(run->predictions[0].task_id, "a b");
  ASSERT_EQ(run->traces.count("a b"), 1u);
  EXPECT_EQ(run->traces["a b"].size(), 1u);
  ASSERT_EQ(run->Epochs(), 2);
  ASSERT_EQ(run->later_traces[2].count("a b"), 1u);
  EXPECT_EQ(run->later_traces[2]["a b"][0].tool, "search");
  (void)RemoveAll(dir);
}

}  // namespace
}  // namespace lakeqa::eval
