#include "lakeqa/agent/fact.h"

#include <cmath>
#include <cstdlib>

#include "lakeqa/eval/task.h"
#include "lakeqa/tools/results.h"

namespace lakeqa::agent {
namespace {

// Printed before the answer so that it can be told apart from whatever else the code prints.
constexpr const char* kMarker = "<<LAKEQA_ORACLE_ANSWER>>";

std::string PyQuote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string Norm(std::string s) {
  std::string out;
  for (unsigned char c : s) {
    if (c == ',' || c == '"' || c == '\'') continue;
    out += static_cast<char>(std::tolower(c));
  }
  size_t a = out.find_first_not_of(" \t\r\n"), b = out.find_last_not_of(" \t\r\n");
  return a == std::string::npos ? "" : out.substr(a, b - a + 1);
}

bool IsError(const Json& r) { return r.is_object() && r.contains("error") && r["error"].is_object(); }

}  // namespace

bool IsFactCode(const std::string& fact) {
  return fact.find("answer =") != std::string::npos || fact.find("import ") != std::string::npos ||
         fact.find("print(") != std::string::npos;
}

bool FactAnswerMatches(const std::string& got, const std::string& want) {
  std::string g = Norm(got), w = Norm(want);
  if (g == w) return true;
  char* eg = nullptr;
  char* ew = nullptr;
  double dg = std::strtod(g.c_str(), &eg), dw = std::strtod(w.c_str(), &ew);
  if (!g.empty() && !w.empty() && *eg == '\0' && *ew == '\0') {
    return std::fabs(dg - dw) <= 1e-6 * std::max(1.0, std::fabs(dw));
  }
  return false;
}

std::string FillNodePlaceholders(std::string text, const std::map<std::string, std::string>& answers) {
  for (const auto& [id, ans] : answers) {
    for (const std::string& ph : {"<node_" + id + " answer>", "<node " + id + " answer>"}) {
      for (size_t p = 0; (p = text.find(ph, p)) != std::string::npos; p += ans.size())
        text.replace(p, ph.size(), ans);
    }
  }
  return text;
}

FactRun RunFact(const ToolCallFn& call, const std::string& source, const std::string& fact) {
  FactRun run;
  run.code = IsFactCode(fact);
  auto ref = eval::ParseDatasetPath(source);
  if (!ref.ok()) {
    run.error = ref.status().message();
    run.error_code = "invalid_argument";
    return run;
  }
  run.dataset = ref->Key();
  std::string prefix = ref->ns + "/" + ref->id + "/";
  std::string file_path = source.size() > prefix.size() ? source.substr(prefix.size()) : "";
  if (file_path.empty()) {
    run.error = "the source names a dataset, not a file";
    run.error_code = "invalid_argument";
    return run;
  }
  run.download =
      call("download", {{"files", Json::array({{{"dataset_id", ref->Key()}, {"file_path", file_path}}})}});
  if (auto files = tools::DownloadedFiles(run.download); files && !files->empty())
    run.local_path = files->front().local_path;
  if (run.local_path.empty()) {
    run.error = "download failed: " + DumpJson(run.download).substr(0, 300);
    if (IsError(run.download)) run.error_code = run.download["error"].value("code", "");
    return run;
  }
  if (!run.code) return run;  // a sentence: its download grounds it

  std::string code = "local_path = " + PyQuote(run.local_path) + "\n" + fact + "\ntry:\n    print(" +
                     PyQuote(kMarker) + " + str(answer))\nexcept NameError:\n    pass\n";
  run.execution = call("execute_code", {{"code", code}});
  const Json& ex = run.execution;
  run.output = ex.contains("output") && ex["output"].is_string() ? ex["output"].get<std::string>() : "";
  size_t m = run.output.rfind(kMarker);
  if (m != std::string::npos) {
    run.answer = run.output.substr(m + std::string(kMarker).size());
    run.answer = run.answer.substr(0, run.answer.find('\n'));
    // The marker line is ours, not the code's: the output shown to people ends before it.
    run.output.erase(m);
  } else {
    // Code that prints its answer instead of assigning it: the last line printed.
    size_t end = run.output.find_last_not_of("\n");
    if (end != std::string::npos) {
      size_t nl = run.output.rfind('\n', end);
      size_t b = nl == std::string::npos ? 0 : nl + 1;
      run.answer = run.output.substr(b, end + 1 - b);
    }
  }
  if (IsError(ex)) {
    run.error = DumpJson(ex["error"]).substr(0, 500);
    run.error_code = ex["error"].value("code", "");
  } else if (ex.value("success", true) == false) {
    std::string why =
        ex.contains("error") && ex["error"].is_string() ? ex["error"].get<std::string>() : DumpJson(ex);
    run.error = "fact code failed: " + why.substr(0, 500);
    run.error_code = why.rfind("TimeoutError", 0) == 0 ? "timeout" : "execution_error";
  } else {
    run.ran = true;
  }
  return run;
}

}  // namespace lakeqa::agent
