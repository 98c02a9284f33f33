#include "lake/s3_xml.h"

#include "lakeqa/common/strings.h"

#include <cstdlib>
#include <cstring>
#include <ctime>

namespace lakeqa::lake {

std::vector<std::string_view> XmlElements(std::string_view xml, std::string_view tag) {
  std::vector<std::string_view> out;
  std::string open = "<" + std::string(tag) + ">";
  std::string close = "</" + std::string(tag) + ">";
  size_t pos = 0;
  for (;;) {
    size_t b = xml.find(open, pos);
    if (b == std::string_view::npos) break;
    b += open.size();
    size_t e = xml.find(close, b);
    if (e == std::string_view::npos) break;
    out.push_back(xml.substr(b, e - b));
    pos = e + close.size();
  }
  return out;
}

std::string XmlDecode(std::string_view s) { return DecodeXmlEntities(s); }

std::string XmlText(std::string_view xml, std::string_view tag) {
  auto els = XmlElements(xml, tag);
  return els.empty() ? std::string() : XmlDecode(els.front());
}

int64_t ParseIso8601Ms(std::string_view s) {
  struct tm tm {};
  std::string str(s);
  const char* rest = strptime(str.c_str(), "%Y-%m-%dT%H:%M:%S", &tm);
  if (rest == nullptr) return 0;
  int64_t ms = static_cast<int64_t>(timegm(&tm)) * 1000;
  if (*rest == '.')
    ms += std::atoi(std::string(rest + 1, std::min<size_t>(3, std::strlen(rest + 1))).c_str());
  return ms;
}

Result<ListPage> ParseListObjectsV2(std::string_view xml) {
  if (xml.find("<ListBucketResult") == std::string_view::npos) {
    return ParseError("S3 list response is not a ListBucketResult: " + std::string(xml.substr(0, 200)));
  }
  ListPage page;
  for (std::string_view c : XmlElements(xml, "Contents")) {
    ObjectInfo o;
    o.key = XmlText(c, "Key");
    o.size = std::strtoull(XmlText(c, "Size").c_str(), nullptr, 10);
    o.etag = XmlText(c, "ETag");
    if (o.etag.size() >= 2 && o.etag.front() == '"' && o.etag.back() == '"')
      o.etag = o.etag.substr(1, o.etag.size() - 2);
    o.mtime_ms = ParseIso8601Ms(XmlText(c, "LastModified"));
    page.objects.push_back(std::move(o));
  }
  for (std::string_view c : XmlElements(xml, "CommonPrefixes"))
    page.common_prefixes.push_back(XmlText(c, "Prefix"));
  if (XmlText(xml, "IsTruncated") == "true")
    page.next_continuation_token = XmlText(xml, "NextContinuationToken");
  return page;
}

}  // namespace lakeqa::lake
