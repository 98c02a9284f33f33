// The searcher against a brute-force reference (tests/index/reference.h) on random documents and random
// queries with a fixed seed: exact top-k under pruning, phrases, prefixes, filters, facets, deletes
// and merges.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "index/corpus.h"
#include "index/reference.h"
#include "index/test_util.h"
#include "lakeqa/index/index.h"
#include "lakeqa/index/searcher.h"
#include "lakeqa/text/normalize.h"

namespace lakeqa::index {
namespace {

using testing::CorpusGen;
using testing::Reference;
using testing::TempDir;

constexpr size_t kDocs = 2000;

std::vector<Document> MakeDocs(size_t n, uint32_t seed) {
  CorpusGen g(seed);
  std::vector<Document> docs;
  for (size_t i = 0; i < n; ++i) docs.push_back(g.Doc(i));
  return docs;
}

std::shared_ptr<IndexReader> Build(const std::string& dir, const std::vector<Document>& docs,
                                   size_t per_segment) {
  WriterOptions wo;
  wo.max_buffered_docs = per_segment;
  auto w = IndexWriter::Open(dir, Schema::Datasets(), wo);
  EXPECT_TRUE(w.ok()) << w.status().ToString();
  for (const Document& d : docs) EXPECT_TRUE((*w)->Add(d).ok());
  EXPECT_TRUE((*w)->Commit().ok());
  auto r = IndexReader::Open(dir);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return *r;
}

bool Close(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b)); }

// The engine's top-k is a correct top-k of the reference ranking: same scores rank by rank, every hit's
// score is its true score, and every document strictly above the k-th score is present.
void ExpectTopK(const SearchResult& got, const Reference::Output& ref, size_t k, const std::string& what) {
  size_t want = std::min(k, ref.ranked.size());
  ASSERT_EQ(got.hits.size(), want) << what;
  std::map<std::string, double> truth;
  for (const auto& h : ref.ranked) truth[h.id] = h.score;
  std::set<std::string> ids;
  for (size_t i = 0; i < want; ++i) {
    EXPECT_TRUE(Close(got.hits[i].score, ref.ranked[i].score))
        << what << " rank " << i << ": " << got.hits[i].score << " vs " << ref.ranked[i].score;
    auto it = truth.find(got.hits[i].id);
    ASSERT_NE(it, truth.end()) << what << ": " << got.hits[i].id << " does not match";
    EXPECT_TRUE(Close(got.hits[i].score, it->second)) << what << " " << got.hits[i].id;
    ids.insert(got.hits[i].id);
  }
  if (want == 0) return;
  double kth = ref.ranked[want - 1].score;
  for (const auto& h : ref.ranked) {
    if (h.score <= kth * (1 + 1e-9) + 1e-12) break;
    EXPECT_TRUE(ids.count(h.id)) << what << ": missing " << h.id << " score " << h.score;
  }
}

class SearchTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    docs_ = new std::vector<Document>(MakeDocs(kDocs, 42));
    dir_ = new TempDir();
    reader_ = new std::shared_ptr<IndexReader>(Build(dir_->path, *docs_, 600));
    ref_ = new Reference(Schema::Datasets(), *docs_);
  }
  static void TearDownTestSuite() {
    delete ref_;
    delete reader_;
    delete dir_;
    delete docs_;
  }
  static std::vector<Document>* docs_;
  static TempDir* dir_;
  static std::shared_ptr<IndexReader>* reader_;
  static Reference* ref_;
};
std::vector<Document>* SearchTest::docs_;
TempDir* SearchTest::dir_;
std::shared_ptr<IndexReader>* SearchTest::reader_;
Reference* SearchTest::ref_;

TEST_F(SearchTest, IndexHasSeveralSegments) {
  EXPECT_GE((*reader_)->num_segments(), 4u);
  EXPECT_EQ((*reader_)->num_docs(), kDocs);
}

