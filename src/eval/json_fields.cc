#include "eval/json_fields.h"

namespace lakeqa::eval::internal {

Status FieldError(std::string_view where, std::string_view field, std::string_view expected) {
  return ParseError(std::string(where) + ": field \"" + std::string(field) + "\": expected " +
                    std::string(expected));
}

// Optional typed members: absent or null → the default; present with the wrong type → an error.
Status GetNumber(const Json& j, const char* key, std::string_view where, double& out) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return Status::Ok();
  if (!it->is_number()) return FieldError(where, key, "a number");
  out = it->get<double>();
  return Status::Ok();
}

Status GetInt(const Json& j, const char* key, std::string_view where, int64_t& out) {
  double d = static_cast<double>(out);
  LAKEQA_RETURN_IF_ERROR(GetNumber(j, key, where, d));
  out = static_cast<int64_t>(d);
  return Status::Ok();
}

Status GetString(const Json& j, const char* key, std::string_view where, std::string& out) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return Status::Ok();
  if (!it->is_string()) return FieldError(where, key, "a string");
  out = it->get<std::string>();
  return Status::Ok();
}

Status GetIds(const Json& j, const char* key, std::string_view where, std::vector<std::string>& out) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return Status::Ok();
  if (!it->is_array()) return FieldError(where, key, "an array of dataset ids");
  for (const Json& e : *it) {
    if (!e.is_string()) return FieldError(where, key, "an array of dataset ids (strings)");
    std::string id = e.get<std::string>();
    while (!id.empty() && id.back() == '/') id.pop_back();
    if (!id.empty()) out.push_back(std::move(id));
  }
  return Status::Ok();
}

}  // namespace lakeqa::eval::internal
