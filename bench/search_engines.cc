// Keyword search engines on one corpus: lakeqa's index (Schema::Datasets(), BM25F, MaxScore; or, as
// lakeqa-fieldsum, the per-field sum BM25F replaced, see LakeqaEngine), Xapian (prefixed fields + weighted
// unprefixed free text, BM25) and SQLite FTS5 (one column per field, bm25() with the same weights). One
// engine per process, so peak RSS is that engine's; the corpus and the queries are generated
// deterministically from a seed, so every process sees the same documents and the same queries. Driven by
// bench/search_engines.sh, which writes docs/benchmarks.md.
//
//   bench_search_engines --engine lakeqa|lakeqa-merged|lakeqa-fieldsum|xapian|fts5|dump --dir <index dir>
//       --out <prefix>
//       (--synth <docs> | --tsv <file: id \t title \t text>) [--seed 42] [--queries 100]
//       [--classes 10:2,10:5]
//
// --classes runs only the listed query classes (k:terms), so that an instruction count under callgrind,
// which does not vary between runs as timings do, can be taken for one class at a time.
// Writes <prefix>.json (throughput, bytes, latencies, RSS) and <prefix>.top10 (the top-10 ids of every
// query, for overlap between engines). Generation time is measured and excluded from indexing time.
// --engine dump writes the corpus and the queries for an engine outside this program (Lucene, in Java:
// bench/lucene/LuceneBench.java): <prefix>.docs.tsv (id \t field \t value ...), <prefix>.queries.tsv
// (terms \t words) and <prefix>.params.tsv (the ranking lakeqa's engine here uses: k1, field weights, b).
#include <fmt/format.h>
#include <sqlite3.h>
#include <sys/resource.h>
#include <xapian.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "lakeqa/index/index.h"
#include "lakeqa/index/ranking.h"
#include "lakeqa/index/schema.h"
#include "lakeqa/index/searcher.h"
#include "lakeqa/ingest/synth_vocabulary.h"

namespace {

using lakeqa::index::Document;
using lakeqa::ingest::kSynthCounties;
using lakeqa::ingest::kSynthNameWords;
using lakeqa::ingest::kSynthPlaces;
using lakeqa::ingest::kSynthPublishers;
using lakeqa::ingest::SynthTopic;
using lakeqa::ingest::SynthTopics;
using Clock = std::chrono::steady_clock;

double Since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

[[noreturn]] void Die(const std::string& msg) {
  std::cerr << "bench_search_engines: " << msg << "\n";
  std::exit(2);
}

// splitmix64, as the lake synthesiser: document i depends only on (seed, i).
using Rng = lakeqa::ingest::SynthRng;

// ---- The synthetic catalog corpus -----------------------------------------------------------------
// Documents with the fields and shapes DatasetDocument (src/index/catalog_docs.cc) makes from a
// synthetic lake (ingest/synth_vocabulary.h: the same topics, places, publishers, columns and cell values),
// plus free text drawn from a Zipfian vocabulary so descriptions and page content have a realistic
// term distribution (the synthesiser's own vocabulary is a few hundred words, which no real lake has).

// A Zipfian (s = 1) vocabulary of pronounceable pseudo-words, built from syllables by rank.
class Vocabulary {
 public:
  explicit Vocabulary(size_t n) {
    static const std::array<const char*, 40> kSyl = {
        "ka",  "lo",  "mi",  "ner", "sta", "vu",  "ri",  "po",  "den", "tal", "qui", "bro", "shen", "fa",
        "gor", "hel", "ix",  "jun", "ple", "tor", "wan", "zel", "cra", "dru", "el",  "fin", "gla",  "hu",
        "ost", "pre", "run", "sil", "tev", "ul",  "vor", "yam", "bel", "cot", "dim", "eno"};
    words_.reserve(n);
    cdf_.reserve(n);
    double sum = 0;
    for (size_t r = 0; r < n; ++r) {
      std::string w;
      size_t x = r + 41;  // at least two syllables
      while (x) {
        w += kSyl[x % kSyl.size()];
        x /= kSyl.size();
      }
      words_.push_back(std::move(w));
      sum += 1.0 / static_cast<double>(r + 1);
      cdf_.push_back(sum);
    }
    for (double& c : cdf_) c /= sum;
  }
  const std::string& Draw(Rng& r) const {
    size_t i = std::lower_bound(cdf_.begin(), cdf_.end(), r.Unit()) - cdf_.begin();
    return words_[std::min(i, words_.size() - 1)];
  }
  std::string Text(Rng& r, size_t n) const {
    std::string s;
    for (size_t i = 0; i < n; ++i) {
      if (i) s += (i % 12 == 11) ? ". " : " ";
      s += Draw(r);
    }
    return s;
  }

