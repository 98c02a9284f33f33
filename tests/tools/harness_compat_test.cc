// What code and prompts written for the LakeQA harness (evaluation/tools/agent_tools.py) rely on, item by
// item (issue 19): FILES without hidden files, counts and flags of capped results, leading-slash paths,
// per-file and per-dataset errors, both sandbox spellings of a downloaded file, the scored answer, and an
// id present in two namespaces. The whole-protocol run is tests/agent/harness_compat_test.cc.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lakeqa/eval/em.h"

#include "tools/fixture.h"

namespace lakeqa::tools::testing {
namespace {

using HarnessCompat = ToolsFixture;

using HarnessCompatPython = PythonToolsFixture;

// Item 1: the output cap saves the full result under .outputs/, which sorts before datagov/; FILES[0]
// must still be the downloaded file, as the harness's pd.read_csv(FILES[0]) example assumes.
TEST_F(HarnessCompatPython, FilesListsNoHiddenOverflowFile) {
  SessionLimits lim;
  lim.max_output_chars = 2000;
  NewSession(lim, "capped");
  ASSERT_EQ(Code(Call("download", {{"dataset_id", "austin-water"}, {"file_path", "files/data.csv"}})), "");
  Json big = Call("query", {{"sql", "SELECT range AS i, repeat('x', 50) AS pad FROM range(500)"}});
  ASSERT_EQ(big["output_capped"], true) << big.dump();
  ASSERT_TRUE(PathExists(session_->sandbox_dir() + "/" + big["full_output_path"].get<std::string>()));
  Json r = Call("execute_code", {{"code",
                                  "print(len(FILES), any('/.' in f for f in FILES))\n"
                                  "print(FILES[0].endswith('datagov/austin-water/files/data.csv'))\n"
                                  "print(list(pd.read_csv(FILES[0]).columns))"}});
  ASSERT_EQ(r["success"], true) << r.dump();
  EXPECT_EQ(r["output"], "1 False\nTrue\n['station', 'ph']\n");
  EXPECT_EQ(r["sandbox_files"], (Json{"datagov/austin-water/files/data.csv"}));
}

// Item 2: `truncated` is the limit (more exist), `output_capped` the cap; `count` what is shown, `total`
// what exists (null when the limit left it unknown).
TEST_F(HarnessCompat, CountsSayWhatIsShownAndWhatExists) {
  for (int i = 0; i < 3; ++i) Put("datagov/many/files/part-" + std::to_string(i) + ".csv", "a\n1\n");
  Json r = Call("list_files", {{"dataset_ids", {"many"}}, {"limit", 3}});
  ASSERT_EQ(Code(r), "") << r.dump();
  EXPECT_EQ(r["truncated"], false);  // exactly `limit` files and nothing left out
  EXPECT_EQ(r["by_dataset"]["many"]["truncated"], false);
  EXPECT_EQ(r["count"], 3);
  EXPECT_EQ(r["total"], 3);
  r = Call("list_files", {{"dataset_ids", {"many"}}, {"limit", 2}});
  EXPECT_EQ(r["truncated"], true);
  EXPECT_EQ(r["by_dataset"]["many"]["count"], 2);
  EXPECT_TRUE(r["by_dataset"]["many"]["total"].is_null());
  EXPECT_FALSE(r.contains("output_capped"));

  // The output cap alone: nothing was limited, the lists were shortened to fit.
  for (int i = 3; i < 80; ++i)
    Put("datagov/many/files/a-rather-long-file-name-to-fill-the-output-" + std::to_string(i) + ".csv", "a\n");
  SessionLimits lim;
  lim.max_output_chars = 3000;
  NewSession(lim, "capped");
  r = Call("list_files", {{"dataset_ids", {"many"}}});
  ASSERT_EQ(Code(r), "") << r.dump().substr(0, 300);
  EXPECT_EQ(r["output_capped"], true);
  EXPECT_EQ(r["truncated"], false);
  EXPECT_LT(r["files"].size(), 80u);
  EXPECT_EQ(r["count"], r["files"].size());
  EXPECT_EQ(r["total"], 80);
  const Json& mine = r["by_dataset"]["many"];
  EXPECT_EQ(mine["count"], mine["files"].size());
  EXPECT_EQ(mine["total"], 80);
  EXPECT_LE(DumpJson(r).size(), 3000u);
  auto full =
      ParseJson(*ReadFile(session_->sandbox_dir() + "/" + r["full_output_path"].get<std::string>()), "full");
  ASSERT_TRUE(full.ok());
  EXPECT_EQ((*full)["count"], 80);
  EXPECT_FALSE(full->contains("output_capped"));
}

// Item 3: a leading slash names a path inside the dataset, never outside it; in a batch, a bad file fails
// alone.
TEST_F(HarnessCompat, LeadingSlashIsInsideTheDatasetAndBadFilesFailAlone) {
  Json r = Call("inspect_file", {{"dataset_id", "austin-water"}, {"file_path", "/files/data.csv"}});
  ASSERT_EQ(Code(r), "") << r.dump();
  EXPECT_EQ(r["file_path"], "files/data.csv");
  EXPECT_EQ(r["header_columns"], (Json{"station", "ph"}));
  r = Call("inspect_file", {{"dataset_id", "austin-water"}, {"file_path", "/etc/passwd"}});
  EXPECT_EQ(Code(r), "not_found") << r.dump();  // etc/passwd of the dataset: there is none
  EXPECT_NE(r["error"]["message"].get<std::string>().find("datagov/austin-water"), std::string::npos);
  EXPECT_EQ(Code(Call("inspect_file", {{"dataset_id", "austin-water"}, {"file_path", "//"}})),
            "invalid_argument");

  r = Call("download",
           {{"files",
             {{{"dataset_id", "austin-water"}, {"file_path", "/files/data.csv"}},
              {{"dataset_id", "austin-water"}, {"file_path", "/../apd-searches-by-type/files/rows.txt"}},
              {{"dataset_id", "../wikipedia"}, {"file_path", "files/rows.txt"}},
              "not an object",
              {{"dataset_id", "datagov/geo"}, {"file_path", "files/data.txt"}}}}});
  ASSERT_EQ(Code(r), "") << r.dump();
  EXPECT_EQ(r["download_count"], 2);
  EXPECT_EQ(r["downloaded"][0]["file_path"], "files/data.csv");
  EXPECT_EQ(r["downloaded"][0]["relative_path"], "datagov/austin-water/files/data.csv");
  ASSERT_EQ(r["errors"].size(), 3u);
  EXPECT_EQ(r["errors"][0]["index"], 1);
  EXPECT_EQ(r["errors"][0]["error"]["code"], "permission_denied");
  EXPECT_EQ(r["errors"][1]["error"]["code"], "permission_denied");
  EXPECT_EQ(r["errors"][2]["index"], 3);
  EXPECT_EQ(r["errors"][2]["error"]["code"], "invalid_argument");
  EXPECT_EQ(session_->downloaded_files(), 2u);
  EXPECT_FALSE(PathExists(session_->sandbox_dir() + "/datagov/apd-searches-by-type"));
}

// Item 4: only unknown ids still answer per dataset.
TEST_F(HarnessCompat, ListFilesWithOnlyUnknownIdsAnswersPerDataset) {
  Json r = Call("list_files", {{"dataset_ids", {"no-such", "nope/x"}}});
  ASSERT_EQ(Code(r), "") << r.dump();
  EXPECT_EQ(r["files"], Json::array());
  EXPECT_EQ(r["count"], 0);
  EXPECT_EQ(r["failed_count"], 2);
  EXPECT_EQ(r["by_dataset"]["no-such"]["error"]["code"], "not_found");
  EXPECT_EQ(r["by_dataset"]["nope/x"]["error"]["code"], "not_found");
  auto trace = *session_->ReadTrace();
  EXPECT_EQ(trace.back()["accessed"], Json::array());
}

// Item 5: <sandbox>/<dataset>/<file> (the harness) and <sandbox>/<namespace>/<dataset>/<file> (lakeqa)
// open the same file when the id names one dataset; listings show it once.
TEST_F(HarnessCompat, BothSandboxSpellingsOpenTheSameFile) {
  Json r = Call("download", {{"files", {{{"dataset_id", "austin-water"}, {"file_path", "files/data.csv"}}}}});
  ASSERT_EQ(Code(r), "") << r.dump();
  const Json& d = r["downloaded"][0];
  // Results show the sandbox as the agent sees it (/sandbox); the host paths are checked behind it.
  EXPECT_EQ(d["alias_path"], Session::VisiblePath("austin-water/files/data.csv"));
  EXPECT_EQ(d["local_path"], Session::VisiblePath(d["relative_path"].get<std::string>()));
  std::string alias = session_->sandbox_dir() + "/austin-water/files/data.csv";
  std::string local = session_->sandbox_dir() + "/" + d["relative_path"].get<std::string>();
  EXPECT_EQ(*ReadFile(alias), *ReadFile(local));
  struct stat a {
  }, b{};
  ASSERT_EQ(::stat(alias.c_str(), &a), 0);
  ASSERT_EQ(::stat(local.c_str(), &b), 0);
  EXPECT_EQ(a.st_ino, b.st_ino);
  EXPECT_EQ(a.st_mode & 0222, 0u);  // read-only through either name
  // SQL reads either spelling; the alias counts as access to the dataset.
  Json q = Call("query", {{"sql", "SELECT avg(ph) AS m FROM 'austin-water/files/data.csv'"}});
  ASSERT_EQ(Code(q), "") << q.dump();
  EXPECT_DOUBLE_EQ(q["rows"][0][0].get<double>(), 7.0);
  EXPECT_EQ(session_->ReadTrace()->back()["accessed"], (Json{"datagov/austin-water"}));
  EXPECT_EQ(q["views"].size(), 1u);
  Json info = Call("get_sandbox_info", Json::object());
  EXPECT_EQ(info["file_count"], 1);
  EXPECT_EQ(info["files"][0]["relative_path"], "datagov/austin-water/files/data.csv");

  // An id in two namespaces gets no alias (it would be a guess).
  r = Call("download", {{"dataset_id", "wikipedia/apd-searches-by-type"}, {"file_path", "content.txt"}});
  ASSERT_EQ(Code(r), "") << r.dump();
  EXPECT_FALSE(r["downloaded"][0].contains("alias_path"));
  EXPECT_NE(r["downloaded"][0]["alias_unavailable"].get<std::string>().find("more than one namespace"),
            std::string::npos);
  EXPECT_FALSE(PathExists(session_->sandbox_dir() + "/apd-searches-by-type"));
}

TEST_F(HarnessCompat, AliasesNeverTakeANameThatIsInUse) {
  // A dataset named like a namespace: its alias would hide that namespace's folder.
  Put("datagov/wikipedia/files/a.csv", "a\n1\n");
  Json r = Call("download", {{"dataset_id", "datagov/wikipedia"}, {"file_path", "files/a.csv"}});
  ASSERT_EQ(Code(r), "") << r.dump();
  EXPECT_NE(r["downloaded"][0]["alias_unavailable"].get<std::string>().find("namespace"), std::string::npos);
  r = Call("download", {{"dataset_id", "wikipedia/Austin,_Texas"}, {"file_path", "content.txt"}});
  ASSERT_EQ(Code(r), "") << r.dump();
  EXPECT_EQ(r["downloaded"][0]["alias_path"], Session::VisiblePath("Austin,_Texas/content.txt"));
  // A name the agent's code already uses is left as it is.
  ASSERT_TRUE(WriteFileAtomic(session_->sandbox_dir() + "/austin-water", "mine").ok());
  r = Call("download", {{"dataset_id", "austin-water"}, {"file_path", "files/data.csv"}});
  ASSERT_EQ(Code(r), "") << r.dump();
  EXPECT_NE(r["downloaded"][0]["alias_unavailable"].get<std::string>().find("already exists"),
            std::string::npos)
      << r.dump();
  EXPECT_EQ(*ReadFile(session_->sandbox_dir() + "/austin-water"), "mine");
}

TEST_F(HarnessCompatPython, PythonOpensBothSpellings) {
  ASSERT_EQ(Code(Call("download", {{"dataset_id", "austin-water"}, {"file_path", "files/data.csv"}})), "");
  Json r =
      Call("execute_code",
           {{"code",
             "a = pd.read_csv(SANDBOX_DIR + '/austin-water/files/data.csv')\n"
             "b = pd.read_csv('datagov/austin-water/files/data.csv')\n"
             "print(a.equals(b), len(FILES), sorted(str(p) for p in Path('.').rglob('*.csv')))\n"
             "print(sorted(glob.glob('*/files/*.csv')), sorted(glob.glob('**/*.csv', recursive=True)))"}});
  ASSERT_EQ(r["success"], true) << r.dump();
  // FILES, rglob and os.walk list each file once; glob's '**' follows the alias and sees both spellings
  // (docs/tools.md lists this difference).
  EXPECT_EQ(r["output"],
            "True 1 ['datagov/austin-water/files/data.csv']\n"
            "['austin-water/files/data.csv'] ['austin-water/files/data.csv', "
            "'datagov/austin-water/files/data.csv']\n");
  // The alias is still there for the SQL tool after code ran (it points inside the sandbox).
  EXPECT_EQ(Code(Call("query", {{"sql", "SELECT count(*) FROM 'austin-water/files/data.csv'"}})), "");
}

// Item 6: the model sees what exact match will score, cleaned by the scorer's own code.
TEST_F(HarnessCompat, SubmitAnswerShowsTheScoredAnswer) {
  Json r = Call("submit_answer", {{"answer", "[42 airports]"}, {"reasoning", "counted"}});
  ASSERT_EQ(Code(r), "") << r.dump();
  EXPECT_EQ(r["status"], "answer_submitted");
  EXPECT_EQ(r["answer"], "42");
  EXPECT_EQ(r["raw_answer"], "[42 airports]");
  EXPECT_EQ(r["answer"], eval::ScoreAnswer("[42 airports]", "42").cleaned);
  EXPECT_TRUE(eval::ScoreAnswer(r["raw_answer"], "42").em);
  NewSession({}, "s2");
  r = Call("submit_answer", {{"answer", "Answer: \"Pittsburgh, PA\""}});
  EXPECT_EQ(r["answer"], "Pittsburgh, PA");
}

// Item 7: namespaces are searched in alphabetical order (the harness lists wikipedia first); an id in two
// namespaces is listed under both and reachable as <namespace>/<id>; the bare id is refused naming both.
TEST_F(HarnessCompat, AnIdInTwoNamespaces) {
  Json r = Call("search", {{"prefixes", {"apd-searches"}}});
  ASSERT_EQ(r["results"].size(), 2u) << r.dump();
  EXPECT_EQ(r["results"][0]["namespace"], "datagov");
  EXPECT_EQ(r["results"][1]["namespace"], "wikipedia");
  EXPECT_EQ(r["results"][0]["dataset_id"], r["results"][1]["dataset_id"]);
  EXPECT_EQ(tools_->namespaces(), (std::vector<std::string>{"datagov", "wikipedia"}));

  r = Call("list_files",
           {{"dataset_ids",
             {"apd-searches-by-type", "datagov/apd-searches-by-type", "wikipedia/apd-searches-by-type"}}});
  ASSERT_EQ(Code(r), "") << r.dump();
  std::string msg = r["by_dataset"]["apd-searches-by-type"]["error"]["message"];
  EXPECT_NE(msg.find("datagov/apd-searches-by-type"), std::string::npos) << msg;
  EXPECT_NE(msg.find("wikipedia/apd-searches-by-type"), std::string::npos) << msg;
  EXPECT_EQ(r["by_dataset"]["datagov/apd-searches-by-type"]["count"], 2);
  EXPECT_EQ(r["by_dataset"]["wikipedia/apd-searches-by-type"]["files"][0]["path"], "content.txt");
  EXPECT_EQ(
      Code(Call("inspect_file", {{"dataset_id", "apd-searches-by-type"}, {"file_path", "content.txt"}})),
      "invalid_argument");
  r = Call("inspect_file", {{"dataset_id", "wikipedia/apd-searches-by-type"}, {"file_path", "content.txt"}});
  EXPECT_EQ(r["namespace"], "wikipedia") << r.dump();
  EXPECT_EQ(Code(Call("download", {{"dataset_id", "apd-searches-by-type"}, {"file_path", "files/rows.txt"}})),
            "invalid_argument");
}

}  // namespace
}  // namespace lakeqa::tools::testing
