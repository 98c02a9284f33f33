#include "lakeqa/index/schema.h"

#include <bit>
#include <set>

#include "lakeqa/common/json.h"

namespace lakeqa::index {

Schema Schema::Datasets() {
  // Hand-set weights and b; the tuned ranking a dataset index records in its manifest starts from them
  // (DatasetRanking(), catalog_docs.h).
  auto text = [](const char* n, double w, double b) { return FieldSpec{n, true, false, w, true, b}; };
  auto both = [](const char* n, double w, double b) { return FieldSpec{n, true, true, w, true, b}; };
  auto kw = [](const char* n) { return FieldSpec{n, false, true, 1.0, true, 0.75}; };
  auto stored = [](const char* n) { return FieldSpec{n, false, false, 1.0, true, 0.75}; };
  return Schema({text("title", 3.0, 0.75), text("description", 1.0, 0.75), both("tags", 2.0, 0.75),
                 both("theme", 1.5, 0.75), both("category", 1.0, 0.75), both("publisher", 1.0, 0.75),
                 kw("namespace"), kw("format"), text("file_names", 1.5, 0.75), text("columns", 1.0, 0.75),
                 text("values", 1.0, 0.75), text("content", 0.3, 0.75), text("coverage", 1.0, 0.75),
                 stored("rows")});
}

Status Schema::Validate() const {
  if (fields_.empty()) return InvalidArgument("schema has no fields");
  if (fields_.size() > kMaxFields) return InvalidArgument("schema has more than 63 fields");
  std::set<std::string, std::less<>> seen;
  for (const FieldSpec& f : fields_) {
    if (f.name.empty() || f.name == "id")
      return InvalidArgument("schema field name '" + f.name + "' is reserved or empty");
    for (char c : f.name) {
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
        return InvalidArgument("schema field name '" + f.name + "' must be [a-z0-9_]");
    }
    if (!seen.insert(f.name).second) return InvalidArgument("schema field '" + f.name + "' appears twice");
    if (!f.text && !f.keyword && !f.stored)
      return InvalidArgument("schema field '" + f.name + "' is neither text, keyword nor stored");
    if (!(f.weight > 0) || f.weight > 1e6)
      return InvalidArgument("schema field '" + f.name + "' has a bad weight");
    if (!(f.b >= 0 && f.b <= 1)) return InvalidArgument("schema field '" + f.name + "' has b outside [0, 1]");
  }
  return Status::Ok();
}

bool Schema::SameLayout(const Schema& other) const {
  if (fields_.size() != other.fields_.size()) return false;
  for (size_t i = 0; i < fields_.size(); ++i) {
    const FieldSpec &a = fields_[i], &b = other.fields_[i];
    if (a.name != b.name || a.text != b.text || a.keyword != b.keyword || a.stored != b.stored) return false;
  }
  return true;
}

Json Schema::ToJson() const {
  Json arr = Json::array();
  for (const FieldSpec& f : fields_) {
    arr.push_back({{"name", f.name},
                   {"text", f.text},
                   {"keyword", f.keyword},
                   {"weight", f.weight},
                   {"b", f.b},
                   {"stored", f.stored}});
  }
  return arr;
}

Result<Schema> Schema::FromJson(const Json& j) {
  if (!j.is_array()) return InvalidArgument("schema must be a JSON array of fields");
  std::vector<FieldSpec> fields;
  for (const Json& f : j) {
    if (!f.is_object() || !f.contains("name") || !f["name"].is_string())
      return InvalidArgument("schema field must be an object with a string name");
    FieldSpec s;
    s.name = f["name"].get<std::string>();
    s.text = f.value("text", true);
    s.keyword = f.value("keyword", false);
    s.weight = f.value("weight", 1.0);
    s.b = f.value("b", 0.75);
    s.stored = f.value("stored", true);
    fields.push_back(std::move(s));
  }
  Schema schema(std::move(fields));
  LAKEQA_RETURN_IF_ERROR(schema.Validate());
  return schema;
}

int Schema::Find(std::string_view name) const {
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

uint8_t EncodeLength(uint64_t n) {
  if (n < 16) return static_cast<uint8_t>(n);
  if (n > UINT32_MAX) n = UINT32_MAX;
  int bits = std::bit_width(n);  // >= 5
  int shift = bits - 4;
  uint64_t m = n >> shift;  // 8..15
  return static_cast<uint8_t>(16 + (shift - 1) * 8 + static_cast<int>(m - 8));
}

uint32_t DecodeLength(uint8_t b) {
  if (b < 16) return b;
  int shift = (b - 16) / 8 + 1;
  uint32_t m = static_cast<uint32_t>((b - 16) % 8 + 8);
  return m << shift;
}

}  // namespace lakeqa::index
