// The leakage check of the rewrite: each kind of leak flagged, natural questions left alone.
#include <gtest/gtest.h>

#include <map>

#include "lakeqa/workbench/leakage.h"

namespace lakeqa::workbench {
namespace {

std::vector<LeakSource> Sources() {
  LeakSource wiki{"1", "wikipedia", "Georgia", "Georgia", "content.txt", {}};
  LeakSource faa{"2", "datagov", "faa-airports-2021", "US Airports and Heliports (FAA)", "files/rows.txt",
                 {"name", "city", "state", "heliport_code"}};
  return {wiki, faa};
}

std::vector<LeakAnswer> Answers() {
  return {{"1", "Atlanta"}, {"", "3"}};
}

// Document frequencies of a tiny index: "heliport" is only in the FAA table.
std::optional<uint64_t> Df(const std::string& w) {
  static const std::map<std::string, uint64_t> df = {{"heliport", 1}, {"airports", 7}, {"georgia", 12}, {"capital", 40}};
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
  auto flags = CheckLeakage("How many airports are there in the capital city of Georgia?", Sources(), Answers(), Df, o);
  EXPECT_TRUE(flags.empty()) << flags[0].message;
}

TEST(Leakage, EachKindIsFlagged) {
  LeakOptions o;
  o.total_datasets = 100;
  auto flags = CheckLeakage(
      "Per faa-airports-2021 (rows.txt), how many US Airports and Heliports are in Atlanta, by heliport code?",
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
  auto flags = CheckLeakage("Which US Airports and Heliports (FAA) entry is 3?", Sources(), Answers(), nullptr, o);
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
  auto flags = CheckLeakage("How many heliport codes are there?", Sources(), {},
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

}  // namespace
}  // namespace lakeqa::workbench