TEST_F(SearchTest, PrunedTopKMatchesBruteForce) {
  Searcher searcher(*reader_);
  text::Analyzer analyzer;
  CorpusGen g(7);
  const size_t ks[] = {1, 3, 10, 40};
  const double k1s[] = {1.2, 0.5, 2.0, 0.0};
  const double bs[] = {0.75, 0.0, 1.0, 0.3};
  const double weights[] = {0.2, 1.0, 2.5, 6.0};
  const double proximity[] = {0.0, 0.7, 3.0};
  uint64_t pruned_scored = 0, exhaustive_scored = 0;
  size_t nonempty = 0, phrases = 0, prefixes = 0, filters = 0, bonuses = 0, restricted = 0;
  for (int i = 0; i < 120; ++i) {  // ~3 s under ASan; the counts below check every feature is hit
    std::string text = g.QueryText(*docs_);
    auto q = ParseQuery(text, (*reader_)->schema(), analyzer);
    ASSERT_TRUE(q.ok());
    // Per-field weights and b vary per query (BM25F's length normalisation is per field).
    RankingParams ranking = RankingParams::FromSchema((*reader_)->schema());
    ranking.k1 = k1s[i % 4];
    ranking.proximity = proximity[(i / 4) % 3];
    // Data fields (scored apart from the BM25F sum) in a third of the queries, and discounted terms (a
    // searcher-added variant's boost) in a fifth.
    const double data_k1s[] = {1.2, 0.3, 3.0};
    ranking.data_k1 = data_k1s[(i / 3) % 3];
    size_t f = 0;
    for (auto& [name, fr] : ranking.fields) {
      fr.weight = weights[(i + f) % 4];
      fr.data = i % 3 == 1 && f % 2 == 0;
      fr.b = bs[(i / 2 + f++) % 4];
    }
    if (i % 5 == 2) {
      for (TermClause& t : q->terms) t.boost = t.position % 2 ? 0.5 : 1.0;
    }
    SearchOptions o;
    o.k = ks[i % 4];
    o.ranking = &ranking;
    o.snippets = false;
    o.max_prefix_expansions = i % 2 ? 128 : 3;  // a tight limit checks the expansion order too
    auto got = searcher.Search(*q, o);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    auto ref = ref_->Run(*q, o, ranking);
    // The explanation of every hit adds up to its score.
    SearchOptions eo = o;
    eo.explain = true;
    auto explained = searcher.Search(*q, eo);
    ASSERT_TRUE(explained.ok());
    for (const Hit& h : explained->hits) {
      ASSERT_TRUE(h.explanation.has_value());
      double sum = 0;
      for (const auto& t : h.explanation->terms) {
        sum += t.score;
        double fields = 0;
        for (const auto& fe : t.fields) fields += fe.contribution;
        EXPECT_NEAR(fields, t.score, 1e-9 * std::max(1.0, t.score)) << text;
      }
      for (const auto& p : h.explanation->proximity) sum += p.bonus;
      bonuses += !h.explanation->proximity.empty();
      EXPECT_NEAR(sum, h.score, 1e-9 * std::max(1.0, h.score)) << text << " " << h.id;
    }
    ExpectTopK(*got, ref, o.k, "query '" + text + "'");
    o.exhaustive = true;
    auto full = searcher.Search(*q, o);
    ASSERT_TRUE(full.ok());
    ASSERT_EQ(full->hits.size(), got->hits.size());
    for (size_t h = 0; h < got->hits.size(); ++h) {  // bit-identical: canonical summation order
      EXPECT_EQ(full->hits[h].id, got->hits[h].id) << text;
      EXPECT_EQ(full->hits[h].score, got->hits[h].score) << text;
    }
    pruned_scored += got->stats.scored_docs;
    exhaustive_scored += full->stats.scored_docs;
    nonempty += !ref.ranked.empty();
    phrases += !q->phrases.empty() && !ref.ranked.empty();
    filters += !q->filters.empty() && !ref.ranked.empty();
    for (const auto& t : q->terms) {
      prefixes += t.prefix;
      restricted += t.field >= 0 && !ref.ranked.empty();  // `columns:tes`, which also forms pairs
    }
  }
  EXPECT_GT(nonempty, 90u);  // the test exercises real matches
  EXPECT_GT(bonuses, 10u);   // and proximity bonuses
  EXPECT_GT(phrases, 8u);
  EXPECT_GT(prefixes, 15u);
  EXPECT_GT(filters, 15u);
  EXPECT_GT(restricted, 5u);
  EXPECT_LT(pruned_scored, exhaustive_scored);  // MaxScore skipped work
}

