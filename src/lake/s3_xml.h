// The few pieces of S3's XML that lakeqa reads: ListObjectsV2 results and error bodies. A tiny scanner
// rather than an XML library: S3's responses are flat, machine-generated and entity-escaped.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/status.h"
#include "lakeqa/lake/store.h"

namespace lakeqa::lake {

// Text of every <tag>…</tag> directly found in xml (not nested same-name tags), entities decoded.
std::vector<std::string_view> XmlElements(std::string_view xml, std::string_view tag);
std::string XmlText(std::string_view xml, std::string_view tag);  // first element's decoded text, or ""
std::string XmlDecode(std::string_view s);

// Parses a ListBucketResult; keys are returned as S3 has them (the caller strips its root prefix).
Result<ListPage> ParseListObjectsV2(std::string_view xml);
// "2009-10-12T17:50:30.000Z" → ms since epoch (0 if unparsable).
int64_t ParseIso8601Ms(std::string_view s);

}  // namespace lakeqa::lake
