// CMDBench questions through `tasks verify`, `run` and `eval`: table, graph and document questions are
// grounded by their provenance files and scored against them; a source-routing question by the modalities
// touched. Also `tasks validate`'s exit codes for a path that does not exist and a folder without task files.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <mutex>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/json.h"
#include "llm/model_server.h"
#include "support/cli_runner.h"

namespace lakeqa::cmdbench {
namespace {

using lakeqa::testing::CmdResult;
using lakeqa::testing::LakeqaBin;
using lakeqa::testing::Sh;

const char* kTableQuestion = R"({"qid": "ex1", "answer": "37",
  "question": "In the 1999-2000 Toronto Raptors season, how many points did Vince Carter score on March 19?",
  "provenance_table": {"table": "t_1_13619135_7", "column": "['date', 'high points']"}})";
const char* kGraphQuestion = R"({"qid": "g1", "answer": "yes", "question": "Was Dennis Rodman a Piston?",
  "provenance_graph": {"cypher": "MATCH (p:Player {name: 'Dennis Rodman'})-[r:playsFor]->(t:Team {name: 'Detroit Pistons'}) RETURN t.name",
  "node_ids": [5224], "edge_ids": [], "type": "path"}})";
const char* kDocQuestion = R"({"qid": "d1", "answer": "Washington", "question": "Where do the Wizards play?",
  "provenance_doc": {"paragraphs": [{"wikipedia_title": "Washington Wizards", "paragraph_id": 1, "text": "W"}]}})";
const char* kRoutingQuestion = R"({"qid": "s1", "answer": "yes", "question": "Any tall Warriors draftee?",
  "provenance_sources": ["graph"]})";

class CmdbenchCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!PathExists(LakeqaBin())) GTEST_SKIP() << "lakeqa binary not built at " << LakeqaBin();
    dir_ = *MakeTempDir("lakeqa-cmdcli-");
    // The sandbox user must reach the scratch folders inside.
    std::filesystem::permissions(dir_,
                                 std::filesystem::perms::others_exec | std::filesystem::perms::group_exec,
                                 std::filesystem::perm_options::add);
    // The layout `lake build --source cmdbench:...` writes (docs/lake-build.md), for one table.
    Put("lake/cmdbench/t_1_13619135_7/t_1_13619135_7.csv",
        "game,date,team,score,high points\n65,March 19,Houston,W 112-95,Vince Carter (37)\n");
    Put("lake/cmdbench/t_1_13619135_7/metadata.json",
        R"({"kind": "table", "table": "t_1_13619135_7", "page_title": "1999-2000 Toronto Raptors season"})");
    // A graph (Neo4j-import files as the cmdbench source lays them out) and a Wikipedia page beside it.
    Put("lake/cmdbench/graph_nodes_Player/Player.csv",
        "wikidata_id:ID(Player),name,height\n"
        "Q201608,Dennis Rodman,201 centimetre\nQ25369,Michael Jordan,198 centimetre\n");
    Put("lake/cmdbench/graph_nodes_Team/Team.csv",
        "wikidata_id:ID(Team),name\nQ162990,Detroit Pistons\n"
        "Q128109,Chicago Bulls\n");
    Put("lake/cmdbench/graph_relation_playsFor/relation_playsFor.csv",
        ":START_ID(Player),:END_ID(Team),start_time\nQ201608,Q162990,1986\nQ201608,Q128109,1995\n"
        "Q25369,Q128109,1984\n");
    Put("lake/wikipedia/Washington_Wizards/content.txt",
        "Washington Wizards\nThe Washington Wizards are an American professional basketball team based in "
        "Washington, D.C.\nThey play their home games at Capital One Arena.\n");
    CmdResult b =
        Cli("index build -q --lake " + Sh(dir_ + "/lake") + " --index " + Sh(dir_ + "/index") + " 2>&1");
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
    return "tasks verify -q " + Sh(file) + " --lake " + Sh(dir_ + "/lake") + " --index " +
           Sh(dir_ + "/index");
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
  CmdResult run = Cli("run -q --agent oracle --tasks " + Sh(q) + " --lake " + Sh(dir_ + "/lake") +
                      " --index " + Sh(dir_ + "/index") + " --out " + Sh(dir_ + "/run") + " 2>&1");
  ASSERT_EQ(run.exit_code, 0) << run.out;
  std::string preds = *ReadFile(dir_ + "/run/predictions.jsonl");
  Json p = Json::parse(preds.substr(0, preds.find('\n')));
  EXPECT_EQ(p["task_id"], "ex1");
  EXPECT_NE(p["answer"].get<std::string>().find("37"), std::string::npos) << preds;
}

