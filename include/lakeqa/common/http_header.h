// Response header lines as libcurl's header callback hands them over (the model and embeddings clients).
#pragma once

#include <string>
#include <string_view>

namespace lakeqa {

// One header line: the name lower-cased, the value without the blanks before it and the line end after it.
// False for a line without a colon (a status line, the blank end).
bool ParseHeaderLine(std::string_view line, std::string& name, std::string_view& value);

}  // namespace lakeqa
