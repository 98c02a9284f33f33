// The workbench API over a real lake, index, sandbox and project file: explore, compose (facts run through
// the tools), review, export with validate + verify, import, runs, and the browser-facing checks.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "lakeqa/common/build_paths.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/eval/task.h"

#include "llm/model_server.h"
#include "workbench/fixture.h"

namespace lakeqa::workbench {
namespace {

using testing::TwoHopTask;
using testing::WorkbenchFixture;

class Api : public WorkbenchFixture {
 protected:
  void SetUp() override {
    WorkbenchFixture::SetUp();
    if (HasFatalFailure()) return;
    Open();
  }
  // Creates the two-hop task and returns its view.
  Json Create(Json task = TwoHopTask()) {
    auto r = Call("POST", "/api/tasks", {{"task", task}});
    EXPECT_EQ(r.status, 201) << r.body;
    return r.json;
  }
  Json Save(int64_t id, const Json& task, int64_t base, const std::string& who = "alice", int want = 200) {
    auto r = Call("PUT", fmt::format("/api/tasks/{}", id), {{"task", task}, {"base_version", base}}, who);
    EXPECT_EQ(r.status, want) << r.body;
    return r.json;
  }
  Json Run(int64_t id, const std::string& node) {
    auto r = Call("POST", fmt::format("/api/tasks/{}/run", id), {{"node", node}});
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json["run"];
  }
};

TEST_F(Api, SearchWithAFacetAndPaging) {
  auto r = Call("GET", "/api/search?q=airports&size=1");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_GE(r.json["total"].get<int64_t>(), 1);
  ASSERT_EQ(r.json["hits"].size(), 1u);
  EXPECT_EQ(r.json["hits"][0]["id"], "datagov/airports");
  EXPECT_TRUE(r.json["hits"][0].contains("snippet") || r.json["hits"][0].contains("matched_columns"));
  EXPECT_EQ(r.json["hits"][0]["catalog"]["file_count"], 2);
  ASSERT_TRUE(r.json["facets"].contains("namespace"));
  // Filter by a facet value: only Wikipedia.
  auto w = Call("GET", "/api/search?q=atlanta&namespace=wikipedia");
  ASSERT_EQ(w.status, 200) << w.body;
  ASSERT_GE(w.json["hits"].size(), 1u);
  for (const Json& h : w.json["hits"]) EXPECT_EQ(h["namespace"], "wikipedia");
  // A facet alone browses.
  auto f = Call("GET", "/api/search?namespace=datagov&size=1&page=2");
  ASSERT_EQ(f.status, 200) << f.body;
  EXPECT_EQ(f.json["total"], 2);
  EXPECT_EQ(f.json["page"], 2);
  ASSERT_EQ(f.json["hits"].size(), 1u);
  EXPECT_EQ(f.json["hits"][0]["rank"], 2);
}

TEST_F(Api, SearchBadInputIsNamed) {
  auto r = Call("GET", "/api/search?q=");
  EXPECT_EQ(r.status, 400);
  r = Call("GET", "/api/search?q=x&size=500");
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(r.json["error"]["message"].get<std::string>().find("'size'"), std::string::npos);
  r = Call("GET", "/api/search?q=x&page=300&size=10");
  EXPECT_EQ(r.status, 400);
}

TEST_F(Api, DatasetPageFilePreviewAndPrefix) {
  auto d = Call("GET", "/api/dataset?id=datagov/airports");
  ASSERT_EQ(d.status, 200) << d.body;
  EXPECT_EQ(d.json["dataset"]["title"], "US Airports and Heliports (FAA)");
  ASSERT_EQ(d.json["files"].size(), 2u);
  auto p = Call("GET", "/api/file?dataset=datagov/airports&path=files/rows.txt");
  ASSERT_EQ(p.status, 200) << p.body;
  EXPECT_EQ(p.json["inspect"]["format"], "csv");
  ASSERT_TRUE(p.json.contains("rows")) << p.body;
  EXPECT_EQ(p.json["rows"]["columns"], Json::array({"name", "city", "state"}));
  EXPECT_EQ(p.json["rows"]["rows"].size(), 5u);
  auto t = Call("GET", "/api/file?dataset=wikipedia/Georgia&path=content.txt");
  ASSERT_EQ(t.status, 200) << t.body;
  EXPECT_FALSE(t.json.contains("rows")) << t.body;
  EXPECT_NE(DumpJson(t.json["inspect"]["text_preview"]).find("capital is Atlanta"), std::string::npos);
  auto missing = Call("GET", "/api/dataset?id=datagov/nope");
  EXPECT_EQ(missing.status, 404);
  auto pre = Call("GET", "/api/prefix?prefix=datagov/");
  ASSERT_EQ(pre.status, 200) << pre.body;
  EXPECT_EQ(pre.json["keys"].size(), 2u);
  auto top = Call("GET", "/api/prefix?prefix=");
  ASSERT_EQ(top.status, 200) << top.body;
  EXPECT_EQ(top.json["common_prefixes"], Json::array({"datagov/", "wikipedia/"}));
}

TEST_F(Api, SqlConsoleOverTheScratchSandbox) {
  auto r = Call("POST", "/api/sql",
                {{"files", {{{"dataset_id", "datagov/airports"}, {"file_path", "files/rows.txt"}}}},
                 {"sql",
                  "SELECT state, COUNT(*) AS n FROM 'datagov/airports/files/rows.txt' GROUP BY state ORDER "
                  "BY n DESC"}});
  ASSERT_EQ(r.status, 200) << r.body;
  ASSERT_TRUE(r.json.contains("result")) << r.body;
  EXPECT_EQ(r.json["result"]["rows"][0], Json::array({"GA", 4}));
  // A bad statement is an answer with an error, shown under the editor.
  auto bad = Call("POST", "/api/sql", {{"sql", "SELEC 1"}});
  ASSERT_EQ(bad.status, 200) << bad.body;
  ASSERT_TRUE(bad.json.contains("error"));
  EXPECT_FALSE(bad.json["error"]["message"].get<std::string>().empty());
  auto sb = Call("GET", "/api/sandbox");
  ASSERT_EQ(sb.status, 200);
  EXPECT_NE(DumpJson(sb.json).find("datagov/airports/files/rows.txt"), std::string::npos);
}

TEST_F(Api, SuggestFindsDatasetsHoldingAnAnswer) {
  auto r = Call("GET", "/api/suggest?value=Atlanta&exclude=wikipedia/Georgia");
  ASSERT_EQ(r.status, 200) << r.body;
  ASSERT_GE(r.json["hits"].size(), 1u);
  EXPECT_EQ(r.json["hits"][0]["id"], "datagov/airports");
  for (const Json& h : r.json["hits"]) EXPECT_NE(h["id"], "wikipedia/Georgia");
  EXPECT_EQ(Call("GET", "/api/suggest?value=").status, 400);
}

TEST_F(Api, ComposeRunBothFactsAndChainThem) {
  Json v = Create();
  int64_t id = v["task"]["id"];
  EXPECT_EQ(v["structure"]["k"], 2);
  EXPECT_EQ(v["structure"]["d"], 1);
  EXPECT_EQ(v["structure"]["n"], 2);
  Json r1 = Run(id, "1");
  EXPECT_TRUE(r1["ok"].get<bool>()) << r1.dump();
  EXPECT_EQ(r1["answer"], "Atlanta");
  EXPECT_TRUE(r1["recorded"].get<bool>());
  Json r2 = Run(id, "2");
  EXPECT_TRUE(r2["ok"].get<bool>()) << r2.dump();
  EXPECT_EQ(r2["answer"], "3");
  // The placeholder was filled with node 1's answer before the code ran.
  EXPECT_NE(r2["code"].get<std::string>().find("== 'Atlanta'"), std::string::npos);
  auto view = Call("GET", fmt::format("/api/tasks/{}", id));
  EXPECT_EQ(view.json["task"]["nodes"][1]["last_run"]["answer"], "3");
  for (const Json& f : view.json["findings"]) EXPECT_NE(f["severity"], "error") << f.dump();
  auto audit = view.json["audit"];
  EXPECT_EQ(audit[0]["action"], "ran fact");
}

TEST_F(Api, FailingFactShowsItsErrorAndKeepsTheTask) {
  Json task = TwoHopTask();
  task["nodes"][0]["fact"] = "answer = 1 / 0\n";
  Json v = Create(task);
  int64_t id = v["task"]["id"];
  Json r = Run(id, "1");
  EXPECT_FALSE(r["ok"].get<bool>());
  EXPECT_NE(r["error"].get<std::string>().find("ZeroDivisionError"), std::string::npos) << r.dump();
  EXPECT_NE(r["stderr"].get<std::string>().find("Traceback"), std::string::npos);
  auto after = Call("GET", fmt::format("/api/tasks/{}", id));
  EXPECT_EQ(after.json["task"]["version"], v["task"]["version"]);
  EXPECT_EQ(after.json["task"]["nodes"][0]["fact"], "answer = 1 / 0\n");
  EXPECT_EQ(after.json["task"]["nodes"][0]["answer"], "Atlanta");
  // A node whose placeholder has no answer yet says which node to run first.
  task = TwoHopTask();
  task["question_id"] = "WBT002";
  task["nodes"][0]["answer"] = nullptr;
  Json v2 = Create(task);
  Json r2 = Run(v2["task"]["id"], "2");
  EXPECT_FALSE(r2["ok"].get<bool>());
  EXPECT_NE(r2["error"].get<std::string>().find("answer of node 1"), std::string::npos) << r2.dump();
}

TEST_F(Api, TimedOutFactIsStoppedAndShown) {
  WorkbenchOptions o = Options();
  o.limits.call_timeout_ms = 1500;
  Open(o);
  Json task = TwoHopTask();
  task["nodes"][0]["fact"] = "import time\nwhile True:\n    time.sleep(0.05)\n";
  Json v = Create(task);
  Json r = Run(v["task"]["id"], "1");
  EXPECT_FALSE(r["ok"].get<bool>());
  EXPECT_EQ(r["error_code"], "timeout") << r.dump();
  EXPECT_NE(r["error"].get<std::string>().find("1500 ms"), std::string::npos) << r.dump();
}

TEST_F(Api, ConcurrentSavesConflictWithAClearMessage) {
  Json v = Create();
  int64_t id = v["task"]["id"];
  int64_t base = v["task"]["version"];
  Json alice = v["task"], bob = v["task"];
  alice["question"] = "Alice's wording?";
  bob["nodes"][0]["subquestion"] = "Bob's subquestion?";
  Save(id, alice, base, "alice");
  Json conflict = Save(id, bob, base, "bob", 409);
  EXPECT_EQ(conflict["error"]["code"], "conflict");
  EXPECT_NE(conflict["error"]["message"].get<std::string>().find("changed by alice"), std::string::npos);
  EXPECT_EQ(conflict["current"]["task"]["question"], "Alice's wording?");
  // Nothing of Alice's was lost; Bob applies his edit on the current version.
  Json cur = conflict["current"]["task"];
  cur["nodes"][0]["subquestion"] = "Bob's subquestion?";
  Json both = Save(id, cur, cur["version"], "bob");
  EXPECT_EQ(both["task"]["question"], "Alice's wording?");
  EXPECT_EQ(both["task"]["nodes"][0]["subquestion"], "Bob's subquestion?");
}

TEST_F(Api, LeakageWarningsAndTheirFix) {
  Json task = TwoHopTask();
  task["question"] = "How many airports in Atlanta does rows.txt of US Airports and Heliports list?";
  Json v = Create(task);
  std::string kinds;
  for (const Json& l : v["leakage"]) kinds += l["kind"].get<std::string>() + " ";
  EXPECT_NE(kinds.find("answer"), std::string::npos) << kinds;
  EXPECT_NE(kinds.find("file"), std::string::npos) << kinds;
  EXPECT_NE(kinds.find("title"), std::string::npos) << kinds;
  Json fixed = v["task"];
  // In this three-dataset lake "airports" and "FAA" are each in one dataset only (rare tokens), so the fix
  // paraphrases them too; "Georgia" is the subject of a Wikipedia page and stays.
  fixed["question"] = "How many airfields does the aviation authority list in the capital city of Georgia?";
  auto c =
      Call("POST", fmt::format("/api/tasks/{}/check", v["task"]["id"].get<int64_t>()), {{"task", fixed}});
  ASSERT_EQ(c.status, 200) << c.body;
  EXPECT_TRUE(c.json["leakage"].empty()) << c.json["leakage"].dump();
}

TEST_F(Api, ExportRefusedNamesNodeAndField) {
  Json task = TwoHopTask();
  task["nodes"][1]["answer"] = "";
  Json v = Create(task);
  auto r = Call("POST", fmt::format("/api/tasks/{}/export", v["task"]["id"].get<int64_t>()), Json::object());
  ASSERT_EQ(r.status, 400) << r.body;
  EXPECT_NE(r.json["error"]["message"].get<std::string>().find("node 2: the answer is empty"),
            std::string::npos)
      << r.body;
  bool named = false;
  for (const Json& f : r.json["findings"])
    named |= f["node"] == "2" && f["field"] == "answer" && f["severity"] == "error";
  EXPECT_TRUE(named);
}

TEST_F(Api, ReviewAcceptExportAndVerify) {
  auto pol =
      Call("PUT", "/api/policy",
           {{"policy", {{"min_reviews", 2}, {"require_adjudicator", true}, {"adjudicators", {"carol"}}}}});
  ASSERT_EQ(pol.status, 200) << pol.body;
  Json v = Create();
  int64_t id = v["task"]["id"];
  Run(id, "1");
  Run(id, "2");
  Json cur = Call("GET", fmt::format("/api/tasks/{}", id)).json;
  // Reviews are only for tasks in review.
  Json review = {{"task_version", cur["task"]["version"]},
                 {"nodes",
                  {{{"node", "1"}, {"sound", true}, {"complete", true}},
                   {{"node", "2"}, {"sound", true}, {"complete", true}}}},
                 {"chain_valid", true},
                 {"natural", true},
                 {"no_leakage", true},
                 {"verdict", "accept"}};
  EXPECT_EQ(Call("POST", fmt::format("/api/tasks/{}/reviews", id), review, "bob").status, 400);
  auto sent = Call("POST", fmt::format("/api/tasks/{}/status", id),
                   {{"to", "in_review"}, {"base_version", cur["task"]["version"]}});
  ASSERT_EQ(sent.status, 200) << sent.body;
  EXPECT_EQ(sent.json["task"]["status"], "in_review");
  review["task_version"] = sent.json["task"]["version"];
  // An accepting review that marks a node unsound is refused, saying why.
  Json bad = review;
  bad["nodes"][1]["sound"] = false;
  auto refused = Call("POST", fmt::format("/api/tasks/{}/reviews", id), bad, "bob");
  ASSERT_EQ(refused.status, 400);
  EXPECT_NE(refused.json["error"]["message"].get<std::string>().find("node 2 is marked unsound"),
            std::string::npos);
  auto r1 = Call("POST", fmt::format("/api/tasks/{}/reviews", id), review, "bob");
  ASSERT_EQ(r1.status, 201) << r1.body;
  EXPECT_EQ(r1.json["task"]["status"], "in_review");
  EXPECT_NE(r1.json["review_state"]["message"].get<std::string>().find("adjudicator"), std::string::npos);
  auto r2 = Call("POST", fmt::format("/api/tasks/{}/reviews", id), review, "carol");
  ASSERT_EQ(r2.status, 201) << r2.body;
  EXPECT_EQ(r2.json["task"]["status"], "accepted");
  EXPECT_TRUE(r2.json["review"]["adjudicator"].get<bool>());
  auto counts = Call("GET", "/api/reviewers");
  EXPECT_EQ(counts.json["reviewers"].size(), 2u);
  // Export: written, validated and verified through the tools.
  auto ex = Call("POST", fmt::format("/api/tasks/{}/export", id), Json::object());
  ASSERT_EQ(ex.status, 200) << ex.body;
  EXPECT_TRUE(ex.json["ok"].get<bool>()) << ex.body;
  EXPECT_EQ(ex.json["folder"], "k-2-d-1");
  EXPECT_EQ(ex.json["verify"]["nodes_grounded"], 2);
  EXPECT_EQ(ex.json["validate"]["errors"], 0);
  std::string path = ex.json["path"];
  EXPECT_NE(path.find("/k-2-d-1/WBT001.json"), std::string::npos);
  eval::LoadResult back = eval::LoadTasks({path});
  ASSERT_EQ(back.tasks.size(), 1u);
  EXPECT_EQ(back.tasks[0].id, "WBT001");
  EXPECT_EQ(back.tasks[0].folder_k, std::optional<int>(2));
  auto audit = Call("GET", fmt::format("/api/audit?task={}", id));
  std::string actions;
  for (const Json& a : audit.json["audit"]) actions += a["action"].get<std::string>() + ",";
  EXPECT_NE(actions.find("exported"), std::string::npos) << actions;
  EXPECT_NE(actions.find("status"), std::string::npos) << actions;
  EXPECT_NE(actions.find("reviewed"), std::string::npos) << actions;
}

TEST_F(Api, StaleReviewIsAConflict) {
  Json v = Create();
  int64_t id = v["task"]["id"];
  auto sent = Call("POST", fmt::format("/api/tasks/{}/status", id),
                   {{"to", "in_review"}, {"base_version", v["task"]["version"]}});
  ASSERT_EQ(sent.status, 200) << sent.body;
  int64_t seen = sent.json["task"]["version"];
  // The author changes the task while a reviewer has it open.
  Json edited = sent.json["task"];
  edited["question"] = "How many airports does the FAA list in Georgia's capital?";
  Save(id, edited, seen, "alice");
  Json review = {{"task_version", seen},
                 {"nodes",
                  {{{"node", "1"}, {"sound", true}, {"complete", true}},
                   {{"node", "2"}, {"sound", true}, {"complete", true}}}},
                 {"chain_valid", true},
                 {"natural", true},
                 {"no_leakage", true},
                 {"verdict", "accept"}};
  auto r = Call("POST", fmt::format("/api/tasks/{}/reviews", id), review, "bob");
  ASSERT_EQ(r.status, 409) << r.body;
  EXPECT_EQ(r.json["error"]["code"], "conflict");
  EXPECT_NE(r.json["error"]["message"].get<std::string>().find("you reviewed version"), std::string::npos);
  // Sending an incomplete task to review is refused with its findings.
  Json empty = Call("POST", "/api/tasks", Json::object()).json;
  auto no = Call("POST", fmt::format("/api/tasks/{}/status", empty["task"]["id"].get<int64_t>()),
                 {{"to", "in_review"}, {"base_version", empty["task"]["version"]}});
  ASSERT_EQ(no.status, 400) << no.body;
  EXPECT_FALSE(no.json["findings"].empty());
}

TEST_F(Api, ImportExistingTaskFiles) {
  std::string dir = lakeqa::build_paths::SourceDir() + "/demo/tasks/k-2-d-1";
  auto text = ReadFile(dir + "/task_2.json");
  if (!text.ok()) GTEST_SKIP() << "demo tasks missing";
  auto r = Call("POST", "/api/import", {{"name", "task_2.json"}, {"text", *text}});
  ASSERT_EQ(r.status, 200) << r.body;
  ASSERT_EQ(r.json["imported"].size(), 1u);
  int64_t id = r.json["imported"][0]["id"];
  auto json = Call("GET", fmt::format("/api/tasks/{}/lakeqa", id));
  EXPECT_EQ(nlohmann::json::parse(json.json.dump()), nlohmann::json::parse(*text));
  auto again = Call("POST", "/api/import", {{"name", "task_2.json"}, {"text", *text}});
  EXPECT_EQ(again.status, 400);
  EXPECT_NE(again.json["error"]["message"].get<std::string>().find("already has a task"), std::string::npos);
  auto broken = Call("POST", "/api/import", {{"name", "bad.json"}, {"text", "{\"question_id\": "}});
  EXPECT_EQ(broken.status, 400);
  EXPECT_NE(broken.json["error"]["message"].get<std::string>().find("bad.json"), std::string::npos);
}

TEST_F(Api, MutationsNeedAName) {
  auto r = Call("POST", "/api/tasks", Json::object(), "");
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(r.json["error"]["message"].get<std::string>().find("who"), std::string::npos);
}

TEST_F(Api, BrowserChecks) {
  server::MountRequest r;
  r.method = "GET";
  r.path = "/api/info";
  r.headers = {{"host", "127.0.0.1:8090"}};
  EXPECT_EQ(wb_->Handle(r).status, 403) << "no client header";
  r.headers.emplace_back("x-lakeqa-client", "workbench");
  EXPECT_EQ(wb_->Handle(r).status, 200);
  // Host and Origin are the HTTP server's checks, in front of every mount: tests/workbench/http_test.cc.
}

TEST_F(Api, AssetsAndUnknownRoutes) {
  server::MountRequest r;
  r.method = "GET";
  r.path = "/ui/";
  auto page = wb_->Handle(r);
  ASSERT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("importmap"), std::string::npos);
  std::string csp;
  for (const auto& [k, v] : page.headers)
    if (k == "Content-Security-Policy") csp = v;
  EXPECT_NE(csp.find("'sha256-"), std::string::npos) << csp;
  r.path = "/ui/app.js";
  EXPECT_EQ(wb_->Handle(r).content_type, "text/javascript; charset=utf-8");
  r.path = "/ui/nope.js";
  EXPECT_EQ(wb_->Handle(r).status, 404);
  r.path = "/";
  EXPECT_EQ(wb_->Handle(r).status, 302);
  EXPECT_EQ(Call("GET", "/api/nope").status, 404);
  EXPECT_EQ(Call("DELETE", "/api/tasks").status, 405);
}

TEST_F(Api, DraftWithoutAModelSaysHowToConfigureOne) {
  Json v = Create();
  auto r = Call("POST", "/api/draft", {{"kind", "question"}, {"task", v["task"]}});
  EXPECT_EQ(r.status, 503);
  EXPECT_NE(r.json["error"]["message"].get<std::string>().find("--model"), std::string::npos);
}

// Drafting through the llm module against a loopback server speaking the OpenAI protocol: the draft comes
// back for the page to show, is checked for leakage, and is never saved by itself.
TEST_F(Api, DraftQuestionThroughTheModel) {
  lakeqa::testing::ModelServer model([](const std::string&, const Json& body) {
    std::string prompt = body["messages"].back()["content"].get<std::string>();
    std::string text = prompt.find("Rewrite the chain") != std::string::npos
                           ? "How many airports are there in Atlanta?"
                           : "What is the capital city of Georgia?";
    return lakeqa::testing::JsonReply(200, {{"id", "c1"},
                                            {"object", "chat.completion"},
                                            {"model", "gpt-5-mini"},
                                            {"choices",
                                             {{{"index", 0},
                                               {"message", {{"role", "assistant"}, {"content", text}}},
                                               {"finish_reason", "stop"}}}},
                                            {"usage", {{"prompt_tokens", 120}, {"completion_tokens", 9}}}});
  });
  WorkbenchOptions o = Options();
  o.model = "openai:gpt-5-mini";
  o.base_url = model.Url() + "/v1";
  Open(o);
  Json v = Create();
  int64_t id = v["task"]["id"];
  auto q = Call("POST", "/api/draft", {{"kind", "question"}, {"task", v["task"]}});
  ASSERT_EQ(q.status, 200) << q.body;
  EXPECT_EQ(q.json["text"], "How many airports are there in Atlanta?");
  EXPECT_EQ(q.json["model"], "openai:gpt-5-mini");
  // The draft names node 1's answer: the leakage check says so before anyone uses it.
  bool answer_leak = false;
  for (const Json& l : q.json["leakage"]) answer_leak |= l["kind"] == "answer" && l["text"] == "Atlanta";
  EXPECT_TRUE(answer_leak) << q.json["leakage"].dump();
  auto s = Call("POST", "/api/draft", {{"kind", "subquestion"}, {"node", "1"}, {"task", v["task"]}});
  ASSERT_EQ(s.status, 200) << s.body;
  EXPECT_EQ(s.json["text"], "What is the capital city of Georgia?");
  std::string sent = model.Bodies().back();
  EXPECT_NE(sent.find("wikipedia/Georgia/content.txt"), std::string::npos);
  // Nothing was saved.
  auto after = Call("GET", fmt::format("/api/tasks/{}", id));
  EXPECT_EQ(after.json["task"]["version"], v["task"]["version"]);
  EXPECT_EQ(after.json["task"]["question"], v["task"]["question"]);
  EXPECT_EQ(Call("POST", "/api/draft", {{"kind", "poem"}, {"task", v["task"]}}).status, 400);
}

// A run directory written the way `lakeqa run` and `lakeqa eval` write one, read back by the runs API:
// rows from report.json, the trace read only for the task asked for.
TEST_F(Api, RunsListRowsAndOneTrace) {
  std::string run = root_ + "/runs/r1";
  ASSERT_TRUE(MakeDirs(run + "/traces").ok());
  ASSERT_TRUE(WriteFileAtomic(run + "/run.json", R"({"agent": "llm", "model": "openai:gpt-5-mini"})").ok());
  ASSERT_TRUE(WriteFileAtomic(run + "/predictions.jsonl",
                              "{\"task_id\": \"T1\", \"answer\": \"[3]\", \"status\": \"ok\"}\n"
                              "{\"task_id\": \"T2\", \"answer\": null, \"status\": \"timeout\"}\n")
                  .ok());
  Json report = {{"format", "lakeqa-report/1"},
                 {"tasks", 2},
                 {"em", 0.5},
                 {"dacc_f1", 0.75},
                 {"dret_f1", 0.5},
                 {"runtime_s", 12.5},
                 {"cost_usd", nullptr},
                 {"funnel", {{"correct", 1}, {"search_missing", 1}}},
                 {"per_task",
                  {{{"task_id", "T1"},
                    {"question", "q1"},
                    {"gold", "3"},
                    {"answer", "[3]"},
                    {"status", "ok"},
                    {"em", true},
                    {"hops", 2},
                    {"funnel", "correct"},
                    {"gold_datasets", {"datagov/airports"}}},
                   {{"task_id", "T2"},
                    {"question", "q2"},
                    {"gold", "x"},
                    {"answer", nullptr},
                    {"status", "timeout"},
                    {"em", false},
                    {"hops", 1},
                    {"funnel", "search_missing"},
                    {"gold_datasets", {"wikipedia/Georgia"}}}}}};
  ASSERT_TRUE(WriteFileAtomic(run + "/report.json", report.dump()).ok());
  ASSERT_TRUE(
      WriteFileAtomic(
          run + "/traces/T1.jsonl",
          R"({"turn": 1, "tool": "search_keyword", "arguments": {"keywords": ["airports"]}, "status": "ok", "content": "Let me search.", "usage": {"input_tokens": 900, "output_tokens": 20}, "cost_usd": 0.001, "result": "{\"results\": [{\"id\": \"datagov/airports\"}]}", "returned": ["datagov/airports"]})"
          "\nnot json\n")
          .ok());
  WorkbenchOptions o = Options();
  o.runs = {root_ + "/runs"};
  Open(o);
  auto list = Call("GET", "/api/runs");
  ASSERT_EQ(list.status, 200) << list.body;
  ASSERT_EQ(list.json["runs"].size(), 1u);
  const Json& r = list.json["runs"][0];
  EXPECT_EQ(r["em"], 0.5);
  EXPECT_EQ(r["model"], "openai:gpt-5-mini");
  EXPECT_TRUE(r["cost_usd"].is_null()) << "unknown stays unknown";
  auto rows = Call("GET", "/api/runs/0/tasks");
  ASSERT_EQ(rows.status, 200) << rows.body;
  ASSERT_EQ(rows.json["rows"].size(), 2u);
  EXPECT_EQ(rows.json["rows"][0]["correct"], true);
  EXPECT_TRUE(rows.json["rows"][0]["category"].is_array());
  auto t = Call("GET", "/api/runs/0/tasks/T1");
  ASSERT_EQ(t.status, 200) << t.body;
  ASSERT_EQ(t.json["events"].size(), 1u);
  EXPECT_EQ(t.json["events"][0]["content"], "Let me search.");
  ASSERT_EQ(t.json["warnings"].size(), 1u);
  EXPECT_NE(t.json["warnings"][0].get<std::string>().find("T1.jsonl:2"), std::string::npos);
  auto none = Call("GET", "/api/runs/0/tasks/T2");
  ASSERT_EQ(none.status, 200);
  EXPECT_TRUE(none.json["trace_file"].is_null());
  EXPECT_EQ(Call("GET", "/api/runs/0/tasks/T9").status, 404);
  EXPECT_EQ(Call("GET", "/api/runs/7/tasks").status, 404);
}

}  // namespace
}  // namespace lakeqa::workbench

