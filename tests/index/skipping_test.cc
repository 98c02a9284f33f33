// MaxScore and block-max skipping at the level of one field's postings (searcher.cc, PartRef) against
// exhaustive BM25F scoring: on an index of several segments with deleted and updated documents and exact
// copies (score ties), many random multi-word queries under random field weights, b, k1, data fields and
// proximity must return the same ids with bit-identical scores, pruned or not, and agree with the
// brute-force reference (tests/index/reference.h).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <set>

#include "index/corpus.h"
#include "index/reference.h"
#include "index/test_util.h"
#include "lakeqa/index/index.h"
#include "lakeqa/index/searcher.h"

namespace lakeqa::index {
namespace {

using testing::CorpusGen;
using testing::Reference;
using testing::TempDir;

// The index's live documents after every write (by id), and what the writes did.
struct Lake {
  std::vector<Document> live;
  uint32_t deleted = 0, updated = 0, copies = 0;
};

// 2,400 documents in segments of 300 over two commits, a small vocabulary (so frequent words span many
// 128-doc blocks), every ninth document an exact copy of an earlier one under its own id (ties), then a
// tenth of the documents deleted and a twentieth replaced by new versions under the same id.
Lake BuildLake(const std::string& dir) {
  CorpusGen g(2024, 150);
  std::map<std::string, Document> by_id;
  std::vector<std::string> order;
  WriterOptions wo;
  wo.max_buffered_docs = 300;
  auto w = IndexWriter::Open(dir, Schema::Datasets(), wo);
  EXPECT_TRUE(w.ok()) << w.status().ToString();
  Lake lake;
  std::vector<Document> added;
  for (size_t i = 0; i < 2400; ++i) {
    Document d = g.Doc(i);
    if (i % 9 == 8) {
      Document copy = added[g.rng()() % added.size()];
      copy.id = "copy-" + std::to_string(i);
      d = std::move(copy);
      ++lake.copies;
    }
    EXPECT_TRUE((*w)->Add(d).ok());
    added.push_back(d);
    order.push_back(d.id);
    by_id[d.id] = d;
    if (i == 1500) {
      EXPECT_TRUE((*w)->Commit().ok());
    }
  }
  std::mt19937 rng(77);
  for (const std::string& id : order) {
    uint32_t r = rng() % 20;
    if (r < 2) {
      auto n = (*w)->Delete(id);
      EXPECT_TRUE(n.ok());
      by_id.erase(id);
      ++lake.deleted;
    } else if (r == 2) {
      auto n = (*w)->Delete(id);
      EXPECT_TRUE(n.ok());
      Document v2 = g.Doc(100000 + lake.updated);
      v2.id = id;
      EXPECT_TRUE((*w)->Add(v2).ok());
      by_id[id] = v2;
      ++lake.updated;
    }
  }
  EXPECT_TRUE((*w)->Commit().ok());
  for (auto& [id, d] : by_id) lake.live.push_back(d);
  return lake;
}

bool Close(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b)); }

// Field weights other than the schema's, b, k1, data fields and proximity, drawn per query.
RankingParams RandomRanking(const Schema& schema, std::mt19937& rng) {
  const double weights[] = {0.1, 0.5, 1.0, 2.0, 4.0, 9.0};
  const double bs[] = {0.0, 0.3, 0.75, 1.0};
  const double k1s[] = {0.3, 1.2, 2.0, 0.0};
  const double proximity[] = {0.0, 0.0, 0.5, 2.0};
  RankingParams r = RankingParams::FromSchema(schema);
  r.k1 = k1s[rng() % 4];
  r.proximity = proximity[rng() % 4];
  r.data_k1 = rng() % 2 ? 1.2 : 0.4;
  for (auto& [name, f] : r.fields) {
    f.weight = weights[rng() % 6];
    f.b = bs[rng() % 4];
    f.data = rng() % 4 == 0;
  }
  return r;
}

// 1 to 6 words of the corpus, frequent ones most often; now and then a field restriction or a prefix.
std::string RandomQuery(CorpusGen& g) {
  std::string q;
  int n = 1 + static_cast<int>(g.rng()() % 6);
  for (int i = 0; i < n; ++i) {
    if (g.rng()() % 12 == 0) q += "columns:";
    q += g.Word() + " ";
  }
  if (g.rng()() % 10 == 0) q += g.Word().substr(0, 2) + "* ";
  return q;
}

// field → words as an explanation lists them: fields in schema order, words in query order.
std::vector<std::pair<std::string, std::vector<std::string>>> MatchesOf(const Explanation& ex,
                                                                        const Schema& schema) {
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  for (const auto& field : schema.fields()) {
    std::vector<std::string> words;
    for (const TermExplanation& te : ex.terms) {
      for (const FieldExplanation& fe : te.fields) {
        if (fe.field == field.name && std::find(words.begin(), words.end(), te.word) == words.end())
          words.push_back(te.word);
      }
    }
    if (!words.empty()) out.emplace_back(field.name, std::move(words));
  }
  return out;
}

class SkippingTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    lake_ = new Lake(BuildLake(dir_->path));
    ref_ = new Reference(Schema::Datasets(), lake_->live);
  }
  static void TearDownTestSuite() {
    delete ref_;
    delete lake_;
    delete dir_;
  }

  // Runs `queries` random queries on the index as it is on disk; returns the docs scored pruned and
  // exhaustively, and counts the queries whose k-th and (k+1)-th scores tie.
  static void Compare(const std::string& dir, int queries, uint32_t seed, uint64_t* pruned_scored,
                      uint64_t* full_scored, int* boundary_ties) {
    auto reader = IndexReader::Open(dir);
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    Searcher searcher(*reader);
    text::Analyzer analyzer;
    CorpusGen g(seed, 150);
    std::mt19937 rng(seed);
    const size_t ks[] = {1, 2, 5, 10, 10, 30};
    for (int i = 0; i < queries; ++i) {
      std::string text = RandomQuery(g);
      auto q = ParseQuery(text, (*reader)->schema(), analyzer);
      ASSERT_TRUE(q.ok()) << text;
      RankingParams ranking = i % 5 == 0 ? (*reader)->ranking() : RandomRanking((*reader)->schema(), rng);
      SearchOptions o;
      o.k = ks[i % 6];
      o.offset = i % 7 == 3 ? 2 : 0;
      o.ranking = &ranking;
      o.snippets = false;
      auto got = searcher.Search(*q, o);
      ASSERT_TRUE(got.ok()) << got.status().ToString();
      o.exhaustive = true;
      auto full = searcher.Search(*q, o);
      ASSERT_TRUE(full.ok());
      ASSERT_EQ(got->hits.size(), full->hits.size()) << text;
      for (size_t h = 0; h < got->hits.size(); ++h) {
        EXPECT_EQ(got->hits[h].id, full->hits[h].id) << text << " rank " << h;
        EXPECT_EQ(got->hits[h].score, full->hits[h].score) << text << " rank " << h;
      }
      *pruned_scored += got->stats.scored_docs;
      *full_scored += full->stats.scored_docs;

      // The matched words the scoring loop keeps with each hit are those an explanation of it finds.
      o.exhaustive = false;
      o.explain = true;
      auto explained = searcher.Search(*q, o);
      ASSERT_TRUE(explained.ok());
      ASSERT_EQ(explained->hits.size(), got->hits.size()) << text;
      for (size_t h = 0; h < got->hits.size(); ++h) {
        ASSERT_TRUE(explained->hits[h].explanation.has_value());
        const auto want = MatchesOf(*explained->hits[h].explanation, (*reader)->schema());
        EXPECT_EQ(got->hits[h].matches, want) << text << " rank " << h;
        EXPECT_EQ(full->hits[h].matches, want) << text << " rank " << h;
        EXPECT_EQ(explained->hits[h].matches, want) << text << " rank " << h;
        matched_hits_ += !got->hits[h].matches.empty();
      }

      // Exhaustive scoring is BM25F as the reference computes it, rank by rank.
      auto ref = ref_->Run(*q, o, ranking);
      size_t want = ref.ranked.size() > o.offset ? std::min(o.k, ref.ranked.size() - o.offset) : 0;
      ASSERT_EQ(full->hits.size(), want) << text;
      for (size_t h = 0; h < want; ++h) {
        EXPECT_TRUE(Close(full->hits[h].score, ref.ranked[o.offset + h].score))
            << text << " rank " << h << ": " << full->hits[h].score << " vs "
            << ref.ranked[o.offset + h].score;
      }
      size_t last = o.offset + o.k;
      if (ref.ranked.size() > last && ref.ranked[last - 1].score == ref.ranked[last].score) ++*boundary_ties;
    }
  }

  static TempDir* dir_;
  static Lake* lake_;
  static Reference* ref_;
  static inline size_t matched_hits_ = 0;  // hits whose matches were compared, for a floor
};
TempDir* SkippingTest::dir_;
Lake* SkippingTest::lake_;
Reference* SkippingTest::ref_;

TEST_F(SkippingTest, IndexHasSegmentsDeletesUpdatesAndCopies) {
  auto reader = IndexReader::Open(dir_->path);
  ASSERT_TRUE(reader.ok());
  EXPECT_GE((*reader)->num_segments(), 6u);
  EXPECT_EQ((*reader)->num_docs(), lake_->live.size());
  EXPECT_GT(lake_->deleted, 150u);
  EXPECT_GT(lake_->updated, 60u);
  EXPECT_GT(lake_->copies, 200u);
}

TEST_F(SkippingTest, PrunedEqualsExhaustiveOnSegmentsWithDeletes) {
  uint64_t pruned = 0, full = 0;
  int ties = 0;
  Compare(dir_->path, 250, 5, &pruned, &full, &ties);
  EXPECT_GT(ties, 5);              // copies tie at the k-th place, where the id decides
  EXPECT_GT(matched_hits_, 500u);  // the matches comparison saw real matches
  EXPECT_LT(pruned, full);         // and the skipping search skipped
}

TEST_F(SkippingTest, PrunedEqualsExhaustiveAfterMerge) {
  TempDir merged;
  // A copy of the lake, merged into one segment: the deletes are dropped, postings span more blocks.
  Lake copy = BuildLake(merged.path);
  {
    auto w = IndexWriter::Open(merged.path, Schema::Datasets());
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->Merge().ok());
  }
  auto reader = IndexReader::Open(merged.path);
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ((*reader)->num_segments(), 1u);
  // The same writes as the suite's lake, so the reference of its live documents holds for it too.
  ASSERT_EQ(copy.live.size(), lake_->live.size());
  uint64_t pruned = 0, full = 0;
  int ties = 0;
  Compare(merged.path, 120, 9, &pruned, &full, &ties);
  EXPECT_LT(pruned, full);
}

}  // namespace
}  // namespace lakeqa::index
