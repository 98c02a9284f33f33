// The `Json` type's name without its definition: nlohmann/json_fwd.hpp declares `ordered_json` (3.11) in a
// few hundred lines, where nlohmann/json.hpp is 24,000. A header that only names Json in declarations
// (parameters, return types, references, pointers, Result<Json>) includes this one, so that a file that
// includes the header but builds no JSON does not compile the whole of nlohmann/json; a file that uses
// Json's members (building, reading, dumping) includes "lakeqa/common/json.h" itself.
#pragma once

#include <nlohmann/json_fwd.hpp>

namespace lakeqa {

using Json = nlohmann::ordered_json;

}  // namespace lakeqa
