// The harness's answer cleaning with Python's semantics (moved here from tests/eval/em_test.cc with the
// code).
#include "lakeqa/text/answer_clean.h"
#include "lakeqa/common/json.h"

#include <gtest/gtest.h>

namespace lakeqa::text {
namespace {

TEST(PythonStr, MatchesPythonRepr) {
  EXPECT_EQ(PythonStr(Json(3)), "3");
  EXPECT_EQ(PythonStr(Json(-12)), "-12");
  EXPECT_EQ(PythonStr(Json(3.0)), "3.0");
  EXPECT_EQ(PythonStr(Json(3.5)), "3.5");
  EXPECT_EQ(PythonStr(Json(0.1)), "0.1");
  EXPECT_EQ(PythonStr(Json(1e16)), "1e+16");
  EXPECT_EQ(PythonStr(Json(1e15)), "1000000000000000.0");
  EXPECT_EQ(PythonStr(Json(0.0001)), "0.0001");
  EXPECT_EQ(PythonStr(Json(0.00001)), "1e-05");
  EXPECT_EQ(PythonStr(Json(1.5e-7)), "1.5e-07");
  EXPECT_EQ(PythonStr(Json(-2.5e20)), "-2.5e+20");
  EXPECT_EQ(PythonStr(Json(true)), "True");
  EXPECT_EQ(PythonStr(Json(nullptr)), "None");
  EXPECT_EQ(PythonStr(Json::parse(R"(["a", 1, 2.0, null])")), "['a', 1, 2.0, None]");
  EXPECT_EQ(PythonStr(Json::parse(R"({"k": "it's", "b": "x\"y'z"})")), R"({'k': "it's", 'b': 'x"y\'z'})");
  EXPECT_EQ(PythonStr(Json::parse(R"(["a\nb"])")), R"(['a\nb'])");
}

TEST(CleanAnswer, DictAndFalsyInputs) {
  EXPECT_EQ(CleanAnswer(Json::parse(R"({"answer": "[42]"})")), "42");
  EXPECT_EQ(CleanAnswer(Json::parse(R"({"answer": "", "value": "Boston"})")), "Boston");
  EXPECT_EQ(CleanAnswer(Json::parse(R"({"other": "x"})")), "{'other': 'x'}");
  EXPECT_EQ(CleanAnswer(Json(nullptr)), "");
  EXPECT_EQ(CleanAnswer(Json(0)), "");
  EXPECT_EQ(CleanAnswer(Json(7)), "7");
  EXPECT_EQ(CleanAnswer(Json::array()), "");
  EXPECT_EQ(CleanAnswerText("1,2,3"), "123");  // one "number" under the harness's regex
  EXPECT_EQ(CleanAnswerText("1, 2, 3"), "1, 2, 3");
}

TEST(NormalizeText, PythonSemantics) {
  EXPECT_EQ(NormalizeText("  Hello,   World! "), "hello world");
  EXPECT_EQ(NormalizeText("a\u00A0b"), "a b");         // NBSP is whitespace
  EXPECT_EQ(NormalizeText("a\u200Bb"), "a b");         // ZWSP is neither \w nor \s
  EXPECT_EQ(NormalizeText("x\u00B2"), "x\u00B2");      // superscript two is numeric, so \w
  EXPECT_EQ(NormalizeText("e\u0301"), "e");            // a combining mark is not \w
  EXPECT_EQ(NormalizeText("\xCE\xA3"), "\xCF\x83");    // lone capital sigma → σ
  EXPECT_EQ(NormalizeText("A\xCE\xA3"), "a\xCF\x82");  // word-final → ς
  EXPECT_EQ(NormalizeText("\xff"), "");                // invalid byte → U+FFFD, a symbol
  EXPECT_EQ(NormalizeText(""), "");
}

// The two pieces eval's lenient matchers use: the text cleaning starts from, and cleaning that keeps a
// lone number's words (a date, a unit).
TEST(CleanAnswer, AnswerTextAndKeepingNumbers) {
  EXPECT_EQ(AnswerText(Json::parse(R"({"answer": 3.0})")), "3.0");
  EXPECT_EQ(AnswerText(Json::parse(R"({"result": ["a"]})")), "['a']");
  EXPECT_EQ(AnswerText(Json(0)), "");
  EXPECT_EQ(AnswerText(Json("[12 km]")), "[12 km]");
  EXPECT_EQ(CleanAnswerText("[March 2019]"), "2019");
  EXPECT_EQ(CleanAnswerTextKeepingNumbers("[March 2019]"), "March 2019");
  EXPECT_EQ(CleanAnswerTextKeepingNumbers("Answer: '12 km'"), "12 km");
  EXPECT_EQ(CleanAnswerTextKeepingNumbers(""), "");
}

}  // namespace
}  // namespace lakeqa::text
