#include "lakeqa/eval/em.h"
#include "lakeqa/common/json.h"

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>

#include <gtest/gtest.h>

#include "lakeqa/common/build_paths.h"
#include "lakeqa/common/strings.h"

namespace lakeqa::eval {
namespace {

std::string Unescape(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      char c = s[++i];
      out.push_back(c == 'n' ? '\n' : c == 't' ? '\t' : c);
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

struct Case {
  size_t line;
  std::string raw;
  Json gold;
  bool em;
  bool lenient;
  std::string note;
};

std::vector<Case> LoadCases() {
  std::ifstream in(lakeqa::build_paths::SourceDir() + "/tests/eval/em_cases.tsv");
  EXPECT_TRUE(in.good()) << "tests/eval/em_cases.tsv missing";
  std::vector<Case> cases;
  std::string line;
  size_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty() || line[0] == '#') continue;
    auto cols = Split(line, '\t');
    EXPECT_EQ(cols.size(), 5u) << "em_cases.tsv:" << n << ": expected 5 tab-separated columns";
    if (cols.size() != 5) continue;
    auto gold = ParseJson(cols[1], "em_cases.tsv gold");
    EXPECT_TRUE(gold.ok()) << "em_cases.tsv:" << n << ": " << gold.status().ToString();
    if (!gold.ok()) continue;
    cases.push_back({n, Unescape(cols[0]), *gold, cols[2] == "1", cols[3] == "1", std::string(cols[4])});
  }
  return cases;
}

TEST(EmCases, FollowTheHarness) {
  auto cases = LoadCases();
  ASSERT_GE(cases.size(), 60u);
  for (const Case& c : cases) {
    AnswerScore s = ScoreAnswer(Json(c.raw), c.gold);
    EXPECT_EQ(s.em, c.em) << "em_cases.tsv:" << c.line << " (" << c.note << "): raw=" << c.raw
                          << " cleaned=" << s.cleaned << " norm_pred=" << s.norm_pred
                          << " norm_gold=" << s.norm_gold;
    EXPECT_EQ(s.lenient(), c.lenient)
        << "em_cases.tsv:" << c.line << " (" << c.note << "): numeric=" << s.numeric << " date=" << s.date;
    EXPECT_GE(s.lenient(), s.em);
  }
}

// Brute force: count common tokens by removing matches one at a time.
double BruteF1(const std::string& p, const std::string& g) {
  std::vector<std::string> pt, gt;
  const std::string np = NormalizeText(p), ng = NormalizeText(g);  // Split returns views
  for (auto t : Split(np, ' ')) {
    if (!t.empty()) pt.emplace_back(t);
  }
  for (auto t : Split(ng, ' ')) {
    if (!t.empty()) gt.emplace_back(t);
  }
  if (pt.empty() || gt.empty()) return 0;
  std::vector<std::string> rest = gt;
  size_t common = 0;
  for (const auto& t : pt) {
    auto it = std::find(rest.begin(), rest.end(), t);
    if (it != rest.end()) {
      ++common;
      rest.erase(it);
    }
  }
  if (common == 0) return 0;
  double prec = double(common) / double(pt.size()), rec = double(common) / double(gt.size());
  return 2 * prec * rec / (prec + rec);
}

TEST(TokenF1, MatchesBruteForce) {
  EXPECT_DOUBLE_EQ(TokenF1("the cat sat", "the cat"), 0.8);
  EXPECT_DOUBLE_EQ(TokenF1("", "x"), 0.0);
  std::mt19937 rng(7);
  const char* words[] = {"a", "b", "c", "d", "A,", "b!"};
  for (int trial = 0; trial < 500; ++trial) {
    std::string p, g;
    for (int i = rng() % 6; i > 0; --i) p += std::string(words[rng() % 6]) + " ";
    for (int i = rng() % 6; i > 0; --i) g += std::string(words[rng() % 6]) + " ";
    EXPECT_NEAR(TokenF1(p, g), BruteF1(p, g), 1e-12) << p << " | " << g;
  }
}

TEST(ParseSingleNumber, Forms) {
  EXPECT_DOUBLE_EQ(ParseSingleNumber("1,046")->value, 1046);
  EXPECT_DOUBLE_EQ(ParseSingleNumber("-3.5")->value, -3.5);
  EXPECT_EQ(ParseSingleNumber("-3.50")->decimals, 2);
  EXPECT_DOUBLE_EQ(ParseSingleNumber("$12")->value, 12);
  EXPECT_TRUE(ParseSingleNumber("16.7%")->percent);
  EXPECT_DOUBLE_EQ(ParseSingleNumber("2.4 million")->value, 2.4e6);
  EXPECT_DOUBLE_EQ(ParseSingleNumber("12 km")->value, 12);
  EXPECT_FALSE(ParseSingleNumber("1,04"));  // not a thousands group: a list
  EXPECT_FALSE(ParseSingleNumber("3 of 5"));
  EXPECT_FALSE(ParseSingleNumber("abc"));
  EXPECT_FALSE(ParseSingleNumber(""));
}

TEST(ParseDate, Forms) {
  auto d = ParseDate("2019-03-01");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->year, 2019);
  EXPECT_EQ(d->month, 3);
  EXPECT_EQ(d->day, 1);
  d = ParseDate("03/01");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->year, 0);
  EXPECT_EQ(d->month, 3);
  d = ParseDate("1st March 2019");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->day, 1);
  EXPECT_FALSE(ParseDate("13/40"));
  EXPECT_FALSE(ParseDate("3/1/19"));
  EXPECT_FALSE(ParseDate("Pittsburgh"));
  EXPECT_FALSE(ParseDate("2019"));
}

}  // namespace
}  // namespace lakeqa::eval
