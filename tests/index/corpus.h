// Deterministic synthetic dataset documents and queries for the index tests and benchmarks.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "lakeqa/index/schema.h"

namespace lakeqa::index::testing {

inline std::vector<std::string> Vocabulary(size_t n, uint32_t seed) {
  static const char* kSyl[] = {"ba", "ko",  "ri",  "tes", "mun", "dal", "ve", "sor", "pi",  "lan",
                               "qu", "zen", "hor", "ga",  "ni",  "cri", "me", "aus", "tin", "ed"};
  std::mt19937 rng(seed);
  std::vector<std::string> words;
  while (words.size() < n) {
    std::string w;
    int syl = 1 + static_cast<int>(rng() % 3);
    for (int i = 0; i < syl; ++i) w += kSyl[rng() % 20];
    words.push_back(w);
  }
  return words;
}

class CorpusGen {
 public:
  explicit CorpusGen(uint32_t seed, size_t vocab = 400) : rng_(seed), words_(Vocabulary(vocab, seed + 1)) {}

  // Zipf-like: low indexes are frequent.
  const std::string& Word() {
    double u = std::uniform_real_distribution<double>(0, 1)(rng_);
    return words_[static_cast<size_t>(u * u * u * static_cast<double>(words_.size()))];
  }
  std::string Words(int lo, int hi) {
    int n = lo + static_cast<int>(rng_() % static_cast<uint32_t>(hi - lo + 1));
    std::string s;
    for (int i = 0; i < n; ++i) {
      if (i) s += rng_() % 9 == 0 ? ", " : " ";
      if (rng_() % 40 == 0) s += kIdents[rng_() % 5];
      else s += Word();
    }
    return s;
  }
  Document Doc(size_t i) {
    static const char* kCat[] = {"Public Safety",  "Education", "Health",
                                 "Transportation", "Finance",   "Environment"};
    static const char* kFmt[] = {"CSV", "json", "XLSX", "pdf"};
    Document d;
    d.id = "ds-" + std::to_string(i);
    d.Add("title", Words(2, 6));
    d.Add("description", Words(5, 40));
    for (int t = static_cast<int>(rng_() % 3); t > 0; --t) d.Add("tags", Word());
    d.Add("category", kCat[rng_() % 6]);
    d.Add("namespace", rng_() % 4 ? "datagov" : "wikipedia");
    d.Add("format", kFmt[rng_() % 4]);
    if (rng_() % 3 == 0) d.Add("format", kFmt[rng_() % 4]);
    for (int t = 1 + static_cast<int>(rng_() % 2); t > 0; --t)
      d.Add("file_names", Word() + "_" + Word() + ".csv");
    for (int t = 2 + static_cast<int>(rng_() % 5); t > 0; --t)
      d.Add("columns", rng_() % 2 ? Word() + "_" + Word() : Word());
    if (rng_() % 2) d.Add("content", Words(0, 80));
    return d;
  }
  std::mt19937& rng() { return rng_; }
  const std::vector<std::string>& words() const { return words_; }

  // A query string in the searcher's syntax; phrases come from a real document so that they match.
  std::string QueryText(const std::vector<Document>& docs) {
    std::string q;
    int n = 1 + static_cast<int>(rng_() % 3);
    for (int i = 0; i < n; ++i) q += Word() + " ";
    if (rng_() % 5 == 0) q += words_[rng_() % words_.size()].substr(0, 2 + rng_() % 2) + "* ";
    if (rng_() % 10 == 0) q += kIdents[rng_() % 5] + std::string(" ");
    if (rng_() % 6 == 0) {
      const std::string& desc = docs[rng_() % docs.size()].fields[1].second;
      size_t sp = desc.find(' ');
      if (sp != std::string::npos) {
        size_t sp2 = desc.find(' ', sp + 1);
        q += "\"" + desc.substr(0, sp2) + "\" ";
      }
    }
    if (rng_() % 5 == 0) q += "category:\"Public Safety\" ";
    if (rng_() % 6 == 0) q += "format:csv format:json ";
    if (rng_() % 8 == 0) q += "columns:" + Word() + " ";
    return q;
  }

 private:
  static constexpr const char* kIdents[] = {"2017-18", "K-8", "vadir", "apd-searches-by-type",
                                            "file_name.csv"};
  std::mt19937 rng_;
  std::vector<std::string> words_;
};

}  // namespace lakeqa::index::testing
