// The docs say what the code does (issue 14): docs/formats-run.md's field tables name exactly the fields
// `lakeqa run` writes, checked against real runs of every agent; and no document carries placeholder text
// or cites a file the repository does not have.
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "lakeqa/common/build_paths.h"
#include "lakeqa/common/fs.h"

#include "agent/cli_fixture.h"
#include "llm/model_server.h"

namespace lakeqa::agent {
namespace {

namespace fs = std::filesystem;
using lakeqa::testing::JsonReply;
using lakeqa::testing::ModelServer;
using lakeqa::testing::OpenAiTextStream;
using lakeqa::testing::OpenAiToolCallStream;
using lakeqa::testing::Reply;
using testing::CliRun;
using testing::Lines;
using testing::RunCli;

// A chat.completion whose message is `message` (text, tool calls), as a whole JSON answer.
Reply Completion(const Json& message) {
  return JsonReply(
      200, {{"id", "chatcmpl-d"},
            {"object", "chat.completion"},
            {"model", "gpt-test"},
            {"choices", Json::array({{{"index", 0}, {"message", message}, {"finish_reason", "stop"}}})},
            {"usage", {{"prompt_tokens", 100}, {"completion_tokens", 10}, {"total_tokens", 110}}}});
}

Json Call(const std::string& id, const std::string& name, const Json& args) {
  return {{"id", id}, {"type", "function"}, {"function", {{"name", name}, {"arguments", args.dump()}}}};
}

// Every turn shape the llm agent records: two tool calls in one reply (one is dropped), a reply without a
// tool call, then the answer.
Reply Script(const Json& body) {
  if (!body.contains("tools")) return OpenAiTextStream("OK");  // the preflight
  int turn = 0;
  for (const Json& m : body["messages"]) turn += m["role"] == "assistant";
  if (turn == 0) {
    return Completion({{"role", "assistant"},
                       {"content", "Two at once."},
                       {"tool_calls", Json::array({Call("a", "search_keyword", {{"keywords", {"parks"}}}),
                                                   Call("b", "get_sandbox_info", Json::object())})}});
  }
  if (turn == 1) return Completion({{"role", "assistant"}, {"content", "Thinking it over."}});
  return OpenAiToolCallStream("submit_answer", {{"answer", "[1853]"}}, "c9");
}

// "a", "a.b" (a member of an object a), "a[].b" (a member of the objects in array a), two levels deep.
void CollectPaths(const Json& j, std::set<std::string>& out) {
  for (const auto& [k, v] : j.items()) {
    out.insert(k);
    if (v.is_object()) {
      for (const auto& [k2, v2] : v.items()) out.insert(k + "." + k2);
    } else if (v.is_array()) {
      for (const Json& e : v)
        if (e.is_object())
          for (const auto& [k2, v2] : e.items()) out.insert(k + "[]." + k2);
    }
  }
}

// The first-column field names of the tables in the section "## <title>" of a markdown file.
std::vector<std::string> DocumentedFields(const std::string& markdown, const std::string& title) {
  std::vector<std::string> fields;
  std::istringstream in(markdown);
  bool inside = false;
  static const std::regex row(R"(^\| `([^`]+)` \|)");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) inside = line == "## " + title;
    std::smatch m;
    if (inside && std::regex_search(line, m, row)) fields.push_back(m[1]);
  }
  return fields;
}

std::string TopLevel(const std::string& field) { return field.substr(0, field.find_first_of(".[")); }

