#include <gtest/gtest.h>

#include "lakeqa/ingest/convert.h"

namespace lakeqa::ingest {
namespace {

TEST(WikitextToText, ArticleWithTemplatesRefsListsAndTables) {
  const char* wt =
      "{{Infobox star\n| name = Alpha Centauri\n| mass = {{val|1.1}}\n}}\n"
      "'''Alpha Centauri''' is a [[star system]] in the [[Centaurus|southern constellation]].<ref>{{cite "
      "web|url=http://x}}</ref> It is 4.37&nbsp;light-years away.<ref name=\"d\"/>\n"
      "<!-- hidden comment -->\n"
      "[[File:Alpha.jpg|thumb|A picture [[with link]]]]\n"
      "\n== Components ==\n"
      "* [[Alpha Centauri A]]\n** Primary star\n# Proxima\n\n"
      "{| class=\"wikitable\"\n|+ Stars\n! Name !! Type\n|-\n| A || G2V\n|-\n| style=\"color:red\" | B || "
      "K1V\n|}\n\n"
      "See [http://example.org the site].\n\n"
      "[[Category:Star systems]]\n[[Category:Centaurus|Alpha]]\n[[de:Alpha Centauri]]\n";
  WikiText t = WikitextToText(wt);
  EXPECT_EQ(t.text,
            "Alpha Centauri is a star system in the southern constellation. It is 4.37 light-years away.\n"
            "\n"
            "Components\n"
            "\n"
            "- Alpha Centauri A\n"
            "  - Primary star\n"
            "- Proxima\n"
            "\n"
            "Stars\n"
            "Name | Type\n"
            "A | G2V\n"
            "B | K1V\n"
            "\n"
            "See the site.");
  EXPECT_EQ(t.categories, (std::vector<std::string>{"Star systems", "Centaurus"}));
}

TEST(WikitextToText, BrokenMarkupLosesOnlyTheOpener) {
  WikiText t = WikitextToText(
      "Start {{unclosed template\nText with [[broken link and ''italic'' words.\n<ref>never closed\n"
      "<!-- unclosed comment\nEnd of page.");
  EXPECT_EQ(t.text,
            "Start unclosed template\nText with broken link and italic words.\nnever closed\n"
            "unclosed comment\nEnd of page.");
  EXPECT_EQ(WikitextToText("Stray }} and ]] closers.").text, "Stray and closers.");
}

TEST(WikitextToText, NestedTemplatesAndParserFunctions) {
  EXPECT_EQ(WikitextToText("a {{x|{{y|{{{1}}}}}|z}} b {{#if:{{{p|}}}|yes|no}} c").text, "a b c");
}

TEST(WikitextToText, LinkVariants) {
  WikiText t = WikitextToText(
      "[[Foo]]s, [[Foo (band)|]], [[:Category:Bars|bar list]], [[#Section]], [[Image:x.png]], "
      "[[Wikipedia:Manual|manual]], [http://a.b], [https://c.d label text], [[a|[[b]] c]]");
  EXPECT_EQ(t.text, "Foos, Foo, bar list, Section, , manual, , label text, b c");
  EXPECT_TRUE(t.categories.empty());
}

TEST(WikitextToText, HeadingsListsDefinitionsAndHtml) {
  WikiText t = WikitextToText(
      "Intro<br/>line &amp; more &ndash; &#x41;&#66;.\n=== Deep ===\n; Term : Definition\n: indented\n"
      "*** third level\n----\n<div class=\"x\">Boxed <b>bold</b></div>\n__NOTOC__\n2 < 3 and 5 > 4");
  EXPECT_EQ(t.text,
            "Intro line & more \xE2\x80\x93 AB.\n\nDeep\n\nTerm: Definition\nindented\n    - third level\n"
            "Boxed bold\n\n2 < 3 and 5 > 4");
}

TEST(WikitextToText, TableCellsOnSeparateLinesAndNestedMarkup) {
  WikiText t = WikitextToText(
      "{| class=\"wikitable sortable\"\n!Year\n!Team\n|-\n|2001\n|[[Los Angeles "
      "Lakers|Lakers]]{{ref|a}}\n|-\n"
      "| colspan=\"2\" | Total\n|}\nAfter");
  EXPECT_EQ(t.text, "Year | Team\n2001 | Lakers\nTotal\n\nAfter");
}

TEST(WikitextToText, DroppedElementsAndUnclosedTable) {
  WikiText t = WikitextToText(
      "Text<ref group=\"n\">note [[x]]</REF> more.<gallery>\nA.jpg|cap\n</gallery>\n{|\n| a || b\n");
  EXPECT_EQ(t.text, "Text more.\n\na | b");
}

TEST(WikitextToText, HostileInputStaysLinear) {
  std::string s;
  for (int i = 0; i < 200000; ++i) s += "{{[[";
  WikiText t = WikitextToText(s);  // must finish quickly (stack matching, no rescans)
  EXPECT_EQ(t.text, "");
}

TEST(DecodeHtmlEntities, NamedNumericAndInvalid) {
  EXPECT_EQ(DecodeHtmlEntities("&lt;a&gt; &mdash; &#8212; &#xD800; &bogus; & &;"),
            "<a> \xE2\x80\x94 \xE2\x80\x94 &#xD800; &bogus; & &;");
}

}  // namespace
}  // namespace lakeqa::ingest