// Graph and document questions run like table questions: their gold files are the node and relation files
// the provenance Cypher names and the gold pages. The oracle grounds them through the tools (a graph question
// through graph_query with its provenance Cypher), and D_acc is 1. A source-routing question has no file to
// ground: `tasks verify` says so in one line, and the oracle leaves it unanswered.
TEST_F(CmdbenchCliTest, GraphAndDocumentQuestionsRunAndScoreAgainstTheirProvenance) {
  std::string q = Questions("kinds.json", {kGraphQuestion, kDocQuestion, kRoutingQuestion});
  CmdResult v = Cli(Verify(q) + " --json 2>" + Sh(dir_ + "/verify.err"));
  ASSERT_EQ(v.exit_code, 0) << v.out << *ReadFile(dir_ + "/verify.err");
  Json vj = Json::parse(v.out);
  EXPECT_EQ(vj["tasks_grounded"], 2) << v.out;
  EXPECT_EQ(vj["not_applicable"], 1) << v.out;
  EXPECT_NE(ReadFile(dir_ + "/verify.err")
                ->find("kinds.json [s1]: not applicable: a CMDBench source-routing question: "
                       "its gold is a modality (graph), not a lake file"),
            std::string::npos);

  CmdResult run = Cli("run -q --agent oracle --tasks " + Sh(q) + " --lake " + Sh(dir_ + "/lake") +
                      " --index " + Sh(dir_ + "/index") + " --out " + Sh(dir_ + "/run") + " 2>&1");
  ASSERT_EQ(run.exit_code, 0) << run.out;
  CmdResult ev = Cli("eval --run " + Sh(dir_ + "/run") + " --tasks " + Sh(q) + " --json 2>/dev/null");
  ASSERT_EQ(ev.exit_code, 0) << ev.out;
  Json e = Json::parse(*ReadFile(dir_ + "/run/report.json"));
  std::map<std::string, Json> by_id;
  for (const auto& t : e["per_task"]) by_id[t["task_id"]] = t;
  ASSERT_EQ(by_id.size(), 3u) << ev.out;
  const Json& g = by_id["g1"];
  EXPECT_EQ(g["cmdbench_kind"], "graph");
  EXPECT_TRUE(g["em"].get<bool>()) << g;
  EXPECT_EQ(g["gold_datasets"], Json({"cmdbench/graph_nodes_Player", "cmdbench/graph_nodes_Team",
                                      "cmdbench/graph_relation_playsFor"}));
  EXPECT_DOUBLE_EQ(g["dacc"]["recall"].get<double>(), 1.0) << g;
  EXPECT_DOUBLE_EQ(g["dacc"]["precision"].get<double>(), 1.0) << g;
  // Issue 30, item 9: what graph_query returned is retrieved (D_ret), not only read.
  EXPECT_DOUBLE_EQ(g["dret"]["recall"].get<double>(), 1.0) << g;
  const Json& d = by_id["d1"];
  EXPECT_EQ(d["cmdbench_kind"], "doc");
  EXPECT_TRUE(d["em"].get<bool>()) << d;
  EXPECT_EQ(d["gold_datasets"], Json({"wikipedia/Washington_Wizards"}));
  EXPECT_DOUBLE_EQ(d["dacc"]["recall"].get<double>(), 1.0) << d;
  const Json& s = by_id["s1"];
  EXPECT_EQ(s["cmdbench_kind"], "source");
  EXPECT_EQ(s["gold_datasets"], Json({"graph"}));
  EXPECT_FALSE(s["em"].get<bool>()) << s;

  // report.json and report.html break the run down by question kind.
  const Json& kinds = e["by_cmdbench_kind"];
  EXPECT_EQ(kinds["graph"]["tasks"], 1);
  EXPECT_DOUBLE_EQ(kinds["graph"]["em"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(kinds["graph"]["dacc_f1"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(kinds["doc"]["dacc_r"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(kinds["source"]["em"].get<double>(), 0.0);
  EXPECT_TRUE(kinds["source"]["judge_accuracy"].is_null());  // not judged: unknown, not 0
  std::string html = *ReadFile(dir_ + "/run/report.html");
  EXPECT_NE(html.find("<h2 id=\"cmdbench\">CMDBench</h2>"), std::string::npos);
  EXPECT_NE(html.find("Setting: <b>discovery</b>"), std::string::npos);
  EXPECT_NE(html.find("<tr><td>graph</td><td>1</td><td>100.0% (1)</td>"), std::string::npos)
      << html.substr(html.find("id=\"cmdbench\""), 1500);

  // The oracle's graph_query call carries the provenance Cypher and names the identities it matched.
  std::string traces = *ReadFile(dir_ + "/run/traces/g1.jsonl");
  EXPECT_NE(traces.find("\"graph_query\""), std::string::npos) << traces;
  EXPECT_NE(traces.find("Player:Q201608-[playsFor]->Team:Q162990#"), std::string::npos) << traces;
}

// A source question is scored by modality: the datasets an agent touched count as their source (doc, table,
// graph), against the question's gold sources. The llm agent looks a node up in the graph, then answers.
TEST_F(CmdbenchCliTest, SourceQuestionsScoreTheModalitiesAnAgentTouched) {
  std::string q = Questions("source.json", {kRoutingQuestion});
  lakeqa::testing::ModelServer srv([&](const std::string&, const Json& body) {
    if (!body.contains("tools")) return lakeqa::testing::OpenAiTextStream("OK");  // the preflight
    bool after_tool = false;
    for (const auto& m : body["messages"]) after_tool = after_tool || m.value("role", "") == "tool";
    if (!after_tool)
      return lakeqa::testing::OpenAiToolCallStream("graph_find_nodes", {{"name", "Dennis Rodman"}}, "c1");
    return lakeqa::testing::OpenAiToolCallStream("submit_answer", {{"answer", "yes"}}, "c2");
  });
  CmdResult run =
      Cli("run -q --agent llm --model openai:gpt-5.2 --base-url " + Sh(srv.Url() + "/v1") + " --tasks " +
          Sh(q) + " --tools graph_find_nodes,search_keyword --lake " + Sh(dir_ + "/lake") + " --index " +
          Sh(dir_ + "/index") + " --out " + Sh(dir_ + "/run") + " 2>&1");
  ASSERT_EQ(run.exit_code, 0) << run.out;
  CmdResult ev = Cli("eval --run " + Sh(dir_ + "/run") + " --tasks " + Sh(q) + " --json 2>/dev/null");
  ASSERT_EQ(ev.exit_code, 0) << ev.out;
  Json t = Json::parse(*ReadFile(dir_ + "/run/report.json"))["per_task"][0];
  EXPECT_TRUE(t["em"].get<bool>()) << t;
  EXPECT_EQ(t["gold_datasets"], Json({"graph"}));
  // graph_find_nodes returned Player nodes: the graph source was retrieved (D_ret 1/1).
  EXPECT_DOUBLE_EQ(t["dret"]["recall"].get<double>(), 1.0) << t;
  EXPECT_DOUBLE_EQ(t["dret"]["precision"].get<double>(), 1.0) << t;
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

// CMDBench's oracle-vs-discovery comparison (its Figure 8): `run --provide-provenance` hands the llm agent
// the gold contents of each question, read from the lake and the index's graph. A loopback server speaking
// OpenAI Chat Completions records the first user message of every task and answers at once with
// submit_answer.
class ProvideProvenanceTest : public CmdbenchCliTest {
 protected:
  struct AgentRun {
    CmdResult cmd;
    std::vector<std::string> messages;  // the first user message of each task, in run order
    // The message of the task whose question contains `question` ("" when none does).
    std::string Of(const std::string& question) const {
      for (const auto& m : messages)
        if (m.find(question) != std::string::npos) return m;
      return "";
    }
  };
  AgentRun RunLlm(const std::string& tasks, const std::string& out, const std::string& flags) {
    AgentRun r;
    std::mutex mu;
    lakeqa::testing::ModelServer srv([&](const std::string&, const Json& body) {
      if (!body.contains("tools")) return lakeqa::testing::OpenAiTextStream("OK");  // the preflight
      {
        std::lock_guard<std::mutex> lock(mu);
        r.messages.push_back(body["messages"][1]["content"].get<std::string>());
      }
      return lakeqa::testing::OpenAiToolCallStream("submit_answer", {{"answer", "37"}}, "c1");
    });
    r.cmd = Cli("run -q --agent llm --model openai:gpt-5.2 --base-url " + Sh(srv.Url() + "/v1") +
                " --tasks " + Sh(tasks) + " --lake " + Sh(dir_ + "/lake") + " --index " +
                Sh(dir_ + "/index") + " --out " + Sh(dir_ + "/" + out) + " " + flags + " 2>&1");
    return r;
  }
  // The same tasks with the flag (into <dir>/given) and without it (<dir>/plain); both must succeed.
  std::pair<AgentRun, AgentRun> GivenAndPlain(const std::string& tasks) {
    AgentRun given = RunLlm(tasks, "given", "--provide-provenance");
    AgentRun plain = RunLlm(tasks, "plain", "");
    EXPECT_EQ(given.cmd.exit_code, 0) << given.cmd.out;
    EXPECT_EQ(plain.cmd.exit_code, 0) << plain.cmd.out;
    return {std::move(given), std::move(plain)};
  }
};

TEST_F(ProvideProvenanceTest, HandsTheAgentTheGoldTableRows) {
  std::string q = Questions("table.json", {kTableQuestion});
  auto [given, plain] = GivenAndPlain(q);
  ASSERT_EQ(given.messages.size(), 1u);
  ASSERT_EQ(plain.messages.size(), 1u);
  const std::string& m = given.messages[0];
  EXPECT_NE(m.find("PROVENANCE (given for this run"), std::string::npos) << m;
  EXPECT_NE(m.find("cmdbench/t_1_13619135_7"), std::string::npos) << m;
  EXPECT_NE(m.find("columns date, high points"), std::string::npos) << m;
  EXPECT_NE(m.find("game,date,team,score,high points\n65,March 19,Houston,W 112-95,Vince Carter (37)\n"),
            std::string::npos)
      << m;
  EXPECT_EQ(m.find("(first "), std::string::npos) << m;  // the whole table fits
  EXPECT_EQ(plain.messages[0].find("PROVENANCE"), std::string::npos) << plain.messages[0];
  EXPECT_EQ(plain.messages[0].find("65,March 19,Houston"), std::string::npos) << plain.messages[0];
  Json config = Json::parse(*ReadFile(dir_ + "/given/run.json"))["config"];
  EXPECT_EQ(config["provide_provenance"], true);
  EXPECT_EQ(config["provenance"]["table"]["tasks"], 1) << config;
  EXPECT_EQ(Json::parse(*ReadFile(dir_ + "/plain/run.json"))["config"]["provide_provenance"], false);
  // Scored as any run: EM against the question file's answer.
  CmdResult ev = Cli("eval --run " + Sh(dir_ + "/given") + " --json 2>/dev/null");
  ASSERT_EQ(ev.exit_code, 0) << ev.out;
  EXPECT_DOUBLE_EQ(Json::parse(ev.out)["em"].get<double>(), 1.0) << ev.out;

  // A LakeQA-format task is refused, naming it.
  Put("lakeqa.json", R"({"question_id": "L1", "question": "q", "answer": "1", "datasets_used": ["a/b/c.csv"],
    "nodes": {"1": {"source": "a/b/c.csv", "fact": "f", "subquestion": "q", "answer": "1"}},
    "reasoning_hops": [{"hop": 1, "node_ids": [1], "reasoning": ["r"], "answer": "1"}]})");
  CmdResult bad =
      Cli("run -q --agent baseline --tasks " + Sh(dir_ + "/lakeqa.json") + " --lake " + Sh(dir_ + "/lake") +
          " --index " + Sh(dir_ + "/index") + " --out " + Sh(dir_ + "/bad") + " --provide-provenance 2>&1");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.out.find("task L1"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("is not a CMDBench question"), std::string::npos) << bad.out;
}

// A table over the bounds is cut and says so: 150 short rows stop at 100 rows; 40 wide rows at 16 KiB.
TEST_F(ProvideProvenanceTest, CutsABigTableAndSaysSo) {
  std::string many = "n,name\n", wide = "n,text\n";
  for (int i = 1; i <= 150; ++i) many += std::to_string(i) + ",row " + std::to_string(i) + "\n";
  for (int i = 1; i <= 40; ++i) wide += std::to_string(i) + "," + std::string(1000, 'x') + "\n";
  Put("lake/cmdbench/t_many/t_many.csv", many);
  Put("lake/cmdbench/t_wide/t_wide.csv", wide);
  ASSERT_EQ(Cli("index build -q --lake " + Sh(dir_ + "/lake") + " --index " + Sh(dir_ + "/index") + " 2>&1")
                .exit_code,
            0);
  std::string q = Questions(
      "big.json",
      {R"({"qid": "m1", "answer": "row 7", "question": "Which name has n 7?", "provenance_table": {"table": "t_many"}})",
       R"({"qid": "w1", "answer": "x", "question": "Which text has n 3?", "provenance_table": {"table": "t_wide"}})"});
  AgentRun r = RunLlm(q, "given", "--provide-provenance");
  ASSERT_EQ(r.cmd.exit_code, 0) << r.cmd.out;
  std::string m = r.Of("Which name has n 7?");
  EXPECT_NE(m.find("(first 100 of 150 rows)"), std::string::npos) << m;
  EXPECT_NE(m.find("\n100,row 100\n"), std::string::npos) << m;
  EXPECT_EQ(m.find("101,row 101"), std::string::npos) << m;
  std::string w = r.Of("Which text has n 3?");
  EXPECT_NE(w.find("of 40 rows)"), std::string::npos) << w;
  EXPECT_EQ(w.find("\n40," + std::string(1000, 'x')), std::string::npos) << w.size();
  EXPECT_LT(w.size(), 20000u);
}

TEST_F(ProvideProvenanceTest, HandsTheAgentTheMatchedSubgraph) {
  std::string q = Questions("graph.json", {kGraphQuestion});
  auto [given, plain] = GivenAndPlain(q);
  ASSERT_EQ(given.messages.size(), 1u);
  const std::string& m = given.messages[0];
  // The nodes the provenance Cypher matched, with their properties, and the edge between them.
  EXPECT_NE(m.find("2 nodes, 1 edge"), std::string::npos) << m;
  EXPECT_NE(m.find("Player:Q201608 {\"name\":\"Dennis Rodman\",\"height\":\"201 centimetre\"}"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("Team:Q162990 {\"name\":\"Detroit Pistons\"}"), std::string::npos) << m;
  EXPECT_NE(m.find("Player:Q201608-[playsFor]->Team:Q162990#"), std::string::npos) << m;
  EXPECT_NE(m.find("start Player:Q201608, type playsFor, end Team:Q162990 {\"start_time\":\"1986\"}"),
            std::string::npos)
      << m;
  // Nothing the query did not match.
  EXPECT_EQ(m.find("Michael Jordan"), std::string::npos) << m;
  EXPECT_EQ(m.find("Chicago Bulls"), std::string::npos) << m;
  ASSERT_EQ(plain.messages.size(), 1u);
  EXPECT_EQ(plain.messages[0].find("Player:Q201608"), std::string::npos) << plain.messages[0];
  EXPECT_EQ(Json::parse(*ReadFile(dir_ + "/given/run.json"))["config"]["provenance"]["graph"]["tasks"], 1);
}

// A sub-graph over the bounds is cut and says so, with the totals; nodes leave room for edges.
TEST_F(ProvideProvenanceTest, CutsABigSubgraphAndSaysSo) {
  std::string players = "wikidata_id:ID(Player),name\n",
              edges = ":START_ID(Player),:END_ID(Team),start_time\n";
  for (int i = 1; i <= 300; ++i) {
    players += "P" + std::to_string(i) + ",Player " + std::to_string(i) + "\n";
    edges += "P" + std::to_string(i) + ",Q1,2000\n";
  }
  Put("lake/cmdbench/graph_nodes_Player/Player.csv", players);
  Put("lake/cmdbench/graph_nodes_Team/Team.csv", "wikidata_id:ID(Team),name\nQ1,Big Team\n");
  Put("lake/cmdbench/graph_relation_playsFor/relation_playsFor.csv", edges);
  ASSERT_EQ(Cli("index build -q --lake " + Sh(dir_ + "/lake") + " --index " + Sh(dir_ + "/index") + " 2>&1")
                .exit_code,
            0);
  std::string q = Questions("big_graph.json",
                            {R"j({"qid": "b1", "answer": "300", "question": "How many played for Big Team?",
    "provenance_graph": {"cypher": "MATCH (p:Player)-[r:playsFor]->(t:Team {name: 'Big Team'}) RETURN count(p)",
    "type": "sub-graph"}})j"});
  AgentRun r = RunLlm(q, "given", "--provide-provenance");
  ASSERT_EQ(r.cmd.exit_code, 0) << r.cmd.out;
  ASSERT_EQ(r.messages.size(), 1u);
  const std::string& m = r.messages[0];
  EXPECT_NE(m.find("301 nodes, 300 edges (the first 100 nodes and 100 edges shown)"), std::string::npos) << m;
  size_t node_lines = 0, edge_lines = 0;
  for (size_t at = m.find("\n  node "); at != std::string::npos; at = m.find("\n  node ", at + 1))
    ++node_lines;
  for (size_t at = m.find("\n  edge "); at != std::string::npos; at = m.find("\n  edge ", at + 1))
    ++edge_lines;
  EXPECT_EQ(node_lines, 100u);
  EXPECT_EQ(edge_lines, 100u);
  EXPECT_EQ(Json::parse(*ReadFile(dir_ + "/given/run.json"))["config"]["provenance"]["graph"]["cut"], 1);
}

// A provenance Cypher lakeqa cannot run stops the run before any task, naming the task and the error.
TEST_F(ProvideProvenanceTest, RefusesAGraphQuestionWhoseCypherFails) {
  std::string q =
      Questions("bad_graph.json", {kGraphQuestion, R"({"qid": "g2", "answer": "x", "question": "Who?",
    "provenance_graph": {"cypher": "MATCH (p:Player {name: 'Dennis Rodman') RETURN p.name", "type": "point"}})"});
  AgentRun r = RunLlm(q, "given", "--provide-provenance");
  EXPECT_NE(r.cmd.exit_code, 0) << r.cmd.out;
  EXPECT_NE(r.cmd.out.find("task g2"), std::string::npos) << r.cmd.out;
  EXPECT_NE(r.cmd.out.find("cypher 1:"), std::string::npos) << r.cmd.out;
  EXPECT_TRUE(r.messages.empty());
  // An unknown label is an error of the query too, not an empty subgraph.
  std::string q2 = Questions("unknown_label.json", {R"({"qid": "g3", "answer": "x", "question": "Who?",
    "provenance_graph": {"cypher": "MATCH (c:Coach) RETURN c.name", "type": "point"}})"});
  AgentRun r2 = RunLlm(q2, "given2", "--provide-provenance");
  EXPECT_NE(r2.cmd.exit_code, 0) << r2.cmd.out;
  EXPECT_NE(r2.cmd.out.find("task g3"), std::string::npos) << r2.cmd.out;
  EXPECT_NE(r2.cmd.out.find("Coach"), std::string::npos) << r2.cmd.out;
}

// A graph question over an index without a graph is refused, naming the task, not handed an empty sub-graph.
TEST_F(ProvideProvenanceTest, RefusesAGraphQuestionWithoutAGraph) {
  Put("tablelake/cmdbench/t_1_13619135_7/t_1_13619135_7.csv", "game,date\n65,March 19\n");
  ASSERT_EQ(Cli("index build -q --lake " + Sh(dir_ + "/tablelake") + " --index " + Sh(dir_ + "/tableindex") +
                " 2>&1")
                .exit_code,
            0);
  std::string q = Questions("graph.json", {kGraphQuestion});
  CmdResult r =
      Cli("run -q --agent baseline --tasks " + Sh(q) + " --lake " + Sh(dir_ + "/tablelake") + " --index " +
          Sh(dir_ + "/tableindex") + " --out " + Sh(dir_ + "/run") + " --provide-provenance 2>&1");
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("task g1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("no graph at"), std::string::npos) << r.out;
  EXPECT_FALSE(PathExists(dir_ + "/run/predictions.jsonl"));
}

// A document question gets its gold paragraph read from the page in the lake (line paragraph_id of
// content.txt); a page the lake lacks falls back to the question file's text, and says so; with neither the
// run is refused.
TEST_F(ProvideProvenanceTest, HandsTheAgentTheGoldParagraph) {
  std::string q = Questions("doc.json", {kDocQuestion, R"({"qid": "d2", "answer": "1967",
    "question": "When were the Lakers founded?", "provenance_doc": {"paragraphs": [{"wikipedia_title": "Los Angeles Lakers",
    "paragraph_id": 3, "text": "The Lakers were founded in 1947 in Detroit."}]}})"});
  auto [given, plain] = GivenAndPlain(q);
  std::string m = given.Of("Where do the Wizards play?");
  EXPECT_NE(m.find("Washington Wizards, paragraph 1 (lake file wikipedia/Washington_Wizards/content.txt"),
            std::string::npos)
      << m;
  EXPECT_NE(
      m.find("The Washington Wizards are an American professional basketball team based in Washington, D.C."),
      std::string::npos)
      << m;
  EXPECT_EQ(m.find("home games"), std::string::npos) << m;  // line 2 is another paragraph
  std::string f = given.Of("When were the Lakers founded?");
  EXPECT_NE(f.find("Los Angeles Lakers, paragraph 3 (not in the lake"), std::string::npos) << f;
  EXPECT_NE(f.find("The Lakers were founded in 1947 in Detroit."), std::string::npos) << f;
  EXPECT_EQ(plain.Of("Where do the Wizards play?").find("an American professional"), std::string::npos);
  EXPECT_EQ(plain.Of("When were the Lakers founded?").find("1947"), std::string::npos);
  Json config = Json::parse(*ReadFile(dir_ + "/given/run.json"))["config"]["provenance"];
  EXPECT_EQ(config["doc"]["tasks"], 2) << config;
  EXPECT_EQ(config["doc"]["paragraphs_from_question_file"], 1) << config;

  std::string none = Questions("doc_none.json", {R"({"qid": "d3", "answer": "x", "question": "Q?",
    "provenance_doc": {"paragraphs": [{"wikipedia_title": "Washington Wizards", "paragraph_id": 40}]}})"});
  AgentRun bad = RunLlm(none, "bad", "--provide-provenance");
  EXPECT_NE(bad.cmd.exit_code, 0) << bad.cmd.out;
  EXPECT_NE(bad.cmd.out.find("task d3"), std::string::npos) << bad.cmd.out;
  EXPECT_NE(bad.cmd.out.find("paragraph 40"), std::string::npos) << bad.cmd.out;
}

// A source-routing question gets its gold source named (CMDBench's routing oracle): for the graph, its node
// labels and relationship types from the index's graph schema.
TEST_F(ProvideProvenanceTest, NamesTheGoldSource) {
  std::string q = Questions("source.json", {kRoutingQuestion});
  auto [given, plain] = GivenAndPlain(q);
  ASSERT_EQ(given.messages.size(), 1u);
  const std::string& m = given.messages[0];
  EXPECT_NE(
      m.find("the graph source: node labels Player, Team; relationship types (Player)-[playsFor]->(Team)"),
      std::string::npos)
      << m;
  EXPECT_EQ(m.find("Dennis Rodman"), std::string::npos) << m;  // the source, nothing more
  ASSERT_EQ(plain.messages.size(), 1u);
  EXPECT_EQ(plain.messages[0].find("graph source"), std::string::npos) << plain.messages[0];
}

}  // namespace
}  // namespace lakeqa::cmdbench