TEST_F(CliRun, FormatsRunDocumentsExactlyWhatRunWrites) {
  ModelServer srv([](const std::string&, const Json& body) { return Script(body); });
  ASSERT_TRUE(WriteFileAtomic(dir_ + "/empty.jsonl", "").ok());
  std::string one = dir_ + "/tasks/k-1-d-2/task_1.json";
  struct Invocation {
    std::string out;
    std::vector<std::string> args;
    int rc;
  };
  const std::vector<Invocation> runs = {
      {"base", {"--tasks", dir_ + "/tasks", "--agent", "baseline"}, 0},
      {"replay", {"--tasks", dir_ + "/tasks", "--agent", "replay", "--traces", dir_ + "/base/traces"}, 0},
      {"oracle", {"--tasks", one, "--agent", "oracle"}, 0},
      {"llm",
       {"--tasks", one, "--agent", "llm", "--model", "openai:gpt-5.2", "--base-url", srv.Url() + "/v1"},
       0},
      {"ablated",
       {"--tasks", one, "--agent", "llm", "--model", "openai:gpt-5.2", "--base-url", srv.Url() + "/v1",
        "--epochs", "2", "--ablate", "search=preloaded"},
       0},
      {"offline",
       {"--tasks", one, "--agent", "llm", "--model", "openai:gpt-5.2", "--offline", "--cassette",
        dir_ + "/empty.jsonl"},
       12},
  };
  std::set<std::string> predictions, events, run_json;
  for (const Invocation& r : runs) {
    std::vector<std::string> args = {"run",          "--index", dir_ + "/idx",     "--lake",
                                     dir_ + "/lake", "--out",   dir_ + "/" + r.out};
    args.insert(args.end(), r.args.begin(), r.args.end());
    ASSERT_EQ(RunCli(args, dir_ + "/" + r.out + ".log"), r.rc) << *ReadFile(dir_ + "/" + r.out + ".log");
    for (const Json& p : Lines(dir_ + "/" + r.out + "/predictions.jsonl"))
      for (const auto& [k, v] : p.items()) predictions.insert(k);
    for (const auto& f : fs::directory_iterator(dir_ + "/" + r.out + "/traces"))
      for (const Json& e : Lines(f.path().string()))
        for (const auto& [k, v] : e.items()) events.insert(k);
    CollectPaths(Json::parse(*ReadFile(dir_ + "/" + r.out + "/run.json")), run_json);
  }

  std::string doc = *ReadFile(lakeqa::build_paths::SourceDir() + "/docs/formats-run.md");
  const std::vector<std::pair<std::string, const std::set<std::string>*>> sections = {
      {"predictions.jsonl", &predictions}, {"traces/<task_id>.jsonl", &events}, {"run.json", &run_json}};
  for (const auto& [title, written] : sections) {
    std::vector<std::string> documented = DocumentedFields(doc, title);
    ASSERT_FALSE(documented.empty()) << "no field table under \"## " << title << "\"";
    std::set<std::string> documented_top;
    for (const std::string& f : documented) {
      documented_top.insert(TopLevel(f));
      EXPECT_TRUE(written->count(f)) << title << ": docs/formats-run.md documents `" << f
                                     << "`, which no run wrote";
    }
    for (const std::string& w : *written) {
      if (w.find_first_of(".[") != std::string::npos) continue;
      EXPECT_TRUE(documented_top.count(w))
          << title << ": `lakeqa run` writes `" << w << "`, which docs/formats-run.md does not document";
    }
  }
}

// Every document a reader meets: no placeholder text, and every *.md it names exists.
TEST(Docs, NoPlaceholdersAndNoMissingFiles) {
  const fs::path root = lakeqa::build_paths::SourceDir();
  std::vector<fs::path> docs = {root / "README.md", root / "CONTRIBUTING.md", root / "src/README.md",
                                root / "demo/README.md"};
  for (const auto& e : fs::directory_iterator(root / "docs"))
    if (e.path().extension() == ".md") docs.push_back(e.path());
  static const std::regex placeholder(R"(\b(PLACEHOLDER|TODO|TBD|FIXME|XXX)\b|[A-Z_]+_PLACEHOLDER)");
  static const std::regex md_name(R"(([A-Za-z0-9_][A-Za-z0-9_./-]*\.md)\b)");
  for (const fs::path& doc : docs) {
    auto text = ReadFile(doc.string());
    ASSERT_TRUE(text.ok()) << doc;
    std::istringstream in(*text);
    size_t line_no = 0;
    for (std::string line; std::getline(in, line);) {
      ++line_no;
      std::string where = fs::relative(doc, root).string() + ":" + std::to_string(line_no);
      EXPECT_FALSE(std::regex_search(line, placeholder)) << where << ": placeholder text: " << line;
      for (std::sregex_iterator it(line.begin(), line.end(), md_name), end; it != end; ++it) {
        std::string name = (*it)[1];
        if (name.find("://") != std::string::npos || name.rfind("github.com", 0) == 0) continue;
        bool exists = fs::exists(root / name) || fs::exists(doc.parent_path() / name);
        EXPECT_TRUE(exists) << where << ": cites " << name << ", which the repository does not have";
      }
    }
  }
}

}  // namespace
}  // namespace lakeqa::agent
