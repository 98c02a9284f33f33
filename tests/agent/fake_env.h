// A small tool environment for agent tests, standing in for tools::ToolSet: a lake folder
// (<root>/<namespace>/<dataset>/<file>), keyword search by token overlap, list/download/inspect, and
// execute_code through a real python3 in a per-episode sandbox. Result shapes follow the real tools.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "lakeqa/agent/tool_env.h"
#include "lakeqa/common/fs.h"

namespace lakeqa::agent::testing {

namespace fs = std::filesystem;

inline void WriteText(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
}

class FakeEnv : public ToolEnv {
 public:
  FakeEnv(std::string lake, std::string sandbox) : lake_(std::move(lake)), sandbox_(std::move(sandbox)) {
    fs::create_directories(sandbox_);
  }
  std::vector<Json> Schemas() override {
    return {{{"name", "query"},
             {"description", "SQL over downloaded files"},
             {"inputSchema", {{"type", "object"}, {"properties", {{"sql", {{"type", "string"}}}}}}}}};
  }
  Json Call(const std::string& tool, const Json& args) override {
    ++calls;
    if (tool == "search_keyword") return Search(args);
    if (tool == "list_files") return List(args);
    if (tool == "download") return Download(args);
    if (tool == "inspect_file") return Inspect(args);
    if (tool == "execute_code") return Execute(args);
    if (tool == "query") return {{"rows", Json::array()}};
    if (tool == "search") return {{"results", Json::array()}};
    return ErrorJson(NotFound("unknown tool " + tool));
  }
  std::atomic<int> calls{0};

 private:
  // "datagov/x" or "x" → (ns, id) by looking in the lake.
  std::pair<std::string, std::string> Resolve(const std::string& dataset_id) {
    size_t slash = dataset_id.find('/');
    if (slash != std::string::npos) return {dataset_id.substr(0, slash), dataset_id.substr(slash + 1)};
    for (const auto& ns : fs::directory_iterator(lake_)) {
      if (fs::exists(ns.path() / dataset_id)) return {ns.path().filename().string(), dataset_id};
    }
    return {"", dataset_id};
  }
  Json Search(const Json& args) {
    std::vector<std::string> words;
    for (const Json& k : args.value("keywords", Json::array())) {
      std::istringstream in(k.get<std::string>());
      for (std::string w; in >> w;) {
        std::transform(w.begin(), w.end(), w.begin(), ::tolower);
        words.push_back(w);
      }
    }
    std::vector<std::pair<int, Json>> hits;
    for (const auto& ns : fs::directory_iterator(lake_)) {
      for (const auto& ds : fs::directory_iterator(ns.path())) {
        std::string id = ds.path().filename().string();
        std::string lower = id;
        std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
        int score = 0;
        for (const auto& w : words) score += lower.find(w) != std::string::npos;
        if (score > 0)
          hits.push_back(
              {score, {{"dataset_id", id}, {"namespace", ns.path().filename().string()}, {"score", score}}});
      }
    }
    std::stable_sort(hits.begin(), hits.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    Json results = Json::array();
    for (size_t i = 0; i < hits.size() && i < size_t(args.value("limit", 20)); ++i)
      results.push_back(hits[i].second);
    return {{"results", results}, {"count", results.size()}};
  }
  Json List(const Json& args) {
    Json files = Json::array();
    for (const Json& d : args.value("dataset_ids", Json::array())) {
      auto [ns, id] = Resolve(d.get<std::string>());
      fs::path root = fs::path(lake_) / ns / id;
      if (ns.empty() || !fs::exists(root))
        return ErrorJson(NotFound("no dataset '" + d.get<std::string>() + "'"));
      for (const auto& f : fs::recursive_directory_iterator(root)) {
        if (f.is_regular_file()) {
          files.push_back(
              {{"path", fs::relative(f.path(), root).string()}, {"size", f.file_size()}, {"dataset_id", id}});
        }
      }
    }
    return {{"files", files}, {"count", files.size()}};
  }
  Json Download(const Json& args) {
    Json out = Json::array();
    for (const Json& f : args.value("files", Json::array())) {
      auto [ns, id] = Resolve(f.value("dataset_id", ""));
      std::string rel = ns + "/" + id + "/" + f.value("file_path", "");
      fs::path src = fs::path(lake_) / rel;
      if (ns.empty() || !fs::exists(src)) return ErrorJson(NotFound("no file " + rel));
      fs::path dst = fs::path(sandbox_) / rel;
      fs::create_directories(dst.parent_path());
      fs::copy_file(src, dst, fs::copy_options::overwrite_existing);
      out.push_back({{"local_path", dst.string()},
                     {"dataset_id", id},
                     {"namespace", ns},
                     {"size", fs::file_size(dst)}});
    }
    return {{"downloaded", out}, {"download_count", out.size()}};
  }
  Json Inspect(const Json& args) {
    auto [ns, id] = Resolve(args.value("dataset_id", ""));
    std::ifstream in(fs::path(lake_) / ns / id / args.value("file_path", ""));
    if (!in) return ErrorJson(NotFound("no file"));
    Json lines = Json::array();
    for (std::string l; lines.size() < 5 && std::getline(in, l);) lines.push_back(l);
    return {{"dataset_id", id}, {"preview", lines}};
  }
  Json Execute(const Json& args) {
    std::string script = sandbox_ + "/_code.py";
    WriteText(script, args.value("code", ""));
    std::string cmd = "cd '" + sandbox_ + "' && python3 _code.py 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    std::string output;
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) output.append(buf, n);
    int rc = pclose(p);
    return {{"output", output}, {"success", rc == 0}};
  }
  std::string lake_, sandbox_;
};

}  // namespace lakeqa::agent::testing
