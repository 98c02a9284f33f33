// What the model sees under the paper's protocol (issue 30, item 1): a scripted model on the OpenAI protocol
// calls the real tools over a lake whose index `lakeqa index build` wrote, and every result reaches it cut as
// the reference harness cuts (over 4,000 characters: the first 2,500 and the last 1,000). With the compact
// view, 15 or more of 20 search_keyword hits are inside the first 2,500 characters and `search` lists each
// id once; the full view (what HTTP and MCP clients get by default) showed about 3.
#include <atomic>

#include <gtest/gtest.h>

#include "lakeqa/agent/agent.h"
#include "lakeqa/agent/tool_env.h"
#include "lakeqa/llm/providers.h"

#include "agent/cli_fixture.h"
#include "agent/scripted_run.h"
#include "llm/model_server.h"

namespace lakeqa::agent {
namespace {

constexpr int kFirst = 10,
              kDatasets = 25;  // ids springfield-parks-inventory-10 .. -34: no id is another's prefix

std::string Id(int i) { return "springfield-parks-inventory-" + std::to_string(i); }

class ModelView : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = *MakeTempDir("lakeqa-model-view-");
    // Wide tables with long titles and descriptions: a full hit is several hundred characters.
    for (int i = kFirst; i < kFirst + kDatasets; ++i) {
      std::string dir = root_ + "/lake/datagov/" + Id(i);
      testing::WriteText(
          dir + "/metadata.json",
          Json{{"title",
                "Springfield Parks and Recreation Department Park Inventory, District " + std::to_string(i)},
               {"notes",
                "Every park, playground and open space maintained by the Springfield Parks "
                "and Recreation Department in district " +
                    std::to_string(i) +
                    ", with acreage, amenities, opening year and the maintaining crew. "
                    "Updated monthly."}}
              .dump());
      std::string csv =
          "Park Name,Park Acreage Total,Opening Year,Maintaining Crew Identifier,Playground Count,Restroom "
          "Buildings,Picnic Shelter Count,Sports Field Count,Trail Miles Paved,Trail Miles Unpaved,Dog Park "
          "Present,Parking Spaces,Inspection Date\n";
      for (int r = 0; r < 30; ++r)
        csv += "Park " + std::to_string(r) + "," + std::to_string(r * 3 + i) + "," +
               std::to_string(1950 + r) + ",crew-" + std::to_string(r % 4) + ",1,2,3,4,1.5,2.5,yes,40,201" +
               std::to_string(r % 10) + "-05-01\n";
      testing::WriteText(dir + "/files/rows.csv", csv);
    }
    int rc = testing::RunCli({"index", "build", "--lake", root_ + "/lake", "--index", root_ + "/index"},
                             root_ + "/build.log");
    ASSERT_EQ(rc, 0) << *ReadFile(root_ + "/build.log", 1 << 20);
  }
  void TearDown() override { (void)RemoveAll(root_); }

  // Runs the scripted model once; returns every request it got.
  std::vector<std::string> Run(bool compact, const std::vector<std::pair<std::string, Json>>& calls) {
    ToolEnvOptions eo;
    eo.index_dir = root_ + "/index";
    eo.lake = root_ + "/lake";
    eo.work_dir = root_ + "/run-" + std::to_string(runs_++);
    eval::Task task;
    task.id = "parks";
    task.question = "How many acres does the largest park of district 12 cover? [Answer]";
    LoopConfig cfg;
    cfg.compact_results = compact;
    testing::ScriptedRun run = testing::RunScripted(calls, eo, task, cfg);
    EXPECT_EQ(run.result.outcome, Outcome::kAnswered) << run.result.error;
    return run.bodies;
  }

  // The tool message the model got after turn `turn`, without the status line.
  static std::string Shown(const std::vector<std::string>& bodies, size_t turn) {
    std::string text = Json::parse(bodies.at(turn + 1))["messages"].back()["content"];
    return text.substr(0, text.rfind("\n\n[STATUS: "));
  }
  static int Visible(const std::string& text) {
    int n = 0;
    for (int i = kFirst; i < kFirst + kDatasets; ++i) n += text.find(Id(i)) != std::string::npos;
    return n;
  }
  static size_t Occurrences(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  }

  std::string root_;
  int runs_ = 0;
};

TEST_F(ModelView, FifteenOfTwentyKeywordHitsFitTheHeadTheCutKeepsAndEachPrefixIdIsListedOnce) {
  std::vector<std::pair<std::string, Json>> calls = {
      {"search_keyword", {{"keywords", {"parks"}}, {"limit", 20}}},
      {"search", {{"prefixes", {"springfield-parks"}}}},
      {"submit_answer", {{"answer", "[42]"}}},
  };
  auto compact = Run(true, calls);
  ASSERT_EQ(compact.size(), calls.size());
  std::string hits = Shown(compact, 0);
  // What the model sees: the whole text when it escaped the cut, else the kept head.
  bool cut = hits.find("\n...[truncated]...\n") != std::string::npos;
  int in_head = Visible(cut ? hits.substr(0, 2500) : hits);
  EXPECT_GE(in_head, 15) << hits;
  Json parsed = Json::parse(hits.find("\n...[truncated]...\n") == std::string::npos ? hits : "{}");
  if (!parsed.empty()) {
    EXPECT_EQ(parsed["results"].size(), 20u);
    // A hit line names the id, the title, the rows, the years and the first columns.
    std::string first = parsed["results"][0];
    EXPECT_NE(first.find("rows 30"), std::string::npos) << first;
    EXPECT_NE(first.find("cols Park Name"), std::string::npos) << first;
    EXPECT_NE(first.find("Springfield Parks"), std::string::npos) << first;
  }
  std::string listed = Shown(compact, 1);
  EXPECT_EQ(Visible(listed), kDatasets) << listed;
  for (int i = kFirst; i < kFirst + kDatasets; ++i)
    EXPECT_EQ(Occurrences(listed, Id(i)), 1u) << Id(i) << " in " << listed;

  // The full JSON, as the agent showed it before: a few hits, the rest cut out of the middle.
  auto full = Run(false, calls);
  ASSERT_EQ(full.size(), calls.size());
  std::string full_hits = Shown(full, 0);
  int full_in_head = Visible(full_hits.substr(0, 2500));
  EXPECT_LT(full_in_head, 15) << full_hits;
  EXPECT_LT(full_in_head, in_head);
  RecordProperty("hits_in_head_compact", in_head);
  RecordProperty("hits_in_head_full", full_in_head);
}

}  // namespace
}  // namespace lakeqa::agent