namespace lakeqa::workbench {
namespace {

using testing::TwoHopTask;
using testing::WorkbenchFixture;

class ApiMore : public WorkbenchFixture {
 protected:
  void SetUp() override {
    WorkbenchFixture::SetUp();
    if (HasFatalFailure()) return;
    Open();
  }
  void WriteRun(const std::string& dir, const std::string& predictions, const Json& run_json) {
    ASSERT_TRUE(MakeDirs(dir + "/traces").ok());
    ASSERT_TRUE(WriteFileAtomic(dir + "/run.json", run_json.dump()).ok());
    ASSERT_TRUE(WriteFileAtomic(dir + "/predictions.jsonl", predictions).ok());
  }
};

// Ids in API paths are checked before they name anything: dot segments and non-numbers are refused by name
// (400), unknown runs and tasks are 404, and a task id holding "/" (sent as %2F) still reaches its task.
TEST_F(ApiMore, HostileAndUnknownIdsAreRefusedClearly) {
  std::string run = root_ + "/runs/r1";
  WriteRun(run,
           "{\"task_id\": \"T1\", \"answer\": \"x\", \"status\": \"ok\"}\n"
           "{\"task_id\": \"kind/T2\", \"answer\": \"y\", \"status\": \"ok\"}\n",
           {{"agent", "llm"}});
  WorkbenchOptions o = Options();
  o.runs = {root_ + "/runs"};
  Open(o);
  // What the page would request for #/run/../../etc before ids were escaped (the server sees the path
  // decoded).
  auto dots = Call("GET", "/api/runs/../../etc/tasks");
  EXPECT_EQ(dots.status, 400) << dots.body;
  EXPECT_NE(dots.json["error"]["message"].get<std::string>().find("\"..\""), std::string::npos) << dots.body;
  auto dots2 = Call("GET", "/api/runs/0/tasks/../../tasks/1");
  EXPECT_EQ(dots2.status, 400) << dots2.body;
  auto word = Call("GET", "/api/runs/etc/tasks");
  EXPECT_EQ(word.status, 400) << word.body;
  EXPECT_NE(word.json["error"]["message"].get<std::string>().find("a run id is a number"), std::string::npos)
      << word.body;
  auto missing = Call("GET", "/api/runs/7/tasks");
  EXPECT_EQ(missing.status, 404) << missing.body;
  EXPECT_NE(missing.json["error"]["message"].get<std::string>().find("1 runs"), std::string::npos)
      << missing.body;
  EXPECT_EQ(Call("GET", "/api/runs/0/tasks/NOPE").status, 404);
  auto slash = Call("GET", "/api/runs/0/tasks/kind/T2");
  ASSERT_EQ(slash.status, 200) << slash.body;
  EXPECT_EQ(slash.json["row"]["task_id"], "kind/T2");
  EXPECT_EQ(Call("GET", "/api/tasks/abc").status, 400);
  EXPECT_EQ(Call("GET", "/api/tasks/999").status, 404);
  EXPECT_EQ(Call("GET", "/api/tasks/./1").status, 400);
}

// Rows show what EM scored: the harness's cleaning of the raw answer (eval::CleanAnswer), from report.json
// when it has it, computed when it does not, and for a run scored here the lenient match beside EM.
TEST_F(ApiMore, RunRowsCarryTheScoredAnswerAndLenient) {
  // The CMDBench weight row: answer and gold "183 pound"; EM compares the cleaned "183" (exactly one number
  // → that number) with the gold and says no; the numeric matcher says yes.
  std::string tasks = root_ + "/tasks/k-1-d-1";
  ASSERT_TRUE(MakeDirs(tasks).ok());
  ASSERT_TRUE(
      WriteFileAtomic(tasks + "/w183.json", DumpJson({{"question_id", "W183"},
                                                      {"question", "How much did Donyell Marshall weigh?"},
                                                      {"answer", "183 pound"},
                                                      {"nodes",
                                                       {{"1",
                                                         {{"source", "wikipedia/Georgia/content.txt"},
                                                          {"fact", "answer = '183 pound'"},
                                                          {"subquestion", "What did he weigh?"},
                                                          {"answer", "183 pound"}}}}},
                                                      {"datasets_used", {"wikipedia/Georgia/content.txt"}},
                                                      {"reasoning_hops",
                                                       {{{"hop", 1},
                                                         {"node_ids", {1}},
                                                         {"reasoning", {"Node 1: his weight."}},
                                                         {"answer", "183 pound"}}}}}))
          .ok());
  WriteRun(root_ + "/runs/a-scored-here",
           "{\"task_id\": \"W183\", \"answer\": \"183 pound\", \"status\": \"ok\"}\n",
           {{"agent", "llm"}, {"tasks", root_ + "/tasks"}});
  WriteRun(root_ + "/runs/b-predictions",
           "{\"task_id\": \"W183\", \"raw_answer\": \"Final answer: [183 pound]\", \"answer\": \"183 "
           "pound\", \"status\": \"ok\"}\n",
           {{"agent", "llm"}});
  // A report of an older lakeqa, without cleaned_answer.
  WriteRun(root_ + "/runs/c-old-report", "{\"task_id\": \"T1\", \"answer\": \"[3]\", \"status\": \"ok\"}\n",
           {{"agent", "llm"}});
  ASSERT_TRUE(
      WriteFileAtomic(
          root_ + "/runs/c-old-report/report.json",
          DumpJson({{"tasks", 1},
                    {"em", 1.0},
                    {"per_task", {{{"task_id", "T1"}, {"gold", "3"}, {"answer", "[3]"}, {"em", true}}}}}))
          .ok());
  WorkbenchOptions o = Options();
  o.runs = {root_ + "/runs"};
  Open(o);
  auto scored = Call("GET", "/api/runs/0/tasks");
  ASSERT_EQ(scored.status, 200) << scored.body;
  ASSERT_FALSE(scored.json["rows"].empty()) << scored.body;
  const Json& row = scored.json["rows"][0];
  EXPECT_EQ(scored.json["source"].get<std::string>().rfind("scored from", 0), 0u) << scored.body;
  EXPECT_EQ(row["answer"], "183 pound");
  EXPECT_EQ(row["gold"], "183 pound");
  EXPECT_EQ(row["cleaned_answer"], "183");
  EXPECT_EQ(row["correct"], false);
  EXPECT_EQ(row["lenient"], true);
  EXPECT_EQ(row["numeric_match"], true);
  auto preds = Call("GET", "/api/runs/1/tasks");
  ASSERT_EQ(preds.status, 200) << preds.body;
  EXPECT_EQ(preds.json["rows"][0]["answer"], "Final answer: [183 pound]");
  EXPECT_EQ(preds.json["rows"][0]["cleaned_answer"], "183");
  EXPECT_TRUE(preds.json["rows"][0]["lenient"].is_null()) << "unscored: unknown, not false";
  auto old = Call("GET", "/api/runs/2/tasks");
  ASSERT_EQ(old.status, 200) << old.body;
  EXPECT_EQ(old.json["rows"][0]["cleaned_answer"], "3");
}

TEST_F(ApiMore, StopWordsOnlySearchSaysWhy) {
  auto r = Call("GET", "/api/search?q=the of and");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json["total"], 0);
  ASSERT_TRUE(r.json["note"].is_string()) << r.body;
  std::string note = r.json["note"];
  EXPECT_NE(note.find("stop word"), std::string::npos) << note;
  EXPECT_NE(note.find("\"the\""), std::string::npos) << note;
  // An ordinary search carries no note.
  EXPECT_TRUE(Call("GET", "/api/search?q=airports").json["note"].is_null());
}

TEST_F(ApiMore, InfoNamesASourceOfThisLake) {
  auto r = Call("GET", "/api/info");
  ASSERT_EQ(r.status, 200) << r.body;
  ASSERT_TRUE(r.json["example_source"].is_string()) << r.body;
  std::string key = r.json["example_source"];
  EXPECT_TRUE(PathExists(lake_ + "/" + key)) << key;
  EXPECT_EQ(key.find("metadata.json"), std::string::npos) << key;
}

// "Datasets holding <answer>" finds the graph's node file with a node of that name, although the file is too
// long for its sampled values in the text index to include it; a snippet's lines do not run together.
TEST_F(ApiMore, SuggestFindsGraphNodeFiles) {
  std::string players = "wikidata_id:ID(Player),name,place_of_birth\n";
  for (int i = 0; i < 3000; ++i)
    players += fmt::format("Q{},Player Number {},Town {}\n", 900000 + i, i, i % 40);
  players += "Q1242197,Donyell Marshall,Reading\n";
  Put("cmdbench/graph_nodes_Player/Player.csv", players);
  Build();
  if (HasFatalFailure()) return;
  Open();
  auto r = Call("GET", "/api/suggest?value=Donyell Marshall");
  ASSERT_EQ(r.status, 200) << r.body;
  ASSERT_GE(r.json["hits"].size(), 1u) << r.body;
  const Json& h = r.json["hits"][0];
  EXPECT_EQ(h["id"], "cmdbench/graph_nodes_Player") << r.body;
  EXPECT_EQ(h["graph"]["file"], "cmdbench/graph_nodes_Player/Player.csv");
  EXPECT_EQ(h["graph"]["nodes"][0]["node"], "Player:Q1242197");
  for (const Json& x : r.json["hits"]) {
    if (x.contains("snippet")) {
      EXPECT_EQ(x["snippet"]["text"].get<std::string>().find('\n'), std::string::npos);
    }
  }
  // Excluding the dataset leaves it out.
  auto ex = Call("GET", "/api/suggest?value=Donyell Marshall&exclude=cmdbench/graph_nodes_Player");
  for (const Json& x : ex.json["hits"]) EXPECT_NE(x["id"], "cmdbench/graph_nodes_Player");
}

// An author's review is recorded and shown, but never counts toward the policy; the page's one version
// number is the content version, which reviews name and status changes leave alone.
TEST_F(ApiMore, AuthorsReviewDoesNotCountAndOneVersionNumber) {
  ASSERT_EQ(
      Call("PUT", "/api/policy", {{"policy", {{"min_reviews", 1}, {"require_adjudicator", false}}}}).status,
      200);
  auto created = Call("POST", "/api/tasks", {{"task", TwoHopTask()}}, "alice");
  ASSERT_EQ(created.status, 201) << created.body;
  int64_t id = created.json["task"]["id"];
  int64_t content = created.json["task"]["content_version"];
  auto sent = Call("POST", fmt::format("/api/tasks/{}/status", id),
                   {{"to", "in_review"}, {"base_version", created.json["task"]["version"]}});
  ASSERT_EQ(sent.status, 200) << sent.body;
  EXPECT_EQ(sent.json["task"]["content_version"], content)
      << "a status change is not a new version of the content";
  EXPECT_NE(sent.json["task"]["version"], content);
  Json review = {{"task_version", content},
                 {"nodes",
                  {{{"node", "1"}, {"sound", true}, {"complete", true}},
                   {{"node", "2"}, {"sound", true}, {"complete", true}}}},
                 {"chain_valid", true},
                 {"natural", true},
                 {"no_leakage", true},
                 {"verdict", "accept"}};
  auto own = Call("POST", fmt::format("/api/tasks/{}/reviews", id), review, "alice");
  ASSERT_EQ(own.status, 201) << own.body;
  EXPECT_EQ(own.json["task"]["status"], "in_review") << "the author's own accept decided nothing";
  EXPECT_EQ(own.json["review_state"]["reviews"], 0);
  EXPECT_EQ(own.json["review_state"]["authors"], Json::array({"alice"}));
  EXPECT_NE(own.json["review_state"]["message"].get<std::string>().find("not counted: the review by alice"),
            std::string::npos)
      << own.json["review_state"]["message"];
  EXPECT_TRUE(own.json["reviews"][0]["by_author"].get<bool>());
  EXPECT_EQ(own.json["reviews"][0]["task_version"], content);
  auto bob = Call("POST", fmt::format("/api/tasks/{}/reviews", id), review, "bob");
  ASSERT_EQ(bob.status, 201) << bob.body;
  EXPECT_EQ(bob.json["task"]["status"], "accepted");
  // Whoever saves a change to a task becomes one of its authors.
  auto other = Call("POST", "/api/tasks", {{"task", {{"question_id", "WBT009"}}}}, "alice");
  Json t = other.json["task"];
  t["question"] = "Edited by bob?";
  ASSERT_EQ(Call("PUT", fmt::format("/api/tasks/{}", t["id"].get<int64_t>()),
                 {{"task", t}, {"base_version", t["version"]}}, "bob")
                .status,
            200);
  auto view = Call("GET", fmt::format("/api/tasks/{}", t["id"].get<int64_t>()));
  EXPECT_EQ(view.json["review_state"]["authors"], Json::array({"alice", "bob"}));
}

// A save that changes nothing (as after a fact run whose answer is the one the node had) makes no version.
TEST_F(ApiMore, FactRunThatChangesNothingKeepsTheVersion) {
  auto created = Call("POST", "/api/tasks", {{"task", TwoHopTask()}});
  ASSERT_EQ(created.status, 201);
  Json t = created.json["task"];
  int64_t id = t["id"];
  auto run = Call("POST", fmt::format("/api/tasks/{}/run", id), {{"node", "1"}, {"task", t}});
  ASSERT_EQ(run.status, 200) << run.body;
  EXPECT_EQ(run.json["run"]["answer"], "Atlanta");
  t["nodes"][0]["last_run"] = run.json["run"];
  auto saved = Call("PUT", fmt::format("/api/tasks/{}", id), {{"task", t}, {"base_version", t["version"]}});
  ASSERT_EQ(saved.status, 200) << saved.body;
  EXPECT_EQ(saved.json["task"]["version"], t["version"]);
  EXPECT_EQ(saved.json["task"]["content_version"], t["content_version"]);
}

}  // namespace
}  // namespace lakeqa::workbench
