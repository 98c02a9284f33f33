// CMDBench questions through `tasks verify`, `run --agent oracle` and `tasks validate`: a table question
// works (its provenance table is the node), and graph, document and source-routing questions are skipped
// with a one-line reason instead of failing as malformed. Also `tasks validate`'s exit codes for a path
// that does not exist and a folder without task files.
#include <gtest/gtest.h>

#include <filesystem>
#include <mutex>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/json.h"
#include "llm/model_server.h"
#include "support/cli_runner.h"

namespace lakeqa::agent {
namespace {

using lakeqa::testing::CmdResult;
using lakeqa::testing::LakeqaBin;
using lakeqa::testing::Sh;

const char* kTableQuestion = R"({"qid": "ex1", "answer": "37",
  "question": "In the 1999-2000 Toronto Raptors season, how many points did Vince Carter score on March 19?",
  "provenance_table": {"table": "t_1_13619135_7", "column": "['date', 'high points']"}})";
const char* kGraphQuestion = R"({"qid": "g1", "answer": "yes", "question": "Was Dennis Rodman a Piston?",
  "provenance_graph": {"cypher": "MATCH (p:Player) RETURN p", "node_ids": [5224], "edge_ids": [], "type": "point"}})";
const char* kDocQuestion = R"({"qid": "d1", "answer": "Washington", "question": "Where do the Wizards play?",
  "provenance_doc": {"paragraphs": [{"wikipedia_title": "Washington Wizards", "paragraph_id": 0, "text": "W"}]}})";
const char* kRoutingQuestion = R"({"qid": "s1", "answer": "yes", "question": "Any tall Warriors draftee?",
  "provenance_sources": ["graph"]})";

class CmdbenchCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!PathExists(LakeqaBin())) GTEST_SKIP() << "lakeqa binary not built at " << LakeqaBin();
    dir_ = *MakeTempDir("lakeqa-cmdcli-");
    // The sandbox user must reach the scratch folders inside.
    std::filesystem::permissions(dir_, std::filesystem::perms::others_exec | std::filesystem::perms::group_exec,
                                 std::filesystem::perm_options::add);
    // The layout `lake build --source cmdbench:...` writes (docs/lake-build.md), for one table.
    Put("lake/cmdbench/t_1_13619135_7/t_1_13619135_7.csv",
        "game,date,team,score,high points\n65,March 19,Houston,W 112-95,Vince Carter (37)\n");
    Put("lake/cmdbench/t_1_13619135_7/metadata.json",
        R"({"kind": "table", "table": "t_1_13619135_7", "page_title": "1999-2000 Toronto Raptors season"})");
    CmdResult b = Cli("index build -q --lake " + Sh(dir_ + "/lake") + " --index " + Sh(dir_ + "/index") + " 2>&1");
    ASSERT_EQ(b.exit_code, 0) << b.out;
  }
  void TearDown() override {
    if (!dir_.empty()) (void)RemoveAll(dir_);
  }
  void Put(const std::string& rel, const std::string& text) { lakeqa::testing::PutFile(dir_, rel, text); }
  std::string Questions(const std::string& name, const std::vector<const char*>& qs) {
    std::string text = "[";
    for (size_t i = 0; i < qs.size(); ++i) text += (i ? "," : "") + std::string(qs[i]);
    Put(name, text + "]");
    return dir_ + "/" + name;
  }
  CmdResult Cli(const std::string& args) { return lakeqa::testing::Lakeqa(args); }
  std::string Verify(const std::string& file) {
    return "tasks verify -q " + Sh(file) + " --lake " + Sh(dir_ + "/lake") + " --index " + Sh(dir_ + "/index");
  }
  std::string dir_;
};

