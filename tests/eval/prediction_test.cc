// The predictions.jsonl line: what `lakeqa run` writes, and every spelling an existing run folder may hold.
#include "lakeqa/eval/prediction.h"

#include <gtest/gtest.h>

#include "lakeqa/eval/score.h"

namespace lakeqa::eval {
namespace {

PredictionRecord Written() {
  PredictionRecord r;
  r.task_id = "EQA000012";
  r.status = "answered";
  r.answer = "1046";
  r.raw_answer = "Final answer: [1,046]";
  r.reasoning = "summed the rows";
  r.sources = {"datagov/abc/files/rows.csv"};
  r.turns = 14;
  r.tool_calls = 13;
  r.usage = {52310, 2210, 40960, 7};
  r.cost_usd = 0.213;
  r.elapsed_s = 81.4;
  r.returned = {"datagov/abc", "datagov/def"};
  r.accessed = {"datagov/abc"};
  return r;
}

Result<PredictionRecord> Parse(const std::string& line) {
  return PredictionRecord::FromJson(Json::parse(line), "predictions.jsonl:3");
}

// The documented field order of docs/formats-run.md's example, byte for byte.
TEST(PredictionRecordTest, WritesTheDocumentedLine) {
  EXPECT_EQ(
      DumpJson(Written().ToJson()),
      R"({"task_id":"EQA000012","status":"answered","answer":"1046","raw_answer":"Final answer: [1,046]",)"
      R"("reasoning":"summed the rows","sources":["datagov/abc/files/rows.csv"],"turns":14,"tool_calls":13,)"
      R"("usage":{"input_tokens":52310,"output_tokens":2210,"cache_read_tokens":40960,"cache_write_tokens":7},)"
      R"("cost_usd":0.213,"elapsed_s":81.4,"returned":["datagov/abc","datagov/def"],"accessed":["datagov/abc"]})");
  PredictionRecord r = Written();
  r.cost_usd.reset();
  r.error = "turn limit";
  r.extra = {{"search_recall_at_20", 0.5}};
  r.epoch = 2;
  Json j = r.ToJson();
  EXPECT_TRUE(j["cost_usd"].is_null());  // unknown is null, never 0
  EXPECT_EQ(j["error"], "turn limit");
  EXPECT_EQ(j["extra"]["search_recall_at_20"], 0.5);
  EXPECT_EQ(j["epoch"], 2);
  EXPECT_FALSE(Written().ToJson().contains("epoch"));
  EXPECT_FALSE(Written().ToJson().contains("error"));
  EXPECT_FALSE(Written().ToJson().contains("extra"));
}

TEST(PredictionRecordTest, RoundTripsEveryField) {
  PredictionRecord r = Written();
  r.error = "stopped";
  r.extra = {{"k", {1, 2}}};
  r.epoch = 1;  // written by a run with --epochs > 1: stays written
  auto back = PredictionRecord::FromJson(r.ToJson(), "x:1");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(DumpJson(back->ToJson()), DumpJson(r.ToJson()));
  EXPECT_EQ(back->usage.cache_write_tokens, 7);
  ASSERT_TRUE(back->epoch.has_value());
  EXPECT_EQ(*back->epoch, 1);
  auto plain = PredictionRecord::FromJson(Written().ToJson(), "x:1");
  ASSERT_TRUE(plain.ok());
  EXPECT_FALSE(plain->epoch.has_value());
  EXPECT_EQ(plain->Epoch(), 1);
}

// Files of other harnesses and earlier versions: read, then written in the one vocabulary, and scored the
// same before and after.
TEST(PredictionRecordTest, ReadsOldSpellingsAndWritesOne) {
  const std::string old = R"({"task_id": 17, "status": "ok", "answer": 5, "runtime_s": 3.5,
                              "tokens": {"input": 10, "output": 2, "cache_read": 1}, "turns": 4})";
  auto r = Parse(old);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->task_id, "17");
  EXPECT_EQ(r->status, "answered");
  EXPECT_EQ(r->answer, 5);
  EXPECT_FALSE(r->raw_answer.has_value());
  ASSERT_TRUE(r->elapsed_s.has_value());
  EXPECT_EQ(*r->elapsed_s, 3.5);
  EXPECT_EQ(r->usage.input_tokens, 10);
  EXPECT_EQ(r->usage.output_tokens, 2);
  EXPECT_EQ(r->usage.cache_read_tokens, 1);
  EXPECT_FALSE(r->cost_usd.has_value());  // absent: unknown
  Json j = r->ToJson();
  for (const char* gone : {"runtime_s", "tokens", "raw_answer"}) EXPECT_FALSE(j.contains(gone)) << gone;
  EXPECT_EQ(j["status"], "answered");
  EXPECT_EQ(j["elapsed_s"], 3.5);
  EXPECT_EQ(j["usage"]["input_tokens"], 10);

  auto before = PredictionFromJson(Json::parse(old), "a:1");
  auto after = PredictionFromJson(j, "a:1");
  ASSERT_TRUE(before.ok() && after.ok());
  for (const Prediction* p : {&*before, &*after}) {
    EXPECT_EQ(p->task_id, "17");
    EXPECT_EQ(p->status, "ok");  // the scorer's name of answered
    EXPECT_EQ(p->answer, 5);
    EXPECT_EQ(p->runtime_s, 3.5);
    EXPECT_EQ(p->input_tokens, 10);
    EXPECT_EQ(p->output_tokens, 2);
    EXPECT_EQ(p->cache_read_tokens, 1);
    EXPECT_EQ(p->turns, 4);
    EXPECT_EQ(p->epoch, 1);
    EXPECT_FALSE(p->cost_usd.has_value());
  }

  auto limit = Parse(R"({"task_id": "t", "status": "turn_limit", "cost_usd": null})");
  ASSERT_TRUE(limit.ok());
  EXPECT_EQ(limit->status, "max_turns");
  EXPECT_FALSE(limit->cost_usd.has_value());
  EXPECT_EQ(PredictionFromJson(limit->ToJson(), "a:1")->status, "turn_limit");
  auto bare = Parse(R"({"task_id": "t"})");  // no status: an answer, as the scorer always read it
  ASSERT_TRUE(bare.ok());
  EXPECT_EQ(bare->status, "answered");
  EXPECT_FALSE(bare->elapsed_s.has_value());  // no runtime: unknown, not 0 s
  EXPECT_FALSE(PredictionFromJson(bare->ToJson(), "a:1")->runtime_s.has_value());
  // runtime_s wins over elapsed_s when a line has both; the scorer scores raw_answer over answer.
  auto both =
      Parse(R"({"task_id": "t", "runtime_s": 2, "elapsed_s": 9, "answer": "1046", "raw_answer": "[1,046]"})");
  ASSERT_TRUE(both.ok());
  EXPECT_EQ(*both->elapsed_s, 2);
  EXPECT_EQ(PredictionFromJson(both->ToJson(), "a:1")->answer, "[1,046]");
}

