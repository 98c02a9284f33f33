#include "lakeqa/eval/judge.h"

#include <map>
#include <mutex>

#include <gtest/gtest.h>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/strings.h"

#include "eval/run_fixture.h"
#include "llm/model_server.h"

namespace lakeqa::eval {
namespace {

TEST(JudgeReply, Parses) {
  auto v = ParseJudgeReply(R"({"verdict": "correct", "rationale": "same city"})");
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->correct);
  EXPECT_EQ(v->rationale, "same city");
  v = ParseJudgeReply("```json\n{\"verdict\": \"INCORRECT\", \"rationale\": \"different\"}\n```");
  ASSERT_TRUE(v.ok());
  EXPECT_FALSE(v->correct);
  v = ParseJudgeReply("Incorrect. The years differ.");
  ASSERT_TRUE(v.ok());
  EXPECT_FALSE(v->correct);
  EXPECT_FALSE(ParseJudgeReply("maybe?").ok());
  EXPECT_FALSE(ParseJudgeReply(R"({"verdict": "perhaps"})").ok());
  EXPECT_TRUE(ParseJudgeSpec("openai:gpt-5.2").ok());
  EXPECT_FALSE(ParseJudgeSpec("gpt-5.2").ok());
}

// The gold and candidate lines of the pinned user prompt.
std::pair<std::string, std::string> GoldAndCandidate(const std::string& user) {
  auto after = [&](const std::string& head) {
    size_t p = user.find(head);
    if (p == std::string::npos) return std::string();
    p += head.size();
    return std::string(Trim(user.substr(p, user.find("\n\n", p) - p)));
  };
  return {after("Gold answer:\n"), after("Candidate answer:\n")};
}

// A whole (not streamed) OpenAI Chat Completions answer whose message is `text`.
lakeqa::testing::Reply OpenAiText(const Json& body, const std::string& text) {
  Json resp = {{"id", "chatcmpl-j"},
               {"object", "chat.completion"},
               {"model", body.value("model", "")},
               {"choices", Json::array({{{"index", 0},
                                         {"message", {{"role", "assistant"}, {"content", text}}},
                                         {"finish_reason", "stop"}}})},
               {"usage", {{"prompt_tokens", 200}, {"completion_tokens", 20}, {"total_tokens", 220}}}};
  lakeqa::testing::Reply r;
  r.content_type = "application/json";
  r.chunks.push_back(resp.dump());
  return r;
}

// A judge behind a loopback server speaking OpenAI Chat Completions: "correct" when the candidate
// contains the gold answer (case-insensitive), as a grader accepting extra words would.
lakeqa::testing::Reply OpenAiJudge(const Json& body) {
  std::string user;
  for (const Json& m : body["messages"]) {
    if (m["role"] == "user")
      user = m["content"].is_string() ? m["content"].get<std::string>() : m["content"].dump();
  }
  auto [gold, cand] = GoldAndCandidate(user);
  bool ok = !gold.empty() && ToLowerAscii(cand).find(ToLowerAscii(gold)) != std::string::npos;
  Json verdict = {{"verdict", ok ? "correct" : "incorrect"},
                  {"rationale", ok ? "names the gold answer" : "differs"}};
  return OpenAiText(body, verdict.dump());
}

TEST(Judge, JudgesThroughTheLlmClientAndCaches) {
  auto d = MakeTempDir("lakeqa-judge");
  ASSERT_TRUE(d.ok());
  std::string dir = *d;
  auto preds = testing::WeakRun();
  preds[0].answer = "It is Pittsburgh, PA";  // EM rejects it, the judge accepts it
  testing::WriteRun(dir, preds);
  lakeqa::testing::ModelServer server([](const std::string&, const Json& body) { return OpenAiJudge(body); });
  auto spec = ParseJudgeSpec("openai:judge-test");
  ASSERT_TRUE(spec.ok());
  spec->base_url = server.Url() + "/v1";
  auto client = MakeJudgeClient(*spec);
  ASSERT_TRUE(client.ok()) << client.status().ToString();

  auto run = LoadRun(dir);
  ASSERT_TRUE(run.ok());
  RunScore s = ScoreRun(*run, testing::WeakTasks());
  ASSERT_TRUE(JudgeRun(s, **client, *spec, dir).ok());
  EXPECT_EQ(server.calls(), 5);  // t6 timed out: no answer, no call
  ASSERT_TRUE(s.judged);
  EXPECT_FALSE(s.tasks[0].answer.em);
  EXPECT_TRUE(s.tasks[0].judge->correct);
  EXPECT_FALSE(s.tasks[5].judge->correct);
  EXPECT_NEAR(s.judge_accuracy, 1.0 / 6, 1e-12);
  EXPECT_NEAR(s.judge_agreement, 5.0 / 6, 1e-12);  // t1 is the one disagreement
  EXPECT_EQ(s.judge_em_disagreements, 1u);
  EXPECT_EQ(s.judge_model, "openai:judge-test");
  EXPECT_TRUE(PathExists(dir + "/judge/openai_judge-test.jsonl"));
  // The pinned system prompt went to the server.
  EXPECT_NE(server.Bodies()[0].find("You grade answers"), std::string::npos);
  Json j = s.ToJson();
  EXPECT_EQ(j["judge"]["disagreements"], 1);
  EXPECT_TRUE(j["per_task"][0]["judge"]["correct"].get<bool>());

  // Scoring again costs nothing: every verdict comes from the cache.
  RunScore again = ScoreRun(*run, testing::WeakTasks());
  ASSERT_TRUE(JudgeRun(again, **client, *spec, dir).ok());
  EXPECT_EQ(server.calls(), 5);
  EXPECT_TRUE(again.tasks[0].judge->cached);
  EXPECT_EQ(again.judge_accuracy, s.judge_accuracy);
  // A changed answer is a new key: one more call.
  auto preds2 = preds;
  preds2[1].answer = "42";
  std::string dir2 = dir + "/copy";
  testing::WriteRun(dir2, preds2);
  ASSERT_TRUE(MakeDirs(dir2 + "/judge").ok());
  auto cache = ReadFile(dir + "/judge/openai_judge-test.jsonl");
  ASSERT_TRUE(cache.ok());
  ASSERT_TRUE(WriteFileAtomic(dir2 + "/judge/openai_judge-test.jsonl", *cache).ok());
  auto run2 = LoadRun(dir2);
  RunScore third = ScoreRun(*run2, testing::WeakTasks());
  ASSERT_TRUE(JudgeRun(third, **client, *spec, dir2).ok());
  EXPECT_EQ(server.calls(), 6);
  EXPECT_TRUE(third.tasks[1].judge->correct);
  (void)RemoveAll(dir);
}

TEST(Judge, ServerErrorFailsWithContext) {
  auto d = MakeTempDir("lakeqa-judge");
  ASSERT_TRUE(d.ok());
  testing::WriteRun(*d, testing::WeakRun());
  lakeqa::testing::ModelServer server([](const std::string&, const Json&) {
    lakeqa::testing::Reply r;
    r.status = 400;
    r.content_type = "application/json";
    r.chunks.push_back(R"({"error": {"message": "bad model", "type": "invalid_request_error"}})");
    return r;
  });
  JudgeSpec spec{"openai", "nope", server.Url() + "/v1"};
  auto client = MakeJudgeClient(spec);
  ASSERT_TRUE(client.ok());
  auto run = LoadRun(*d);
  RunScore s = ScoreRun(*run, testing::WeakTasks());
  Status st = JudgeRun(s, **client, spec, *d);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("judging task t1"), std::string::npos) << st.message();
  (void)RemoveAll(*d);
}

