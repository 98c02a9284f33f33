#include "lakeqa/common/status.h"

#include <gtest/gtest.h>

#include <cerrno>

namespace lakeqa {
namespace {

Result<int> Half(int x) {
  if (x % 2) return InvalidArgument("odd: " + std::to_string(x));
  return x / 2;
}

Result<int> Quarter(int x) {
  LAKEQA_ASSIGN_OR_RETURN(int h, Half(x));
  LAKEQA_ASSIGN_OR_RETURN(int q, Half(h));
  return q;
}

TEST(Status, OkAndError) {
  EXPECT_TRUE(Status::Ok().ok());
  Status st = NotFound("s3://b/k");
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.ToString(), "not_found: s3://b/k");
  EXPECT_EQ(st.WithContext("catalog").message(), "catalog: s3://b/k");
  EXPECT_EQ(st.WithContext("catalog").code(), ErrorCode::kNotFound);
}

TEST(Result, PropagatesFirstError) {
  EXPECT_EQ(*Quarter(8), 2);
  auto r = Quarter(6);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(r.status().message(), "odd: 3");
  EXPECT_EQ(r.value_or(-1), -1);
}

TEST(Status, ErrnoMapping) {
  EXPECT_EQ(ErrnoStatus(ENOENT, "x").code(), ErrorCode::kNotFound);
  EXPECT_EQ(ErrnoStatus(EACCES, "x").code(), ErrorCode::kPermissionDenied);
  EXPECT_EQ(ErrnoStatus(ELOOP, "x").code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(ErrnoStatus(ENOSPC, "x").code(), ErrorCode::kResourceExhausted);
}

TEST(Status, EveryCodeHasDistinctNameAndSaneMappings) {
  std::set<std::string_view> names;
  for (int c = 0; c <= static_cast<int>(ErrorCode::kInternal); ++c) {
    auto code = static_cast<ErrorCode>(c);
    EXPECT_TRUE(names.insert(CodeName(code)).second) << CodeName(code);
    if (code != ErrorCode::kOk) {
      EXPECT_NE(ExitCodeFor(code), 0) << CodeName(code);
      EXPECT_GE(HttpStatusFor(code), 400) << CodeName(code);
    }
  }
  EXPECT_EQ(ExitCodeFor(ErrorCode::kInvalidArgument), 2);
}

}  // namespace
}  // namespace lakeqa