TEST(PredictionRecordTest, BadFieldsNameFileLineAndField) {
  struct Case {
    const char* line;
    const char* field;
  };
  for (const Case& c :
       {Case{R"({"answer": "x"})", "task_id"}, Case{R"({"task_id": true})", "task_id"},
        Case{R"({"task_id": ""})", "task_id"}, Case{R"({"task_id": 1.5})", "task_id"},
        Case{R"({"task_id": "t", "status": "exploded"})", "status"},
        Case{R"({"task_id": "t", "status": 3})", "status"},
        Case{R"({"task_id": "t", "elapsed_s": "slow"})", "elapsed_s"},
        Case{R"({"task_id": "t", "runtime_s": []})", "runtime_s"},
        Case{R"({"task_id": "t", "cost_usd": "cheap"})", "cost_usd"},
        Case{R"({"task_id": "t", "epoch": 0})", "epoch"}, Case{R"({"task_id": "t", "epoch": "2"})", "epoch"},
        Case{R"({"task_id": "t", "turns": "many"})", "turns"},
        Case{R"({"task_id": "t", "tokens": 5})", "tokens"},
        Case{R"({"task_id": "t", "tokens": {"input": "x"}})", "input"},
        Case{R"({"task_id": "t", "usage": {"output_tokens": "x"}})", "output_tokens"}}) {
    auto r = Parse(c.line);
    ASSERT_FALSE(r.ok()) << c.line;
    EXPECT_EQ(r.status().code(), ErrorCode::kParseError) << c.line;
    EXPECT_NE(r.status().message().find(std::string("predictions.jsonl:3: field \"") + c.field + "\""),
              std::string::npos)
        << c.line << " → " << r.status().message();
  }
}

// Fields the scorer never used were never checked: a line with odd ones still scores, as before.
TEST(PredictionRecordTest, UnusedFieldsOfTheWrongTypeAreLeftEmpty) {
  auto r = Parse(R"({"task_id": "t", "sources": 5, "tool_calls": "x", "returned": [1, "a/b"], "reasoning": 7,
                    "error": false, "extra": [1], "usage": {"cache_write_tokens": "x"}})");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->sources.empty());
  EXPECT_EQ(r->tool_calls, 0);
  EXPECT_EQ(r->returned, std::vector<std::string>{"a/b"});
  EXPECT_TRUE(r->reasoning.empty());
  EXPECT_TRUE(r->error.empty());
  EXPECT_TRUE(r->extra.empty());
  EXPECT_EQ(r->usage.cache_write_tokens, 0);
}

}  // namespace
}  // namespace lakeqa::eval