 private:
  std::vector<std::string> words_;
  std::vector<double> cdf_;
};

std::string Cell(Rng& r, const std::string& column, int year) {
  if (column.find("Year") != std::string::npos) return std::to_string(year);
  if (column.find("Date") != std::string::npos || column == "Month")
    return fmt::format("{:02}/{:02}/{}", 1 + r.Below(12), 1 + r.Below(28), year);
  if (column.find("Number") != std::string::npos || column.find("ID") != std::string::npos)
    return std::to_string(year * 100000 + static_cast<int>(r.Below(100000)));
  if (column == "County") return r.Pick(kSynthCounties);
  if (column.find("District") != std::string::npos) return std::to_string(1 + r.Below(10));
  if (column == "Zip Code") return std::to_string(78701 + r.Below(60));
  if (r.Below(3) == 0) return fmt::format("{:.2f}", r.Unit() * 1000);
  return std::string(r.Pick(kSynthNameWords)) +
         (r.Below(4) == 0 ? std::string(" ") + r.Pick(kSynthNameWords) : "");
}

std::string Slug(const std::string& s) {
  std::string out;
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) out += static_cast<char>(std::tolower(u));
    else if (!out.empty() && out.back() != '-') out += '-';
  }
  return out;
}

// Dataset i of the synthetic lake: 70% data.gov-like (title, description, tags, theme, publisher, files,
// columns, sampled values), 30% wikipedia-like (title, page text in content).
Document SynthDoc(const Vocabulary& v, uint64_t seed, uint64_t i) {
  Rng r(seed * 0x100000001B3ULL + i);
  Document d;
  if (r.Below(10) < 7) {
    const SynthTopic& t = SynthTopics()[r.Below(SynthTopics().size())];
    std::string place = r.Pick(kSynthPlaces);
    int year = 2008 + static_cast<int>(r.Below(15));
    std::string title = fmt::format("{} {} {}", place, t.title, year);
    if (r.Below(2) == 0) title += " " + v.Draw(r);
    d.id = fmt::format("datagov/{}-{}", Slug(title), i);
    d.Add("title", title);
    d.Add("description", fmt::format("{} for {} reported by {}. {}", t.title, place, r.Pick(kSynthPublishers),
                                     v.Text(r, 15 + r.Below(60))));
    for (const char* tag : t.tags) d.Add("tags", tag);
    d.Add("tags", v.Draw(r));
    d.Add("theme", t.theme);
    d.Add("category", t.theme);
    d.Add("publisher", r.Pick(kSynthPublishers));
    d.Add("namespace", "datagov");
    d.Add("format", "csv");
    d.Add("file_names", "signed-metadata.txt");
    d.Add("file_names", "files/rows.txt");
    d.Add("file_names", fmt::format("files/{}-{}.csv", Slug(t.title), year));
    for (const char* c : t.columns) d.Add("columns", c);
    for (const char* c : t.columns) {
      std::string joined;
      size_t n = 3 + r.Below(10);
      for (size_t k = 0; k < n; ++k)
        joined += (k ? "; " : "") + Cell(r, c, year - static_cast<int>(r.Below(3)));
      d.Add("values", joined);
    }
    if (r.Below(4) == 0) d.Add("content", fmt::format("temporal coverage: {}-{}", year - 3, year));
  } else {
    std::string title = v.Text(r, 1 + r.Below(3));
    title[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(title[0])));
    d.id = fmt::format("wikipedia/{}-{}", Slug(title), i);
    d.Add("title", title);
    d.Add("namespace", "wikipedia");
    d.Add("format", "html");
    d.Add("file_names", "page.html");
    d.Add("content", v.Text(r, 60 + r.Below(200)));
  }
  return d;
}

