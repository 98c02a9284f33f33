// JSON → Task: the LakeQA schema as the released files actually use it (a few spellings vary: "hop" or
// "hop_id", "reasoning" as a list, a string or null, "question" instead of "reasoning", node ids as
// numbers or numeric strings) and CMDBench question records.
#include <fmt/format.h>

#include <optional>

#include "lakeqa/common/strings.h"
#include "lakeqa/eval/task.h"

namespace lakeqa::eval {
namespace {

std::string TypeName(const Json& j) { return j.is_null() ? "null" : j.type_name(); }

// Collects every schema problem of one task so that a file is fixed in one pass, not one error at a time.
class Problems {
 public:
  void Add(std::string msg) { list_.push_back(std::move(msg)); }
  bool empty() const { return list_.empty(); }
  Status ToStatus(std::string_view where) const {
    std::string msg(where);
    msg += ": ";
    for (size_t i = 0; i < list_.size(); ++i) {
      if (i) msg += "; ";
      msg += list_[i];
    }
    return ParseError(msg);
  }

 private:
  std::vector<std::string> list_;
};

// An id written as a string or an integer.
std::optional<std::string> IdText(const Json& j) {
  if (j.is_string() && !j.get_ref<const std::string&>().empty()) return j.get<std::string>();
  if (j.is_number_integer() || j.is_number_unsigned()) return std::to_string(j.get<long long>());
  return std::nullopt;
}

const Json* Field(const Json& obj, const char* name, Problems& p, std::string_view ctx) {
  auto it = obj.find(name);
  if (it == obj.end()) {
    p.Add(fmt::format("{}missing field \"{}\"", ctx, name));
    return nullptr;
  }
  return &*it;
}

std::string StringField(const Json& obj, const char* name, bool required, Problems& p, std::string_view ctx) {
  auto it = obj.find(name);
  if (it == obj.end() || it->is_null()) {
    if (required) p.Add(fmt::format("{}missing field \"{}\"", ctx, name));
    return "";
  }
  if (!it->is_string()) {
    p.Add(fmt::format("{}field \"{}\" must be a string, got {}", ctx, name, TypeName(*it)));
    return "";
  }
  return it->get<std::string>();
}

void ParseNode(const std::string& id, const Json& j, Task& task, Problems& p) {
  std::string ctx = fmt::format("node \"{}\": ", id);
  if (!j.is_object()) {
    p.Add(fmt::format("{}must be an object, got {}", ctx, TypeName(j)));
    return;
  }
  Node node;
  node.id = id;
  node.source = StringField(j, "source", true, p, ctx);
  if (j.contains("source") && j["source"].is_string() && node.source.empty())
    p.Add(ctx + "\"source\" is empty");
  node.fact = StringField(j, "fact", false, p, ctx);
  node.subquestion = StringField(j, "subquestion", true, p, ctx);
  if (const Json* a = Field(j, "answer", p, ctx)) node.answer = *a;
  if (auto it = j.find("depends_on"); it != j.end() && !it->is_null()) {
    if (!it->is_array()) {
      p.Add(fmt::format("{}field \"depends_on\" must be an array, got {}", ctx, TypeName(*it)));
    } else {
      for (const Json& d : *it) {
        if (auto t = IdText(d)) {
          node.depends_on.push_back(*t);
        } else {
          p.Add(
              fmt::format("{}\"depends_on\" entries must be strings or integers, got {}", ctx, TypeName(d)));
        }
      }
    }
  }
  task.nodes.push_back(std::move(node));
}

void ParseHop(size_t index, const Json& j, Task& task, Problems& p) {
  std::string ctx = fmt::format("reasoning_hops[{}]: ", index);
  if (!j.is_object()) {
    p.Add(fmt::format("{}must be an object, got {}", ctx, TypeName(j)));
    return;
  }
  Hop hop;
  hop.number = static_cast<int>(index) + 1;
  for (const char* key : {"hop", "hop_id"}) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) continue;
    if (!it->is_number_integer() || it->get<long long>() < 0 || it->get<long long>() > 1000000) {
      p.Add(fmt::format("{}field \"{}\" must be a non-negative integer, got {}", ctx, key, it->dump()));
    } else {
      hop.number = it->get<int>();
    }
    break;
  }
  if (const Json* ids = Field(j, "node_ids", p, ctx)) {
    if (!ids->is_array()) {
      p.Add(fmt::format("{}field \"node_ids\" must be an array, got {}", ctx, TypeName(*ids)));
    } else {
      for (const Json& id : *ids) {
        if (auto t = IdText(id)) {
          hop.node_ids.push_back(*t);
        } else {
          p.Add(fmt::format("{}\"node_ids\" entries must be integers or strings, got {}", ctx, id.dump()));
        }
      }
    }
  }
  for (const char* key : {"reasoning", "question"}) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) continue;
    if (it->is_string()) {
      hop.reasoning.push_back(it->get<std::string>());
    } else if (it->is_array()) {
      for (const Json& r : *it) {
        if (r.is_string()) {
          hop.reasoning.push_back(r.get<std::string>());
        } else {
          p.Add(fmt::format("{}\"{}\" entries must be strings, got {}", ctx, key, TypeName(r)));
        }
      }
    } else {
      p.Add(fmt::format("{}field \"{}\" must be a string or a list of strings, got {}", ctx, key,
                        TypeName(*it)));
    }
    break;
  }
  if (auto it = j.find("answer"); it != j.end()) hop.answer = *it;
  task.hops.push_back(std::move(hop));
}

}  // namespace

