// CMDBench's table-discovery questions as a relevance collection (`eval discovery|tune --questions`, a
// suite's "questions"): each question's provenance tables are its gold datasets in the cmdbench lake.
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "lakeqa/cmdbench/cmdbench.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/ingest/convert.h"

namespace lakeqa::cmdbench {

using eval::DiscoveryQuestion;

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

}  // namespace

std::string CmdbenchTableDatasetId(std::string_view table, std::string_view ns) {
  return std::string(ns) + "/" + ingest::NameToFolder(table);
}

namespace {
Result<std::vector<DiscoveryQuestion>> LoadTableDiscoveryFile(const std::string& path, std::string_view ns);
}  // namespace

Result<std::vector<DiscoveryQuestion>> LoadCmdbenchQuestions(const std::string& path, std::string_view ns) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return LoadTableDiscoveryFile(path, ns);
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
    LAKEQA_ASSIGN_OR_RETURN(auto part, LoadTableDiscoveryFile(f, ns));
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
Result<std::vector<DiscoveryQuestion>> LoadTableDiscoveryFile(const std::string& path, std::string_view ns) {
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
      if (!name.empty()) q.AddGold(CmdbenchTableDatasetId(name, ns), 1);
    }
    if (q.gold.empty()) return ParseError(what + " (" + q.qid + "): provenance_table.table names no table");
    out.push_back(std::move(q));
  }
  return out;
}
}  // namespace

}  // namespace lakeqa::cmdbench
