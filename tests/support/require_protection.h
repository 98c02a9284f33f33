// A test of a security protection that this host cannot provide skips with the reason, so a developer's
// machine without bubblewrap or cgroups still runs the rest. On CI that would let a host that lost the
// protection go green, so there (CI=true, or LAKEQA_REQUIRE_SANDBOX=1, which .ci/run sets) the same
// test fails with the same reason. Header-only so that any module's tests can use it.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <string_view>

namespace lakeqa::testing {

// Whether a missing protection must fail the test: LAKEQA_REQUIRE_SANDBOX set to anything but "" or "0",
// or CI set to "true" or "1" (what GitHub Actions, GitLab CI and most runners export).
inline bool ProtectionRequired() {
  const char* req = std::getenv("LAKEQA_REQUIRE_SANDBOX");
  if (req != nullptr && *req != '\0') return std::string_view(req) != "0";
  const char* ci = std::getenv("CI");
  if (ci == nullptr) return false;
  std::string_view v(ci);
  return v == "true" || v == "1" || v == "TRUE" || v == "True";
}

inline std::string ProtectionRequiredBy() {
  const char* req = std::getenv("LAKEQA_REQUIRE_SANDBOX");
  return (req != nullptr && *req != '\0') ? "LAKEQA_REQUIRE_SANDBOX=" + std::string(req)
                                          : "CI=" + std::string(std::getenv("CI"));
}

}  // namespace lakeqa::testing

// Skips the current test with `why` (a string), or fails it where a protection is required. Like
// GTEST_SKIP, it returns from the enclosing function: call it from the test body or SetUp, or check
// IsSkipped() / HasFatalFailure() after a helper that calls it.
#define LAKEQA_SKIP_MISSING_PROTECTION(why)                                                              \
  do {                                                                                                   \
    const std::string lakeqa_why_ = (why);                                                               \
    if (::lakeqa::testing::ProtectionRequired()) {                                                       \
      GTEST_FAIL() << "missing protection, required here (" << ::lakeqa::testing::ProtectionRequiredBy() \
                   << "): " << lakeqa_why_;                                                              \
    } else {                                                                                             \
      GTEST_SKIP() << lakeqa_why_;                                                                       \
    }                                                                                                    \
  } while (0)
