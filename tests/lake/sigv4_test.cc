#include "lake/sigv4.h"

#include <gtest/gtest.h>

#include "lake/s3_xml.h"

namespace lakeqa::lake {
namespace {

// The "GET Object" example of AWS's Signature Version 4 documentation (Signature Calculations for the
// Authorization Header: Transferring Payload in a Single Chunk).
TEST(SigV4, MatchesAwsDocumentedExample) {
  SigV4Request req;
  req.method = "GET";
  req.canonical_uri = "/test.txt";
  req.headers = {{"host", "examplebucket.s3.amazonaws.com"},
                 {"range", "bytes=0-9"},
                 {"x-amz-content-sha256", Sha256Hex("")},
                 {"x-amz-date", "20130524T000000Z"}};
  req.payload_sha256 = Sha256Hex("");
  std::string auth = SignV4(req, "AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                            "us-east-1", "20130524T000000Z");
  EXPECT_EQ(auth,
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
            "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
            "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
}

TEST(SigV4, UriEncoding) {
  EXPECT_EQ(UriEncode("a b/c~d", false), "a%20b/c~d");
  EXPECT_EQ(UriEncode("a b/c", true), "a%20b%2Fc");
  EXPECT_EQ(UriEncode("\xC3\xA9", true), "%C3%A9");
  EXPECT_EQ(CanonicalQuery({{"prefix", "a/b c"}, {"list-type", "2"}}), "list-type=2&prefix=a%2Fb%20c");
}

TEST(S3Xml, ParsesListResultAndErrors) {
  std::string xml = R"(<?xml version="1.0"?><ListBucketResult><Name>b</Name><IsTruncated>true</IsTruncated>
<Contents><Key>a&amp;b.txt</Key><LastModified>2009-10-12T17:50:30.000Z</LastModified><ETag>&quot;abc&quot;</ETag><Size>12</Size></Contents>
<CommonPrefixes><Prefix>dir/</Prefix></CommonPrefixes><NextContinuationToken>tok=</NextContinuationToken></ListBucketResult>)";
  auto page = ParseListObjectsV2(xml);
  ASSERT_TRUE(page.ok());
  ASSERT_EQ(page->objects.size(), 1u);
  EXPECT_EQ(page->objects[0].key, "a&b.txt");
  EXPECT_EQ(page->objects[0].etag, "abc");
  EXPECT_EQ(page->objects[0].size, 12u);
  EXPECT_EQ(page->objects[0].mtime_ms, 1255369830000);
  EXPECT_EQ(page->common_prefixes, (std::vector<std::string>{"dir/"}));
  EXPECT_EQ(page->next_continuation_token, "tok=");
  EXPECT_EQ(ParseListObjectsV2("<Error><Code>NoSuchBucket</Code></Error>").status().code(),
            ErrorCode::kParseError);
  EXPECT_EQ(XmlText("<Error><Code>AccessDenied</Code><Message>no &lt;way&gt;</Message></Error>", "Message"),
            "no <way>");
}

}  // namespace
}  // namespace lakeqa::lake