size_t CacheLines(const std::string& path) {
  auto text = ReadFile(path);
  if (!text.ok()) return 0;
  size_t n = 0;
  for (char c : *text) n += c == '\n';
  return n;
}

// Issue 14, defect 8: an unreadable judge reply is an error, not a verdict: it is asked again, and when it
// stays unreadable the task gets no verdict, nothing is cached for it and the report counts it.
TEST(Judge, AnUnreadableReplyIsRetriedNeverCachedAndCounted) {
  auto d = MakeTempDir("lakeqa-judge");
  ASSERT_TRUE(d.ok());
  testing::WriteRun(*d, testing::WeakRun());
  // First: every prompt's first reply is unreadable, its second a verdict.
  std::mutex mu;
  std::map<std::string, int> seen;
  lakeqa::testing::ModelServer flaky([&](const std::string&, const Json& body) {
    std::lock_guard<std::mutex> lock(mu);
    if (seen[body["messages"].back()["content"].dump()]++ == 0)
      return OpenAiText(body, "Let me think about it.");
    return OpenAiJudge(body);
  });
  JudgeSpec spec{"openai", "judge-test", flaky.Url() + "/v1"};
  auto client = MakeJudgeClient(spec);
  ASSERT_TRUE(client.ok());
  auto run = LoadRun(*d);
  ASSERT_TRUE(run.ok());
  RunScore s = ScoreRun(*run, testing::WeakTasks());
  ASSERT_TRUE(JudgeRun(s, **client, spec, *d).ok());
  EXPECT_EQ(flaky.calls(), 10);  // 5 answers, each asked twice
  for (const TaskScore& t : s.tasks) EXPECT_TRUE(t.judge.has_value()) << t.task_id;
  EXPECT_TRUE(s.judged);
  EXPECT_EQ(s.ToJson()["judge"]["failed"], 0);
  const std::string cache = *d + "/judge/openai_judge-test.jsonl";
  EXPECT_EQ(CacheLines(cache), 6u);
  ASSERT_TRUE(RemoveAll(*d + "/judge").ok());

  // Then: a judge that never answers in the format. Nothing is cached but the no-answer verdict of t6.
  lakeqa::testing::ModelServer garbled(
      [&](const std::string&, const Json& body) { return OpenAiText(body, "I am not sure."); });
  spec.base_url = garbled.Url() + "/v1";
  client = MakeJudgeClient(spec);
  ASSERT_TRUE(client.ok());
  RunScore g = ScoreRun(*run, testing::WeakTasks());
  ASSERT_TRUE(JudgeRun(g, **client, spec, *d).ok());
  EXPECT_EQ(garbled.calls(), 15);  // 5 answers, 3 attempts each
  EXPECT_EQ(CacheLines(cache), 1u);
  for (size_t i = 0; i < 5; ++i) EXPECT_FALSE(g.tasks[i].judge.has_value()) << g.tasks[i].task_id;
  Json j = g.ToJson();
  ASSERT_TRUE(j.contains("judge")) << j.dump();
  EXPECT_EQ(j["judge"]["failed"], 5);
  EXPECT_EQ(j["judge"]["judged"], 1);
  EXPECT_EQ(j["judge"]["failed_tasks"], (Json{"t1", "t2", "t3", "t4", "t5"}));
  bool warned = false;
  for (const auto& w : g.warnings) warned = warned || w.find("I am not sure") != std::string::npos;
  EXPECT_TRUE(warned);
  // Scoring again asks again: failures were not remembered as verdicts.
  RunScore again = ScoreRun(*run, testing::WeakTasks());
  ASSERT_TRUE(JudgeRun(again, **client, spec, *d).ok());
  EXPECT_EQ(garbled.calls(), 30);
  (void)RemoveAll(*d);
}

}  // namespace
}  // namespace lakeqa::eval