TEST_F(SearchTest, FacetsAndTotalsMatchBruteForce) {
  Searcher searcher(*reader_);
  text::Analyzer analyzer;
  CorpusGen g(11);
  for (int i = 0; i < 40; ++i) {
    std::string text = i == 0 ? "category:education" : g.QueryText(*docs_);
    auto q = ParseQuery(text, (*reader_)->schema(), analyzer);
    ASSERT_TRUE(q.ok());
    SearchOptions o;
    o.k = 5;
    o.facet_fields = {"category", "format", "namespace"};
    o.facet_limit = 100;
    auto got = searcher.Search(*q, o);
    ASSERT_TRUE(got.ok());
    auto ref = ref_->Run(*q, o, (*reader_)->ranking(), o.facet_fields);
    EXPECT_EQ(got->total, static_cast<int64_t>(ref.ranked.size())) << text;
    for (const std::string& f : o.facet_fields) {
      std::map<std::string, uint64_t> counts;
      for (const FacetValue& v : got->facets[f]) {
        counts[text::FoldKeyword(v.value)] = v.count;
        // Values as written in the documents ("Public Safety", "CSV"), not folded.
        if (f == "category") {
          EXPECT_NE(v.value, text::FoldKeyword(v.value)) << f;
        }
      }
      EXPECT_EQ(counts, ref.facets[f]) << text << " facet " << f;
      const auto& vals = got->facets[f];
      for (size_t j = 1; j < vals.size(); ++j) EXPECT_GE(vals[j - 1].count, vals[j].count);
    }
  }
}

TEST_F(SearchTest, FilterOnlyQueryReturnsAllMatchesInIdOrder) {
  Searcher searcher(*reader_);
  SearchOptions o;
  o.k = 1000000 / 100;
  auto got = searcher.Search("namespace:wikipedia", o);
  ASSERT_TRUE(got.ok());
  size_t want = 0;
  for (const Document& d : *docs_) {
    for (const auto& [f, v] : d.fields) want += f == "namespace" && v == "wikipedia";
  }
  ASSERT_EQ(got->hits.size(), want);
  for (size_t i = 1; i < got->hits.size(); ++i) EXPECT_LT(got->hits[i - 1].id, got->hits[i].id);
}

TEST(SearchDeletesTest, DeletesAndMergeMatchFreshBuild) {
  auto docs = MakeDocs(1200, 99);
  TempDir a, fresh;
  std::mt19937 rng(5);
  std::vector<Document> live;
  std::set<std::string> deleted;
  {
    WriterOptions wo;
    wo.max_buffered_docs = 400;
    auto w = IndexWriter::Open(a.path, Schema::Datasets(), wo);
    ASSERT_TRUE(w.ok());
    for (size_t i = 0; i < docs.size(); ++i) {
      ASSERT_TRUE((*w)->Add(docs[i]).ok());
      if (i == 700) {
        ASSERT_TRUE((*w)->Commit().ok());
      }
    }
    // Deletes hit committed, flushed and still-buffered documents.
    for (const Document& d : docs) {
      if (rng() % 8 == 0) {
        auto n = (*w)->Delete(d.id);
        ASSERT_TRUE(n.ok());
        EXPECT_EQ(*n, 1u);
        deleted.insert(d.id);
      }
    }
    auto again = (*w)->Delete(*deleted.begin());
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(*again, 0u);
    ASSERT_TRUE((*w)->Commit().ok());
  }
  for (const Document& d : docs) {
    if (!deleted.count(d.id)) live.push_back(d);
  }
  auto fresh_reader = Build(fresh.path, live, 100000);
  ASSERT_EQ(fresh_reader->num_segments(), 1u);
  Reference ref(Schema::Datasets(), live);

  auto compare = [&](const std::shared_ptr<IndexReader>& r, const std::string& label) {
    EXPECT_EQ(r->num_docs(), live.size());
    Searcher s1(r), s2(fresh_reader);
    CorpusGen g(3);
    text::Analyzer analyzer;
    for (int i = 0; i < 50; ++i) {
      std::string text = g.QueryText(docs);
      auto q = ParseQuery(text, r->schema(), analyzer);
      ASSERT_TRUE(q.ok());
      SearchOptions o;
      o.k = 10;
      o.max_prefix_expansions = 4;
      o.facet_fields = {"format"};
      auto x = s1.Search(*q, o);
      auto y = s2.Search(*q, o);
      ASSERT_TRUE(x.ok() && y.ok());
      ASSERT_EQ(x->hits.size(), y->hits.size()) << label << " " << text;
      for (size_t h = 0; h < x->hits.size(); ++h) {
        EXPECT_EQ(x->hits[h].id, y->hits[h].id) << label << " " << text;
        EXPECT_EQ(x->hits[h].score, y->hits[h].score) << label << " " << text;
        EXPECT_FALSE(deleted.count(x->hits[h].id));
      }
      EXPECT_EQ(x->total, y->total);
      ExpectTopK(*x, ref.Run(*q, o, r->ranking()), o.k, label + " '" + text + "'");
    }
  };
  auto r = IndexReader::Open(a.path);
  ASSERT_TRUE(r.ok());
  EXPECT_GE((*r)->num_segments(), 3u);
  compare(*r, "with deletes");
  {
    auto w = IndexWriter::Open(a.path, Schema::Datasets());
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->Merge().ok());
    EXPECT_EQ((*w)->segments().size(), 1u);
    EXPECT_EQ((*w)->segments()[0].deleted, 0u);
  }
  auto merged = IndexReader::Open(a.path);
  ASSERT_TRUE(merged.ok());
  EXPECT_EQ((*merged)->num_segments(), 1u);
  compare(*merged, "merged");
  // The old reader still works on its mapped files after the merge removed them.
  Searcher old(*r);
  EXPECT_TRUE(old.Search("crime").ok());
}

