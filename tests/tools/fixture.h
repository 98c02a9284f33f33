// A small real lake (a local folder), its catalog built by the real builder, a text index written with
// IndexWriter, and a ToolSet + Session over them, for the tools tests.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "lakeqa/catalog/builder.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/exec/python.h"
#include "lakeqa/index/index.h"
#include "lakeqa/lake/local_store.h"
#include "lakeqa/tools/tools.h"

#include "support/require_protection.h"
#include "tools/internal.h"

namespace lakeqa::tools::testing {

inline constexpr const char* kRows =
    "Occurred Year,TCOLE Search Based On,Sector\n"
    "2022,Contraband/evidence In Plain View,Adam\n"
    "2022,Contraband/evidence In Plain View,Baker\n"
    "2022,Contraband/evidence In Plain View,Adam\n"
    "2021,Contraband/evidence In Plain View,Baker\n"
    "2022,Consent,Baker\n";

class ToolsFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = *MakeTempDir("lakeqa-tools-");
    ::chmod(root_.c_str(), 0755);
    lake_ = root_ + "/lake";
    index_ = root_ + "/index";
    Put("datagov/apd-searches-by-type/files/rows.txt", kRows);
    Put("datagov/apd-searches-by-type/metadata.json",
        R"({"title": "APD Searches by Type", "notes": "Searches by the Austin police department."})");
    Put("datagov/austin-water/files/data.csv", "station,ph\nA,7.1\nB,6.9\n");
    Put("wikipedia/Austin,_Texas/content.txt", "Austin is the capital of Texas.\n");
    Put("wikipedia/apd-searches-by-type/content.txt", "A page that shares an id with a datagov dataset.\n");
    Put("datagov/geo/files/data.txt",
        R"({"type":"FeatureCollection","features":[{"type":"Feature","properties":{"NAME":"x","POP":3},"geometry":null}]})");
    for (auto& e : std::filesystem::recursive_directory_iterator(lake_))
      ::chmod(e.path().c_str(), e.is_directory() ? 0755 : 0644);
    ::chmod(lake_.c_str(), 0755);
    BuildCatalog();
    {
      auto w = index::IndexWriter::Open(index_ + "/text", index::Schema::Datasets());
      ASSERT_TRUE(w.ok()) << w.status().ToString();
      index::Document a;
      a.id = "datagov/apd-searches-by-type";
      a.Add("title", "APD Searches by Type")
          .Add("description", "Searches by the Austin police department")
          .Add("namespace", "datagov")
          .Add("category", "Public Safety")
          .Add("columns", "Occurred Year")
          .Add("columns", "TCOLE Search Based On")
          .Add("columns", "Sector");
      index::Document b;
      b.id = "datagov/austin-water";
      b.Add("title", "Austin Water Quality")
          .Add("description", "pH by station")
          .Add("namespace", "datagov")
          .Add("columns", "station")
          .Add("columns", "ph");
      index::Document c;
      c.id = "wikipedia/Austin,_Texas";
      c.Add("title", "Austin, Texas")
          .Add("content", "Austin is the capital of Texas.")
          .Add("namespace", "wikipedia");
      for (auto* d : {&a, &b, &c}) ASSERT_TRUE((*w)->Add(*d).ok());
      ASSERT_TRUE((*w)->Commit().ok());
    }
    OpenTools(limits_);
  }
  void TearDown() override {
    session_.reset();
    tools_.reset();
    if (!root_.empty()) (void)RemoveAll(root_);
  }
  // Builds the catalog of the lake (incrementally: call again after Put to catalog new datasets).
  void BuildCatalog() {
    lake::LocalStore store(lake_);
    catalog::BuildOptions bo;
    bo.progress = false;
    bo.jobs = 1;
    auto r = catalog::BuildCatalog(store, index_, bo);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
  }
  // session_id: a ToolSet opened again in one test needs a session of its own (the folder of "s1" exists).
  void OpenTools(const SessionLimits& limits, const std::string& session_id = "s1") {
    ToolSetOptions o;
    o.index_dir = index_;
    o.cache_dir = root_ + "/cache";
    auto t = ToolSet::Open(std::make_unique<lake::LocalStore>(lake_), o);
    ASSERT_TRUE(t.ok()) << t.status().ToString();
    tools_ = std::move(*t);
    NewSession(limits, session_id);
  }
  void NewSession(const SessionLimits& limits, const std::string& id = "s1") {
    session_.reset();
    auto s = Session::Create(root_ + "/sessions", id, limits);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    session_ = std::move(*s);
  }
  void Put(const std::string& key, const std::string& data) {
    ASSERT_TRUE(WriteFileAtomic(lake_ + "/" + key, data).ok());
  }
  Json Call(const std::string& tool, const Json& args) { return tools_->Call(*session_, tool, args); }
  static std::string Code(const Json& r) {
    return r.contains("error") && r["error"].is_object() ? r["error"]["code"].get<std::string>() : "";
  }

  std::string root_, lake_, index_;
  SessionLimits limits_;
  std::unique_ptr<ToolSet> tools_;
  std::unique_ptr<Session> session_;
};

// The same, for tests that run code: skipped where bubblewrap and the sandbox user are unavailable.
class PythonToolsFixture : public ToolsFixture {
 protected:
  void SetUp() override {
    static const Status st = exec::CheckPythonSandbox();
    if (!st.ok()) LAKEQA_SKIP_MISSING_PROTECTION("Python sandbox unavailable: " + st.ToString());
    ToolsFixture::SetUp();
  }
};

}  // namespace lakeqa::tools::testing
