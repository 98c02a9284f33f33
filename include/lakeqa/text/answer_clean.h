// The LakeQA harness's answer text (github.com/lakeagent/datalake-qa) with Python's Unicode semantics:
// `_clean_answer` (evaluation/agent_runner.py: first [bracketed] span, "Final answer:" / "Answer -" prefix,
// surrounding quotes, "exactly one number → that number"), `normalize_text` (evaluation/metrics.py:
// lower-case, every non-\w non-\s character → space, whitespace collapsed) and the Python str(), strip(),
// lower() and truthiness they rely on. Here, below tools and eval, so that submit_answer cleans an answer
// exactly as the scorer does (eval/em.h) without the tools depending on eval.
#pragma once

#include <string>
#include <string_view>

#include "lakeqa/common/json_fwd.h"

namespace lakeqa::text {

// Python's str() of the value json.loads would give for `v`: strings verbatim, 3 → "3", 3.0 → "3.0",
// 1e16 → "1e+16", true → "True", null → "None", ["a", 1] → "['a', 1]", {"a": 1} → "{'a': 1}".
std::string PythonStr(const Json& v);
// Python's str.strip() (Unicode whitespace) and str.lower() (with its special cases), on UTF-8.
std::string PythonStrip(std::string_view s);
std::string PythonLower(std::string_view s);
// Python truthiness: null, false, 0, 0.0, "", [] and {} are falsy.
bool PythonTruthy(const Json& v);

// The harness's _clean_answer applied to a submitted answer (any JSON value; a dict contributes its
// "answer", "value" or "result" member, the first that is truthy).
std::string CleanAnswer(const Json& answer);
std::string CleanAnswerText(std::string_view answer);
// The text _clean_answer works on: "" for a falsy answer, a dict's answer/value/result member, else str().
std::string AnswerText(const Json& answer);
// _clean_answer without its last step (exactly one number → that number): what the lenient matchers read
// units and dates from ("March 2019" stays whole).
std::string CleanAnswerTextKeepingNumbers(std::string_view answer);

// The harness's normalize_text.
std::string NormalizeText(std::string_view text);

}  // namespace lakeqa::text