TEST(QueryParserTest, Syntax) {
  Schema schema = Schema::Datasets();
  text::Analyzer a;
  auto q = ParseQuery("namespace:datagov category:\"Public Safety\" crime austin", schema, a);
  ASSERT_TRUE(q.ok());
  ASSERT_EQ(q->filters.size(), 2u);
  EXPECT_EQ(q->filters[0].field, schema.Find("namespace"));
  EXPECT_EQ(q->filters[0].values, std::vector<std::string>{"datagov"});
  EXPECT_EQ(q->filters[1].values, std::vector<std::string>{"public safety"});
  ASSERT_EQ(q->terms.size(), 2u);
  EXPECT_EQ(q->terms[0].term, "crime");
  EXPECT_EQ(q->terms[1].term, "austin");

  q = ParseQuery("vadir* \"K-8 schools\" title:Running format:CSV format:json http://x.org", schema, a);
  ASSERT_TRUE(q.ok());
  ASSERT_EQ(q->phrases.size(), 1u);
  EXPECT_EQ(q->phrases[0].terms, (std::vector<std::pair<std::string, uint32_t>>{{"k-8", 0}, {"school", 1}}));
  ASSERT_EQ(q->filters.size(), 1u);
  EXPECT_EQ(q->filters[0].values, (std::vector<std::string>{"csv", "json"}));
  std::vector<std::string> terms;
  for (const auto& t : q->terms)
    terms.push_back((t.field >= 0 ? schema.fields()[t.field].name + ":" : "") + t.term +
                    (t.prefix ? "*" : ""));
  EXPECT_EQ(terms, (std::vector<std::string>{"vadir*", "k-8", "k", "8", "school", "title:run", "http",
                                             "x.org", "x", "org"}));

  q = ParseQuery("   ", schema, a);
  ASSERT_TRUE(q.ok());
  EXPECT_TRUE(q->terms.empty());
  EXPECT_FALSE(ParseQuery(std::string(70000, 'a'), schema, a).ok());
  q = ParseQuery("\"unterminated phrase here", schema, a);
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(q->phrases.size(), 1u);
}