// ---- The corpus as a stream -------------------------------------------------------------------------
class Corpus {
 public:
  virtual ~Corpus() = default;
  virtual bool Next(Document& d) = 0;  // false at the end
  virtual std::string Name() const = 0;
};

class SynthCorpus : public Corpus {
 public:
  SynthCorpus(uint64_t n, uint64_t seed) : n_(n), seed_(seed), vocab_(200000) {}
  bool Next(Document& d) override {
    if (i_ >= n_) return false;
    d = SynthDoc(vocab_, seed_, i_++);
    return true;
  }
  std::string Name() const override { return fmt::format("synthetic catalog documents ({} datasets)", n_); }

 private:
  uint64_t n_, seed_, i_ = 0;
  Vocabulary vocab_;
};

// id \t title \t text per line (bench/search_engines.sh makes it from GCIDE): title and description.
class TsvCorpus : public Corpus {
 public:
  explicit TsvCorpus(const std::string& path) : path_(path), in_(path) {
    if (!in_) Die("cannot open " + path);
  }
  bool Next(Document& d) override {
    std::string line;
    while (std::getline(in_, line)) {
      ++line_no_;
      size_t a = line.find('\t');
      size_t b = a == std::string::npos ? a : line.find('\t', a + 1);
      if (b == std::string::npos) Die(fmt::format("{}:{}: expected id\\ttitle\\ttext", path_, line_no_));
      d = Document{};
      d.id = line.substr(0, a);
      d.Add("title", line.substr(a + 1, b - a - 1));
      d.Add("description", line.substr(b + 1));
      return true;
    }
    return false;
  }
  std::string Name() const override { return path_; }

 private:
  std::string path_;
  std::ifstream in_;
  uint64_t line_no_ = 0;
};

// ---- Queries ----------------------------------------------------------------------------------------
// Words of a document's title and description/content: lower-case ASCII letters only (so every
// engine's tokenizer sees the same word), 3+ letters, no stop words (lakeqa drops them from queries by
// default; the others would score them).
std::vector<std::string> QueryWords(const Document& d) {
  static const std::unordered_set<std::string> kStop = {
      "the",   "and",   "for",  "are",   "but",  "not",  "you",   "all",   "any",   "can",  "had",
      "her",   "was",   "one",  "our",   "out",  "his",  "has",   "its",   "who",   "with", "that",
      "this",  "from",  "they", "them",  "then", "than", "there", "these", "those", "what", "when",
      "where", "which", "will", "would", "into", "been", "were",  "have",  "also",  "such", "their",
      "other", "some",  "more", "most",  "only", "over", "very",  "etc"};
  std::vector<std::string> out;
  for (const auto& [f, v] : d.fields) {
    if (f != "title" && f != "description" && f != "content") continue;
    std::string w;
    auto flush = [&] {
      if (w.size() >= 3 && !kStop.count(w)) out.push_back(w);
      w.clear();
    };
    for (char c : v) {
      unsigned char u = static_cast<unsigned char>(c);
      if (u < 128 && std::isalpha(u)) w += static_cast<char>(std::tolower(u));
      else flush();
    }
    flush();
  }
  return out;
}

struct QuerySet {
  // class (terms per query) -> queries, each a list of words
  std::map<int, std::vector<std::vector<std::string>>> by_terms;
};

// Picks (during the single pass over the corpus) the documents that queries are drawn from: for each
// class and query number a document index; queries are then random words of that document.
class QueryPicker {
 public:
  QueryPicker(uint64_t seed, size_t per_class, uint64_t docs) : rng_(seed ^ 0x51ED) {
    for (int terms : {1, 2, 5}) {
      for (size_t q = 0; q < per_class; ++q) wanted_[rng_.Below(docs)].push_back(terms);
    }
  }
  void Offer(uint64_t i, const Document& d) {
    auto it = wanted_.find(i);
    if (it == wanted_.end()) return;
    std::vector<std::string> words = QueryWords(d);
    for (int terms : it->second) {
      Rng r(i * 31 + static_cast<uint64_t>(terms));
      std::vector<std::string> q;
      for (int t = 0; t < terms * 4 && static_cast<int>(q.size()) < terms && !words.empty(); ++t) {
        const std::string& w = words[r.Below(words.size())];
        if (std::find(q.begin(), q.end(), w) == q.end()) q.push_back(w);
      }
      if (static_cast<int>(q.size()) == terms) set_.by_terms[terms].push_back(std::move(q));
    }
  }
  const QuerySet& set() const { return set_; }

