#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/json.h"
#include "lakeqa/text/tokenizer_cl100k.h"
#include "text/cl100k_util.h"

namespace lakeqa::text {
namespace {

using testing::RanksPath;
using testing::SharedTokenizer;

#define REQUIRE_TOKENIZER()                       \
  const Cl100kTokenizer* tok = SharedTokenizer(); \
  if (tok == nullptr) GTEST_SKIP() << "no cl100k ranks at " << RanksPath() << " (run scripts/setup)"

TEST(Cl100kTest, KnownEncodings) {
  REQUIRE_TOKENIZER();
  // Verified with gpt-tokenizer 4.0.0 (cjs/encoding/cl100k_base.js).
  EXPECT_EQ(tok->Encode("hello world"), (std::vector<uint32_t>{15339, 1917}));
  EXPECT_EQ(tok->Encode("12345"), (std::vector<uint32_t>{4513, 1774}));
  EXPECT_EQ(tok->Encode("I'll don't"), (std::vector<uint32_t>{40, 3358, 1541, 956}));
  EXPECT_EQ(tok->Encode("  \n\n  x"), (std::vector<uint32_t>{19124, 220, 865}));
  EXPECT_EQ(tok->Encode("😀 émoji"), (std::vector<uint32_t>{76460, 222, 4046, 6489, 7910}));
  EXPECT_EQ(tok->Encode("The quick brown fox."), (std::vector<uint32_t>{791, 4062, 14198, 39935, 13}));
  EXPECT_EQ(tok->Count(""), 0u);
  EXPECT_EQ(tok->vocabulary_size(), 100256u);
}

TEST(Cl100kTest, SplitFollowsThePattern) {
  using V = std::vector<std::string_view>;
  EXPECT_EQ(Cl100kTokenizer::Split("I'm 12345 ok"), (V{"I", "'m", " ", "123", "45", " ok"}));
  EXPECT_EQ(Cl100kTokenizer::Split("a  b"), (V{"a", " ", " b"}));
  EXPECT_EQ(Cl100kTokenizer::Split("x\n  "), (V{"x", "\n  "}));  // \s+$ keeps trailing whitespace whole
  EXPECT_EQ(Cl100kTokenizer::Split("x\n\ny"), (V{"x", "\n\n", "y"}));
  EXPECT_EQ(Cl100kTokenizer::Split("f(x);\n"), (V{"f", "(x", ");\n"}));
  EXPECT_EQ(Cl100kTokenizer::Split("'S"), (V{"'S"}));
}

TEST(Cl100kTest, InvalidUtf8IsEncodedByteWise) {
  REQUIRE_TOKENIZER();
  std::string bad = "ab\xff\xfe cd";
  auto ids = tok->Encode(bad);
  EXPECT_EQ(tok->Decode(ids), bad);
  EXPECT_EQ(ids.size(), tok->Count(bad));
}

// Pieces over 256 bytes take the heap merge; MatchesGptTokenizerExactly compares its ids with
// gpt-tokenizer, this checks that it merges and round-trips at any length.
TEST(Cl100kTest, LongPiecesMergeLikeShortOnes) {
  REQUIRE_TOKENIZER();
  std::string run;
  for (int i = 0; i < 100; ++i) run += "+-*/";
  ASSERT_EQ(Cl100kTokenizer::Split(run).size(), 1u);
  auto ids = tok->Encode(run);
  EXPECT_EQ(tok->Decode(ids), run);
  EXPECT_LT(ids.size(), run.size());  // merged, not left as bytes
  // A 200 KB piece finishes (n log n) and round-trips.
  std::string big(200000, '~');
  EXPECT_EQ(tok->Decode(tok->Encode(big)), big);
}

TEST(Cl100kTest, BadRanksFileNamesFileAndLine) {
  auto dir = MakeTempDir("lakeqa-bpe");
  ASSERT_TRUE(dir.ok());
  std::string path = *dir + "/bad.tiktoken";
  ASSERT_TRUE(WriteFileAtomic(path, "IQ== 0\nnot base64!! x\n").ok());
  auto r = Cl100kTokenizer::Load(path);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kParseError);
  EXPECT_NE(r.status().message().find(path + ":2"), std::string::npos) << r.status().message();
  ASSERT_TRUE(WriteFileAtomic(path, "IQ== 0\n").ok());  // no ranks for the other 255 bytes
  r = Cl100kTokenizer::Load(path);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("byte"), std::string::npos);
  EXPECT_FALSE(Cl100kTokenizer::Load(*dir + "/missing.tiktoken").ok());
  (void)RemoveAll(*dir);
}

// Compares token ids with gpt-tokenizer itself, when node is installed.
TEST(Cl100kTest, MatchesGptTokenizerExactly) {
  REQUIRE_TOKENIZER();
  std::string js = testing::DepsDir() + "/gpt-tokenizer/cjs/encoding/cl100k_base.js";
  if (!std::filesystem::exists(js)) GTEST_SKIP() << "gpt-tokenizer not in " << js;
  if (std::system("node --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "node is not installed";

  std::vector<std::string> cases = {
      "hello world",
      "Hello, World! HELLO world",
      "12345 1234567 3.14159 1,000,000 -42 $1.2M 2023-11-22",
      "I'll we've they're she'd it's I'M YOU'RE 'tis ''s",
      "tabs\tand   spaces    here  ",
      "line1\nline2\r\nline3\n\n\n  indented\n",
      "trailing spaces and newline\n  ",
      "  leading",
      "emoji 😀👍🏽 and 🇺🇸 flags",
      "中文字符和日本語のテキスト，한국어",
      "Ελληνικά кириллица עברית العربية",
      "ａｂｃ１２３ full-width",
      "Ⅻ ½ ² ٣ numbers in other scripts",
      "def f(x):\n    return x**2 + 1  # comment\n",
      "if (a && b) { c->d[0] = \"str\"; }",
      "<node_1 answer> <hop 2 answer> [Answer].",
      "non-breaking\u00a0space and\u2003em space\u3000ideographic",
      "...!!!?"
      "??"
      "---___===+++",
      "a\u0301 combining e\u0308",
      "\n",
      " ",
      "x",
      "zero\u200bwidth space",
      std::string(300, '=') + " " + std::string(500, 'a') + " " + std::string(257, '9'),
  };
  auto dir = MakeTempDir("lakeqa-bpe-node");
  ASSERT_TRUE(dir.ok());
  Json input = cases;
  ASSERT_TRUE(WriteFileAtomic(*dir + "/in.json", DumpJson(input)).ok());
  std::string script = "const {encode} = require(" + Json(js).dump() +
                       ");\n"
                       "const cases = JSON.parse(require('fs').readFileSync(" +
                       Json(*dir + "/in.json").dump() +
                       ", 'utf8'));\n"
                       "process.stdout.write(JSON.stringify(cases.map(s => encode(s))));\n";
  ASSERT_TRUE(WriteFileAtomic(*dir + "/enc.js", script).ok());
  std::string cmd = "node " + *dir + "/enc.js > " + *dir + "/out.json";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  auto out = ReadFile(*dir + "/out.json");
  ASSERT_TRUE(out.ok());
  auto expected = ParseJson(*out, "node output");
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  ASSERT_EQ(expected->size(), cases.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(tok->Encode(cases[i]), (*expected)[i].get<std::vector<uint32_t>>())
        << "case: " << Json(cases[i]).dump();
  }
  (void)RemoveAll(*dir);
}

}  // namespace
}  // namespace lakeqa::text
