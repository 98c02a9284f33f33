// The descriptor loops, folder listing, header lines and hex digits that used to be written once per module.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/hex.h"
#include "lakeqa/common/http_header.h"
#include "lakeqa/common/posix_io.h"

namespace lakeqa {
namespace {

TEST(PosixIo, WriteFullyThenReadAndPreadGiveTheBytesBack) {
  auto dir = MakeTempDir("lakeqa-posix-io-");
  ASSERT_TRUE(dir.ok()) << dir.status().ToString();
  std::string path = *dir + "/data.bin";
  std::string data;
  for (int i = 0; i < 300000; ++i) data += static_cast<char>('a' + i % 26);  // past one pipe or page buffer
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_TRUE(WriteFully(fd, data));
  ::close(fd);

  fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  std::string back;
  char buf[4096];
  for (ssize_t n; (n = ReadRetrying(fd, buf, sizeof buf)) > 0;) back.append(buf, static_cast<size_t>(n));
  EXPECT_EQ(back, data);
  char four[4];
  ASSERT_EQ(PreadRetrying(fd, four, sizeof four, 27), 4);
  EXPECT_EQ(std::string(four, 4), "bcde");
  EXPECT_EQ(PreadRetrying(fd, four, sizeof four, data.size()), 0);  // at the end
  ::close(fd);
  EXPECT_EQ(ReadRetrying(-1, buf, sizeof buf), -1);
  EXPECT_EQ(errno, EBADF);
  EXPECT_FALSE(WriteFully(-1, "x"));
  ASSERT_TRUE(RemoveAll(*dir).ok());
}

TEST(PosixIo, CloseAfterErrorClosesAndNamesThePath) {
  int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  errno = ENOENT;
  Status st = CloseAfterError(fd, "lake/a.csv");
  EXPECT_EQ(st.code(), ErrorCode::kNotFound);
  EXPECT_NE(st.message().find("lake/a.csv"), std::string::npos) << st.message();
  EXPECT_EQ(::fcntl(fd, F_GETFD), -1);  // closed
}

TEST(PosixIo, ListDirSortedSortsAndLeavesOutDotEntries) {
  auto dir = MakeTempDir("lakeqa-posix-io-");
  ASSERT_TRUE(dir.ok());
  for (const char* name : {"b.csv", "a", "a.txt", "C"})
    ASSERT_TRUE(WriteFileAtomic(*dir + "/" + name, "x").ok());
  ASSERT_TRUE(MakeDirs(*dir + "/sub").ok());
  auto names = ListDirSorted(*dir);
  ASSERT_TRUE(names.ok()) << names.status().ToString();
  EXPECT_EQ(*names, (std::vector<std::string>{"C", "a", "a.txt", "b.csv", "sub"}));
  auto missing = ListDirSorted(*dir + "/none");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), ErrorCode::kNotFound);
  ASSERT_TRUE(RemoveAll(*dir).ok());
}

TEST(HttpHeader, NameLowerCasedValueTrimmedStatusLinesRefused) {
  std::string name;
  std::string_view value;
  ASSERT_TRUE(ParseHeaderLine("Retry-After: \t 5\r\n", name, value));
  EXPECT_EQ(name, "retry-after");
  EXPECT_EQ(value, "5");
  ASSERT_TRUE(ParseHeaderLine("Content-Type:application/json; charset=utf-8 \r\n", name, value));
  EXPECT_EQ(name, "content-type");
  EXPECT_EQ(value, "application/json; charset=utf-8");
  ASSERT_TRUE(ParseHeaderLine("X-Empty:\r\n", name, value));
  EXPECT_EQ(value, "");
  EXPECT_FALSE(ParseHeaderLine("HTTP/1.1 429 Too Many Requests\r\n", name, value));
  EXPECT_FALSE(ParseHeaderLine("\r\n", name, value));
}

TEST(Hex, DigitsOfBothCasesAndNothingElse) {
  EXPECT_EQ(HexDigitValue('0'), 0);
  EXPECT_EQ(HexDigitValue('9'), 9);
  EXPECT_EQ(HexDigitValue('a'), 10);
  EXPECT_EQ(HexDigitValue('F'), 15);
  for (char c : {'g', 'G', '/', ':', '@', '`', ' ', '\0'}) EXPECT_EQ(HexDigitValue(c), -1) << int(c);
}

}  // namespace
}  // namespace lakeqa
