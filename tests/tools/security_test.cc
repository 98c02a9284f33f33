// Hostile arguments: every path argument with traversal (../, absolute, %2e%2e, a symlink planted in the
// sandbox), unknown datasets and files, downloads over the limits, more than 5 files. Each must be a
// clear JSON error, and nothing outside the sandbox may change.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "tools/fixture.h"

namespace lakeqa::tools::testing {
namespace {

using SecurityTest = ToolsFixture;

const char* kHostilePaths[] = {
    "../austin-water/files/data.csv",
    "files/../../austin-water/files/data.csv",
    "/../austin-water/files/data.csv",  // a leading '/' is dropped (as the harness does); '..' stays refused
    "%2e%2e/austin-water/files/data.csv",
    "files/%2E%2E/%2e%2e/austin-water/files/data.csv",
    "..%2faustin-water/files/data.csv",
    "./files/rows.txt",
    "files\\..\\..\\x",
};

TEST_F(SecurityTest, TraversalInFilePathIsRefusedByEveryTool) {
  for (const char* p : kHostilePaths) {
    SCOPED_TRACE(p);
    Json r = Call("download", {{"files", {{{"dataset_id", "apd-searches-by-type"}, {"file_path", p}}}}});
    EXPECT_EQ(Code(r), "permission_denied") << r.dump();
    r = Call("download", {{"dataset_id", "apd-searches-by-type"}, {"file_path", p}});
    EXPECT_EQ(Code(r), "permission_denied") << r.dump();
    r = Call("inspect_file", {{"dataset_id", "apd-searches-by-type"}, {"file_path", p}});
    EXPECT_EQ(Code(r), "permission_denied") << r.dump();
  }
  EXPECT_EQ(session_->downloaded_files(), 0u);
}

TEST_F(SecurityTest, TraversalInDatasetIdIsRefused) {
  for (const char* id : {"../datagov/austin-water", "/etc", "datagov/../wikipedia/x", "%2e%2e", "..", "."}) {
    SCOPED_TRACE(id);
    Json r = Call("list_files", {{"dataset_ids", {id}}});
    EXPECT_EQ(r["by_dataset"][id]["error"]["code"], "permission_denied") << r.dump();
    EXPECT_EQ(r["count"], 0);
    r = Call("inspect_file", {{"dataset_id", id}, {"file_path", "files/rows.txt"}});
    EXPECT_EQ(Code(r), "permission_denied") << r.dump();
    r = Call("download", {{"files", {{{"dataset_id", id}, {"file_path", "files/rows.txt"}}}}});
    EXPECT_EQ(Code(r), "permission_denied") << r.dump();
  }
}

TEST_F(SecurityTest, SymlinkPlantedInSandboxDoesNotRedirectDownloads) {
  std::string outside = root_ + "/outside";
  ASSERT_TRUE(MakeDirs(outside).ok());
  // What code run in the sandbox could do: replace the dataset folder with a link to elsewhere.
  ASSERT_EQ(::symlink(outside.c_str(), (session_->sandbox_dir() + "/datagov").c_str()), 0);
  Json r =
      Call("download",
           {{"files", {{{"dataset_id", "datagov/apd-searches-by-type"}, {"file_path", "files/rows.txt"}}}}});
  EXPECT_EQ(Code(r), "permission_denied") << r.dump();
  EXPECT_TRUE(std::filesystem::is_empty(outside));
  // A link at the file's own name is replaced, not written through.
  ASSERT_EQ(::unlink((session_->sandbox_dir() + "/datagov").c_str()), 0);
  ASSERT_TRUE(MakeDirs(session_->sandbox_dir() + "/datagov/apd-searches-by-type/files").ok());
  std::string victim = outside + "/victim.txt";
  ASSERT_TRUE(WriteFileAtomic(victim, "keep me").ok());
  ASSERT_EQ(::symlink(victim.c_str(),
                      (session_->sandbox_dir() + "/datagov/apd-searches-by-type/files/rows.txt").c_str()),
            0);
  r = Call("download",
           {{"files", {{{"dataset_id", "datagov/apd-searches-by-type"}, {"file_path", "files/rows.txt"}}}}});
  ASSERT_FALSE(r.contains("error")) << r.dump();
  EXPECT_EQ(*ReadFile(victim), "keep me");
  EXPECT_EQ(*ReadFile(session_->sandbox_dir() + "/datagov/apd-searches-by-type/files/rows.txt"), kRows);
}

TEST_F(SecurityTest, UnknownDatasetsAndFilesAreNotFound) {
  Json r = Call("list_files", {{"dataset_ids", {"no-such-dataset"}}});
  EXPECT_EQ(r["by_dataset"]["no-such-dataset"]["error"]["code"], "not_found") << r.dump();
  EXPECT_NE(r["by_dataset"]["no-such-dataset"]["error"]["message"].get<std::string>().find("no-such-dataset"),
            std::string::npos);
  r = Call("download", {{"files", {{{"dataset_id", "austin-water"}, {"file_path", "files/missing.csv"}}}}});
  EXPECT_EQ(Code(r), "not_found") << r.dump();
  EXPECT_NE(r["error"]["message"].get<std::string>().find("files/missing.csv"), std::string::npos);
  r = Call("inspect_file", {{"dataset_id", "nope/x"}, {"file_path", "a.csv"}});
  EXPECT_EQ(Code(r), "not_found") << r.dump();
  // One good and one bad file: the good one is downloaded, the bad one reported.
  r = Call("download", {{"files",
                         {{{"dataset_id", "austin-water"}, {"file_path", "files/data.csv"}},
                          {{"dataset_id", "austin-water"}, {"file_path", "files/missing.csv"}}}}});
  ASSERT_FALSE(r.contains("error") && r["error"].is_object()) << r.dump();
  EXPECT_EQ(r["download_count"], 1);
  EXPECT_EQ(r["errors"].size(), 1u);
}

TEST_F(SecurityTest, AmbiguousIdNeedsNamespace) {
  Json r = Call("list_files", {{"dataset_ids", {"apd-searches-by-type"}}});
  EXPECT_EQ(r["by_dataset"]["apd-searches-by-type"]["error"]["code"], "invalid_argument") << r.dump();
  r = Call("list_files", {{"dataset_ids", {"wikipedia/apd-searches-by-type"}}});
  ASSERT_EQ(Code(r), "") << r.dump();
  EXPECT_EQ(r["files"][0]["path"], "content.txt");
}

TEST_F(SecurityTest, MoreThanFiveFilesIsRefused) {
  Json files = Json::array();
  for (int i = 0; i < 6; ++i)
    files.push_back({{"dataset_id", "austin-water"}, {"file_path", "files/data.csv"}});
  Json r = Call("download", {{"files", files}});
  EXPECT_EQ(Code(r), "invalid_argument") << r.dump();
  EXPECT_NE(r["error"]["message"].get<std::string>().find("at most 5"), std::string::npos);
  EXPECT_EQ(session_->downloaded_files(), 0u);
}

TEST_F(SecurityTest, DownloadsOverTheByteLimitAreRefusedWhole) {
  SessionLimits lim;
  lim.max_download_bytes = 100;  // rows.txt is 221 bytes, data.csv 24
  NewSession(lim, "small");
  Json r =
      Call("download",
           {{"files", {{{"dataset_id", "datagov/apd-searches-by-type"}, {"file_path", "files/rows.txt"}}}}});
  EXPECT_EQ(Code(r), "resource_exhausted") << r.dump();
  EXPECT_TRUE(ListSandbox(session_->sandbox_dir(), tools_->namespaces()).empty());
  r = Call("download", {{"files", {{{"dataset_id", "austin-water"}, {"file_path", "files/data.csv"}}}}});
  EXPECT_EQ(Code(r), "") << r.dump();
  lim.max_downloaded_files = 1;
  NewSession(lim, "onefile");
  r = Call("download", {{"files", {{{"dataset_id", "austin-water"}, {"file_path", "files/data.csv"}}}}});
  EXPECT_EQ(Code(r), "") << r.dump();
  r = Call("download", {{"files", {{{"dataset_id", "datagov/geo"}, {"file_path", "files/data.txt"}}}}});
  EXPECT_EQ(Code(r), "resource_exhausted") << r.dump();
}

TEST_F(SecurityTest, BadArgumentsAreClearErrors) {
  EXPECT_EQ(Code(Call("no_such_tool", Json::object())), "not_found");
  EXPECT_EQ(Code(Call("search", Json::array())), "invalid_argument");
  EXPECT_EQ(Code(Call("search", {{"prefixes", {"a"}}})), "invalid_argument");
  EXPECT_EQ(Code(Call("search", {{"prefixes", 3}})), "invalid_argument");
  EXPECT_EQ(Code(Call("search", {{"prefixes", {"ap"}}, {"bogus", 1}})), "invalid_argument");
  EXPECT_EQ(Code(Call("search", {{"prefixes", {"ap"}}, {"limit", -1}})), "invalid_argument");
  EXPECT_EQ(Code(Call("download", {{"files", Json::array()}})), "invalid_argument");
  EXPECT_EQ(Code(Call("download", {{"files", {{{"dataset_id", "x"}}}}})), "invalid_argument");
  EXPECT_EQ(Code(Call("query", Json::object())), "invalid_argument");
  EXPECT_EQ(Code(Call("submit_answer", {{"answer", 3}})), "invalid_argument");
  // Every failure is in the trace with its code.
  auto trace = session_->ReadTrace();
  ASSERT_TRUE(trace.ok());
  ASSERT_EQ(trace->size(), 10u);
  EXPECT_EQ((*trace)[0]["status"], "not_found");
  EXPECT_EQ((*trace)[1]["status"], "invalid_argument");
}

// Security regression (issue 15): a local lake never leaves its root, whatever links it holds.
TEST_F(SecurityTest, LakeLinksOutOfTheRootAreNotFollowed) {
  std::string outside = root_ + "/outside";
  ASSERT_TRUE(WriteFileAtomic(outside + "/shadow", "hunter2\n").ok());
  ASSERT_EQ(::symlink(outside.c_str(), (lake_ + "/datagov/etc-link").c_str()), 0);
  ASSERT_EQ(
      ::symlink((outside + "/shadow").c_str(), (lake_ + "/datagov/austin-water/files/shadow.csv").c_str()),
      0);
  Json r = Call("list_files", {{"dataset_ids", {"datagov/etc-link"}}});
  // list_files fails per dataset (the call itself succeeds when every id is unknown).
  EXPECT_EQ(r["by_dataset"]["datagov/etc-link"]["error"]["code"], "not_found") << r.dump();
  EXPECT_EQ(r.dump().find("shadow"), std::string::npos) << r.dump();
  for (const char* tool : {"download", "inspect_file"}) {
    SCOPED_TRACE(tool);
    r = Call(tool, {{"dataset_id", "datagov/austin-water"}, {"file_path", "files/shadow.csv"}});
    EXPECT_EQ(Code(r), "permission_denied") << r.dump();
    EXPECT_EQ(r.dump().find("hunter2"), std::string::npos);
  }
  EXPECT_EQ(session_->downloaded_files(), 0u);
  // Nothing of the secret reached the shared cache, and the tools still work.
  for (auto& e : std::filesystem::recursive_directory_iterator(root_ + "/cache"))
    if (e.is_regular_file()) {
      EXPECT_EQ(ReadFile(e.path().string()).value_or("").find("hunter2"), std::string::npos);
    }
  r = Call("download", {{"dataset_id", "datagov/austin-water"}, {"file_path", "files/data.csv"}});
  EXPECT_EQ(Code(r), "") << r.dump();
}

TEST_F(SecurityTest, DownloadCacheIsPrivate) {
  Json r = Call("download", {{"dataset_id", "datagov/austin-water"}, {"file_path", "files/data.csv"}});
  ASSERT_EQ(Code(r), "") << r.dump();
  struct stat st {};
  ASSERT_EQ(::stat((root_ + "/cache").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  size_t files = 0;
  for (auto& e : std::filesystem::recursive_directory_iterator(root_ + "/cache")) {
    ASSERT_EQ(::lstat(e.path().c_str(), &st), 0);
    if (S_ISDIR(st.st_mode)) {
      EXPECT_EQ(st.st_mode & 0777, 0700u) << e.path();
    }
    if (S_ISREG(st.st_mode) && e.path().extension() != ".sha256") {
      ++files;
      EXPECT_EQ(st.st_mode & 0007, 0u) << e.path();  // nothing for other users
      EXPECT_EQ(st.st_mode & 0222, 0u) << e.path();  // read-only for everyone
    }
  }
  EXPECT_EQ(files, 1u);
}

TEST_F(SecurityTest, ResultsNeverShowTheHostPath) {
  std::vector<Json> results = {
      Call("download", {{"dataset_id", "datagov/austin-water"}, {"file_path", "files/data.csv"}}),
      Call("get_sandbox_info", Json::object()),
      Call("query", {{"sql", "SELECT * FROM 'datagov/austin-water/files/data.csv'"}}),
      Call("query", {{"sql", "SELECT * FROM read_csv('../outside.csv')"}}),
      Call("query", {{"sql", "SELECT * FROM read_csv('/sandbox/no/such.csv')"}}),
  };
  for (const auto& r : results) EXPECT_EQ(r.dump().find(root_), std::string::npos) << r.dump();
  EXPECT_EQ(results[0]["downloaded"][0]["local_path"], "/sandbox/datagov/austin-water/files/data.csv");
  EXPECT_EQ(results[1]["sandbox_dir"], "/sandbox");
}

// D_acc for `query` counts what DuckDB really opened, so a glob over two datasets counts both.
TEST_F(SecurityTest, QueryThroughAGlobCountsEveryDatasetRead) {
  ASSERT_EQ(Code(Call("download", {{"dataset_id", "datagov/austin-water"}, {"file_path", "files/data.csv"}})),
            "");
  ASSERT_EQ(Code(Call("download",
                      {{"dataset_id", "datagov/apd-searches-by-type"}, {"file_path", "files/rows.txt"}})),
            "");
  Json r = Call("query", {{"sql", "SELECT sum(length(content)) FROM read_text('datagov/*/files/*')"}});
  ASSERT_EQ(Code(r), "") << r.dump();
  auto trace = *session_->ReadTrace();
  EXPECT_EQ(trace.back()["accessed"], (Json{"datagov/apd-searches-by-type", "datagov/austin-water"}))
      << trace.back().dump();
}

TEST(PathValidation, Table) {
  EXPECT_TRUE(ValidateRelativePath("files/rows.txt", "p").ok());
  EXPECT_TRUE(ValidateRelativePath("a..b/c", "p").ok());
  EXPECT_TRUE(ValidateRelativePath("100%25/x", "p").ok());
  EXPECT_EQ(ValidateRelativePath("", "p").code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(ValidateRelativePath("a//b", "p").code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(ValidateRelativePath(std::string_view("a\0b", 3), "p").code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(ValidateRelativePath("../x", "p").code(), ErrorCode::kPermissionDenied);
  EXPECT_EQ(ValidateRelativePath("/x", "p").code(), ErrorCode::kPermissionDenied);
  EXPECT_EQ(ValidateRelativePath("%2F/etc", "p").code(), ErrorCode::kPermissionDenied);
  EXPECT_EQ(ValidateRelativePath("a/%2e%2E", "p").code(), ErrorCode::kPermissionDenied);
}

}  // namespace
}  // namespace lakeqa::tools::testing
