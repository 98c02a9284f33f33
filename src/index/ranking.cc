#include "lakeqa/index/ranking.h"

#include <cmath>
#include <utility>

#include "lakeqa/common/json.h"

namespace lakeqa::index {

RankingParams RankingParams::FromSchema(const Schema& schema) {
  RankingParams p;
  for (const FieldSpec& f : schema.fields()) {
    if (f.text) p.fields[f.name] = {f.weight, f.b, false};
  }
  return p;
}

Result<RankingParams> RankingParams::FromJson(const Json& j, const Schema& schema,
                                              const RankingParams& base) {
  if (!j.is_object())
    return InvalidArgument("ranking must be a JSON object {\"k1\", \"proximity\", \"fields\"}");
  RankingParams p = base;
  auto number = [](const Json& v, const std::string& what) -> Result<double> {
    if (!v.is_number()) return InvalidArgument("ranking: " + what + " must be a number");
    return v.get<double>();
  };
  for (const auto& [key, value] : j.items()) {
    if (key == "k1") {
      LAKEQA_ASSIGN_OR_RETURN(p.k1, number(value, "k1"));
    } else if (key == "proximity") {
      LAKEQA_ASSIGN_OR_RETURN(p.proximity, number(value, "proximity"));
    } else if (key == "data_k1") {
      LAKEQA_ASSIGN_OR_RETURN(p.data_k1, number(value, "data_k1"));
    } else if (key == "correction") {
      LAKEQA_ASSIGN_OR_RETURN(p.correction, number(value, "correction"));
    } else if (key == "fuzzy") {
      LAKEQA_ASSIGN_OR_RETURN(p.fuzzy, number(value, "fuzzy"));
    } else if (key == "fields") {
      if (!value.is_object())
        return InvalidArgument("ranking: fields must be an object of {\"weight\", \"b\"}");
      for (const auto& [name, f] : value.items()) {
        int i = schema.Find(name);
        if (i < 0 || !schema.fields()[i].text)
          return InvalidArgument("ranking: '" + name + "' is not a text field of the index");
        if (!f.is_object()) return InvalidArgument("ranking: fields." + name + " must be an object");
        for (const auto& [k, v] : f.items()) {
          if (k == "weight") {
            LAKEQA_ASSIGN_OR_RETURN(p.fields[name].weight, number(v, "fields." + name + ".weight"));
          } else if (k == "b") {
            LAKEQA_ASSIGN_OR_RETURN(p.fields[name].b, number(v, "fields." + name + ".b"));
          } else if (k == "data") {
            if (!v.is_boolean())
              return InvalidArgument("ranking: fields." + name + ".data must be true or false");
            p.fields[name].data = v.get<bool>();
          } else {
            return InvalidArgument("ranking: fields." + name + " has unknown key '" + k +
                                   "' (weight, b, data)");
          }
        }
      }
    } else {
      return InvalidArgument("ranking: unknown key '" + key +
                             "' (k1, proximity, data_k1, correction, fuzzy, fields)");
    }
  }
  LAKEQA_RETURN_IF_ERROR(p.Validate(schema));
  return p;
}

Json RankingParams::ToJson() const {
  Json f = Json::object();
  for (const auto& [name, r] : fields) {
    f[name] = {{"weight", r.weight}, {"b", r.b}};
    if (r.data) f[name]["data"] = true;
  }
  return {{"k1", k1},           {"proximity", proximity},
          {"data_k1", data_k1}, {"correction", correction},
          {"fuzzy", fuzzy},     {"fields", f}};
}

Status RankingParams::Validate(const Schema& schema) const {
  if (!(k1 >= 0) || !std::isfinite(k1)) return InvalidArgument("ranking: k1 must be a finite number >= 0");
  if (!(proximity >= 0) || !std::isfinite(proximity))
    return InvalidArgument("ranking: proximity must be a finite number >= 0");
  if (!(data_k1 > 0) || !std::isfinite(data_k1))
    return InvalidArgument("ranking: data_k1 must be a finite number > 0");
  if (!(correction >= 0 && correction <= 1)) return InvalidArgument("ranking: correction must be in [0, 1]");
  if (!(fuzzy >= 0 && fuzzy <= 1)) return InvalidArgument("ranking: fuzzy must be in [0, 1]");
  size_t text = 0;
  for (const FieldSpec& f : schema.fields()) {
    if (!f.text) continue;
    ++text;
    auto it = fields.find(f.name);
    if (it == fields.end()) return InvalidArgument("ranking: no weight for text field '" + f.name + "'");
    if (!(it->second.weight > 0) || it->second.weight > 1e6)
      return InvalidArgument("ranking: " + f.name + ".weight must be in (0, 1e6]");
    if (!(it->second.b >= 0 && it->second.b <= 1))
      return InvalidArgument("ranking: " + f.name + ".b must be in [0, 1]");
  }
  if (fields.size() != text)
    return InvalidArgument("ranking: names a field that is not a text field of the index");
  return Status::Ok();
}

namespace {
// The scalar parameters by name: Set, Get and Names read this one list.
constexpr std::pair<std::string_view, double RankingParams::*> kScalars[] = {
    {"k1", &RankingParams::k1},           {"proximity", &RankingParams::proximity},
    {"data_k1", &RankingParams::data_k1}, {"correction", &RankingParams::correction},
    {"fuzzy", &RankingParams::fuzzy},
};
}  // namespace

Status RankingParams::Set(std::string_view name, double value) {
  for (const auto& [n, member] : kScalars) {
    if (name == n) {
      this->*member = value;
      return Status::Ok();
    }
  }
  size_t dot = name.rfind('.');
  if (dot != std::string_view::npos) {
    auto it = fields.find(std::string(name.substr(0, dot)));
    std::string_view what = name.substr(dot + 1);
    if (it != fields.end() && (what == "weight" || what == "b")) {
      (what == "weight" ? it->second.weight : it->second.b) = value;
      return Status::Ok();
    }
    if (it != fields.end() && what == "data") {
      if (value != 0 && value != 1) return InvalidArgument(std::string(name) + " must be 0 or 1");
      it->second.data = value == 1;
      return Status::Ok();
    }
  }
  std::string names;
  for (const auto& n : Names()) names += (names.empty() ? "" : ", ") + n;
  return InvalidArgument("unknown ranking parameter '" + std::string(name) + "' (one of: " + names + ")");
}

Result<double> RankingParams::Get(std::string_view name) const {
  for (const auto& [n, member] : kScalars)
    if (name == n) return this->*member;
  size_t dot = name.rfind('.');
  if (dot != std::string_view::npos) {
    auto it = fields.find(std::string(name.substr(0, dot)));
    std::string_view what = name.substr(dot + 1);
    if (it != fields.end() && (what == "weight" || what == "b"))
      return what == "weight" ? it->second.weight : it->second.b;
    if (it != fields.end() && what == "data") return it->second.data ? 1.0 : 0.0;
  }
  return InvalidArgument("unknown ranking parameter '" + std::string(name) + "'");
}

std::vector<std::string> RankingParams::Names() const {
  std::vector<std::string> out;
  for (const auto& [n, member] : kScalars) out.emplace_back(n);
  for (const auto& [name, r] : fields) {
    out.push_back(name + ".weight");
    out.push_back(name + ".b");
    out.push_back(name + ".data");
  }
  return out;
}

bool RankingParams::operator==(const RankingParams& o) const {
  if (k1 != o.k1 || proximity != o.proximity || data_k1 != o.data_k1 || correction != o.correction ||
      fuzzy != o.fuzzy || fields.size() != o.fields.size())
    return false;
  for (const auto& [name, r] : fields) {
    auto it = o.fields.find(name);
    if (it == o.fields.end() || it->second.weight != r.weight || it->second.b != r.b ||
        it->second.data != r.data)
      return false;
  }
  return true;
}

}  // namespace lakeqa::index