 private:
  Rng rng_;
  std::map<uint64_t, std::vector<int>> wanted_;
  QuerySet set_;
};

// ---- Engines ----------------------------------------------------------------------------------------
class Engine {
 public:
  virtual ~Engine() = default;
  virtual void Add(const Document& d) = 0;
  virtual void Finish() = 0;  // commit: the index is durable and searchable
  virtual void OpenForSearch() = 0;
  virtual std::vector<std::string> Search(const std::vector<std::string>& words, size_t k) = 0;
};

const lakeqa::index::Schema& DatasetSchema() {
  static const lakeqa::index::Schema s = lakeqa::index::Schema::Datasets();
  return s;
}
bool IsTextField(const std::string& field) {
  int i = DatasetSchema().Find(field);
  return i >= 0 && DatasetSchema().fields()[i].text;
}

// field_sum: every query is ranked with each text field scored on its own (`data` fields, data_k1 = k1),
// a reconstruction of the per-field BM25 sum that BM25F replaced (issue 13): one saturation per field and
// term, summed, so skipping works per field as it did then. It differs from that scorer in two ways that do
// not change how it skips: a term's idf is BM25F's (its largest per-field df over all live docs) rather than
// one per field, and scores are divided by k1 + 1.
class LakeqaEngine : public Engine {
 public:
  struct ForSearch {};
  LakeqaEngine(ForSearch, std::string dir, bool field_sum) : dir_(std::move(dir)), field_sum_(field_sum) {}
  // merge: after the commit, rewrite all segments as one (IndexWriter::Merge), counted in indexing time.
  explicit LakeqaEngine(std::string dir, bool merge = false, bool field_sum = false)
      : dir_(std::move(dir)), merge_(merge), field_sum_(field_sum) {
    auto w = lakeqa::index::IndexWriter::Open(dir_, DatasetSchema());
    if (!w.ok()) Die(w.status().ToString());
    writer_ = std::move(*w);
  }
  void Add(const Document& d) override {
    if (auto s = writer_->Add(d); !s.ok()) Die(s.ToString());
  }
  void Finish() override {
    if (auto s = merge_ ? writer_->Merge() : writer_->Commit(); !s.ok()) Die(s.ToString());
    writer_.reset();
  }
  void OpenForSearch() override {
    auto r = lakeqa::index::IndexReader::Open(dir_);
    if (!r.ok()) Die(r.status().ToString());
    ranking_ = (*r)->ranking();
    if (field_sum_) {
      ranking_.data_k1 = ranking_.k1;
      for (auto& [name, f] : ranking_.fields) f.data = true;
    }
    searcher_ = std::make_unique<lakeqa::index::Searcher>(*r);
  }
  std::vector<std::string> Search(const std::vector<std::string>& words, size_t k) override {
    std::vector<std::string> ids;
    for (const auto& h : Hits(words, k, false)) ids.push_back(h.id);
    return ids;
  }
  // "id score id score ...", scores printed so that they read back as the same double: two binaries
  // (or pruned and exhaustive search) agree exactly when these lines are byte-identical.
  std::string Scored(const std::vector<std::string>& words, size_t k, bool exhaustive) {
    std::string line;
    for (const auto& h : Hits(words, k, exhaustive))
      line += fmt::format("{}{} {:.17g}", line.empty() ? "" : " ", h.id, h.score);
    return line;
  }

 private:
  std::vector<lakeqa::index::Hit> Hits(const std::vector<std::string>& words, size_t k, bool exhaustive) {
    std::string q;
    for (const auto& w : words) q += (q.empty() ? "" : " ") + w;
    lakeqa::index::SearchOptions o;
    o.k = k;
    o.snippets = false;
    o.exhaustive = exhaustive;
    o.ranking = &ranking_;
    auto r = searcher_->Search(q, o);
    if (!r.ok()) Die(r.status().ToString());
    return std::move(r->hits);
  }

