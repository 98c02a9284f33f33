// LineReader: the one line walker of the JSONL readers (predictions, traces, cassettes, the workbench).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lakeqa/common/lines.h"

namespace lakeqa {
namespace {

struct Seen {
  std::string text;
  size_t number;
  bool complete;
  bool operator==(const Seen&) const = default;
};

std::vector<Seen> All(std::string_view text) {
  std::vector<Seen> out;
  LineReader r(text);
  while (r.Next()) out.push_back({std::string(r.line()), r.number(), r.complete()});
  return out;
}

TEST(LineReader, NumbersEveryLineAndSkipsBlankOnes) {
  EXPECT_EQ(All("{\"a\":1}\n\n  \t\r\n{\"b\":2}\r\n"),
            (std::vector<Seen>{{"{\"a\":1}", 1, true}, {"{\"b\":2}\r", 4, true}}));
}

TEST(LineReader, ALastLineWithoutItsNewlineIsTorn) {
  EXPECT_EQ(All("{\"a\":1}\n{\"b\":"), (std::vector<Seen>{{"{\"a\":1}", 1, true}, {"{\"b\":", 2, false}}));
}

TEST(LineReader, EmptyAndBlankTextsHaveNoLines) {
  EXPECT_TRUE(All("").empty());
  EXPECT_TRUE(All("\n\n \n").empty());
  // A blank torn tail is no line either.
  EXPECT_EQ(All("x\n  "), (std::vector<Seen>{{"x", 1, true}}));
}

// Lines cut across chunks come out whole, in order, and a last line without '\n' comes from Finish.
TEST(ChunkedLines, JoinsLinesAcrossChunks) {
  ChunkedLines lines(1024);
  std::vector<std::string> got;
  auto take = [&](std::string_view l) { got.emplace_back(l); };
  for (std::string_view chunk : {"ab", "c\nde", "f\n\ng", "h"}) ASSERT_TRUE(lines.Feed(chunk, take).ok());
  EXPECT_EQ(got, (std::vector<std::string>{"abc", "def", ""}));
  ASSERT_TRUE(lines.Finish(take).ok());
  EXPECT_EQ(got, (std::vector<std::string>{"abc", "def", "", "gh"}));
  ASSERT_TRUE(lines.Finish(take).ok());  // nothing left: no second "gh"
  EXPECT_EQ(got.size(), 4u);
}

TEST(ChunkedLines, TheFirstErrorStopsAndARunawayLineIsSaid) {
  ChunkedLines lines(4);
  int seen = 0;
  auto take = [&](std::string_view l) -> Status {
    ++seen;
    return l == "bad" ? ParseError("bad line") : Status::Ok();
  };
  Status s = lines.Feed("ok\nbad\nnever\n", take);
  EXPECT_EQ(s.message(), "bad line");
  EXPECT_EQ(seen, 2);
  ChunkedLines small(4);
  ASSERT_TRUE(small.Feed("12345", take).ok());
  EXPECT_TRUE(small.overflow());
}

}  // namespace
}  // namespace lakeqa
