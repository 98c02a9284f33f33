// A small real lake for the workbench tests: a Wikipedia page naming a capital, a data.gov airports table
// and a weather table, its catalogue and text index built by the real builders, and a Workbench over them
// whose API the tests call the way the HTTP server does (Workbench::Handle).
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "lakeqa/catalog/builder.h"
#include "lakeqa/catalog/catalog.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/graph/lake_graph.h"
#include "lakeqa/index/catalog_docs.h"
#include "lakeqa/lake/local_store.h"
#include "lakeqa/workbench/workbench.h"

namespace lakeqa::workbench::testing {

inline constexpr const char* kGeorgia =
    "Georgia is a state in the Southeastern United States. The state capital is Atlanta, its most populous "
    "city.\n"
    "Its postal abbreviation is GA.\n";

inline constexpr const char* kAirports =
    "name,city,state\n"
    "Hartsfield-Jackson Atlanta International,Atlanta,GA\n"
    "Fulton County Airport-Brown Field,Atlanta,GA\n"
    "DeKalb-Peachtree,Atlanta,GA\n"
    "Savannah/Hilton Head International,Savannah,GA\n"
    "Austin-Bergstrom International,Austin,TX\n";

class WorkbenchFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = *MakeTempDir("lakeqa-wb-");
    ::chmod(root_.c_str(), 0755);
    lake_ = root_ + "/lake";
    index_ = root_ + "/index";
    Put("wikipedia/Georgia/content.txt", kGeorgia);
    Put("datagov/airports/files/rows.txt", kAirports);
    Put("datagov/airports/metadata.json",
        R"J({"title": "US Airports and Heliports (FAA)", "notes": "Airports with their city and state. Updated yearly.",
            "organization": {"title": "Federal Aviation Administration"}, "tags": [{"name": "transportation"}]})J");
    Put("datagov/noaa-gsod-2019/files/data.csv", "station,month,temp\nATL,1,45.2\nATL,2,49.0\nSAV,1,51.3\n");
    Put("datagov/noaa-gsod-2019/metadata.json", R"({"title": "Global Surface Summary of the Day 2019"})");
    Build();
  }
  // (Re)builds the catalogue, the text index and the graph of the lake as `lakeqa index build` does.
  void Build() {
    for (auto& e : std::filesystem::recursive_directory_iterator(lake_))
      ::chmod(e.path().c_str(), e.is_directory() ? 0755 : 0644);
    ::chmod(lake_.c_str(), 0755);
    lake::LocalStore store(lake_);
    catalog::BuildOptions bo;
    bo.progress = false;
    bo.jobs = 1;
    auto r = catalog::BuildCatalog(store, index_, bo);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    auto cat = catalog::Catalog::Open(index_ + "/catalog.sqlite");
    ASSERT_TRUE(cat.ok()) << cat.status().ToString();
    index::TextBuildOptions to;
    to.progress = false;
    auto t = index::BuildTextIndex(**cat, index_, to);
    ASSERT_TRUE(t.ok()) << t.status().ToString();
    auto g = graph::BuildLakeGraph(**cat, store, index_ + "/graph");
    ASSERT_TRUE(g.ok()) << g.status().ToString();
  }
  void TearDown() override {
    wb_.reset();
    if (!root_.empty()) (void)RemoveAll(root_);
  }
  WorkbenchOptions Options() {
    WorkbenchOptions o;
    o.index_dir = index_;
    o.lake_uri = lake_;
    o.project_path = root_ + "/project.sqlite";
    o.work_dir = root_ + "/work";
    o.limits.call_timeout_ms = 20000;
    return o;
  }
  void Open(WorkbenchOptions o) {
    wb_.reset();
    auto w = Workbench::Open(std::make_unique<lake::LocalStore>(lake_), o);
    ASSERT_TRUE(w.ok()) << w.status().ToString();
    wb_ = std::move(*w);
  }
  void Open() { Open(Options()); }
  void Put(const std::string& key, const std::string& data) {
    ASSERT_TRUE(WriteFileAtomic(lake_ + "/" + key, data).ok());
  }

  struct Reply {
    int status = 0;
    Json json;
    std::string body;
    server::MountResponse raw;
  };
  // One API call as the browser makes it (loopback Host, the client header, the user's name).
  Reply Call(const std::string& method, const std::string& target, const Json& body = nullptr,
             const std::string& who = "alice") {
    server::MountRequest r;
    r.method = method;
    size_t q = target.find('?');
    r.path = target.substr(0, q);
    if (q != std::string::npos) {
      std::string qs = target.substr(q + 1);
      size_t start = 0;
      while (start <= qs.size()) {
        size_t amp = qs.find('&', start);
        std::string kv = qs.substr(start, amp == std::string::npos ? std::string::npos : amp - start);
        size_t eq = kv.find('=');
        if (!kv.empty())
          r.params.emplace_back(kv.substr(0, eq), eq == std::string::npos ? "" : kv.substr(eq + 1));
        if (amp == std::string::npos) break;
        start = amp + 1;
      }
    }
    r.headers = {{"host", "127.0.0.1:8090"}, {"x-lakeqa-client", "workbench"}};
    if (!who.empty()) r.headers.emplace_back("x-lakeqa-user", who);
    if (!body.is_null()) r.body = DumpJson(body);
    Reply out;
    out.raw = wb_->Handle(r);
    out.status = out.raw.status;
    out.body = out.raw.body;
    auto j = ParseJson(out.raw.body, target);
    if (j.ok()) out.json = *j;
    return out;
  }

  std::string root_, lake_, index_;
  std::unique_ptr<Workbench> wb_;
};

// The two-hop task of the tests: the capital of Georgia from its page, then the airports in that city.
inline Json TwoHopTask() {
  return {{"question_id", "WBT001"},
          {"question", "How many airports does the FAA list in the capital city of Georgia?"},
          {"answer", "3"},
          {"nodes",
           {{{"key", "1"},
             {"source", "wikipedia/Georgia/content.txt"},
             {"fact",
              "import re\nanswer = re.search(r'The state capital is ([^,]+),', "
              "open(local_path).read()).group(1)\n"},
             {"subquestion", "What is the capital of Georgia?"},
             {"answer", "Atlanta"}},
            {{"key", "2"},
             {"source", "datagov/airports/files/rows.txt"},
             {"fact",
              "import pandas as pd\ndf = pd.read_csv(local_path)\nanswer = str(int((df['city'] == '<node_1 "
              "answer>').sum()))\n"},
             {"subquestion", "How many airports are in <node_1 answer>?"},
             {"answer", "3"}}}}};
}

}  // namespace lakeqa::workbench::testing
