// Paragraph discovery through the CLI on a small real lake: `lakeqa index build` writes the paragraph index
// (its --json counts, a page that is not text a per-file error), and `lakeqa eval cmdbench --task paragraph`
// ranks it in both scopes, with metrics worked out by hand from the pages below.
#include <gtest/gtest.h>

#include <map>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/json.h"
#include "support/cli_runner.h"

namespace lakeqa::cmdbench {
namespace {

using lakeqa::testing::CmdResult;
using lakeqa::testing::LakeqaBin;
using lakeqa::testing::LakeqaJson;
using lakeqa::testing::Sh;

// Ohio: #2 "Ohio is a state ...", #4 "The capital of Ohio is Columbus." (#3 a section marker);
// Texas: #2, #3; Columbus: #2, whose text and title both hold "columbus".
const char* kQuestions = R"([
  {"qid": "q1", "question": "What is the capital of Ohio?", "answer": "Columbus",
   "provenance_doc": {"paragraphs": [{"wikipedia_title": "Ohio", "paragraph_id": 4}]}},
  {"qid": "q2", "question": "Where is Columbus?", "answer": "Ohio",
   "provenance_doc": {"paragraphs": [{"wikipedia_title": "Ohio", "paragraph_id": 4}]}},
  {"qid": "q3", "question": "What is the population?", "answer": "many",
   "provenance_doc": {"paragraphs": [{"wikipedia_title": "Texas", "paragraph_id": 3}]}},
  {"qid": "q4", "question": "Name a capital.", "answer": "Columbus, Austin",
   "provenance_doc": {"paragraphs": [{"wikipedia_title": "Ohio", "paragraph_id": 4},
                                     {"wikipedia_title": "Texas", "paragraph_id": 3}]}}])";

class CmdbenchParagraphTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!PathExists(LakeqaBin())) GTEST_SKIP() << "lakeqa binary not built at " << LakeqaBin();
    dir_ = *MakeTempDir("lakeqa-cmdpara-");
    Put("lake/wikipedia/Ohio/content.txt",
        "Ohio\n\nOhio is a state in the Midwest.\nSection::::Capital.\nThe capital of Ohio is Columbus.\n");
    Put("lake/wikipedia/Texas/content.txt",
        "Texas\n\nTexas is a large state in the South.\nThe capital of Texas is Austin.\n");
    Put("lake/wikipedia/Columbus/content.txt", "Columbus\n\nColumbus was an explorer.\n");
    Put("lake/wikipedia/Broken/content.txt", std::string("Broken\n\nA NUL\0 here.\n", 21));
    Put("lake/cmdbench/t_1/t_1.csv", "state,capital\nOhio,Columbus\n");
    Put("q.json", kQuestions);
  }
  void TearDown() override {
    if (!dir_.empty()) (void)RemoveAll(dir_);
  }
  void Put(const std::string& rel, const std::string& text) { lakeqa::testing::PutFile(dir_, rel, text); }
  Json Build() {
    return LakeqaJson("index build -q --lake " + Sh(dir_ + "/lake") + " --index " + Sh(dir_ + "/index") +
                      " --json 2>/dev/null");
  }
  Json Eval(const std::string& scope) {
    return LakeqaJson("eval cmdbench --task paragraph --questions " + Sh(dir_ + "/q.json") + " --index " +
                      Sh(dir_ + "/index") + " --paragraph-scope " + scope + " --json 2>/dev/null");
  }
  std::string dir_;
};

TEST_F(CmdbenchParagraphTest, IndexBuildWritesOneUnitPerParagraphAndReportsUnreadablePages) {
  Json b = Build();
  const Json& p = b["paragraphs"];
  EXPECT_EQ(p["pages"], 3) << p;
  EXPECT_EQ(p["paragraphs"], 5) << p;  // Ohio 2, Texas 2, Columbus 1
  EXPECT_EQ(p["errors"], 1) << p;
  EXPECT_EQ(p["error_files"][0]["file"], "wikipedia/Broken/content.txt");
  EXPECT_NE(p["error_files"][0]["error"].get<std::string>().find("NUL byte at offset 13"), std::string::npos)
      << p;
  EXPECT_TRUE(PathExists(dir_ + "/index/paragraphs/index.json"));
}

