// The pricing table: USD per 1M tokens, looked up by "provider:model" then by bare model id.
#include "lakeqa/llm/pricing.h"

#include <cstdlib>

#include <fmt/format.h>

#include "lakeqa/common/build_paths.h"
#include "lakeqa/common/fs.h"

namespace lakeqa::llm {

Result<PricingTable> PricingTable::FromJson(const Json& j, std::string_view where) {
  std::string w(where);
  if (!j.is_object() || !j.contains("models") || !j["models"].is_object()) {
    return ParseError(w + ": expected {\"models\": {\"<model>\": {\"input\": ..., \"output\": ...}}}");
  }
  PricingTable t;
  for (const auto& [name, p] : j["models"].items()) {
    auto num = [&](const char* k) -> Result<double> {
      if (!p.contains(k)) return -1.0;
      if (!p[k].is_number() || p[k].get<double>() < 0) {
        return ParseError(w + ": models." + name + "." + k + ": expected a non-negative number");
      }
      return p[k].get<double>();
    };
    if (!p.is_object()) return ParseError(w + ": models." + name + ": expected an object");
    Price price;
    LAKEQA_ASSIGN_OR_RETURN(price.input, num("input"));
    LAKEQA_ASSIGN_OR_RETURN(price.output, num("output"));
    LAKEQA_ASSIGN_OR_RETURN(price.cache_read, num("cache_read"));
    LAKEQA_ASSIGN_OR_RETURN(price.cache_write, num("cache_write"));
    if (price.input < 0 || price.output < 0) {
      return ParseError(w + ": models." + name + ": \"input\" and \"output\" are required");
    }
    if (price.cache_read < 0) price.cache_read = price.input;
    if (price.cache_write < 0) price.cache_write = price.input;
    t.prices_[name] = price;
  }
  return t;
}

Result<PricingTable> PricingTable::Load(const std::string& path) {
  LAKEQA_ASSIGN_OR_RETURN(std::string text, ReadFile(path, 16 << 20));
  LAKEQA_ASSIGN_OR_RETURN(Json j, ParseJson(text, path));
  return FromJson(j, path);
}

Result<PricingTable> PricingTable::LoadDefault() {
  const char* env = std::getenv("LAKEQA_PRICING");
  return Load(env != nullptr && *env ? std::string(env) : build_paths::SourceDir() + "/data/pricing.json");
}

std::optional<Price> PricingTable::Find(const std::string& provider, const std::string& model) const {
  auto it = prices_.find(provider + ":" + model);
  if (it == prices_.end()) it = prices_.find(model);
  if (it == prices_.end()) return std::nullopt;
  return it->second;
}

double PricingTable::Cost(const Price& p, const Usage& u) {
  int64_t cached = std::min(std::max<int64_t>(u.cache_read_tokens, 0), std::max<int64_t>(u.input_tokens, 0));
  int64_t written =
      std::min(std::max<int64_t>(u.cache_write_tokens, 0), std::max<int64_t>(u.input_tokens - cached, 0));
  int64_t plain = std::max<int64_t>(u.input_tokens - cached - written, 0);
  return (double(plain) * p.input + double(cached) * p.cache_read + double(written) * p.cache_write +
          double(u.output_tokens) * p.output) /
         1e6;
}

std::string FormatCost(double known_sum, size_t known, size_t unknown) {
  if (unknown == 0) return fmt::format("${:.4f}", known_sum);
  if (known == 0) return "unknown";
  return fmt::format("${:.4f} (known for {} tasks; {} of unknown cost left out)", known_sum, known, unknown);
}

}  // namespace lakeqa::llm
