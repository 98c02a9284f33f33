// Relevance-collection loaders (discovery.h): LakeQA tasks, TREC topics + qrels (a benchmark's own
// questions: its task format's discovery_questions).
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/eval/discovery.h"
#include "lakeqa/eval/task.h"
#include "lakeqa/ingest/convert.h"

namespace lakeqa::eval {
namespace {}  // namespace

void DiscoveryQuestion::AddGold(const std::string& id, int grade_of_id) {
  if (std::find(gold.begin(), gold.end(), id) == gold.end()) gold.push_back(id);
  grade[id] = std::max(grade.count(id) ? grade[id] : 0, grade_of_id);
}

Result<std::vector<DiscoveryQuestion>> LoadLakeQaQuestions(const std::vector<std::string>& paths,
                                                           bool skip_bad, std::vector<std::string>* skipped) {
  LoadResult loaded = LoadTasks(paths);
  std::vector<std::string> problems;
  std::vector<std::string> notes = loaded.notes;  // files left out on purpose: listed, never a failure
  for (const LoadError& e : loaded.errors) problems.push_back(e.status.message());
  std::vector<DiscoveryQuestion> out;
  std::set<std::string> qids;
  for (const Task& t : loaded.tasks) {
    DiscoveryQuestion q;
    q.qid = t.id;
    q.question = t.question;
    q.where = t.Where();
    for (const std::string& g : GoldDatasets(t)) q.AddGold(g, 1);
    if (q.gold.empty()) {
      problems.push_back(q.where + ": task " + t.id + " names no dataset in datasets_used or node sources");
      continue;
    }
    if (q.question.empty()) {
      problems.push_back(q.where + ": task " + t.id + " has no question");
      continue;
    }
    if (!qids.insert(q.qid).second) {
      problems.push_back(q.where + ": question_id '" + q.qid + "' appears twice");
      continue;
    }
    out.push_back(std::move(q));
  }
  if (!problems.empty() && !skip_bad) {
    std::string msg = problems.front();
    if (problems.size() > 1) msg += " (and " + std::to_string(problems.size() - 1) + " more problems)";
    return ParseError(msg);
  }
  if (skipped != nullptr) {
    *skipped = std::move(notes);
    skipped->insert(skipped->end(), problems.begin(), problems.end());
  }
  if (out.empty()) {
    std::string names;
    for (const auto& p : paths) names += (names.empty() ? "" : ", ") + p;
    return InvalidArgument("no tasks in " + names);
  }
  return out;
}

Result<std::vector<DiscoveryQuestion>> LoadTrecQuestions(const std::string& topics_path,
                                                         const std::string& qrels_path) {
  LAKEQA_ASSIGN_OR_RETURN(std::string topics, ReadFile(topics_path));
  std::vector<DiscoveryQuestion> out;
  std::map<std::string, size_t> by_qid;
  auto add = [&](std::string qid, std::string text, size_t line) -> Status {
    std::string where = topics_path + ":" + std::to_string(line);
    qid = std::string(Trim(qid));
    text = std::string(Trim(text));
    if (qid.empty()) return ParseError(where + ": topic without a number");
    if (text.empty()) return ParseError(where + ": topic " + qid + " has no text");
    if (by_qid.count(qid)) return ParseError(where + ": topic " + qid + " appears twice");
    by_qid[qid] = out.size();
    out.push_back({qid, text, {}, {}, where});
    return Status::Ok();
  };
  if (topics.find("<top>") != std::string::npos) {
    // Classic TREC: <top> <num> Number: 301 <title> words ... </top>; the title is the query.
    size_t pos = 0;
    while ((pos = topics.find("<top>", pos)) != std::string::npos) {
      size_t end = topics.find("</top>", pos);
      size_t line =
          static_cast<size_t>(std::count(topics.begin(), topics.begin() + static_cast<long>(pos), '\n')) + 1;
      if (end == std::string::npos)
        return ParseError(topics_path + ":" + std::to_string(line) + ": <top> without </top>");
      std::string_view block(topics.data() + pos, end - pos);
      auto field = [&](std::string_view tag) -> std::string {
        size_t a = block.find(tag);
        if (a == std::string_view::npos) return "";
        a += tag.size();
        size_t b = block.find('<', a);
        std::string v(block.substr(a, (b == std::string_view::npos ? block.size() : b) - a));
        for (std::string_view prefix : {"Number:", "Topic:"}) {
          std::string_view t = Trim(v);
          if (t.rfind(prefix, 0) == 0) v = std::string(t.substr(prefix.size()));
        }
        return v;
      };
      std::string title = field("<title>");
      std::replace(title.begin(), title.end(), '\n', ' ');
      LAKEQA_RETURN_IF_ERROR(add(field("<num>"), title, line));
      pos = end;
    }
  } else {
    size_t line = 0;
    for (std::string_view l : Split(topics, '\n')) {
      ++line;
      if (Trim(l).empty()) continue;
      size_t tab = l.find('\t');
      if (tab == std::string_view::npos)
        return ParseError(topics_path + ":" + std::to_string(line) + ": expected <qid><TAB><query text>");
      LAKEQA_RETURN_IF_ERROR(add(std::string(l.substr(0, tab)), std::string(l.substr(tab + 1)), line));
    }
  }
  if (out.empty()) return ParseError(topics_path + ": no topics");
  LAKEQA_ASSIGN_OR_RETURN(std::string qrels, ReadFile(qrels_path));
  size_t line = 0;
  for (std::string_view l : Split(qrels, '\n')) {
    ++line;
    std::string where = qrels_path + ":" + std::to_string(line);
    std::vector<std::string> parts;
    for (std::string_view p : Split(l, ' ')) {
      for (std::string_view q : Split(p, '\t')) {
        if (!q.empty()) parts.emplace_back(q);
      }
    }
    if (parts.empty()) continue;
    if (parts.size() != 4) return ParseError(where + ": expected \"<qid> <iteration> <docid> <relevance>\"");
    char* end = nullptr;
    long rel = std::strtol(parts[3].c_str(), &end, 10);
    if (end == parts[3].c_str() || *end != '\0')
      return ParseError(where + ": relevance '" + parts[3] + "' is not an integer");
    auto it = by_qid.find(parts[0]);
    if (it == by_qid.end())
      return ParseError(where + ": qrels for topic '" + parts[0] + "', which the topics lack");
    if (rel > 0) out[it->second].AddGold(parts[2], static_cast<int>(std::min<long>(rel, 16)));
  }
  for (const auto& q : out) {
    if (q.gold.empty())
      return ParseError(q.where + ": topic " + q.qid + " has no relevant document in " + qrels_path);
  }
  return out;
}

}  // namespace lakeqa::eval