TEST_F(CmdbenchParagraphTest, GoldPagesScopeRanksTheGoldPagesParagraphsAsCmdbenchsBaseline) {
  Build();
  Json r = Eval("gold-pages");
  ASSERT_EQ(r["questions"], 4) << r;
  EXPECT_EQ(r["scope"], "gold-pages");
  std::map<std::string, Json> q;
  for (const auto& row : r["per_question"]) q[row["qid"]] = row;
  // q1: Ohio#4 holds capital and ohio, Ohio#2 only ohio.
  EXPECT_EQ(q["q1"]["candidates"], 2);
  EXPECT_EQ(q["q1"]["top"][0]["id"], "wikipedia/Ohio#4");
  EXPECT_EQ(q["q1"]["gold"][0], "wikipedia/Ohio#4");
  // q2: only Ohio's paragraphs compete; Ohio#4 holds columbus.
  EXPECT_EQ(q["q2"]["top"][0]["id"], "wikipedia/Ohio#4");
  // q3: no query word is in Texas: both candidates score 0 and stay in paragraph order, Texas#3 second.
  EXPECT_EQ(q["q3"]["top_ties"], 2);
  EXPECT_EQ(q["q3"]["top"][0]["id"], "wikipedia/Texas#2");
  EXPECT_EQ(q["q3"]["top"][1]["id"], "wikipedia/Texas#3");
  EXPECT_EQ(q["q3"]["metrics"]["mrr"], 0.5);
  // q4: Ohio#4 and Texas#3 score alike (one "capital" in six words): a tie in page order, both gold.
  EXPECT_EQ(q["q4"]["candidates"], 4);
  EXPECT_EQ(q["q4"]["top_ties"], 2);
  EXPECT_EQ(q["q4"]["top"][0]["id"], "wikipedia/Ohio#4");
  EXPECT_EQ(q["q4"]["top"][1]["id"], "wikipedia/Texas#3");
  EXPECT_EQ(q["q4"]["metrics"]["r_precision"], 1.0);
  const Json& m = r["metrics"];
  EXPECT_DOUBLE_EQ(m["p@1"].get<double>(), 0.75);
  EXPECT_DOUBLE_EQ(m["mrr"].get<double>(), 0.875);  // (1 + 1 + 0.5 + 1) / 4
  EXPECT_DOUBLE_EQ(m["r@3"].get<double>(), 1.0);
}

TEST_F(CmdbenchParagraphTest, AllScopeSearchesEveryParagraphWithoutBeingToldThePage) {
  Build();
  Json r = Eval("all");
  ASSERT_EQ(r["questions"], 4) << r;
  std::map<std::string, Json> q;
  for (const auto& row : r["per_question"]) q[row["qid"]] = row;
  EXPECT_EQ(q["q1"]["candidates"], 5);
  EXPECT_EQ(q["q1"]["top"][0]["id"], "wikipedia/Ohio#4");
  // q2: Columbus#2 holds columbus in its text and its page title, ahead of the gold Ohio#4.
  EXPECT_EQ(q["q2"]["top"][0]["id"], "wikipedia/Columbus#2");
  EXPECT_EQ(q["q2"]["top"][1]["id"], "wikipedia/Ohio#4");
  EXPECT_EQ(q["q2"]["metrics"]["mrr"], 0.5);
  // q3: no paragraph holds "population": nothing is ranked.
  EXPECT_EQ(q["q3"]["top"].size(), 0u);
  EXPECT_EQ(q["q3"]["metrics"]["mrr"], 0.0);
  EXPECT_EQ(q["q4"]["top"][0]["id"], "wikipedia/Ohio#4");
  EXPECT_EQ(q["q4"]["top"][1]["id"], "wikipedia/Texas#3");
  const Json& m = r["metrics"];
  EXPECT_DOUBLE_EQ(m["p@1"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(m["mrr"].get<double>(), 0.625);  // (1 + 0.5 + 0 + 1) / 4
}

TEST_F(CmdbenchParagraphTest, AnIndexWithoutParagraphsAndABadScopeAreRefusedNamingTheFix) {
  Build();
  CmdResult bad =
      lakeqa::testing::Lakeqa("eval cmdbench --task paragraph --questions " + Sh(dir_ + "/q.json") +
                              " --index " + Sh(dir_ + "/index") + " --paragraph-scope pages 2>&1");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.out.find("--paragraph-scope must be gold-pages or all, got 'pages'"), std::string::npos)
      << bad.out;
  ASSERT_TRUE(
      RemoveAll(dir_ + "/index/paragraphs").ok());  // as an index built before paragraphs were indexed
  CmdResult old =
      lakeqa::testing::Lakeqa("eval cmdbench --task paragraph --questions " + Sh(dir_ + "/q.json") +
                              " --index " + Sh(dir_ + "/index") + " --json 2>&1");
  EXPECT_NE(old.exit_code, 0);
  EXPECT_NE(old.out.find("no paragraph index"), std::string::npos) << old.out;
  EXPECT_NE(old.out.find("rebuild it with `lakeqa index build"), std::string::npos) << old.out;
}

}  // namespace
}  // namespace lakeqa::cmdbench