  std::string dir_;
  bool merge_ = false;
  bool field_sum_ = false;
  lakeqa::index::RankingParams ranking_;
  std::unique_ptr<lakeqa::index::IndexWriter> writer_;
  std::unique_ptr<lakeqa::index::Searcher> searcher_;
};

// Xapian with the same index layout as lakeqa: every text field under its own term prefix, with
// positions (fielded and phrase search); keyword fields as boolean terms. A query ORs, for every word
// and every text field, the stemmed prefixed term scaled by the field's weight (OP_SCALE_WEIGHT), as
// lakeqa sums weighted per-field BM25. Xapian's BM25 (defaults k1 = 1, b = 0.5) normalises by the whole
// document's length, not the field's. (Indexing every field a second time unprefixed, Omega's way of
// weighting free text, made indexing about 2x slower still in a trial run.)
class XapianEngine : public Engine {
 public:
  explicit XapianEngine(std::string dir) : dir_(std::move(dir)) {
    db_ = std::make_unique<Xapian::WritableDatabase>(dir_, Xapian::DB_CREATE_OR_OVERWRITE);
    tg_.set_stemmer(Xapian::Stem("english"));
    // Stemmed terms only, as lakeqa and FTS5 index them (Xapian's default also adds unstemmed ones).
    tg_.set_stemming_strategy(Xapian::TermGenerator::STEM_ALL);
    const auto& fields = DatasetSchema().fields();
    for (size_t i = 0; i < fields.size(); ++i)
      prefix_[fields[i].name] = fmt::format("X{}", static_cast<char>('A' + i));
  }
  void Add(const Document& d) override {
    Xapian::Document xd;
    tg_.set_document(xd);
    for (const auto& [f, v] : d.fields) {
      const std::string& p = prefix_[f];
      if (IsTextField(f)) {
        tg_.index_text(v, 1, p);
        tg_.increase_termpos();
      } else {
        std::string t = v;
        for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        xd.add_boolean_term(p + t);
      }
    }
    xd.set_data(d.id);
    db_->add_document(xd);
  }
  void Finish() override {
    db_->commit();
    db_->close();
    db_.reset();
  }
  void OpenForSearch() override {
    rdb_ = std::make_unique<Xapian::Database>(dir_);
    enquire_ = std::make_unique<Xapian::Enquire>(*rdb_);
  }
  std::vector<std::string> Search(const std::vector<std::string>& words, size_t k) override {
    std::vector<Xapian::Query> sub;
    for (const auto& w : words) {
      std::string t = stem_(w);
      for (const auto& f : DatasetSchema().fields()) {
        if (f.text)
          sub.emplace_back(Xapian::Query::OP_SCALE_WEIGHT, Xapian::Query(prefix_[f.name] + t), f.weight);
      }
    }
    enquire_->set_query(Xapian::Query(Xapian::Query::OP_OR, sub.begin(), sub.end()));
    Xapian::MSet m = enquire_->get_mset(0, static_cast<Xapian::doccount>(k));
    std::vector<std::string> ids;
    for (auto it = m.begin(); it != m.end(); ++it) ids.push_back(it.get_document().get_data());
    return ids;
  }

 private:
  std::string dir_;
  std::unique_ptr<Xapian::WritableDatabase> db_;
  Xapian::TermGenerator tg_;
  Xapian::Stem stem_{"english"};
  std::map<std::string, std::string> prefix_;
  std::unique_ptr<Xapian::Database> rdb_;
  std::unique_ptr<Xapian::Enquire> enquire_;
};

