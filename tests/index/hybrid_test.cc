#include "lakeqa/index/hybrid.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>

#include <gtest/gtest.h>

namespace lakeqa::index {
namespace {

std::vector<RankedItem> Items(std::vector<std::pair<std::string, double>> v) {
  std::vector<RankedItem> out;
  for (auto& [id, s] : v) out.push_back({id, s});
  return out;
}

TEST(HybridTest, RrfHandComputed) {
  // text: a b c ; vectors: c a d. k = 60, weights 0.3 / 0.7.
  auto r = FuseTextAndVectors(Items({{"a", 9}, {"b", 5}, {"c", 1}}), Items({{"c", .9}, {"a", .8}, {"d", .1}}),
                              {FusionMethod::kRrf, 0.7, 60});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 4u);
  std::map<std::string, double> want = {
      {"a", 0.3 / 61 + 0.7 / 62}, {"b", 0.3 / 62}, {"c", 0.3 / 63 + 0.7 / 61}, {"d", 0.7 / 63}};
  EXPECT_EQ((*r)[0].id, "c");
  EXPECT_EQ((*r)[1].id, "a");
  EXPECT_EQ((*r)[2].id, "d");
  EXPECT_EQ((*r)[3].id, "b");
  for (const FusedItem& f : *r) EXPECT_NEAR(f.score, want[f.id], 1e-15) << f.id;
  EXPECT_EQ((*r)[0].ranks, (std::vector<size_t>{3, 1}));
  EXPECT_EQ((*r)[2].ranks, (std::vector<size_t>{0, 3}));
}

TEST(HybridTest, LinearHandComputed) {
  HybridOptions o;
  o.method = FusionMethod::kLinear;
  o.vector_weight = 0.5;
  // text scores 10, 6, 2 -> 1, .5, 0; vector scores .9, .5 -> 1, 0.
  auto r = FuseTextAndVectors(Items({{"a", 10}, {"b", 6}, {"c", 2}}), Items({{"b", .9}, {"c", .5}}), o);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[0].id, "b");
  EXPECT_NEAR((*r)[0].score, 0.75, 1e-12);
  EXPECT_EQ((*r)[1].id, "a");
  EXPECT_NEAR((*r)[1].score, 0.5, 1e-12);
  EXPECT_EQ((*r)[2].id, "c");
  EXPECT_NEAR((*r)[2].score, 0.0, 1e-12);
}

TEST(HybridTest, TiesBrokenById) {
  // Symmetric lists with equal weights: x and y tie, as do the two singletons.
  std::vector<RankedList> lists = {{1.0, Items({{"y", 1}, {"x", 0}, {"q", 0}})},
                                   {1.0, Items({{"x", 1}, {"y", 0}, {"p", 0}})}};
  auto r = Fuse(lists, {FusionMethod::kRrf, 60, 0});
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->size(), 4u);
  EXPECT_EQ((*r)[0].id, "x");
  EXPECT_EQ((*r)[1].id, "y");
  EXPECT_EQ((*r)[2].id, "p");
  EXPECT_EQ((*r)[3].id, "q");
  EXPECT_EQ((*r)[0].score, (*r)[1].score);
}

TEST(HybridTest, AllEqualScoresNormaliseToOneAndDuplicatesIgnored) {
  auto r = Fuse({{2.0, Items({{"a", 3}, {"b", 3}, {"a", 3}})}}, {FusionMethod::kLinear, 60, 0});
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->size(), 2u);
  EXPECT_DOUBLE_EQ((*r)[0].score, 2.0);
  EXPECT_DOUBLE_EQ((*r)[1].score, 2.0);
  EXPECT_EQ((*r)[0].ranks[0], 1u);
  EXPECT_EQ((*r)[1].ranks[0], 2u);
}

TEST(HybridTest, BadInputIsAnError) {
  EXPECT_EQ(Fuse({{-1.0, Items({{"a", 1}})}}).status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(Fuse({{1.0, Items({{"a", NAN}})}}, {FusionMethod::kLinear, 60, 0}).status().code(),
            ErrorCode::kInvalidArgument);
  EXPECT_EQ(Fuse({}, {FusionMethod::kRrf, -1, 0}).status().code(), ErrorCode::kInvalidArgument);
  HybridOptions o;
  o.vector_weight = 1.5;
  EXPECT_FALSE(FuseTextAndVectors({}, {}, o).ok());
  auto empty = Fuse({});
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
}

// Brute force: for every id in the union, sum each list's contribution by scanning the list; sort by
// (score desc, id asc) and compare with Fuse, for random lists and both methods.
TEST(HybridTest, MatchesBruteForceOnRandomLists) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    std::uniform_int_distribution<int> nlists(1, 3), len(0, 15), idd(0, 25), coarse(0, 4);
    std::vector<RankedList> lists(nlists(rng));
    for (RankedList& l : lists) {
      l.weight = coarse(rng) * 0.25;
      int n = len(rng);
      std::set<std::string> used;
      for (int i = 0; i < n; ++i) {
        std::string id = "d" + std::to_string(idd(rng));
        if (!used.insert(id).second) continue;
        l.items.push_back({id, static_cast<double>(coarse(rng))});  // coarse scores: many ties
      }
      std::sort(l.items.begin(), l.items.end(), [](auto& a, auto& b) { return a.score > b.score; });
    }
    for (FusionMethod m : {FusionMethod::kRrf, FusionMethod::kLinear}) {
      size_t limit = trial % 3 == 0 ? 5 : 0;
      auto got = Fuse(lists, {m, 60, limit});
      ASSERT_TRUE(got.ok());
      std::set<std::string> ids;
      for (auto& l : lists)
        for (auto& it : l.items) ids.insert(it.id);
      std::vector<std::pair<double, std::string>> want;
      for (const std::string& id : ids) {
        double s = 0;
        for (auto& l : lists) {
          double lo = 1e300, hi = -1e300;
          for (auto& it : l.items) lo = std::min(lo, it.score), hi = std::max(hi, it.score);
          for (size_t r = 0; r < l.items.size(); ++r) {
            if (l.items[r].id != id) continue;
            if (m == FusionMethod::kRrf) s += l.weight / (60.0 + static_cast<double>(r + 1));
            else s += l.weight * (hi > lo ? (l.items[r].score - lo) / (hi - lo) : 1.0);
          }
        }
        want.push_back({s, id});
      }
      std::sort(want.begin(), want.end(), [](auto& a, auto& b) {
        if (a.first != b.first) return a.first > b.first;
        return a.second < b.second;
      });
      if (limit && want.size() > limit) want.resize(limit);
      ASSERT_EQ(got->size(), want.size());
      for (size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ((*got)[i].id, want[i].second) << "trial " << trial << " pos " << i;
        EXPECT_NEAR((*got)[i].score, want[i].first, 1e-12);
      }
    }
  }
}

}  // namespace
}  // namespace lakeqa::index
