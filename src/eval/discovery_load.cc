// Relevance-collection loaders (discovery.h): CMDBench questions, LakeQA tasks, TREC topics + qrels.
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
namespace {

// 1-based line of each top-level element of a JSON array text (the parser does not keep positions).
std::vector<size_t> ArrayItemLines(std::string_view text) {
  std::vector<size_t> out;
  size_t line = 1;
  int depth = 0;
  bool in_string = false, expect_item = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') ++line;
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
    if (depth == 1 && expect_item) {
      out.push_back(line);
      expect_item = false;
    }
    if (c == '"') in_string = true;
    else if (c == '[' || c == '{') {
      if (++depth == 1 && c == '[') expect_item = true;
    } else if (c == ']' || c == '}') {
      --depth;
    } else if (c == ',' && depth == 1) {
      expect_item = true;
    }
  }
  return out;
}

void AddGold(DiscoveryQuestion& q, const std::string& id, int grade) {
  if (std::find(q.gold.begin(), q.gold.end(), id) == q.gold.end()) q.gold.push_back(id);
  q.grade[id] = std::max(q.grade.count(id) ? q.grade[id] : 0, grade);
}

}  // namespace

std::string CmdbenchTableDatasetId(std::string_view table, std::string_view ns) {
  return std::string(ns) + "/" + ingest::NameToFolder(table);
}

namespace {
Result<std::vector<DiscoveryQuestion>> LoadCmdbenchQuestionFile(const std::string& path, std::string_view ns);
}  // namespace

Result<std::vector<DiscoveryQuestion>> LoadCmdbenchQuestions(const std::string& path, std::string_view ns) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return LoadCmdbenchQuestionFile(path, ns);
  // A folder: every *.json in it, in name order, as one collection (qids unique across the files).
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(path, ec)) {
    if (e.is_regular_file(ec) && e.path().extension() == ".json") files.push_back(e.path().string());
  }
  if (ec) return ErrnoStatus(ec.value(), "listing " + path);
  if (files.empty()) {
    return NotFound(
        path +
        " is a folder without *.json files: --questions takes a CMDBench table-discovery question file "
        "(a JSON array of {\"qid\", \"question\", \"provenance_table\": {\"table\": ...}}) or a "
        "folder of such files");
  }
  std::sort(files.begin(), files.end());
  std::vector<DiscoveryQuestion> out;
  std::map<std::string, std::string> where_of;
  for (const auto& f : files) {
    LAKEQA_ASSIGN_OR_RETURN(auto part, LoadCmdbenchQuestionFile(f, ns));
    for (auto& q : part) {
      auto [it, added] = where_of.emplace(q.qid, q.where);
      if (!added)
        return ParseError(q.where + ": qid '" + q.qid + "' appears twice (first at " + it->second + ")");
      out.push_back(std::move(q));
    }
  }
  return out;
}

namespace {
Result<std::vector<DiscoveryQuestion>> LoadCmdbenchQuestionFile(const std::string& path,
                                                                std::string_view ns) {
  LAKEQA_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
  LAKEQA_ASSIGN_OR_RETURN(Json j, ParseJson(text, path));
  if (!j.is_array()) return ParseError(path + ":1: expected a JSON array of CMDBench questions");
  std::vector<size_t> lines = ArrayItemLines(text);
  std::vector<DiscoveryQuestion> out;
  std::set<std::string> qids;
  for (size_t i = 0; i < j.size(); ++i) {
    const Json& item = j[i];
    std::string where = path + ":" + std::to_string(i < lines.size() ? lines[i] : 1);
    std::string what = where + ": item " + std::to_string(i);
    if (!item.is_object()) return ParseError(what + ": expected an object");
    DiscoveryQuestion q;
    q.where = where;
    if (auto it = item.find("qid"); it != item.end())
      q.qid = it->is_string() ? it->get<std::string>() : it->dump();
    if (q.qid.empty()) q.qid = std::to_string(i);
    if (!qids.insert(q.qid).second) return ParseError(what + ": qid '" + q.qid + "' appears twice");
    auto qt = item.find("question");
    if (qt == item.end() || !qt->is_string() || qt->get<std::string>().empty())
      return ParseError(what + " (" + q.qid + "): no \"question\" string");
    q.question = qt->get<std::string>();
    auto pt = item.find("provenance_table");
    if (pt == item.end() || !pt->is_object() || !pt->contains("table"))
      return ParseError(what + " (" + q.qid + "): no \"provenance_table\": {\"table\": ...}");
    const Json& t = (*pt)["table"];
    std::vector<std::string> tables;
    if (t.is_string()) {
      tables.push_back(t.get<std::string>());
    } else if (t.is_array()) {
      for (const auto& e : t) {
        if (!e.is_string())
          return ParseError(what + " (" + q.qid + "): provenance_table.table holds a non-string");
        tables.push_back(e.get<std::string>());
      }
    } else {
      return ParseError(what + " (" + q.qid + "): provenance_table.table must be a name or a list of names");
    }
    for (const auto& name : tables) {
      if (!name.empty()) AddGold(q, CmdbenchTableDatasetId(name, ns), 1);
    }
    if (q.gold.empty()) return ParseError(what + " (" + q.qid + "): provenance_table.table names no table");
    out.push_back(std::move(q));
  }
  return out;
}
}  // namespace

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
    for (const std::string& g : GoldDatasets(t)) AddGold(q, g, 1);
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
    if (rel > 0) AddGold(out[it->second], parts[2], static_cast<int>(std::min<long>(rel, 16)));
  }
  for (const auto& q : out) {
    if (q.gold.empty())
      return ParseError(q.where + ": topic " + q.qid + " has no relevant document in " + qrels_path);
  }
  return out;
}

}  // namespace lakeqa::eval
