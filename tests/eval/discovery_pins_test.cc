// The pins of `lakeqa eval suite` (eval/discovery_pins.h): a metric below its pin by more than the tolerance
// is a regression, above it a stale pin, a collection without pins is stale; pins written now read back
// clean.
#include "lakeqa/eval/discovery_pins.h"

#include <gtest/gtest.h>

#include "lakeqa/common/fs.h"

namespace lakeqa::eval {
namespace {

class DiscoveryPinsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = *MakeTempDir("discovery-pins");
    suite_ = {SuiteCollection{"dev-a", "dev", "/idx", {}, {}},
              SuiteCollection{"test-b", "test", "/idx", {}, {}}};
    measured_.resize(2);
    measured_[0].used.p_at_1 = 0.5;
    measured_[0].used.mrr = 0.6;
    measured_[1].used.p_at_1 = 0.25;
    measured_[1].used.mrr = 0.4;
  }
  void TearDown() override { (void)RemoveAll(dir_); }
  std::string Pins(const Json& j) {
    std::string p = dir_ + "/pins.json";
    EXPECT_TRUE(WriteFileAtomic(p, j.dump()).ok());
    return p;
  }
  std::string dir_;
  std::vector<SuiteCollection> suite_;
  std::vector<SuiteMeasured> measured_;
};

TEST_F(DiscoveryPinsTest, PinsWrittenNowCheckClean) {
  Json pins = SuitePinsJson(0.02, suite_, measured_);
  EXPECT_EQ(pins["tolerance"], 0.02);
  EXPECT_EQ(pins["collections"]["dev-a"]["p@1"], 0.5);
  EXPECT_EQ(pins["collections"]["test-b"]["mrr"], 0.4);
  EXPECT_EQ(pins["collections"]["dev-a"].size(), 4u);
  auto check = CheckSuitePins(Pins(pins), 0.02, suite_, measured_);
  ASSERT_TRUE(check.ok()) << check.status().ToString();
  EXPECT_TRUE(check->ok());
}

TEST_F(DiscoveryPinsTest, DropsAreRegressionsRisesAndMissingPinsAreStale) {
  Json pins = {{"tolerance", 0.05},
               {"collections", {{"dev-a", {{"p@1", 0.6}, {"mrr", 0.62}}}}}};  // test-b not pinned
  measured_[0].used.mrr = 0.7;                                                // above 0.62 + 0.05
  auto check = CheckSuitePins(Pins(pins), 0.02, suite_, measured_);
  ASSERT_TRUE(check.ok()) << check.status().ToString();
  ASSERT_EQ(check->regressions.size(), 1u);
  EXPECT_NE(check->regressions[0].find("dev-a p@1 0.5000 < pinned 0.6000 - 0.050"), std::string::npos)
      << check->regressions[0];
  ASSERT_EQ(check->stale.size(), 2u);
  // In suite order.
  EXPECT_NE(check->stale[0].find("dev-a mrr 0.7000 > pinned 0.6200 + 0.050"), std::string::npos)
      << check->stale[0];
  EXPECT_EQ(check->stale[1], "test-b: not pinned");
  EXPECT_FALSE(check->ok());
}

TEST_F(DiscoveryPinsTest, MalformedPinsNameTheFileAndTheEntry) {
  auto bad = CheckSuitePins(Pins({{"tolerance", 0.1}}), 0.02, suite_, measured_);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("pins.json"), std::string::npos) << bad.status().ToString();
  auto unknown = CheckSuitePins(Pins({{"collections", {{"dev-a", {{"p@7", 1}}}}}}), 0.02, suite_, measured_);
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("dev-a.p@7"), std::string::npos) << unknown.status().ToString();
  auto missing = CheckSuitePins(dir_ + "/none.json", 0.02, suite_, measured_);
  EXPECT_FALSE(missing.ok());
}

TEST_F(DiscoveryPinsTest, CollectionsJsonCarriesEveryCollectionInOrder) {
  suite_[1].skipped = {"task 3: bad"};
  Json cs = SuiteCollectionsJson(suite_, measured_);
  ASSERT_EQ(cs.size(), 2u);
  EXPECT_EQ(cs[0]["name"], "dev-a");
  EXPECT_EQ(cs[0]["metrics"]["p@1"], 0.5);
  EXPECT_FALSE(cs[0].contains("skipped"));
  EXPECT_EQ(cs[1]["skipped"], Json::array({"task 3: bad"}));
}

}  // namespace
}  // namespace lakeqa::eval
