// The file a task's trace is written to and read from (traces/<name>.jsonl): the run writes it
// (agent/run.h), the scorer and the workbench read it, so the mapping lives in one place.
#pragma once

#include <string>

namespace lakeqa::eval {

// A task id as a file name: anything outside [A-Za-z0-9._-] becomes '_' ("21 June 2018" → "21_June_2018"),
// and a leading '.' or an empty id gets a '_' in front.
std::string TraceFileName(const std::string& task_id);

}  // namespace lakeqa::eval
