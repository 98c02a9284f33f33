// Standard base64 (RFC 4648 alphabet, '=' padding): `lake cat --json` carries binary objects in it, and
// the tokenizer reads its ranks file with it.
#pragma once

#include <string>
#include <string_view>

namespace lakeqa {

std::string EncodeBase64(std::string_view bytes);
// Accepts missing padding; false on any character outside the alphabet.
bool DecodeBase64(std::string_view in, std::string& out);

}  // namespace lakeqa
