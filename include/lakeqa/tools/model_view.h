// What a model is shown of a tool result (docs/tools.md, "What the model sees"). The paper's protocol cuts
// every result over 4,000 characters to its first 2,500 and last 1,000, and a full search_keyword hit is
// about 900 characters: of 20 hits a model saw about 3. The compact view keeps, per tool, what an agent
// needs to pick its next call inside that window (search hits as one line each, every id once) and leaves
// the rest to a second call (view "full", inspect_file). HTTP and MCP clients get the full result unless
// they pass "view": "compact"; the llm agent renders compact results unless the model asks otherwise.
#pragma once

#include <string_view>

#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/status.h"

namespace lakeqa::tools {

enum class ResultView { kFull, kCompact };

// "full" or "compact" (the `view` argument every tool takes); invalid_argument naming the value else.
Result<ResultView> ParseResultView(const Json& value);

// The budget a compact result aims its important part at: the head the paper's cut keeps.
inline constexpr size_t kCompactHeadChars = 2500;

// The compact form of `tool`'s full result. Errors and tools without a compact form come back unchanged.
Json CompactView(std::string_view tool, const Json& full);

}  // namespace lakeqa::tools
