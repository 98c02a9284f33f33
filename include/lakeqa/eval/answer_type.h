// Answer types for the task statistics and for stratifying scores: numeric, temporal or entity.
//  - temporal: a date ("01/13/1892", "2019-03-01", "February 25, 1881", "March 2019"), a decade ("1990s"),
//    or a bare year (1000-2099) when the question asks for a year, a date or "when";
//  - numeric: a JSON number, or text that is one number ("1,046", "-3.5", "$12", "16.7%", "2.4 million");
//  - entity: everything else (names, places, yes/no, lists).
#pragma once

#include <string>
#include <string_view>

#include "lakeqa/common/json_fwd.h"

namespace lakeqa::eval {

enum class AnswerType { kNumeric, kTemporal, kEntity };

std::string_view AnswerTypeName(AnswerType t);
AnswerType ClassifyAnswer(const Json& answer, std::string_view question);

struct Task;  // task.h
// The answer type a report and `tasks stats` use for a task. One vocabulary per report: a benchmark that
// types its answers (TaskExtension::AnswerType) keeps its own type; these classes are for tasks that have
// none.
std::string TaskAnswerType(const Task& task);

}  // namespace lakeqa::eval
