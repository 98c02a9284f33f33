// Dollar cost of model calls from a pricing table file (USD per 1M input / output / cache-read /
// cache-write tokens). data/pricing.json ships current prices for the LakeQA paper's seven models;
// --pricing FILE replaces it.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/status.h"
#include "lakeqa/llm/chat.h"

namespace lakeqa::llm {

struct Price {
  double input = 0;  // USD per 1M uncached input tokens
  double output = 0;
  double cache_read = 0;   // defaults to input when the file leaves it out
  double cache_write = 0;  // defaults to input
};

class PricingTable {
 public:
  // {"models": {"gpt-5.2": {"input": 1.75, "output": 14, "cache_read": 0.175}, ...}}; keys may be bare
  // model ids or "provider:model".
  static Result<PricingTable> FromJson(const Json& j, std::string_view where);
  static Result<PricingTable> Load(const std::string& path);
  // data/pricing.json of the source tree (or $LAKEQA_PRICING).
  static Result<PricingTable> LoadDefault();

  // Looks up "provider:model", then "model"; nullopt when unpriced (cost is then reported as unknown).
  std::optional<Price> Find(const std::string& provider, const std::string& model) const;
  static double Cost(const Price& price, const Usage& usage);

 private:
  std::map<std::string, Price> prices_;
};

// A total over tasks some of which have no price, for people: "$0.0123" when every cost is known,
// "unknown" when none is, else "$0.0123 (known for 3 tasks; 2 of unknown cost left out)". An unknown cost
// is never shown as $0 and never added as 0.
std::string FormatCost(double known_sum, size_t known, size_t unknown);

}  // namespace lakeqa::llm