// FTS5: one column per field of the dataset schema (multi-valued fields joined by newlines), the
// Porter stemmer over unicode61 with diacritics removed, bm25() with the schema's weights.
class Fts5Engine : public Engine {
 public:
  explicit Fts5Engine(std::string dir) : dir_(std::move(dir)) {
    std::filesystem::create_directories(dir_);
    path_ = dir_ + "/fts.sqlite";
    std::filesystem::remove(path_);
    Check(sqlite3_open(path_.c_str(), &db_), "open");
    Exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-65536;");
    std::string cols = "id UNINDEXED";
    for (const auto& f : DatasetSchema().fields()) {
      cols += ", f_" + f.name;
      weights_ += fmt::format(", {}", f.text ? f.weight : 0.0);
    }
    Exec("CREATE VIRTUAL TABLE docs USING fts5(" + cols +
         ", tokenize='porter unicode61 remove_diacritics 2');");
    std::string qs = "?";
    for (size_t i = 0; i < DatasetSchema().fields().size(); ++i) qs += ",?";
    Check(sqlite3_prepare_v2(db_, ("INSERT INTO docs VALUES(" + qs + ")").c_str(), -1, &insert_, nullptr),
          "prepare");
    Exec("BEGIN");
  }
  ~Fts5Engine() override {
    sqlite3_finalize(insert_);
    sqlite3_finalize(query_);
    sqlite3_close(db_);
  }
  void Add(const Document& d) override {
    std::vector<std::string> cols(DatasetSchema().fields().size());
    for (const auto& [f, v] : d.fields) {
      int i = DatasetSchema().Find(f);
      if (i < 0) continue;
      if (!cols[i].empty()) cols[i] += '\n';
      cols[i] += v;
    }
    sqlite3_reset(insert_);
    sqlite3_bind_text(insert_, 1, d.id.data(), static_cast<int>(d.id.size()), SQLITE_TRANSIENT);
    for (size_t i = 0; i < cols.size(); ++i)
      sqlite3_bind_text(insert_, static_cast<int>(i + 2), cols[i].data(), static_cast<int>(cols[i].size()),
                        SQLITE_TRANSIENT);
    if (sqlite3_step(insert_) != SQLITE_DONE) Die(std::string("fts5 insert: ") + sqlite3_errmsg(db_));
  }
  void Finish() override {
    Exec("COMMIT");
    Exec("PRAGMA wal_checkpoint(TRUNCATE)");
  }
  void OpenForSearch() override {
    std::string sql =
        "SELECT id FROM docs WHERE docs MATCH ?1 ORDER BY bm25(docs, 0" + weights_ + ") LIMIT ?2";
    Check(sqlite3_prepare_v2(db_, sql.c_str(), -1, &query_, nullptr), "prepare query");
  }
  std::vector<std::string> Search(const std::vector<std::string>& words, size_t k) override {
    std::string m;
    for (const auto& w : words) m += (m.empty() ? "\"" : " OR \"") + w + "\"";
    sqlite3_reset(query_);
    sqlite3_bind_text(query_, 1, m.data(), static_cast<int>(m.size()), SQLITE_TRANSIENT);
    sqlite3_bind_int64(query_, 2, static_cast<sqlite3_int64>(k));
    std::vector<std::string> ids;
    int rc;
    while ((rc = sqlite3_step(query_)) == SQLITE_ROW)
      ids.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(query_, 0)));
    if (rc != SQLITE_DONE) Die(std::string("fts5 query: ") + sqlite3_errmsg(db_));
    return ids;
  }

 private:
  void Check(int rc, const char* what) {
    if (rc != SQLITE_OK) Die(fmt::format("sqlite {}: {}", what, sqlite3_errmsg(db_)));
  }
  void Exec(const std::string& sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK)
      Die("sqlite: " + sql + ": " + err);
  }
  std::string dir_, path_, weights_;
  sqlite3* db_ = nullptr;
  sqlite3_stmt* insert_ = nullptr;
  sqlite3_stmt* query_ = nullptr;
};

// Not an engine: writes the documents as TSV lines, fields in document order, tabs and newlines in values
// turned into spaces; Search returns nothing (the queries are written by main).
class DumpEngine : public Engine {
 public:
  explicit DumpEngine(const std::string& prefix) : out_(prefix + ".docs.tsv") {
    if (!out_) Die("cannot write " + prefix + ".docs.tsv");
  }
  void Add(const Document& d) override {
    out_ << d.id;
    for (const auto& [f, v] : d.fields) {
      std::string clean = v;
      for (char& c : clean)
        if (c == '\t' || c == '\n' || c == '\r') c = ' ';
      out_ << '\t' << f << '\t' << clean;
    }
    out_ << '\n';
  }
  void Finish() override {
    out_.close();
    if (!out_) Die("writing the dump failed");
  }
  void OpenForSearch() override {}
  std::vector<std::string> Search(const std::vector<std::string>&, size_t) override { return {}; }

 private:
  std::ofstream out_;
};

