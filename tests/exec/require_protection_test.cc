// The guard of the security tests (support/require_protection.h): where a protection is required, a
// missing one fails the test instead of skipping it, so a CI host without bubblewrap cannot go green.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "support/require_protection.h"

namespace lakeqa::testing {
namespace {

// Sets or unsets one environment variable for the scope, and puts the old value back.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) {
      ::setenv(name, value, 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(RequireProtection, FollowsCiAndTheExplicitSwitch) {
  {
    ScopedEnv ci("CI", nullptr), req("LAKEQA_REQUIRE_SANDBOX", nullptr);
    EXPECT_FALSE(ProtectionRequired());
  }
  {
    ScopedEnv ci("CI", "true"), req("LAKEQA_REQUIRE_SANDBOX", nullptr);
    EXPECT_TRUE(ProtectionRequired());
    EXPECT_EQ(ProtectionRequiredBy(), "CI=true");
  }
  {
    ScopedEnv ci("CI", "false"), req("LAKEQA_REQUIRE_SANDBOX", nullptr);
    EXPECT_FALSE(ProtectionRequired());
  }
  {
    ScopedEnv ci("CI", nullptr), req("LAKEQA_REQUIRE_SANDBOX", "1");
    EXPECT_TRUE(ProtectionRequired());
    EXPECT_EQ(ProtectionRequiredBy(), "LAKEQA_REQUIRE_SANDBOX=1");
  }
  {
    // The explicit switch wins over CI either way: a developer can run CI's rules, or opt out of them.
    ScopedEnv ci("CI", "true"), req("LAKEQA_REQUIRE_SANDBOX", "0");
    EXPECT_FALSE(ProtectionRequired());
  }
}

void MissingBubblewrap() { LAKEQA_SKIP_MISSING_PROTECTION(std::string("bubblewrap is not installed")); }

TEST(RequireProtection, AMissingProtectionFailsWhereRequired) {
  ScopedEnv ci("CI", nullptr), req("LAKEQA_REQUIRE_SANDBOX", "1");
  EXPECT_FATAL_FAILURE(
      MissingBubblewrap(),
      "missing protection, required here (LAKEQA_REQUIRE_SANDBOX=1): bubblewrap is not installed");
}

}  // namespace
}  // namespace lakeqa::testing
