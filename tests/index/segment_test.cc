// Round trip through the writer and the on-disk segment: what goes in comes back from the mapped files.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "index/postings.h"
#include "index/segment.h"
#include "index/test_util.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/index/index.h"

namespace lakeqa::index {
namespace {

using testing::TempDir;

Schema SmallSchema() {
  return Schema({{"title", true, false, 2.0, true},
                 {"body", true, false, 1.0, true},
                 {"format", false, true, 1.0, true},
                 {"columns", true, false, 1.5, true}});
}

TEST(LengthCodecTest, ExactBelowSixteenMonotoneAbove) {
  for (uint32_t n = 0; n < 16; ++n) EXPECT_EQ(DecodeLength(EncodeLength(n)), n);
  uint32_t prev = 0;
  for (uint64_t n = 16; n < (1ull << 33); n = n * 17 / 16 + 1) {
    uint32_t d = DecodeLength(EncodeLength(n));
    EXPECT_LE(d, n);
    EXPECT_GE(static_cast<double>(d), static_cast<double>(std::min<uint64_t>(n, UINT32_MAX)) * 0.88);
    EXPECT_GE(d, prev);
    prev = d;
  }
}

TEST(SegmentTest, RoundTripPostingsNormsStored) {
  TempDir dir;
  {
    auto w = IndexWriter::Open(dir.path, SmallSchema());
    ASSERT_TRUE(w.ok()) << w.status().ToString();
    for (int i = 0; i < 300; ++i) {
      Document d;
      d.id = "doc" + std::to_string(i);
      d.Add("title", i % 3 == 0 ? "Crime in Austin" : "School budget");
      d.Add("body", std::string(i % 7 + 1, 'x') == "xxxxxxx" ? "crime crime crime" : "nothing here");
      d.Add("format", i % 2 ? "CSV" : "json");
      d.Add("columns", "incident_id");
      d.Add("columns", "district");
      ASSERT_TRUE((*w)->Add(d).ok());
    }
    ASSERT_TRUE((*w)->Commit().ok());
  }
  auto r = IndexReader::Open(dir.path);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ((*r)->num_segments(), 1u);
  EXPECT_EQ((*r)->num_docs(), 300u);
  const Segment& seg = (*r)->segment(0);

  // Title "crime": docs 0, 3, 6, ... spanning three blocks.
  int64_t t = seg.Find(std::string(1, TextFieldByte(0)) + "crime");
  ASSERT_GE(t, 0);
  TermInfo info = seg.Info(static_cast<uint32_t>(t));
  EXPECT_EQ(info.df, 100u);
  PostingCursor c;
  c.Init(seg, info);
  uint32_t expect = 0;
  for (; c.doc() != PostingCursor::kEnd; c.Next(), expect += 3) {
    ASSERT_EQ(c.doc(), expect);
    EXPECT_EQ(c.tf(), 1u);
    EXPECT_EQ(c.Positions(), std::vector<uint32_t>{0});
  }
  EXPECT_EQ(expect, 300u);
  c.Init(seg, info);
  c.Advance(200);
  EXPECT_EQ(c.doc(), 201u);
  c.Advance(299);
  EXPECT_EQ(c.doc(), PostingCursor::kEnd);

  // Body "crime" tf 3 with positions 0,1,2.
  t = seg.Find(std::string(1, TextFieldByte(1)) + "crime");
  ASSERT_GE(t, 0);
  c.Init(seg, seg.Info(static_cast<uint32_t>(t)));
  EXPECT_EQ(c.doc(), 6u);
  EXPECT_EQ(c.tf(), 3u);
  EXPECT_EQ(c.Positions(), (std::vector<uint32_t>{0, 1, 2}));

  // Multi-valued columns: second value starts after the gap. "incident_id" -> whole + parts at 0.
  t = seg.Find(std::string(1, TextFieldByte(3)) + "district");
  ASSERT_GE(t, 0);
  c.Init(seg, seg.Info(static_cast<uint32_t>(t)));
  EXPECT_EQ(c.Positions(), std::vector<uint32_t>{1 + kValuePositionGap});
  EXPECT_GE(seg.Find(std::string(1, TextFieldByte(3)) + "incident_id"), 0);
  EXPECT_GE(seg.Find(std::string(1, TextFieldByte(3)) + "incid"), 0);  // stemmed part

  // Keyword values folded; prefix range over one field.
  EXPECT_GE(seg.Find(std::string(1, KeywordFieldByte(2)) + "csv"), 0);
  auto [lo, hi] = seg.PrefixRange(std::string(1, KeywordFieldByte(2)));
  std::set<std::string> formats;
  for (uint32_t i = lo; i < hi; ++i) formats.insert(std::string(seg.Key(i).substr(1)));
  EXPECT_EQ(formats, (std::set<std::string>{"csv", "json"}));

  // Norms: title "Crime in Austin" has 3 words, body "nothing here" 2.
  EXPECT_EQ(DecodeLength(seg.norms(0)[0]), 3u);
  EXPECT_EQ(DecodeLength(seg.norms(1)[0]), 2u);
  EXPECT_EQ(seg.docs_with_field(0), 300u);
  EXPECT_EQ(seg.norms(2)[0], 0);  // keyword-only field has no length

  std::string_view id;
  std::vector<std::pair<int, std::string_view>> fields;
  ASSERT_TRUE(seg.Stored(5, &id, &fields).ok());
  EXPECT_EQ(id, "doc5");
  ASSERT_EQ(fields.size(), 5u);
  EXPECT_EQ(fields[2].first, 2);
  EXPECT_EQ(fields[2].second, "CSV");  // stored as given, not folded
}

}  // namespace
}  // namespace lakeqa::index