// A term restricted to one field (`columns:tes`) forms a proximity pair only in that field: "ga tes" in the
// content of `content-pair` earns no bonus, "ga tes" in the columns of `columns-pair` does.
TEST(SearchTest2, RestrictedTermPairsOnlyInItsField) {
  TempDir dir;
  std::vector<Document> docs(4);
  docs[0].id = "content-pair";
  docs[0].Add("columns", "tes").Add("content", "ga tes");
  docs[1].id = "columns-pair";
  docs[1].Add("columns", "ga tes");
  docs[2].id = "filler-1";
  docs[2].Add("title", "parks").Add("columns", "name");
  docs[3].id = "filler-2";
  docs[3].Add("title", "roads").Add("columns", "name");
  auto r = Build(dir.path, docs, 100);
  Searcher s(r);
  RankingParams ranking = r->ranking();
  ranking.proximity = 1.0;
  SearchOptions o;
  o.ranking = &ranking;
  o.explain = true;
  text::Analyzer analyzer;
  auto q = ParseQuery("ga columns:tes", r->schema(), analyzer);
  ASSERT_TRUE(q.ok());
  auto res = s.Search(*q, o);
  ASSERT_TRUE(res.ok()) << res.status().ToString();
  ASSERT_EQ(res->hits.size(), 2u);
  std::map<std::string, const Hit*> by_id;
  for (const Hit& h : res->hits) by_id[h.id] = &h;
  ASSERT_TRUE(by_id.count("content-pair") && by_id.count("columns-pair"));
  EXPECT_TRUE(by_id["content-pair"]->explanation->proximity.empty());
  ASSERT_EQ(by_id["columns-pair"]->explanation->proximity.size(), 1u);
  EXPECT_EQ(by_id["columns-pair"]->explanation->proximity[0].field, "columns");
  ExpectTopK(*res, Reference(r->schema(), docs).Run(*q, o, ranking), o.k, "ga columns:tes");
}

TEST(SearchTest2, SnippetMatchedColumnsAndPrefix) {
  TempDir dir;
  std::vector<Document> docs(3);
  docs[0].id = "apd-searches";
  docs[0]
      .Add("title", "APD Searches by Type")
      .Add(
          "description",
          "Searches conducted by the Austin Police Department during traffic stops, 2017-18. The data lists "
          "each "
          "search with its type, the reason, and whether contraband was found; updated weekly by APD staff.");
  docs[0]
      .Add("columns", "search_type")
      .Add("columns", "incident_id")
      .Add("columns", "District")
      .Add("namespace", "datagov");
  docs[1].id = "vadir-2017";
  docs[1]
      .Add("title", "VADIR school safety")
      .Add("file_names", "vadir_2017-18.csv")
      .Add("columns", "school_name");
  docs[2].id = "other";
  docs[2].Add("title", "Parks").Add("description", "Nothing to see");
  auto r = Build(dir.path, docs, 100);
  Searcher s(r);
  auto res = s.Search("austin search type");
  ASSERT_TRUE(res.ok()) << res.status().ToString();
  ASSERT_GE(res->hits.size(), 1u);
  const Hit& h = res->hits[0];
  EXPECT_EQ(h.id, "apd-searches");
  EXPECT_EQ(h.snippet.field, "description");
  EXPECT_NE(h.snippet.text.find("Austin"), std::string::npos);
  ASSERT_FALSE(h.snippet.highlights.empty());
  std::set<std::string> marked;
  for (const Highlight& hl : h.snippet.highlights)
    marked.insert(h.snippet.text.substr(hl.start, hl.end - hl.start));
  EXPECT_TRUE(marked.count("Austin"));
  EXPECT_TRUE(marked.count("Searches") || marked.count("search"));
  EXPECT_EQ(h.matched_columns, std::vector<std::string>{"search_type"});
  EXPECT_EQ(h.fields[0], (std::pair<std::string, std::string>{"title", "APD Searches by Type"}));

  res = s.Search("vadir*");
  ASSERT_TRUE(res.ok());
  ASSERT_EQ(res->hits.size(), 1u);
  EXPECT_EQ(res->hits[0].id, "vadir-2017");
  res = s.Search("2017-18");
  ASSERT_TRUE(res.ok());
  ASSERT_EQ(res->hits.size(), 2u);  // the description's "2017-18" and the file name's parts
  res = s.Search("\"police department\" namespace:datagov");
  ASSERT_TRUE(res.ok());
  ASSERT_EQ(res->hits.size(), 1u);
  res = s.Search("\"department police\"");
  ASSERT_TRUE(res.ok());
  EXPECT_TRUE(res->hits.empty());
  SearchOptions bad;
  bad.facet_fields = {"title"};
  EXPECT_EQ(s.Search("x", bad).status().code(), ErrorCode::kInvalidArgument);
  bad = SearchOptions();
  RankingParams wrong = r->ranking();
  wrong.fields["title"].b = 2;
  bad.ranking = &wrong;
  EXPECT_EQ(s.Search("x", bad).status().code(), ErrorCode::kInvalidArgument);
}

