// lakeqa's real tools driven the way the LakeQA harness drives its own (evaluation/agent_runner.py): the
// llm agent offers the model the harness's TOOL_SCHEMAS (no `limit` on search/list_files, no `max_lines`),
// a scripted model on the OpenAI protocol calls them with the harness's argument shapes and code written
// for the harness's sandbox layout, and every result reaches the model as the harness shows it (over 4,000
// characters: the first 2,500 and the last 1,000). Issue 19; the tool-level items are
// tests/tools/harness_compat_test.cc.
#include <atomic>
#include <set>

#include <gtest/gtest.h>

#include "lakeqa/agent/agent.h"
#include "lakeqa/agent/prompts.h"
#include "lakeqa/agent/tool_env.h"
#include "lakeqa/llm/providers.h"

#include "agent/scripted_run.h"
#include "llm/model_server.h"
#include "tools/fixture.h"

namespace lakeqa::agent {
namespace {

// The USGS earthquake feed's properties (26, as in the demo lake's usgs-earthquakes-past-week): a GeoJSON
// wide enough that its inspect_file result is cut under the harness's protocol.
const char* kQuakeProps[] = {"mag",  "place", "time",    "updated", "tz",     "url",     "detail",
                             "felt", "cdi",   "mmi",     "alert",   "status", "tsunami", "sig",
                             "net",  "code",  "ids",     "sources", "types",  "nst",     "dmin",
                             "rms",  "gap",   "magType", "type",    "title"};

std::string WideGeoJson(int features) {
  std::string s = R"({"type":"FeatureCollection","metadata":{"title":"Earthquakes, past week","count":)" +
                  std::to_string(features) + R"(},"features":[)";
  for (int i = 0; i < features; ++i) {
    std::string id = "ci3786" + std::to_string(8100 + i);
    Json props = Json::object();
    for (const char* p : kQuakeProps) {
      std::string k = p;
      if (k == "mag" || k == "dmin" || k == "rms") props[k] = 0.5 + i * 0.1;
      else if (k == "time" || k == "updated" || k == "tz" || k == "sig" || k == "nst" || k == "gap" ||
               k == "tsunami")
        props[k] = 1517966773840LL + i;
      else if (k == "url" || k == "detail")
        props[k] = "https://earthquake.usgs.gov/earthquakes/feed/v1.0/detail/" + id + ".geojson";
      else props[k] = k + " value " + std::to_string(i % 7) + " near Castaic, CA";
    }
    Json f = {{"type", "Feature"},
              {"properties", props},
              {"geometry", {{"type", "Point"}, {"coordinates", {-118.66, 34.49, 26.49}}}},
              {"id", id}};
    s += (i ? ",\n" : "") + f.dump();
  }
  return s + "]}";
}

class HarnessProtocol : public tools::testing::PythonToolsFixture {
 protected:
  void SetUp() override {
    PythonToolsFixture::SetUp();
    if (IsSkipped()) return;
    Put("datagov/usgs-quakes/files/quakes.geojson", WideGeoJson(40));
    BuildCatalog();  // so that search finds it
  }
};

// What the model was shown after turn `turn`'s tool call: the tool message of the next request.
std::string ShownAfter(const std::vector<std::string>& bodies, size_t turn) {
  Json body = Json::parse(bodies.at(turn + 1));
  const Json& last = body["messages"].back();
  EXPECT_EQ(last["role"], "tool");
  std::string text = last["content"];
  size_t status = text.rfind("\n\n[STATUS: ");
  EXPECT_NE(status, std::string::npos) << text;
  return text.substr(0, status);
}

TEST_F(HarnessProtocol, ReferenceSchemasArgumentsAndCodeWorkUnchanged) {
  // The harness's calls, in its argument shapes; file paths with the leading slash it tolerates, and code
  // that reads <SANDBOX_DIR>/<dataset>/<file> as its download() lays files out.
  std::vector<std::pair<std::string, Json>> calls = {
      {"search", {{"prefixes", {"austin", "usgs"}}}},
      {"search_keyword", {{"keywords", {"police"}}, {"limit", 20}}},
      {"list_files", {{"dataset_ids", {"usgs-quakes", "no-such-dataset"}}}},
      {"inspect_file", {{"dataset_id", "usgs-quakes"}, {"file_path", "/files/quakes.geojson"}}},
      {"download",
       {{"files",
         {{{"dataset_id", "austin-water"}, {"file_path", "/files/data.csv"}},
          {{"dataset_id", "austin-water"}, {"file_path", "files/missing.csv"}}}}}},
      {"execute_code",
       {{"code",
         "df = pd.read_csv(SANDBOX_DIR + '/austin-water/files/data.csv')\n"
         "same = pd.read_csv(FILES[0]).equals(pd.read_csv('austin-water/files/data.csv'))\n"
         "print(same, round(df['ph'].mean(), 1))"}}},
      {"submit_answer", {{"answer", "[7.0 pH]"}, {"reasoning", "mean pH of the two stations"}}},
  };
  ToolEnvOptions eo;
  eo.index_dir = index_;
  eo.lake = lake_;
  eo.work_dir = root_ + "/run";
  eval::Task task;
  task.id = "compat";
  task.question = "What is the mean pH of the Austin water stations? [Answer]";
  task.answer = "7";
  // The full JSON, in the reference's result shapes (the compact view is tests/agent/model_view_test.cc).
  LoopConfig cfg;
  cfg.compact_results = false;
  testing::ScriptedRun run = testing::RunScripted(calls, eo, task, cfg);
  const AgentResult& r = run.result;
  ASSERT_EQ(r.outcome, Outcome::kAnswered) << r.error;
  auto bodies = run.bodies;
  ASSERT_EQ(bodies.size(), calls.size());

  // The model is offered exactly the harness's tools: no limit on search/list_files, no max_lines.
  Json offered = Json::parse(bodies[0])["tools"];
  std::set<std::string> names;
  for (const Json& t : offered) {
    std::string name = t["function"]["name"];
    names.insert(name);
    const Json& props = t["function"]["parameters"]["properties"];
    if (name == "search" || name == "list_files") {
      EXPECT_FALSE(props.contains("limit")) << name;
    }
    if (name == "inspect_file") {
      EXPECT_FALSE(props.contains("max_lines"));
    }
  }
  EXPECT_EQ(names, (std::set<std::string>{"search", "search_keyword", "list_files", "download",
                                          "inspect_file", "execute_code", "submit_answer"}));
  EXPECT_EQ(offered.size(), PaperToolSchemas().size());

  // Every call reached the tools: none was refused for its arguments.
  for (size_t i = 0; i + 1 < calls.size(); ++i) {
    SCOPED_TRACE(calls[i].first);
    EXPECT_EQ(r.trace[i]["status"], "ok") << r.trace[i].dump().substr(0, 600);
  }

  Json search = Json::parse(ShownAfter(bodies, 0));
  std::set<std::string> ids;
  for (const Json& e : search["results"]) ids.insert(e["dataset_id"]);
  EXPECT_TRUE(ids.count("austin-water") && ids.count("usgs-quakes")) << search.dump();
  EXPECT_TRUE(search["results_by_prefix"].contains("usgs"));
  EXPECT_EQ(search["count"], search["results"].size());
  EXPECT_EQ(search["truncated"], false);

  Json keyword = Json::parse(ShownAfter(bodies, 1));
  EXPECT_EQ(keyword["results"][0]["dataset_id"], "apd-searches-by-type") << keyword.dump();

  Json listed = Json::parse(ShownAfter(bodies, 2));
  EXPECT_EQ(listed["by_dataset"]["usgs-quakes"]["files"][0]["path"], "files/quakes.geojson") << listed.dump();
  EXPECT_EQ(listed["by_dataset"]["no-such-dataset"]["error"]["code"], "not_found");
  EXPECT_EQ(listed["truncated"], false);

  // The wide GeoJSON: cut as the harness cuts, with what an agent needs before the cut.
  std::string inspect = ShownAfter(bodies, 3);
  size_t marker = inspect.find("\n...[truncated]...\n");
  ASSERT_NE(marker, std::string::npos) << "the result was not over 4,000 characters: " << inspect.size();
  EXPECT_EQ(marker, 2500u);
  EXPECT_EQ(inspect.size() - marker - std::string("\n...[truncated]...\n").size(), 1000u);
  std::string head = inspect.substr(0, marker);
  EXPECT_NE(head.find(R"("format":"geojson")"), std::string::npos) << head;
  EXPECT_NE(head.find(R"("geometry_types":{"Point":)"), std::string::npos) << head;
  EXPECT_NE(head.find(R"("rows_sampled":)"), std::string::npos) << head;
  size_t header = head.find(R"("header_columns":[)");
  ASSERT_NE(header, std::string::npos) << head;
  std::string columns = head.substr(header, head.find(']', header) - header);
  for (const char* p : kQuakeProps)
    EXPECT_NE(columns.find("\"" + std::string(p) + "\""), std::string::npos) << p << " not in " << columns;
  EXPECT_NE(head.find(R"("columns":[{"name":"mag","type":"float")"), std::string::npos) << head;

  Json downloaded = Json::parse(ShownAfter(bodies, 4));
  ASSERT_EQ(downloaded["download_count"], 1) << downloaded.dump();
  // The agent sees its sandbox as /sandbox (never the host path); the code below reads the file there.
  EXPECT_EQ(downloaded["downloaded"][0]["local_path"],
            "/sandbox/" + downloaded["downloaded"][0]["relative_path"].get<std::string>());
  EXPECT_EQ(downloaded["downloaded"][0]["file_path"], "files/data.csv");
  EXPECT_EQ(downloaded["errors"][0]["file_path"], "files/missing.csv");

  Json ran = Json::parse(ShownAfter(bodies, 5));
  EXPECT_EQ(ran["success"], true) << ran.dump();
  EXPECT_EQ(ran["output"], "True 7.0\n");

  EXPECT_EQ(r.answer, "7.0");  // the harness's _clean_answer, as scored
  EXPECT_EQ(r.raw_answer, "[7.0 pH]");
  for (const char* id : {"datagov/usgs-quakes", "datagov/austin-water"})
    EXPECT_NE(std::find(r.accessed.begin(), r.accessed.end(), id), r.accessed.end()) << id;
}

}  // namespace
}  // namespace lakeqa::agent
