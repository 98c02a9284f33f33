// `lakeqa tasks stats <paths...> [--json] [--ranks FILE]`: the LakeQA paper's Table 2 for each path (one
// column per path, e.g. lakeqa-full and lakeqa_mini side by side) and the distributions of hops,
// in-degree, nodes, answer types and namespaces. Files that do not load are reported on stderr and left
// out of the numbers.
#include <fmt/format.h>

#include <filesystem>

#include "cli/command.h"
#include "lakeqa/eval/stats.h"
#include "lakeqa/eval/task_format.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  std::vector<std::string> paths;
  std::string ranks;
  OutputOptions out;
};

int Run(const Opts& o) {
  auto tok = o.ranks.empty() ? text::Cl100kTokenizer::LoadDefault() : text::Cl100kTokenizer::Load(o.ranks);
  if (!tok.ok()) return Fail(tok.status(), o.out);
  std::vector<eval::TaskSetStats> sets;
  Json load_errors = Json::array();
  size_t tasks = 0;
  // A registered format's tasks get its own table too (task_format.h: its stats), by format name.
  std::map<std::string, std::vector<eval::Task>> by_format;
  for (const std::string& path : o.paths) {
    eval::LoadResult loaded = eval::LoadTasks({path});
    for (const auto& n : loaded.notes) fmt::print(stderr, "note: {}\n", n);
    for (const auto& e : loaded.errors) {
      if (o.out.json) {
        load_errors.push_back({{"path", path}, {"message", e.status.message()}});
      } else {
        fmt::print(stderr, "skipped: {}\n", e.status.message());
      }
    }
    std::string label = std::filesystem::path(path).filename().string();
    if (label.empty()) label = std::filesystem::path(path).parent_path().filename().string();
    tasks += loaded.tasks.size();
    for (const auto& t : loaded.tasks) {
      const eval::TaskFormatSpec* format = eval::FindTaskFormat(t.format);
      if (format != nullptr && format->stats) by_format[t.format].push_back(t);
    }
    sets.push_back(eval::ComputeStats(loaded.tasks, *tok, label.empty() ? path : label));
  }
  if (tasks == 0) return Fail(NotFound("no task could be loaded from the given paths"), o.out);
  if (o.out.json) {
    Json j = {{"sets", Json::array()}, {"load_errors", load_errors}};
    for (const auto& s : sets) j["sets"].push_back(s.ToJson());
    for (const auto& [name, format_tasks] : by_format)
      j[name] = eval::FindTaskFormat(name)->stats(format_tasks);
    PrintJson(j);
  } else {
    fmt::print("{}", eval::FormatStatsTable(sets));
    for (const auto& [name, format_tasks] : by_format) {
      const eval::TaskFormatSpec* format = eval::FindTaskFormat(name);
      if (format->format_stats) fmt::print("\n{}", format->format_stats(format->stats(format_tasks)));
    }
  }
  return 0;
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* group = Commands::Group(root, "tasks", "Benchmark task files: validation and statistics");
  CLI::App* cmd = group->add_subcommand("stats", "Table-2 statistics of task sets (one column per path)");
  cmd->add_option("paths", o->paths, "Task files or folders, one table column each")->required();
  cmd->add_option("--ranks", o->ranks, "cl100k_base.tiktoken ranks file (default: gpt-tokenizer in .deps)");
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Run(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