TEST(QueryParserTest, QuestionPhrasingIsDroppedLikeStopWords) {
  Schema schema = Schema::Datasets();
  text::Analyzer query_side(QueryAnalyzerOptions());
  auto words = [&](std::string_view text) {
    auto q = ParseQuery(text, schema, query_side);
    EXPECT_TRUE(q.ok());
    std::vector<std::string> out;
    for (const auto& t : q->terms) out.push_back(t.term + (t.inferred ? "(inferred)" : ""));
    return out;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(words("Can you tell me the total number of games won by the Memphis Grizzlies?"),
            (V{"total", "number", "game", "won", "memphi", "grizzli"}));
  EXPECT_EQ(words("How many points did Vince Carter score?"), (V{"point", "vinc", "carter", "score"}));
  EXPECT_EQ(words("Identify the player with the least assists"), (V{"player", "least", "assist"}));
  // Request verbs count only where the question starts; elsewhere they may be the topic.
  EXPECT_EQ(words("List the Boston Celtics broadcasters list"), (V{"boston", "celtic", "broadcast", "list"}));
  EXPECT_EQ(words("Raptors' record"), (V{"raptor", "record"}));
  // The month's season is added: January–April end a season, October–December start one.
  EXPECT_EQ(words("games in March 2009"), (V{"game", "march", "2009", "2008-09(inferred)"}));
  EXPECT_EQ(words("November of 2008"), (V{"novemb", "2008", "2008-09(inferred)"}));
  EXPECT_EQ(words("July 2008"), (V{"juli", "2008"}));
  // Seasons match however they are written.
  EXPECT_EQ(words("2007\xE2\x80\x93"
                  "08"),
            (V{"2007-08", "2007", "2008"}));
  EXPECT_EQ(words("2007-2008"), (V{"2007-08", "2007", "2008"}));
  auto q = ParseQuery("what is the", schema, query_side);
  ASSERT_TRUE(q.ok());
  EXPECT_TRUE(q->terms.empty());
  EXPECT_EQ(q->dropped, (V{"what", "is", "the"}));
  EXPECT_EQ(q->words, 3u);
  // The index side keeps everything.
  text::Analyzer index_side;
  q = ParseQuery("how many games", schema, index_side);
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(q->terms.size(), 3u);
}

// A small index of real-looking dataset documents for behaviour the random corpus does not exercise.
class BehaviourTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto add = [&](const std::string& id, const std::string& title, const std::string& values) {
      Document d;
      d.id = id;
      d.Add("title", title)
          .Add("values", values)
          .Add("namespace", "cmdbench")
          .Add("category", "Sports Stats");
      docs_.push_back(d);
    };
    add("t/raptors-0708",
        "2007\xE2\x80\x93"
        "08 Toronto Raptors season \xE2\x80\x94 Game log",
        "March 2; March 4; Chris Bosh");
    add("t/raptors-0607",
        "2006\xE2\x80\x93"
        "07 Toronto Raptors season \xE2\x80\x94 Game log",
        "March 3; Chris Bosh");
    add("t/raptors-0809",
        "2008\xE2\x80\x93"
        "09 Toronto Raptors season \xE2\x80\x94 Game log",
        "March 1; Bosh");
    add("t/celtics", "Boston Celtics all-time roster", "Larry Bird; Bill Russell");
    add("t/lakers-feb", "Los Angeles Lakers season \xE2\x80\x94 Feburary games", "Kobe Bryant");
    add("t/fraud", "Identity theft reports by state", "Florida; Texas");
    for (int i = 0; i < 20; ++i)
      add("t/filler" + std::to_string(i), "Filler season " + std::to_string(i), "nothing; February 3");
    reader_ = Build(dir_.path, docs_, 1000);
  }
  std::vector<Document> docs_;
  TempDir dir_;
  std::shared_ptr<IndexReader> reader_;
};

