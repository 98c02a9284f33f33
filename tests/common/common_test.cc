#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>

#include "lakeqa/common/base64.h"
#include "lakeqa/common/build_paths.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/json.h"
#include "lakeqa/common/progress.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/common/thread_pool.h"

namespace lakeqa {
namespace {

TEST(ThreadPool, RunsEverythingWithBoundedQueue) {
  ThreadPool pool(3, 2);
  std::atomic<int> sum{0};
  for (int i = 1; i <= 1000; ++i) pool.Submit([&sum, i] { sum += i; });
  pool.Wait();
  EXPECT_EQ(sum.load(), 500500);
  std::vector<int> out(100);
  ParallelFor(pool, out.size(), [&](size_t i) { out[i] = static_cast<int>(i * i); });
  EXPECT_EQ(out[99], 9801);
}

TEST(Json, ParseErrorNamesFileLineColumn) {
  auto r = ParseJson("{\n  \"a\": 1,\n  \"b\": ,\n}", "tasks/t.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kParseError);
  EXPECT_NE(r.status().message().find("tasks/t.json:3:8"), std::string::npos) << r.status().message();
  auto ok = ParseJson("{\"a\": [1, 2]}", "x");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ((*ok)["a"][1], 2);
}

TEST(Json, DumpSurvivesInvalidUtf8) {
  Json j = {{"v", std::string("ab\xff")}};
  EXPECT_NO_THROW(DumpJson(j));
  EXPECT_EQ(ErrorJson(NotFound("x"))["error"]["code"], "not_found");
}

TEST(Strings, Utf8) {
  EXPECT_TRUE(IsValidUtf8("h\xC3\xA9llo"));
  EXPECT_FALSE(IsValidUtf8("h\xC3"));
  EXPECT_FALSE(IsValidUtf8("\xC0\xAF"));  // overlong
  EXPECT_EQ(SanitizeUtf8("a\xFF"
                         "b"),
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_EQ(TruncateUtf8("h\xC3\xA9llo", 2), "h");
  EXPECT_EQ(Split("a,b,,c", ',').size(), 4u);
  EXPECT_EQ(Trim("  x y \n"), "x y");
}

TEST(Strings, XmlEntitiesAndUtf8Encoding) {
  EXPECT_EQ(DecodeXmlEntities("a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;"), "a & b <c> \"d\" 'e'");
  EXPECT_EQ(DecodeXmlEntities("&#233;&#xE9;&#x1F600;"), "\xC3\xA9\xC3\xA9\xF0\x9F\x98\x80");
  EXPECT_EQ(DecodeXmlEntities("&unknown; & alone &#x110000;"), "&unknown; & alone \xEF\xBF\xBD");
  std::string out;
  AppendUtf8(0x41, out);
  AppendUtf8(0x20AC, out);
  EXPECT_EQ(out, "A\xE2\x82\xAC");
}

TEST(Strings, Base64RoundTripsEveryLengthAndRejectsOtherCharacters) {
  // RFC 4648 section 10's test vectors.
  const std::pair<std::string, std::string> vectors[] = {{"", ""},
                                                         {"f", "Zg=="},
                                                         {"fo", "Zm8="},
                                                         {"foo", "Zm9v"},
                                                         {"foob", "Zm9vYg=="},
                                                         {"fooba", "Zm9vYmE="},
                                                         {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, encoded] : vectors) {
    EXPECT_EQ(EncodeBase64(plain), encoded);
    std::string back;
    ASSERT_TRUE(DecodeBase64(encoded, back)) << encoded;
    EXPECT_EQ(back, plain);
  }
  std::string all;
  for (int b = 0; b < 256; ++b) all.push_back(static_cast<char>(b));
  std::string back;
  ASSERT_TRUE(DecodeBase64(EncodeBase64(all), back));
  EXPECT_EQ(back, all);
  EXPECT_TRUE(DecodeBase64("Zm9v", back));  // padding is optional
  EXPECT_FALSE(DecodeBase64("Zm9v!", back));
}

// The checkout's paths come from the one generated object (build_paths.cc), and they are real.
TEST(BuildPaths, NameThisCheckout) {
  EXPECT_TRUE(std::filesystem::exists(build_paths::SourceDir() + "/CMakeLists.txt"))
      << build_paths::SourceDir();
  EXPECT_TRUE(std::filesystem::exists(build_paths::BinaryDir() + "/CMakeCache.txt"))
      << build_paths::BinaryDir();
  EXPECT_EQ(build_paths::DepsDir(), build_paths::SourceDir() + "/.deps");
}

TEST(Fs, AtomicWriteAndRead) {
  auto dir = MakeTempDir("lakeqa-test-");
  ASSERT_TRUE(dir.ok());
  std::string p = *dir + "/a/b/c.txt";
  ASSERT_TRUE(WriteFileAtomic(p, "hello").ok());
  ASSERT_TRUE(WriteFileAtomic(p, "world").ok());
  EXPECT_EQ(*ReadFile(p), "world");
  EXPECT_EQ(ReadFile(p, 3).status().code(), ErrorCode::kResourceExhausted);
  EXPECT_EQ(ReadFile(*dir + "/missing").status().code(), ErrorCode::kNotFound);
  // No temp files left behind.
  size_t n = 0;
  for (auto& e : std::filesystem::directory_iterator(*dir + "/a/b")) n += e.is_regular_file();
  EXPECT_EQ(n, 1u);
  ASSERT_TRUE(RemoveAll(*dir).ok());
}

TEST(Progress, RenderShowsRateAndEta) {
  std::string s = ProgressBar::Render("profiling", 50, 100, 0, 10.0, "files", 10);
  EXPECT_NE(s.find("50/100 files (50%)"), std::string::npos) << s;
  EXPECT_NE(s.find("5 files/s"), std::string::npos) << s;
  EXPECT_NE(s.find("ETA 10.0s"), std::string::npos) << s;
  EXPECT_EQ(HumanBytes(1500000), "1.5 MB");
  EXPECT_EQ(HumanDuration(65), "1m05s");
}

}  // namespace
}  // namespace lakeqa
