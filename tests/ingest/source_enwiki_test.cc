// enwiki: bz2 and XML readers on real bzip2 data made with libbz2, and whole builds of tiny dumps
// (single stream, multistream with index, plain XML, truncated and corrupt).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "ingest/build_test_util.h"
#include "lakeqa/ingest/build.h"
#include "lakeqa/ingest/convert.h"
#include "lakeqa/ingest/sources.h"
#include "lakeqa/lake/local_store.h"

namespace lakeqa::ingest {
namespace {

using namespace testing;

const char* kArticle =
    "{{Infobox star\n| name = Alpha Centauri\n}}\n"
    "'''Alpha Centauri''' is a [[star system]] in the [[Centaurus|southern constellation]].<ref>{{cite "
    "web|url=http://x}}</ref> It is 4.37&nbsp;light-years away.\n\n== Components ==\n* [[Alpha Centauri A]]\n"
    "{| class=\"wikitable\"\n! Name !! Type\n|-\n| A || G2V\n|}\n[[Category:Star "
    "systems]]\n[[Category:Centaurus]]\n";
const char* kArticleText =
    "Alpha Centauri is a star system in the southern constellation. It is 4.37 light-years away.\n\n"
    "Components\n\n- Alpha Centauri A\n\nName | Type\nA | G2V\n";

std::vector<PageSpec> FixturePages() {
  return {
      {"Alpha Centauri", 0, 10, kArticle, ""},
      {"Alpha Cen", 0, 11, "#REDIRECT [[Alpha Centauri]]", "Alpha Centauri"},
      {"Talk:Alpha Centauri", 1, 12, "Discussion ~~~~", ""},
      {"Broken Page", 0, 13, "Start {{unclosed\nText with [[broken link.\n<ref>never closed\nEnd.", ""},
      {"Alpha Centauri", 0, 14, "A second page with the same title.", ""},
      {"Long " + std::string(300, 'x'), 0, 15, "A page with a very long title.", ""},
      {"AC/DC", 0, 16, "'''AC/DC''' are a rock band & more.", ""},
      {"Rigil Kentaurus", 0, 17, "#REDIRECT [[Alpha Centauri#Names]]", "Alpha Centauri#Names"},
      {"Redirect To Nowhere", 0, 18, "#REDIRECT [[Missing Page]]", "Missing Page"},
  };
}

// A page that is not well-formed XML: <ns> is never closed.
const char* kMalformedPage =
    "  <page>\n    <title>Bad XML</title>\n    <ns>0<ns>\n    <id>19</id>\n  </page>\n";

std::string FixtureXml() {
  std::string x = kDumpHeader;
  auto pages = FixturePages();
  for (size_t i = 0; i < pages.size(); ++i) {
    x += PageXml(pages[i]);
    if (i == 3) x += kMalformedPage;
  }
  return x + kDumpFooter;
}

BuildReport Build(const std::string& source, const std::string& out, BuildOptions o = {}) {
  auto store = lake::OpenStore(out);
  EXPECT_TRUE(store.ok());
  auto spec = ParseSourceSpec(source);
  EXPECT_TRUE(spec.ok());
  if (o.jobs == 0) o.jobs = 2;
  auto r = BuildLake(**store, *spec, o);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : BuildReport{};
}

bool HasError(const BuildReport& r, std::string_view needle) {
  return std::any_of(r.errors.begin(), r.errors.end(), [&](const ReportItem& e) {
    return e.reason.find(needle) != std::string::npos || e.item.find(needle) != std::string::npos;
  });
}

bool HasSkip(const BuildReport& r, std::string_view item, std::string_view reason) {
  return std::any_of(r.skipped.begin(), r.skipped.end(), [&](const ReportItem& s) {
    return s.item.find(item) != std::string::npos && s.reason == reason;
  });
}

// Every dataset folder is complete (content.txt, content.wikitext, metadata.json) and nothing else —
// no temporary or partial files — exists in the lake.
void ExpectCompleteDatasets(const std::string& lake) {
  std::map<std::string, std::set<std::string>> folders;
  for (const auto& f : Walk(lake)) {
    size_t slash = f.rfind('/');
    folders[f.substr(0, slash)].insert(f.substr(slash + 1));
  }
  for (const auto& [folder, files] : folders) {
    EXPECT_EQ(files, (std::set<std::string>{"content.txt", "content.wikitext", "metadata.json"})) << folder;
  }
}

// `dump_order`: the first of two same-titled pages wins. With parallel multistream reading the winner
// depends on timing (docs/lake-build.md), so either page may hold the folder, whole and consistent.
void ExpectFixtureLake(const std::string& lake, const BuildReport& r, bool dump_order = true) {
  std::string alpha = lake + "/wikipedia/Alpha_Centauri/";
  Json m = SlurpJson(alpha + "metadata.json");
  EXPECT_EQ(m["title"], "Alpha Centauri");
  if (!dump_order && m["page_id"] == 14) {
    EXPECT_EQ(Slurp(alpha + "content.txt"), "A second page with the same title.\n");
    EXPECT_EQ(Slurp(alpha + "content.wikitext"), "A second page with the same title.");
    EXPECT_EQ(m["revision_id"], 140);
  } else {
    EXPECT_EQ(Slurp(alpha + "content.txt"), kArticleText);
    EXPECT_EQ(Slurp(alpha + "content.wikitext"), kArticle);
    EXPECT_EQ(m["page_id"], 10);
    EXPECT_EQ(m["revision_id"], 100);
    EXPECT_EQ(m["categories"], Json::array({"Star systems", "Centaurus"}));
  }
  EXPECT_EQ(m["timestamp"], "2024-05-01T12:00:00Z");
  EXPECT_EQ(m["aliases"], Json::array({"Alpha Cen", "Rigil Kentaurus"}));
  EXPECT_EQ(m["source"], "enwiki");

  EXPECT_EQ(Slurp(lake + "/wikipedia/Broken_Page/content.txt"),
            "Start unclosed\nText with broken link.\nnever closed\nEnd.\n");
  EXPECT_EQ(Slurp(lake + "/wikipedia/AC%2FDC/content.txt"), "AC/DC are a rock band & more.\n");
  EXPECT_EQ(SlurpJson(lake + "/wikipedia/AC%2FDC/metadata.json")["aliases"], Json::array());

  std::string long_folder = TitleToFolder("Long " + std::string(300, 'x'));
  Json lm = SlurpJson(lake + "/wikipedia/" + long_folder + "/metadata.json");
  EXPECT_EQ(lm["title"], "Long " + std::string(300, 'x'));
  EXPECT_EQ(lm["folder_truncated"], true);

  // Skipped with reasons: redirects, the Talk page, the duplicate; the malformed page is an error.
  EXPECT_FALSE(PathExists(lake + "/wikipedia/Alpha_Cen"));
  EXPECT_FALSE(PathExists(lake + "/wikipedia/Talk:Alpha_Centauri"));
  EXPECT_FALSE(PathExists(lake + "/wikipedia/Bad_XML"));
  EXPECT_EQ(r.datasets.at("article"), 4u);
  EXPECT_EQ(r.skipped_by_reason.at("redirect"), 3u);
  EXPECT_EQ(r.skipped_by_reason.at("namespace 1"), 1u);
  EXPECT_EQ(r.skipped_by_reason.at("duplicate title"), 1u);
  EXPECT_EQ(r.skipped_by_reason.at("redirect target not in lake"), 1u);
  EXPECT_TRUE(HasSkip(r, "Talk:Alpha Centauri", "namespace 1"));
  int loser = dump_order || m["page_id"] == 10 ? 14 : 10;
  EXPECT_TRUE(HasSkip(r, "Alpha Centauri (page id " + std::to_string(loser) + ")", "duplicate title"));
  EXPECT_TRUE(HasSkip(r, "Redirect To Nowhere -> Missing_Page", "redirect target not in lake"));
  EXPECT_EQ(r.errors_total, 1u);
  EXPECT_TRUE(HasError(r, "mismatched </page>, expected </ns>"));
  EXPECT_EQ(r.files, 12u);
  EXPECT_EQ(r.details.at("enwiki")["redirects"], 3);
  ExpectCompleteDatasets(lake);
}

TEST(Bz2Decoder, ConcatenatedStreamsAndChunkedInput) {
  std::string a(300000, 'a'), b = "hello world";
  std::string bz = Bz2(a, 1) + Bz2(b);
  std::string out;
  Bz2Decoder d;
  for (size_t i = 0; i < bz.size(); i += 777) {
    ASSERT_TRUE(d.Feed(std::string_view(bz).substr(i, 777), [&](std::string_view c) {
                   out.append(c);
                   return Status::Ok();
                 }).ok());
  }
  EXPECT_TRUE(d.Finish().ok());
  EXPECT_EQ(out, a + b);
  EXPECT_EQ(d.streams_completed(), 2u);
}

TEST(Bz2Decoder, TruncatedCorruptAndGarbage) {
  auto sink = [](std::string_view) { return Status::Ok(); };
  std::string bz = Bz2(std::string(100000, 'q'));
  {
    Bz2Decoder d;
    ASSERT_TRUE(d.Feed(std::string_view(bz).substr(0, bz.size() / 2), sink).ok());
    Status s = d.Finish();
    EXPECT_EQ(s.code(), ErrorCode::kParseError);
    EXPECT_NE(s.message().find("truncated"), std::string::npos) << s.ToString();
  }
  {
    std::string bad = bz;
    for (size_t i = 20; i < 40; ++i) bad[i] = static_cast<char>(bad[i] ^ 0x5A);
    Bz2Decoder d;
    Status s = d.Feed(bad, sink);
    if (s.ok()) s = d.Finish();
    EXPECT_EQ(s.code(), ErrorCode::kParseError);
    EXPECT_NE(s.message().find("bz2"), std::string::npos) << s.ToString();
  }
  {
    Bz2Decoder d;
    Status s = d.Feed(bz + "garbage", sink);
    EXPECT_EQ(s.code(), ErrorCode::kParseError);
    EXPECT_NE(s.message().find("not a bzip2 stream"), std::string::npos) << s.ToString();
    Bz2Decoder e;
    EXPECT_FALSE(e.Finish().ok());  // empty input
  }
}

TEST(WikiXmlReader, PagesAcrossChunkBoundariesAndErrors) {
  std::string xml = FixtureXml();
  std::vector<WikiPage> pages;
  std::vector<std::string> errors;
  WikiXmlReader reader(
      [&](WikiPage&& p) {
        pages.push_back(std::move(p));
        return Status::Ok();
      },
      [&](const Status& s, uint64_t) { errors.push_back(s.ToString()); });
  for (size_t i = 0; i < xml.size(); i += 7)
    ASSERT_TRUE(reader.Feed(std::string_view(xml).substr(i, 7)).ok());
  EXPECT_TRUE(reader.Finish().ok());
  ASSERT_EQ(pages.size(), FixturePages().size());
  EXPECT_EQ(errors.size(), 1u);
  EXPECT_EQ(pages[0].title, "Alpha Centauri");
  EXPECT_EQ(pages[0].text, kArticle);
  EXPECT_EQ(pages[0].revision_id, 100u);
  EXPECT_EQ(pages[1].redirect, "Alpha Centauri");
  EXPECT_EQ(pages[2].ns, 1);
  EXPECT_EQ(pages[6].title, "AC/DC");
  EXPECT_EQ(xml.substr(pages[1].offset, 6), "<page>");
  EXPECT_EQ(xml.find(PageXml(FixturePages()[1])) + 2, pages[1].offset);
}

TEST(WikiXmlReader, OverLongPageSkippedWithBoundedBuffer) {
  std::string xml = std::string(kDumpHeader) + PageXml({"Huge", 0, 1, std::string(5000, 'z'), ""}) +
                    PageXml({"Small", 0, 2, "ok", ""}) + kDumpFooter;
  std::vector<std::string> titles, errors;
  WikiXmlReader reader(
      [&](WikiPage&& p) {
        titles.push_back(p.title);
        return Status::Ok();
      },
      [&](const Status& s, uint64_t) { errors.push_back(s.ToString()); }, 1000);
  for (size_t i = 0; i < xml.size(); i += 100)
    ASSERT_TRUE(reader.Feed(std::string_view(xml).substr(i, 100)).ok());
  EXPECT_TRUE(reader.Finish().ok());
  EXPECT_EQ(titles, std::vector<std::string>{"Small"});
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("larger than 1000 bytes"), std::string::npos);
}

TEST(WikiXmlReader, TruncatedInputAndNonXml) {
  std::string xml = std::string(kDumpHeader) + PageXml({"One", 0, 1, "x", ""});
  xml += "  <page>\n    <title>Cut";
  int n = 0;
  WikiXmlReader reader(
      [&](WikiPage&&) {
        ++n;
        return Status::Ok();
      },
      [](const Status&, uint64_t) {});
  ASSERT_TRUE(reader.Feed(xml).ok());
  Status s = reader.Finish();
  EXPECT_EQ(n, 1);
  EXPECT_NE(s.message().find("input ended inside <page>"), std::string::npos) << s.ToString();
  WikiXmlReader other([](WikiPage&&) { return Status::Ok(); }, [](const Status&, uint64_t) {});
  EXPECT_EQ(other.Feed("PK\x03\x04 not xml").code(), ErrorCode::kParseError);
}

TEST(EnwikiBuild, SingleStreamBz2) {
  TempDir t;
  WriteBytes(t.path() + "/dump.xml.bz2", Bz2(FixtureXml()));
  BuildOptions o;
  o.alias_memory_bytes = 1;  // spill every redirect to its own run: exercises the merge
  BuildReport r = Build("enwiki:" + t.path() + "/dump.xml.bz2", t.path() + "/lake", o);
  ExpectFixtureLake(t.path() + "/lake", r);
  EXPECT_EQ(r.details.at("enwiki")["mode"], "bz2 single stream");
  EXPECT_EQ(r.details.at("enwiki")["alias_spill_runs"], 3);
  Json j = r.ToJson();
  EXPECT_EQ(j["datasets_total"], 4);
  EXPECT_EQ(j["errors"][0]["item"].get<std::string>().find(t.path() + "/dump.xml.bz2 at decompressed offset"),
            0u);
}

TEST(EnwikiBuild, PlainXml) {
  TempDir t;
  WriteBytes(t.path() + "/dump.xml", FixtureXml());
  BuildReport r = Build("enwiki:" + t.path() + "/dump.xml", t.path() + "/lake");
  ExpectFixtureLake(t.path() + "/lake", r);
  EXPECT_EQ(r.details.at("enwiki")["mode"], "xml");
}

// Multistream: a header stream, streams of a few pages each, a footer stream; the index lists
// "offset:page_id:title" for each page.
void WriteMultistream(const std::string& dump, const std::string& index, size_t corrupt_stream = SIZE_MAX) {
  auto pages = FixturePages();
  std::string out = Bz2(kDumpHeader), idx;
  std::vector<std::vector<size_t>> groups = {{0, 1, 2}, {3, 4}, {5, 6, 7, 8}};
  for (size_t g = 0; g < groups.size(); ++g) {
    std::string xml;
    for (size_t i : groups[g]) {
      xml += PageXml(pages[i]);
      if (i == 3) xml += kMalformedPage;
      idx += std::to_string(out.size()) + ":" + std::to_string(pages[i].id) + ":" + pages[i].title + "\n";
    }
    std::string bz = Bz2(xml);
    if (g == corrupt_stream) {
      for (size_t i = 20; i < bz.size() - 10; ++i) bz[i] = static_cast<char>(bz[i] ^ 0x33);
    }
    out += bz;
  }
  out += Bz2(kDumpFooter);
  WriteBytes(dump, out);
  WriteBytes(index, Bz2(idx));
}

TEST(EnwikiBuild, MultistreamWithIndexInParallel) {
  TempDir t;
  std::string dump = t.path() + "/enwiki-test-pages-articles-multistream.xml.bz2";
  WriteMultistream(dump, t.path() + "/enwiki-test-pages-articles-multistream-index.txt.bz2");
  BuildOptions o;
  o.jobs = 3;
  BuildReport r = Build("enwiki:" + dump, t.path() + "/lake", o);
  ExpectFixtureLake(t.path() + "/lake", r, /*dump_order=*/false);
  EXPECT_EQ(r.details.at("enwiki")["mode"], "bz2 multistream");
  // Byte ranges between index offsets: the header, then one per indexed stream; the last range also
  // holds the unindexed footer stream (decoded as a concatenated input).
  EXPECT_EQ(r.details.at("enwiki")["streams"], 4);

  // The same file without its index is one concatenated bz2 input: same lake.
  BuildOptions seq;
  seq.use_index = false;
  BuildReport r2 = Build("enwiki:" + dump, t.path() + "/lake2", seq);
  ExpectFixtureLake(t.path() + "/lake2", r2);
  EXPECT_EQ(r2.details.at("enwiki")["mode"], "bz2 single stream");
  EXPECT_EQ(Walk(t.path() + "/lake"), Walk(t.path() + "/lake2"));
}

TEST(EnwikiBuild, MultistreamCorruptStreamCostsOnlyItsPages) {
  TempDir t;
  std::string dump = t.path() + "/x-multistream.xml.bz2";
  WriteMultistream(dump, t.path() + "/x-multistream-index.txt.bz2", 1);
  BuildReport r = Build("enwiki:" + dump, t.path() + "/lake");
  std::string lake = t.path() + "/lake";
  EXPECT_TRUE(PathExists(lake + "/wikipedia/Alpha_Centauri/metadata.json"));
  EXPECT_TRUE(PathExists(lake + "/wikipedia/AC%2FDC/metadata.json"));
  EXPECT_FALSE(PathExists(lake + "/wikipedia/Broken_Page"));
  EXPECT_EQ(r.errors_total, 1u);
  EXPECT_TRUE(HasError(r, "bz2")) << r.ToJson().dump(2);
  EXPECT_TRUE(HasError(r, dump + " bytes "));
  ExpectCompleteDatasets(lake);
}

TEST(EnwikiBuild, BadIndexFallsBackToSequential) {
  TempDir t;
  std::string dump = t.path() + "/x-multistream.xml.bz2";
  WriteMultistream(dump, t.path() + "/unused-index.txt.bz2");
  WriteBytes(t.path() + "/bad-index.txt", "not an index line\n");
  BuildOptions o;
  o.index_path = t.path() + "/bad-index.txt";
  BuildReport r = Build("enwiki:" + dump, t.path() + "/lake", o);
  EXPECT_EQ(r.datasets.at("article"), 4u);
  EXPECT_TRUE(HasError(r, "bad-index.txt:1: not an 'offset:page_id:title' line")) << r.ToJson().dump(2);
}

TEST(EnwikiBuild, TruncatedDumpKeepsPagesBeforeTheCut) {
  TempDir t;
  std::string xml = kDumpHeader;
  for (int i = 0; i < 200; ++i) {
    std::string text = "Page number " + std::to_string(i) + " text.";
    for (int k = 0; k < 300; ++k) text += " w" + std::to_string((i * 7919 + k * 104729) % 100003);
    xml += PageXml({"Page " + std::to_string(i), 0, static_cast<uint64_t>(i + 1), text, ""});
  }
  xml += kDumpFooter;
  std::string bz = Bz2(xml, 1);  // 100 kB blocks: several blocks, so a cut leaves complete ones before it
  WriteBytes(t.path() + "/cut.xml.bz2", bz.substr(0, bz.size() * 6 / 10));
  BuildReport r = Build("enwiki:" + t.path() + "/cut.xml.bz2", t.path() + "/lake");
  uint64_t written = r.datasets.count("article") ? r.datasets.at("article") : 0;
  EXPECT_GT(written, 20u);
  EXPECT_LT(written, 200u);
  EXPECT_EQ(r.errors_total, 1u);
  EXPECT_TRUE(HasError(r, "truncated")) << r.ToJson().dump(2);
  EXPECT_TRUE(HasError(r, "pages before it were read"));
  EXPECT_EQ(Slurp(t.path() + "/lake/wikipedia/Page_0/content.txt").substr(0, 19), "Page number 0 text.");
  ExpectCompleteDatasets(t.path() + "/lake");
}

TEST(EnwikiBuild, NotADumpIsReported) {
  TempDir t;
  WriteBytes(t.path() + "/junk.xml.bz2", "this is not bzip2");
  BuildReport r = Build("enwiki:" + t.path() + "/junk.xml.bz2", t.path() + "/lake");
  EXPECT_EQ(r.DatasetsTotal(), 0u);
  EXPECT_TRUE(HasError(r, "not a bzip2 stream")) << r.ToJson().dump(2);
  auto store = lake::OpenStore(t.path() + "/lake");
  auto missing = BuildLake(**store, SourceSpec{"enwiki", t.path() + "/absent.xml.bz2"}, {});
  EXPECT_EQ(missing.status().code(), ErrorCode::kNotFound);
}

TEST(EnwikiBuild, KeepRedirectsAndAllNamespaces) {
  TempDir t;
  WriteBytes(t.path() + "/dump.xml", FixtureXml());
  BuildOptions o;
  o.keep_redirects = true;
  o.all_namespaces = true;
  BuildReport r = Build("enwiki:" + t.path() + "/dump.xml", t.path() + "/lake", o);
  EXPECT_EQ(r.datasets.at("article"), 8u);
  EXPECT_EQ(SlurpJson(t.path() + "/lake/wikipedia/Alpha_Cen/metadata.json")["redirect_to"], "Alpha Centauri");
  EXPECT_EQ(SlurpJson(t.path() + "/lake/wikipedia/Talk:Alpha_Centauri/metadata.json")["namespace"], 1);
}

// Batch durability (the default on a local lake) and fsync-per-object write the same lake; the batch
// build leaves no temp file, commits before the alias pass reads metadata.json back (aliases present
// even with batches far larger than the lake), and hands the store back in its own durability mode.
TEST(EnwikiBuild, BatchDurabilityWritesTheSameLakeAsPerObjectSync) {
  TempDir t;
  std::string dump = t.path() + "/enwiki-test-pages-articles-multistream.xml.bz2";
  WriteMultistream(dump, t.path() + "/enwiki-test-pages-articles-multistream-index.txt.bz2");
  std::vector<std::string> lakes;
  for (size_t batch : {size_t{1}, size_t{3}, size_t{100000}}) {
    std::string out = t.path() + "/lake-batch-" + std::to_string(batch);
    lake::LocalStore store(out);
    BuildOptions o;
    o.jobs = 1;  // dump order, so the same one of two same-titled pages wins in every build
    o.sync_batch_objects = batch;
    auto r = BuildLake(store, SourceSpec{"enwiki", dump}, o);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(store.durability(), lake::Durability::kPerObject);
    EXPECT_EQ(store.PendingObjects(), 0u);
    ExpectFixtureLake(out, *r);
    lakes.push_back(out);
  }
  BuildOptions each;
  each.jobs = 1;
  each.sync_each_object = true;
  BuildReport r = Build("enwiki:" + dump, t.path() + "/lake-each", each);
  ExpectFixtureLake(t.path() + "/lake-each", r);
  auto files = Walk(t.path() + "/lake-each");
  ASSERT_FALSE(files.empty());
  for (const auto& f : files) EXPECT_EQ(f.find(".tmp."), std::string::npos) << f;
  for (const auto& lake : lakes) {
    ASSERT_EQ(Walk(lake), files) << lake;
    for (const auto& f : files)
      EXPECT_EQ(Slurp(lake + "/" + f), Slurp(t.path() + "/lake-each/" + f)) << lake << f;
  }
}

}  // namespace
}  // namespace lakeqa::ingest