TEST_F(BehaviourTest, SeasonSpansRankTheirSeasonFirst) {
  Searcher s(reader_);
  for (const char* q : {"2007\xE2\x80\x93"
                        "08 Raptors",
                        "2007-08 Raptors", "Raptors 2007/2008", "Raptors games March 2008"}) {
    auto r = s.Search(q);
    ASSERT_TRUE(r.ok());
    ASSERT_FALSE(r->hits.empty()) << q;
    EXPECT_EQ(r->hits[0].id, "t/raptors-0708") << q;
  }
}

TEST_F(BehaviourTest, StopWordsOnlyFindNothingAndSayWhy) {
  Searcher s(reader_);
  auto r = s.Search("what was the");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->hits.empty());
  EXPECT_EQ(r->total, 0);
  EXPECT_NE(r->note.find("stop word"), std::string::npos) << r->note;
  EXPECT_EQ(r->dropped.size(), 3u);
  r = s.Search("zzzqqq");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->hits.empty());
  EXPECT_FALSE(r->note.empty());
  // An empty query is still the whole index (filters alone list datasets).
  SearchOptions every;
  every.k = 100;
  r = s.Search("category:\"sports stats\"", every);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->hits.size(), docs_.size());
}

TEST_F(BehaviourTest, MisspelledWordsAreCorrectedToTheIndexsWords) {
  Searcher s(reader_);
  auto r = s.Search("Toronot Raptrs 2008-09");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->corrections.size(), 2u);
  EXPECT_EQ(r->corrections[0].word, "Toronot");
  EXPECT_EQ(r->corrections[0].term, "toronto");
  EXPECT_EQ(r->corrections[1].term, "raptor");
  EXPECT_EQ(r->hits[0].id, "t/raptors-0809");
  // Known words, numbers and short words are left alone.
  r = s.Search("Bosh 2031 zq");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->corrections.empty());
}

TEST_F(BehaviourTest, CorrectionsAddBesideTheWordAsWritten) {
  // "stage" is a real word the index lacks, one edit from "state": both are searched for, and the
  // correction is discounted and reported.
  Searcher s(reader_);
  std::vector<Correction> corrections;
  auto q = s.Parse("stage", &corrections);
  ASSERT_TRUE(q.ok());
  ASSERT_EQ(corrections.size(), 1u);
  EXPECT_EQ(corrections[0].word, "stage");
  EXPECT_EQ(corrections[0].term, "state");
  std::map<std::string, TermClause::Variant> terms;
  for (const TermClause& t : q->terms) terms[t.term] = t.variant;
  ASSERT_EQ(terms.size(), 2u);
  EXPECT_EQ(terms["stage"], TermClause::Variant::kNone);
  EXPECT_EQ(terms["state"], TermClause::Variant::kCorrection);
  SearchOptions o;
  o.explain = true;
  auto r = s.Search("stage", o);
  ASSERT_TRUE(r.ok());
  ASSERT_FALSE(r->hits.empty());
  EXPECT_EQ(r->hits[0].id, "t/fraud");
  auto plain = s.Search("state", o);
  ASSERT_TRUE(plain.ok());
  ASSERT_FALSE(plain->hits.empty());
  // The ranking's correction factor discounts the added word.
  RankingParams ranking = reader_->ranking();
  EXPECT_NEAR(r->hits[0].score, ranking.correction * plain->hits[0].score, 1e-9);
  ranking.correction = 0.5;
  o.ranking = &ranking;
  r = s.Search("stage", o);
  ASSERT_TRUE(r.ok());
  ASSERT_FALSE(r->hits.empty());
  EXPECT_NEAR(r->hits[0].score, 0.5 * plain->hits[0].score, 1e-9);
  ranking.correction = 0;
  o.ranking = &ranking;
  r = s.Search("stage", o);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->hits.empty());
}

