// The leakage check of the rewrite: each kind of leak flagged, natural questions left alone.
#include <gtest/gtest.h>

#include <map>

#include "lakeqa/workbench/leakage.h"

namespace lakeqa::workbench {
namespace {

std::vector<LeakSource> Sources() {
  LeakSource wiki{"1", "wikipedia", "Georgia", "Georgia", "content.txt", {}};
  LeakSource faa{"2",
                 "datagov",
                 "faa-airports-2021",
                 "US Airports and Heliports (FAA)",
                 "files/rows.txt",
                 {"name", "city", "state", "heliport_code"}};
  return {wiki, faa};
}

std::vector<LeakAnswer> Answers() { return {{"1", "Atlanta"}, {"", "3"}}; }

// Document frequencies of a tiny index: "heliport" is only in the FAA table.
std::optional<uint64_t> Df(const std::string& w) {
  static const std::map<std::string, uint64_t> df = {
      {"heliport", 1}, {"airports", 7}, {"georgia", 12}, {"capital", 40}};
  auto it = df.find(w);
  return it == df.end() ? std::optional<uint64_t>(50) : it->second;
}

std::vector<std::string> Kinds(const std::vector<LeakFlag>& flags) {
  std::vector<std::string> k;
  for (const auto& f : flags) k.push_back(f.kind + ":" + f.text);
  return k;
}

TEST(Leakage, NaturalQuestionIsClean) {
  LeakOptions o;
  o.total_datasets = 100;
  auto flags = CheckLeakage("How many airports are there in the capital city of Georgia?", Sources(),
                            Answers(), Df, o);
  EXPECT_TRUE(flags.empty()) << flags[0].message;
}

TEST(Leakage, EachKindIsFlagged) {
  LeakOptions o;
  o.total_datasets = 100;
  auto flags = CheckLeakage(
      "Per faa-airports-2021 (rows.txt), how many US Airports and Heliports are in Atlanta, by heliport "
      "code?",
      Sources(), Answers(), Df, o);
  auto k = Kinds(flags);
  auto has = [&](const std::string& s) { return std::find(k.begin(), k.end(), s) != k.end(); };
  EXPECT_TRUE(has("dataset_id:faa-airports-2021"));
  EXPECT_TRUE(has("file:rows.txt"));
  EXPECT_TRUE(has("title:airports and heliports"));
  EXPECT_TRUE(has("rare_token:heliport"));
  EXPECT_TRUE(has("answer:Atlanta"));
  for (const auto& f : flags) {
    if (f.kind == "answer") {
      EXPECT_EQ(f.node, "1");
      EXPECT_NE(f.message.find("node 1's answer"), std::string::npos);
    }
  }
}

TEST(Leakage, WholeTitleAndFinalAnswer) {
  LeakOptions o;
  auto flags =
      CheckLeakage("Which US Airports and Heliports (FAA) entry is 3?", Sources(), Answers(), nullptr, o);
  auto k = Kinds(flags);
  EXPECT_NE(std::find(k.begin(), k.end(), "title:US Airports and Heliports (FAA)"), k.end());
  // A one-character answer matches too much text to be a finding.
  EXPECT_EQ(std::find(k.begin(), k.end(), "answer:3"), k.end());
}

TEST(Leakage, WikipediaTitlesAreTheSubject) {
  LeakSource page{"1", "wikipedia", "New_York_City", "New York City", "content.txt", {}};
  LeakOptions o;
  auto flags = CheckLeakage("What is the population of New York City?", {page}, {}, Df, o);
  EXPECT_TRUE(flags.empty()) << flags[0].message;
}

TEST(Leakage, UnknownFrequencyIsNotGuessed) {
  LeakOptions o;
  auto flags = CheckLeakage(
      "How many heliport codes are there?", Sources(), {},
      [](const std::string&) { return std::optional<uint64_t>(); }, o);
  EXPECT_TRUE(flags.empty());
}

TEST(Leakage, PlainWordIdIsNotAnIdentifier) {
  LeakSource s{"1", "datagov", "airports", "Airports", "files/rows.txt", {}};
  LeakOptions o;
  o.total_datasets = 100;
  auto flags = CheckLeakage("How many airports are in Atlanta?", {s}, {}, Df, o);
  EXPECT_TRUE(flags.empty()) << flags[0].message;
}

// An answer written as a name matches only as written: "reading" the verb is not "Reading" the town (the
// CMDBench player born in Reading, PA); the town itself, or the word at a sentence start, is flagged.
TEST(Leakage, NameAnswersMatchWithTheirCapitals) {
  LeakOptions o;
  std::vector<LeakAnswer> town = {{"1", "Reading"}};
  EXPECT_TRUE(
      CheckLeakage("After reading the box score, which team drafted the player?", {}, town, nullptr, o)
          .empty());
  auto born = CheckLeakage("Which team drafted the player born in Reading?", {}, town, nullptr, o);
  ASSERT_EQ(born.size(), 1u);
  EXPECT_EQ(born[0].kind, "answer");
  EXPECT_EQ(born[0].text, "Reading");
  // At the start of a sentence the capital cannot tell the verb from the town: flagged (a warning).
  EXPECT_EQ(CheckLeakage("Reading the box score, which team drafted him?", {}, town, nullptr, o).size(), 1u);
  // Several words: every one as written.
  std::vector<LeakAnswer> city = {{"", "New York"}};
  EXPECT_TRUE(CheckLeakage("Is the new york strip steak on the menu?", {}, city, nullptr, o).empty());
  EXPECT_EQ(CheckLeakage("Which team plays in New York?", {}, city, nullptr, o).size(), 1u);
  // An answer without capitals is matched ignoring case.
  std::vector<LeakAnswer> weight = {{"", "183 pound"}};
  EXPECT_EQ(CheckLeakage("Did he weigh 183 Pound in 2001?", {}, weight, nullptr, o).size(), 1u);
}

}  // namespace
}  // namespace lakeqa::workbench