std::string Task::Where() const { return line ? file + ":" + std::to_string(line) : file; }

std::string Task::AnswerText() const {
  return answer.is_string() ? answer.get<std::string>() : DumpJson(answer);
}

Result<DatasetRef> ParseDatasetPath(std::string_view path) {
  size_t a = path.find('/');
  if (a == std::string_view::npos || a == 0) {
    return InvalidArgument("\"" + std::string(path) + "\" is not a lake path <namespace>/<dataset id>/...");
  }
  size_t b = path.find('/', a + 1);
  std::string_view id = path.substr(a + 1, b == std::string_view::npos ? std::string_view::npos : b - a - 1);
  if (id.empty()) {
    return InvalidArgument("\"" + std::string(path) + "\" has an empty dataset id after the namespace");
  }
  return DatasetRef{std::string(path.substr(0, a)), std::string(id)};
}

std::vector<std::string> GoldDatasets(const Task& task) {
  std::vector<std::string> out;
  auto add = [&](const std::string& path) {
    auto ref = ParseDatasetPath(path);
    if (!ref.ok()) return;
    std::string key = ref->Key();
    if (std::find(out.begin(), out.end(), key) == out.end()) out.push_back(std::move(key));
  };
  for (const auto& d : task.datasets_used) add(d);
  for (const auto& n : task.nodes) add(n.source);
  return out;
}

Result<Task> TaskFromJson(const Json& j, std::string_view where) {
  if (!j.is_object()) {
    return ParseError(fmt::format("{}: a LakeQA task must be a JSON object, got {}", where, TypeName(j)));
  }
  Problems p;
  Task task;
  task.format = std::string(kLakeQaFormat);
  if (const Json* id = Field(j, "question_id", p, "")) {
    if (auto t = IdText(*id)) {
      task.id = *t;
    } else {
      p.Add(
          fmt::format("field \"question_id\" must be a non-empty string or an integer, got {}", id->dump()));
    }
  }
  task.question = StringField(j, "question", true, p, "");
  if (j.contains("question") && j["question"].is_string() && task.question.empty())
    p.Add("\"question\" is empty");
  if (const Json* a = Field(j, "answer", p, "")) {
    if (a->is_null()) p.Add("field \"answer\" is null");
    task.answer = *a;
  }
  if (const Json* nodes = Field(j, "nodes", p, "")) {
    if (!nodes->is_object()) {
      p.Add(fmt::format("field \"nodes\" must be an object keyed by node id, got {}", TypeName(*nodes)));
    } else if (nodes->empty()) {
      p.Add("field \"nodes\" is empty");
    } else {
      for (auto it = nodes->begin(); it != nodes->end(); ++it) ParseNode(it.key(), it.value(), task, p);
    }
  }
  if (const Json* used = Field(j, "datasets_used", p, "")) {
    if (!used->is_array()) {
      p.Add(fmt::format("field \"datasets_used\" must be an array of lake paths, got {}", TypeName(*used)));
    } else {
      for (const Json& d : *used) {
        if (d.is_string()) {
          task.datasets_used.push_back(d.get<std::string>());
        } else {
          p.Add(fmt::format("\"datasets_used\" entries must be strings, got {}", TypeName(d)));
        }
      }
    }
  }
  if (const Json* hops = Field(j, "reasoning_hops", p, "")) {
    if (!hops->is_array()) {
      p.Add(fmt::format("field \"reasoning_hops\" must be an array, got {}", TypeName(*hops)));
    } else {
      for (size_t i = 0; i < hops->size(); ++i) ParseHop(i, (*hops)[i], task, p);
    }
  }
  if (!p.empty()) return p.ToStatus(where);
  return task;
}

}  // namespace lakeqa::eval