TEST_F(BehaviourTest, FuzzyMatchesFindATypoInMetadata) {
  // The caption says "Feburary"; the query's "February" is a word the index holds (in cells), so it is
  // not corrected, but its one-edit variant in the title matches, discounted.
  Searcher s(reader_);
  RankingParams fuzzy = reader_->ranking();
  fuzzy.fuzzy = 0.3;
  SearchOptions o;
  o.ranking = &fuzzy;
  auto r = s.Search("Lakers February", o);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->corrections.empty());
  ASSERT_FALSE(r->hits.empty());
  EXPECT_EQ(r->hits[0].id, "t/lakers-feb");
  o.k = 30;
  r = s.Search("February", o);
  ASSERT_TRUE(r.ok());
  bool found = false;
  for (const Hit& h : r->hits) found |= h.id == "t/lakers-feb";
  EXPECT_TRUE(found);
  // Without fuzzy matching only the cells' "February" is found.
  RankingParams ranking = reader_->ranking();
  ranking.fuzzy = 0;
  o.ranking = &ranking;
  r = s.Search("February", o);
  ASSERT_TRUE(r.ok());
  for (const Hit& h : r->hits) EXPECT_NE(h.id, "t/lakers-feb");
  // Short words (under 5 letters) get no fuzzy variants: "Bosh" does not find "Bush".
  auto q = s.Parse("Bosh", nullptr, &fuzzy);
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(q->terms.size(), 1u);
  // Variants are looked up only for a ranking that scores them: with fuzzy 0 (the default) none is added,
  // which keeps the one-edit dictionary lookups off the default query path.
  auto with = s.Parse("February", nullptr, &fuzzy);
  ASSERT_TRUE(with.ok());
  bool variant = false;
  for (const TermClause& t : with->terms) variant |= t.variant == TermClause::Variant::kFuzzy;
  EXPECT_TRUE(variant);
  auto without = s.Parse("February", nullptr, &ranking);
  ASSERT_TRUE(without.ok());
  EXPECT_EQ(without->terms.size(), 1u);
}

TEST_F(BehaviourTest, MatchesExplanationsOffsetsAndFacets) {
  Searcher s(reader_);
  SearchOptions o;
  o.k = 3;
  o.explain = true;
  o.facet_fields = {"category"};
  auto r = s.Search("Toronto Chris Bosh", o);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->hits.size(), 3u);
  const Hit& top = r->hits[0];
  std::map<std::string, std::vector<std::string>> m(top.matches.begin(), top.matches.end());
  EXPECT_EQ(m["title"], (std::vector<std::string>{"Toronto"}));
  EXPECT_EQ(m["values"], (std::vector<std::string>{"Chris", "Bosh"}));
  ASSERT_TRUE(top.explanation.has_value());
  EXPECT_EQ(top.explanation->terms.size(), 3u);
  EXPECT_NE(top.explanation->ToText().find("title"), std::string::npos);
  EXPECT_EQ(r->facets["category"][0].value, "Sports Stats");  // as written, not folded
  // Pages of an exact ranking are slices of one longer ranking.
  SearchOptions all;
  all.k = 4;
  auto full = s.Search("Toronto Chris Bosh", all);
  ASSERT_TRUE(full.ok());
  SearchOptions page = all;
  page.k = 2;
  page.offset = 2;
  auto second = s.Search("Toronto Chris Bosh", page);
  ASSERT_TRUE(second.ok());
  ASSERT_GE(full->hits.size(), 3u);
  ASSERT_EQ(second->hits.size(), full->hits.size() - 2);
  EXPECT_EQ(second->hits[0].id, full->hits[2].id);
  if (full->hits.size() > 3) {
    EXPECT_EQ(second->hits[1].id, full->hits[3].id);
  }
  // A document can be explained whatever its rank.
  SearchOptions ids;
  ids.k = 1;
  ids.explain_ids = {"t/celtics", "t/raptors-0607", "t/absent"};
  auto e = s.Search("Toronto Chris Bosh", ids);
  ASSERT_TRUE(e.ok());
  ASSERT_EQ(e->explained.size(), 2u);
  EXPECT_EQ(e->explained[0].id, "t/celtics");
  EXPECT_EQ(e->explained[0].score, 0.0);
  EXPECT_EQ(e->explained[0].explanation->unmatched.size(), 3u);
  EXPECT_GT(e->explained[1].score, 0.0);
}

}  // namespace
}  // namespace lakeqa::index
