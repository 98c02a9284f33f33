// KramaBench's workload/ folder as discovery questions and tasks (moved from tests/eval/discovery_test.cc
// with the workload format, which KramaBench registers).
#include <gtest/gtest.h>

#include <set>

#include "eval/test_util.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/eval/discovery.h"
#include "lakeqa/eval/task.h"

namespace lakeqa::eval {
namespace {

// Issue 30, item 12: a KramaBench workload/ folder given whole. legal-tiny.json and
// quick-start-questions.json are not domain files and reuse ids of legal.json and environment.json (for
// other versions of those tasks): they are skipped with a note; the domain files load and discovery runs.
TEST(DiscoveryQuestionsTest, AKramaBenchWorkloadFolderIsRecognised) {
  auto dir = MakeTempDir("lakeqa-discovery-kb-");
  ASSERT_TRUE(dir.ok());
  auto task = [](const std::string& id, const std::string& q, const std::string& src) {
    return "{\"id\": \"" + id + "\", \"query\": \"" + q +
           "\", \"answer\": 1, \"answer_type\": \"numeric_exact\", "
           "\"data_sources\": [\"" +
           src + "\"], \"subtasks\": []}";
  };
  ASSERT_TRUE(WriteFileAtomic(*dir + "/workload/legal.json",
                              "[" + task("legal-hard-1", "Fraud in 2024?", "a.csv") + ", " +
                                  task("legal-easy-2", "Reports in 2023?", "b.csv") + "]")
                  .ok());
  ASSERT_TRUE(WriteFileAtomic(*dir + "/workload/legal-tiny.json",
                              "[" + task("legal-hard-1", "Fraud, older wording?", "a.csv") + "]")
                  .ok());
  ASSERT_TRUE(WriteFileAtomic(*dir + "/workload/environment.json",
                              "[" + task("environment-easy-1", "Exceedances 2013?", "w.csv") + "]")
                  .ok());
  ASSERT_TRUE(WriteFileAtomic(*dir + "/workload/quick-start-questions.json",
                              "[" + task("environment-easy-1", "Exceedances 2018?", "w18.csv") + "]")
                  .ok());
  LoadResult loaded = LoadTasks({*dir + "/workload"});
  EXPECT_TRUE(loaded.errors.empty()) << loaded.errors[0].status.message();
  ASSERT_EQ(loaded.tasks.size(), 3u);
  ASSERT_EQ(loaded.notes.size(), 2u);
  EXPECT_NE(loaded.notes[0].find("legal-tiny.json: skipped"), std::string::npos) << loaded.notes[0];
  EXPECT_NE(loaded.notes[0].find("legal-hard-1"), std::string::npos) << loaded.notes[0];
  EXPECT_NE(loaded.notes[1].find("quick-start-questions.json: skipped"), std::string::npos)
      << loaded.notes[1];
  for (const Task& t : loaded.tasks) {
    if (t.id == "legal-hard-1") {
      EXPECT_EQ(t.question, "Fraud in 2024?");
    }
  }
  std::vector<std::string> skipped;
  auto qs = LoadLakeQaQuestions({*dir + "/workload"}, false, &skipped);
  ASSERT_TRUE(qs.ok()) << qs.status().ToString();
  EXPECT_EQ(qs->size(), 3u);
  EXPECT_EQ(skipped.size(), 2u);
  // Given alone, an extra file loads.
  EXPECT_EQ(LoadTasks({*dir + "/workload/legal-tiny.json"}).tasks.size(), 1u);
  (void)RemoveAll(*dir);
}

// The real checkout's workload/ folder, when ../shared/data holds it: 104 tasks, two files skipped.
TEST(DiscoveryQuestionsTest, KramaBenchsOwnWorkloadFolderLoadsWhole) {
  std::string w = testing::SharedData() + "/kramabench/workload";
  if (!PathExists(w + "/legal.json")) GTEST_SKIP() << "no KramaBench checkout at " << w;
  LoadResult loaded = LoadTasks({w});
  EXPECT_TRUE(loaded.errors.empty()) << loaded.errors[0].status.message();
  EXPECT_EQ(loaded.tasks.size(), 104u);
  ASSERT_EQ(loaded.notes.size(), 2u);
  std::set<std::string> ids;
  for (const Task& t : loaded.tasks) EXPECT_TRUE(ids.insert(t.id).second) << t.id;
}

}  // namespace
}  // namespace lakeqa::eval
