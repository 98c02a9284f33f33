#include "lakeqa/text/analyzer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lakeqa/text/normalize.h"

namespace lakeqa::text {
namespace {

// "term@position" for each token, in order.
std::vector<std::string> Terms(Analyzer& a, std::string_view s, uint32_t base = 0) {
  std::vector<std::string> out;
  for (const Token& t : a.Analyze(s, base))
    out.push_back(std::string(a.Term(t)) + "@" + std::to_string(t.position));
  return out;
}

using V = std::vector<std::string>;

struct Case {
  const char* input;
  V want;
};

TEST(AnalyzerTest, Table) {
  const Case cases[] = {
      {"2017-18", {"2017-18@0", "2017@0", "2018@0"}},
      // Year spans: one canonical term, every year as a part, whatever the dash.
      {"2008\xE2\x80\x93"
       "09 season",
       {"2008-09@0", "2008@0", "2009@0", "season@1"}},
      {"1999\xE2\x80\x94"
       "2000",
       {"1999-00@0", "1999@0", "2000@0"}},
      {"2007/2008", {"2007-08@0", "2007@0", "2008@0"}},
      {"1999-2002", {"1999-2002@0", "1999@0", "2000@0", "2001@0", "2002@0"}},
      // Not spans: a date, too long a span, backwards, not years, an identifier.
      {"2007-08-15", {"2007-08-15@0", "2007@0", "08@0", "15@0"}},
      {"1990-2010", {"1990-2010@0", "1990@0", "2010@0"}},
      {"2010-08", {"2010-08@0", "2010@0", "08@0"}},
      {"1234-35", {"1234-35@0", "1234@0", "35@0"}},
      {"2008-09a", {"2008-09a@0", "2008@0", "09a@0"}},
      {"K-8 schools", {"k-8@0", "k@0", "8@0", "school@1"}},
      {"vadir", {"vadir@0"}},
      {"VADIR", {"vadir@0"}},
      {"apd-searches-by-type", {"apd-searches-by-type@0", "apd@0", "search@0", "by@0", "type@0"}},
      {"file_name.csv", {"file_name.csv@0", "file@0", "name@0", "csv@0"}},
      {"running runs ran", {"run@0", "run@1", "ran@2"}},
      {"Ünïcode UNICODE", {"unicod@0", "unicod@1"}},
      {"Straße", {"strass@0"}},
      {"ｕｎｉｃｏｄｅ ﬁle", {"unicod@0", "file@1"}},
      {"end. Next", {"end@0", "next@1"}},
      {"3.14 pi", {"3.14@0", "3@0", "14@0", "pi@1"}},
      {"a -- b", {"a@0", "b@1"}},
      {"", {}},
      {"  ,,; ", {}},
      {"Crime in Austin, TX (2019)", {"crime@0", "in@1", "austin@2", "tx@3", "2019@4"}},
      {"naïve café", {"naiv@0", "cafe@1"}},
      {"東京 データ", {"東京@0", "データ@1"}},
      {"Ωmega ΣΟΦΊΑ", {"ωmega@0", "σοφια@1"}},
  };
  Analyzer a;
  for (const Case& c : cases) EXPECT_EQ(Terms(a, c.input), c.want) << "input: " << c.input;
}

TEST(AnalyzerTest, OffsetsPointAtSource) {
  Analyzer a;
  std::string s = "Fire Ünïcode K-8";
  const auto& toks = a.Analyze(s);
  ASSERT_EQ(toks.size(), 5u);
  EXPECT_EQ(s.substr(toks[1].start, toks[1].end - toks[1].start), "Ünïcode");
  EXPECT_EQ(s.substr(toks[2].start, toks[2].end - toks[2].start), "K-8");
  EXPECT_EQ(toks[2].kind, TokenKind::kCompound);
  EXPECT_EQ(s.substr(toks[4].start, toks[4].end - toks[4].start), "8");
  EXPECT_EQ(toks[4].kind, TokenKind::kPart);
  EXPECT_EQ(a.length(), 3u);
  EXPECT_EQ(a.positions_used(), 3u);
}

TEST(AnalyzerTest, StopWordsOptionalAndNeverInIdentifiers) {
  Analyzer plain;
  EXPECT_EQ(Terms(plain, "the crime of austin"), (V{"the@0", "crime@1", "of@2", "austin@3"}));
  AnalyzerOptions o;
  o.stop_words = true;
  Analyzer stop(o);
  EXPECT_EQ(Terms(stop, "the crime of austin"), (V{"crime@1", "austin@3"}));
  EXPECT_EQ(stop.length(), 2u);
  EXPECT_EQ(stop.positions_used(), 4u);
  EXPECT_EQ(Terms(stop, "searches-by-type"), (V{"searches-by-type@0", "search@0", "by@0", "type@0"}));
}

TEST(AnalyzerTest, NoStemAndNoSplitOptions) {
  AnalyzerOptions o;
  o.stem = false;
  o.split_identifiers = false;
  Analyzer a(o);
  EXPECT_EQ(Terms(a, "Running K-8", 10), (V{"running@10", "k-8@11"}));
}

TEST(AnalyzerTest, InvalidUtf8AndLongTokensAreSafe) {
  Analyzer a;
  std::string bad =
      "ab\xff\xfe"
      "cd \xc3";
  EXPECT_EQ(Terms(a, bad), (V{"ab@0", "cd@1"}));
  std::string huge(500, 'x');
  EXPECT_EQ(Terms(a, huge + " ok"), (V{"ok@1"}));
}

TEST(AnalyzerTest, BuffersAreReused) {
  Analyzer a;
  Terms(a, "one two three four five six seven");
  const Token* first = a.Analyze("alpha beta").data();
  EXPECT_EQ(a.Analyze("gamma delta").data(), first);  // no reallocation for a smaller input
}

TEST(NormalizeTest, Keywords) {
  EXPECT_EQ(FoldKeyword("  Public   Safety "), "public safety");
  EXPECT_EQ(FoldKeyword("CSV"), "csv");
  EXPECT_EQ(FoldKeyword("Ünïcode"), "ünïcode");
  std::string out;
  FoldAppend("ÀB", true, out);
  EXPECT_EQ(out, "ab");
}

}  // namespace
}  // namespace lakeqa::text