uint64_t DirBytes(const std::string& dir) {
  uint64_t n = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.is_regular_file()) n += e.file_size();
  return n;
}

long PeakRssKb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t i = static_cast<size_t>(std::ceil(p * static_cast<double>(v.size()))) - 1;
  return v[std::min(i, v.size() - 1)];
}

}  // namespace

int main(int argc, char** argv) {
  std::string engine, dir, out, tsv, scores;
  uint64_t synth = 0, seed = 42, per_class = 100;
  bool reuse = false;  // query an index left by an earlier run (profiling): the corpus only yields queries
  std::set<std::string> classes;  // "k:terms"; empty: all
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto val = [&]() -> std::string {
      if (i + 1 >= argc) Die("missing value after " + a);
      return argv[++i];
    };
    if (a == "--engine") engine = val();
    else if (a == "--dir") dir = val();
    else if (a == "--out") out = val();
    else if (a == "--tsv") tsv = val();
    else if (a == "--synth") synth = std::stoull(val());
    else if (a == "--seed") seed = std::stoull(val());
    else if (a == "--queries") per_class = std::stoull(val());
    else if (a == "--reuse") reuse = true;
    else if (a == "--scores") scores = val();
    else if (a == "--classes") {
      std::string v = val();
      for (size_t at = 0; at <= v.size();) {
        size_t comma = std::min(v.find(',', at), v.size());
        classes.insert(v.substr(at, comma - at));
        at = comma + 1;
      }
    } else Die("unknown argument " + a);
  }
  if (engine.empty() || dir.empty() || out.empty() || (synth == 0) == tsv.empty())
    Die("usage: --engine lakeqa|xapian|fts5 --dir D --out PREFIX (--synth N | --tsv FILE) [--seed S] "
        "[--queries N] "
        "[--reuse] [--scores FILE] [--classes K:TERMS,...]");
  if (!reuse) std::filesystem::remove_all(dir);

  std::unique_ptr<Corpus> corpus;
  uint64_t docs_total = synth;
  if (synth) {
    corpus = std::make_unique<SynthCorpus>(synth, seed);
  } else {
    std::ifstream in(tsv);
    if (!in) Die("cannot open " + tsv);
    docs_total = static_cast<uint64_t>(std::count(std::istreambuf_iterator<char>(in), {}, '\n'));
    corpus = std::make_unique<TsvCorpus>(tsv);
  }
  std::unique_ptr<Engine> e;
  if (reuse) {
    // Opened for search only below; the writers would truncate the index.
  } else if (engine == "lakeqa") e = std::make_unique<LakeqaEngine>(dir);
  else if (engine == "lakeqa-merged") e = std::make_unique<LakeqaEngine>(dir, true);
  else if (engine == "lakeqa-fieldsum") e = std::make_unique<LakeqaEngine>(dir, false, true);
  else if (engine == "xapian") e = std::make_unique<XapianEngine>(dir);
  else if (engine == "fts5") e = std::make_unique<Fts5Engine>(dir);
  else if (engine == "dump") e = std::make_unique<DumpEngine>(out);
  else Die("unknown engine " + engine);

  QueryPicker picker(seed, per_class, docs_total);
  auto t0 = Clock::now();
  double gen = 0;
  uint64_t n = 0, text_bytes = 0;
  Document d;
  for (;;) {
    auto g = Clock::now();
    bool more = corpus->Next(d);
    if (more) picker.Offer(n, d);
    gen += Since(g);
    if (!more) break;
    for (const auto& [f, v] : d.fields) text_bytes += v.size();
    if (e) e->Add(d);
    ++n;
  }
  if (e) {
    e->Finish();
  } else if (engine == "lakeqa" || engine == "lakeqa-merged" || engine == "lakeqa-fieldsum") {
    e = std::make_unique<LakeqaEngine>(LakeqaEngine::ForSearch{}, dir, engine == "lakeqa-fieldsum");
  } else {
    Die("--reuse is implemented for --engine lakeqa only");
  }
  if (engine == "dump") {
    std::ofstream q(out + ".queries.tsv");
    for (const auto& [terms, qs] : picker.set().by_terms) {
      for (const auto& words : qs) {
        q << terms << '\t';
        for (size_t j = 0; j < words.size(); ++j) q << (j ? " " : "") << words[j];
        q << '\n';
      }
    }
    std::ofstream p(out + ".params.tsv");
    lakeqa::index::RankingParams r = lakeqa::index::RankingParams::FromSchema(DatasetSchema());
    p << "k1\t" << r.k1 << '\n';
    for (const auto& [name, f] : r.fields) p << "field\t" << name << '\t' << f.weight << '\t' << f.b << '\n';
    std::cout << "{\"corpus\": \"" << corpus->Name() << "\", \"docs\": " << n << "}\n";
    return q && p ? 0 : 2;
  }
  double index_s = Since(t0) - gen;
  long rss_index = PeakRssKb();
  uint64_t bytes = DirBytes(dir);

  e->OpenForSearch();
  std::string json = fmt::format(
      "{{\"engine\": \"{}\", \"corpus\": \"{}\", \"docs\": {}, \"text_bytes\": {}, \"index_seconds\": "
      "{:.3f}, "
      "\"generation_seconds\": {:.3f}, \"docs_per_s\": {:.1f}, \"index_bytes\": {}, \"rss_after_index_kb\": "
      "{}, "
      "\"latency_us\": {{",
      engine, corpus->Name(), n, text_bytes, index_s, gen, static_cast<double>(n) / index_s, bytes,
      rss_index);
  std::ofstream top(out + ".top10");
  bool first = true;
  for (size_t k : {size_t{10}, size_t{100}}) {
    for (const auto& [terms, qs] : picker.set().by_terms) {
      if (!classes.empty() && !classes.count(fmt::format("{}:{}", k, terms))) continue;
      // Warm-up: the first queries page the index in; every engine gets the same.
      for (size_t i = 0; i < std::min<size_t>(10, qs.size()); ++i) e->Search(qs[i], k);
      std::vector<double> us;
      double hits = 0;
      for (const auto& q : qs) {
        auto t = Clock::now();
        std::vector<std::string> ids = e->Search(q, k);
        us.push_back(Since(t) * 1e6);
        hits += static_cast<double>(ids.size());
        if (k == 10) {
          for (size_t j = 0; j < q.size(); ++j) top << (j ? " " : "") << q[j];
          top << "\t";
          for (size_t j = 0; j < ids.size(); ++j) top << (j ? " " : "") << ids[j];
          top << "\n";
        }
      }
      json += fmt::format(
          "{}\"top{}_{}term\": {{\"queries\": {}, \"p50\": {:.1f}, \"p99\": {:.1f}, \"mean_hits\": {:.1f}}}",
          first ? "" : ", ", k, terms, qs.size(), Percentile(us, 0.5), Percentile(us, 0.99),
          hits / static_cast<double>(std::max<size_t>(1, qs.size())));
      first = false;
    }
  }
  if (!scores.empty()) {
    // Exactness check for changes to the searcher: every query's top-10 and top-100 ids and scores, for
    // comparing binaries byte by byte; each is also checked against exhaustive scoring (no pruning).
    auto* lq = dynamic_cast<LakeqaEngine*>(e.get());
    if (lq == nullptr) Die("--scores is implemented for the lakeqa engines only");
    std::ofstream sc(scores);
    uint64_t checked = 0, differ = 0;
    for (size_t k : {size_t{10}, size_t{100}}) {
      for (const auto& [terms, qs] : picker.set().by_terms) {
        for (const auto& q : qs) {
          std::string line = lq->Scored(q, k, false);
          ++checked;
          if (line != lq->Scored(q, k, true)) {
            ++differ;
            std::string words;
            for (const auto& w : q) words += (words.empty() ? "" : " ") + w;
            std::cerr << "pruned and exhaustive results differ at top-" << k << " for: " << words << "\n";
          }
          sc << k << '\t';
          for (size_t j = 0; j < q.size(); ++j) sc << (j ? " " : "") << q[j];
          sc << '\t' << line << '\n';
        }
      }
    }
    std::cerr << checked << " queries written to " << scores << ", " << differ
              << " differ from exhaustive scoring\n";
    if (!sc || differ > 0) return 1;
  }
  json += fmt::format("}}, \"peak_rss_kb\": {}}}\n", PeakRssKb());
  std::ofstream(out + ".json") << json;
  std::cout << json;
  return 0;
}
