// HtmlToText (gumbo): text in document order, title first, scripts/styles dropped, block elements end
// lines, broken markup repaired as an HTML5 browser would. Pages up to 8 MiB are parsed in a per-thread
// arena, larger ones with malloc: both must give the same text.
#include <gtest/gtest.h>

#include <string>

#include "ingest/documents.h"

namespace lakeqa::ingest {
namespace {

constexpr size_t kMax = 64u << 20;

TEST(HtmlToText, TitleBlocksScriptsAndEntities) {
  EXPECT_EQ(HtmlToText("<html><head><title> Station list </title><script>var x=1;</script>"
                       "<style>p{}</style></head><body><h1>Stations</h1><p>North &amp; <b>South</b></p>"
                       "<div>One<br>Two</div></body></html>",
                       kMax),
            "Station list\nStations\nNorth & South\nOne\nTwo\n");
}

TEST(HtmlToText, BrokenMarkupIsRepairedNotLost) {
  // Unclosed list items and paragraphs are closed by the next one; a stray end tag is ignored; text
  // inside a <table> outside any cell is moved before the table (foster parenting); an unterminated
  // comment swallows the rest.
  EXPECT_EQ(HtmlToText("<ul><li>a<li>b</ul><p>one<p>two</span>three", kMax), "a\nb\none\ntwothree\n");
  EXPECT_EQ(HtmlToText("<table>moved<tr><td>cell</table>after", kMax), "moved cell\nafter");
  EXPECT_EQ(HtmlToText("<p>kept<!-- never closed <p>gone", kMax), "kept\n");
  EXPECT_EQ(HtmlToText("", kMax), "");
  // Unknown entities stay as written; legacy ones decode even without their ';' (&not → ¬).
  EXPECT_EQ(HtmlToText("<<<>>> plain &bogus; &notit; text", kMax), "<<<>>> plain &bogus; \u00acit; text");
}

TEST(HtmlToText, SameTextAcrossRepeatedCallsAndBothAllocators) {
  std::string page =
      "<html><head><title>T</title></head><body><table><tr><td>x</td><td>y</td></tr></table>"
      "<p>para <i>graph</i></p><ol><li>1<li>2</ol>broken <b>bold <i>both</b> italic</i></body>";
  std::string small = HtmlToText(page, kMax);
  EXPECT_EQ(small, "T\nx y\npara graph\n1\n2\nbroken bold both italic");
  for (int i = 0; i < 50; ++i) ASSERT_EQ(HtmlToText(page, kMax), small) << i;  // arena reused
  // The same document padded with a 9 MB comment goes through malloc instead of the arena.
  std::string big = page;
  big.insert(big.find("<body>"), "<!--" + std::string(9u << 20, 'c') + "-->");
  EXPECT_EQ(HtmlToText(big, kMax), small);
  EXPECT_EQ(HtmlToText(page, kMax), small);  // and the arena still works after a large page
}

TEST(HtmlToText, OutputIsCapped) {
  std::string page;
  for (int i = 0; i < 1000; ++i) page += "<p>line " + std::to_string(i) + "</p>";
  std::string text = HtmlToText(page, 100);
  EXPECT_LE(text.size(), 100u);
  EXPECT_EQ(text.rfind("line 0\nline 1\n", 0), 0u);
}

}  // namespace
}  // namespace lakeqa::ingest
