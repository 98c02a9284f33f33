// Source routers (router.h): the fixed baselines, the seeded random router and the LLM router. The lexical
// router is in router_lexical.cc.
#include <algorithm>
#include <cstdio>
#include <random>

#include "lakeqa/cmdbench/source_router.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/index/sources.h"

namespace lakeqa::cmdbench {
namespace {

class FixedRouter : public SourceRouter {
 public:
  FixedRouter(std::string name, std::vector<std::string> sources)
      : name_(std::move(name)), sources_(std::move(sources)) {}
  Result<RouteResult> Route(const std::string&) override { return RouteResult{sources_, Json::object()}; }
  std::string Name() const override { return name_; }

 private:
  std::string name_;
  std::vector<std::string> sources_;
};

class RandomRouter : public SourceRouter {
 public:
  explicit RandomRouter(uint64_t seed) : seed_(seed), gen_(seed) {}
  Result<RouteResult> Route(const std::string&) override {
    static const char* const kAll[] = {"doc", "table", "graph"};
    return RouteResult{{kAll[std::uniform_int_distribution<int>(0, 2)(gen_)]}, Json::object()};
  }
  std::string Name() const override { return "random(seed=" + std::to_string(seed_) + ")"; }

 private:
  uint64_t seed_;
  std::mt19937_64 gen_;
};

uint64_t Fnv64(std::string_view s, uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string SafeFileName(std::string s) {
  for (char& c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.') c = '_';
  }
  return s;
}

class LlmRouter : public SourceRouter {
 public:
  LlmRouter(std::unique_ptr<eval::JudgeClient> client, std::map<std::string, std::string> summaries,
            std::string level, std::string cache_path)
      : client_(std::move(client)),
        summaries_(std::move(summaries)),
        level_(std::move(level)),
        cache_path_(std::move(cache_path)) {
    if (!cache_path_.empty() && PathExists(cache_path_)) {
      auto text = ReadFile(cache_path_, 256ull << 20);
      if (text.ok()) {
        for (auto line : Split(*text, '\n')) {
          auto j = ParseJson(line, cache_path_);
          if (j.ok() && j->is_object() && j->contains("key") && j->contains("reply"))
            cache_[(*j)["key"].get<std::string>()] = *j;
        }
      }
    }
  }
  std::string Name() const override { return "llm(" + client_->Model() + ", " + level_ + ")"; }
  Result<RouteResult> Route(const std::string& question) override {
    std::string prompt = RouterPrompt(question, summaries_);
    char key[17];
    std::snprintf(key, sizeof key, "%016llx",
                  static_cast<unsigned long long>(
                      Fnv64(prompt, Fnv64(std::string(kRouterPromptVersion) + "\n" + client_->Model()))));
    RouteResult out;
    std::string reply;
    if (auto it = cache_.find(key); it != cache_.end()) {
      reply = it->second["reply"].get<std::string>();
      out.detail["cached"] = true;
    } else {
      LAKEQA_ASSIGN_OR_RETURN(eval::JudgeCompletion c, client_->Complete("", prompt));
      reply = c.text;
      // An unpriced model's cost is unknown (null), not 0.
      Json cost = c.cost_usd ? Json(*c.cost_usd) : Json(nullptr);
      Json line = {{"key", key},
                   {"prompt_version", kRouterPromptVersion},
                   {"model", client_->Model()},
                   {"question", question},
                   {"reply", reply},
                   {"cost_usd", cost}};
      cache_[key] = line;
      out.detail["cost_usd"] = cost;
      if (!cache_path_.empty()) {
        std::string all;
        for (const auto& [k, v] : cache_) all += DumpJson(v) + "\n";
        LAKEQA_RETURN_IF_ERROR(MakeDirs(cache_path_.substr(0, cache_path_.rfind('/'))));
        LAKEQA_RETURN_IF_ERROR(WriteFileAtomic(cache_path_, all));
      }
    }
    out.detail["reply"] = reply;
    auto parsed = ParseRouterReply(reply);
    // CMDBench counts an unreadable reply as no source; so do we, and say so.
    if (parsed.ok()) out.sources = *parsed;
    else out.detail["parse_error"] = parsed.status().message();
    return out;
  }

 private:
  std::unique_ptr<eval::JudgeClient> client_;
  std::map<std::string, std::string> summaries_;
  std::string level_, cache_path_;
  std::map<std::string, Json> cache_;
};

}  // namespace

std::string RouterPrompt(const std::string& question, const std::map<std::string, std::string>& s) {
  auto get = [&](const char* k) {
    auto it = s.find(k);
    return it == s.end() || it->second.empty() ? std::string("(no such database in this lake)") : it->second;
  };
  return "Given a question and the descriptions of three databases, select the list of databases that can "
         "answer "
         "the question.\n- The output should be a JSON list of strings, where each string is one of "
         "\"graph\", "
         "\"doc\" or \"table\".\n- If the question cannot be answered by any of the databases, the output "
         "should be "
         "an empty list.\n\n### Question: " +
         question + "\n\n### Database descriptions\ngraph:\n" + get("graph") + "\n\ndoc:\n" + get("doc") +
         "\n\ntable:\n" + get("table");
}

Result<std::vector<std::string>> ParseRouterReply(const std::string& reply) {
  std::string t = reply;
  for (const char* fence : {"```json", "```"}) {
    for (size_t p; (p = t.find(fence)) != std::string::npos;) t.erase(p, std::string_view(fence).size());
  }
  auto j = ParseJson(Trim(t), "router reply");
  if (!j.ok() || !j->is_array())
    return ParseError("router reply is not a JSON list: \"" + std::string(TruncateUtf8(reply, 200)) + "\"");
  std::vector<std::string> out;
  for (const char* s : index::kSourceNames) {
    for (const auto& e : *j) {
      if (e.is_string() && ToLowerAscii(e.get<std::string>()) == s) {
        out.push_back(s);
        break;
      }
    }
  }
  return out;
}

Result<std::unique_ptr<SourceRouter>> MakeRouter(const RouterOptions& o) {
  if (o.kind == "select-doc") return std::unique_ptr<SourceRouter>(new FixedRouter(o.kind, {"doc"}));
  if (o.kind == "select-table") return std::unique_ptr<SourceRouter>(new FixedRouter(o.kind, {"table"}));
  if (o.kind == "select-graph") return std::unique_ptr<SourceRouter>(new FixedRouter(o.kind, {"graph"}));
  if (o.kind == "select-all")
    return std::unique_ptr<SourceRouter>(new FixedRouter(o.kind, {"doc", "table", "graph"}));
  if (o.kind == "random") return std::unique_ptr<SourceRouter>(new RandomRouter(o.seed));
  if (o.kind == "lexical") {
    LAKEQA_ASSIGN_OR_RETURN(auto r, MakeLexicalRouter(o));
    return std::unique_ptr<SourceRouter>(std::move(r));
  }
  if (o.kind == "embedding") return MakeEmbeddingRouter(o);
  if (o.kind == "llm") {
    if (o.level != "basic" && o.level != "enhanced")
      return InvalidArgument("--summary-level must be basic or enhanced, got '" + o.level + "'");
    std::map<std::string, std::string> summaries = o.given;
    if (summaries.empty()) {
      LAKEQA_ASSIGN_OR_RETURN(index::SourceSummaries s, index::LoadSourceSummaries(o.index_dir));
      for (const auto& x : s.sources) summaries[x.name] = o.level == "basic" ? x.basic : x.enhanced;
    }
    LAKEQA_ASSIGN_OR_RETURN(auto client, eval::MakeJudgeClient(o.model));
    std::string cache =
        o.cache_dir.empty() ? "" : o.cache_dir + "/" + SafeFileName(o.model.Name()) + ".jsonl";
    return std::unique_ptr<SourceRouter>(
        new LlmRouter(std::move(client), std::move(summaries), o.level, cache));
  }
  return InvalidArgument("unknown router '" + o.kind +
                         "'; the routers are select-doc, select-table, select-graph, select-all, random, "
                         "lexical, embedding, llm");
}

}  // namespace lakeqa::cmdbench