TEST_F(CmdbenchCliTest, TableQuestionsAreGroundedByTheirProvenanceTable) {
  std::string q = Questions("table.json", {kTableQuestion});
  CmdResult r = Cli(Verify(q) + " --json 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  Json j = Json::parse(r.out);
  EXPECT_EQ(j["tasks_grounded"], 1);
  EXPECT_EQ(j["results"][0]["nodes"][0]["source"], "cmdbench/t_1_13619135_7/t_1_13619135_7.csv");

  // The oracle answers it through the tools, and the table counts as accessed.
  CmdResult run = Cli("run -q --agent oracle --tasks " + Sh(q) + " --lake " + Sh(dir_ + "/lake") + " --index " +
                      Sh(dir_ + "/index") + " --out " + Sh(dir_ + "/run") + " 2>&1");
  ASSERT_EQ(run.exit_code, 0) << run.out;
  std::string preds = *ReadFile(dir_ + "/run/predictions.jsonl");
  Json p = Json::parse(preds.substr(0, preds.find('\n')));
  EXPECT_EQ(p["task_id"], "ex1");
  EXPECT_NE(p["answer"].get<std::string>().find("37"), std::string::npos) << preds;
}

TEST_F(CmdbenchCliTest, OtherKindsSayInOneLineWhyTheyDoNotApply) {
  std::string only = Questions("other.json", {kGraphQuestion, kDocQuestion, kRoutingQuestion});
  CmdResult r = Cli(Verify(only) + " 2>&1");
  EXPECT_EQ(r.exit_code, 11) << r.out;  // unsupported, not 6 (parse_error)
  for (const char* why : {"other.json[0]: not applicable: a CMDBench graph question",
                          "other.json[1]: not applicable: a CMDBench document question",
                          "other.json[2]: not applicable: a CMDBench source-routing question"}) {
    EXPECT_NE(r.out.find(why), std::string::npos) << why << "\n" << r.out;
  }
  EXPECT_EQ(r.out.find("parse_error"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("names no table"), std::string::npos) << r.out;

  // Mixed with a table question: the table question is verified, the others named; exit 0.
  std::string mixed = Questions("mixed.json", {kGraphQuestion, kTableQuestion});
  CmdResult m = Cli(Verify(mixed) + " --json 2>/dev/null");
  ASSERT_EQ(m.exit_code, 0) << m.out;
  Json j = Json::parse(m.out);
  EXPECT_EQ(j["tasks_grounded"], 1);
  EXPECT_EQ(j["not_applicable"], 1);
  EXPECT_EQ(j["load_errors"], 0);

  CmdResult v = Cli("tasks validate " + Sh(only) + " 2>&1");
  EXPECT_EQ(v.exit_code, 11) << v.out;
}

TEST_F(CmdbenchCliTest, ValidateExitsNotFoundForAMissingPathOrAnEmptyFolder) {
  CmdResult missing = Cli("tasks validate --json " + Sh(dir_ + "/no-such-tasks"));
  EXPECT_EQ(missing.exit_code, 3) << missing.out;
  EXPECT_NE(missing.out.find("no such file or directory"), std::string::npos) << missing.out;
  ASSERT_TRUE(MakeDirs(dir_ + "/empty").ok());
  CmdResult empty = Cli("tasks validate " + Sh(dir_ + "/empty") + " 2>&1");
  EXPECT_EQ(empty.exit_code, 3) << empty.out;
  EXPECT_NE(empty.out.find("no *.json or *.jsonl task files"), std::string::npos) << empty.out;
  // A readable question file still validates.
  EXPECT_EQ(Cli("tasks validate " + Sh(Questions("t.json", {kTableQuestion})) + " >/dev/null").exit_code, 0);
}


// CMDBench's oracle-vs-discovery comparison: with --provide-provenance the agent's question carries the gold
// table (dataset, file, columns); without it, it does not. The llm agent talks to a loopback server speaking
// OpenAI Chat Completions, which answers at once with submit_answer.
TEST_F(CmdbenchCliTest, ProvideProvenanceHandsTheAgentTheGoldTable) {
  std::string q = Questions("table.json", {kTableQuestion});
  std::vector<std::string> questions;
  std::mutex mu;
  lakeqa::testing::ModelServer srv([&](const std::string&, const Json& body) {
    if (!body.contains("tools")) return lakeqa::testing::OpenAiTextStream("OK");  // the preflight
    {
      std::lock_guard<std::mutex> lock(mu);
      questions.push_back(body["messages"][1]["content"].get<std::string>());
    }
    return lakeqa::testing::OpenAiToolCallStream("submit_answer", {{"answer", "37"}}, "c1");
  });
  auto run = [&](const std::string& out, const std::string& flag) {
    return Cli("run -q --agent llm --model openai:gpt-5.2 --base-url " + Sh(srv.Url() + "/v1") + " --tasks " + Sh(q) +
               " --lake " + Sh(dir_ + "/lake") + " --index " + Sh(dir_ + "/index") + " --out " + Sh(dir_ + "/" + out) +
               " " + flag + " 2>&1");
  };
  CmdResult given = run("given", "--provide-provenance");
  ASSERT_EQ(given.exit_code, 0) << given.out;
  CmdResult plain = run("plain", "");
  ASSERT_EQ(plain.exit_code, 0) << plain.out;
  ASSERT_EQ(questions.size(), 2u);
  EXPECT_NE(questions[0].find("PROVENANCE (given for this run"), std::string::npos) << questions[0];
  EXPECT_NE(questions[0].find("the table cmdbench/t_1_13619135_7 (lake file "
                              "cmdbench/t_1_13619135_7/t_1_13619135_7.csv); columns ['date', 'high points']"),
            std::string::npos)
      << questions[0];
  EXPECT_EQ(questions[1].find("PROVENANCE"), std::string::npos) << questions[1];
  EXPECT_EQ(Json::parse(*ReadFile(dir_ + "/given/run.json"))["config"]["provide_provenance"], true);
  // Scored as any run: EM against the question file's answer.
  CmdResult ev = Cli("eval --run " + Sh(dir_ + "/given") + " --json 2>/dev/null");
  ASSERT_EQ(ev.exit_code, 0) << ev.out;
  EXPECT_DOUBLE_EQ(Json::parse(ev.out)["em"].get<double>(), 1.0) << ev.out;

  // A LakeQA-format task is refused, naming it.
  Put("lakeqa.json", R"({"question_id": "L1", "question": "q", "answer": "1", "datasets_used": ["a/b/c.csv"],
    "nodes": {"1": {"source": "a/b/c.csv", "fact": "f", "subquestion": "q", "answer": "1"}},
    "reasoning_hops": [{"hop": 1, "node_ids": [1], "reasoning": ["r"], "answer": "1"}]})");
  CmdResult bad = Cli("run -q --agent baseline --tasks " + Sh(dir_ + "/lakeqa.json") + " --lake " + Sh(dir_ + "/lake") +
                      " --index " + Sh(dir_ + "/index") + " --out " + Sh(dir_ + "/bad") + " --provide-provenance 2>&1");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.out.find("task L1"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("is not a CMDBench question"), std::string::npos) << bad.out;
}

}  // namespace
}  // namespace lakeqa::agent
