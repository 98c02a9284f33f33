// Answer scoring. Exact match is computed exactly as the LakeQA harness computes it (github.com/lakeagent/
// datalake-qa): the submitted answer goes through `_clean_answer` (evaluation/agent_runner.py: first
// [bracketed] span, "Final answer:" / "Answer -" prefix, surrounding quotes, "exactly one number → that
// number"), the gold answer through Python's str(), and both through `normalize_text`
// (evaluation/metrics.py: lower-case, every non-\w non-\s character → space, whitespace collapsed), with
// Python's Unicode semantics for lower(), \w, \s and split(). Token F1 is the harness's compute_f1_score on
// the same strings. Numeric tolerance and date normalisation are lakeqa's own, more lenient matchers,
// reported separately and never folded into EM (docs/scoring.md lists where they differ).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "lakeqa/common/json_fwd.h"
#include "lakeqa/text/answer_clean.h"

namespace lakeqa::eval {

// The harness's cleaning and normalisation (PythonStr, PythonStrip, PythonLower, PythonTruthy, CleanAnswer,
// CleanAnswerText, NormalizeText) live in text/answer_clean.h, below the tools that clean submitted answers;
// these are their names in eval's API.
using text::CleanAnswer;
using text::CleanAnswerText;
using text::NormalizeText;
using text::PythonLower;
using text::PythonStr;
using text::PythonStrip;
using text::PythonTruthy;

// Token-overlap F1 of the harness (0 when either side normalises to no tokens).
double TokenF1(std::string_view prediction, std::string_view gold);

// A number as written in an answer: "1,046", "-3.5", "$12", "16.7%", "+5". Exactly one number (with
// optional currency sign, thousands separators, percent sign and a trailing unit word) or nothing.
struct ParsedNumber {
  double value = 0;
  int decimals = 0;  // digits after the decimal point as written
  bool percent = false;
};
std::optional<ParsedNumber> ParseSingleNumber(std::string_view text);

// A calendar date with the parts an answer spelled out: ISO "2019-03-01" / "2019-03", US "03/01/2019",
// "3/1/19" is not accepted (two-digit years are ambiguous), "MM/DD" "03/01", "March 1, 2019",
// "1 March 2019", "March 2019", "Mar. 1". Missing parts are 0.
struct ParsedDate {
  int year = 0;
  int month = 0;
  int day = 0;
};
std::optional<ParsedDate> ParseDate(std::string_view text);

struct AnswerScore {
  bool scorable = true;   // the harness skips EM when the gold answer is falsy (0, "", []): EM is 0
  std::string cleaned;    // CleanAnswer(raw)
  std::string gold_text;  // PythonStr(gold)
  std::string norm_pred;
  std::string norm_gold;
  bool em = false;       // the harness's exact match
  double f1 = 0;         // the harness's token F1
  bool numeric = false;  // both sides one number and equal at the gold's precision
  bool date = false;     // both sides dates and every part the gold gives matches
  bool lenient() const { return em || numeric || date; }
};
AnswerScore ScoreAnswer(const Json& raw_answer, const Json& gold);

}  // namespace lakeqa::eval
