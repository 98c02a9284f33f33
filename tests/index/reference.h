// A brute-force reference for the searcher: analyses every document itself, keeps plain maps, and
// scores every document against the query with BM25F as ranking.h writes it (per-field weighted,
// length-normalised term frequencies over the fields a term may match, summed before one saturation; one
// idf per term from its largest per-field df; the proximity bonus in a field both terms may match). Slow
// and obviously right: every document is scored, every df counted while indexing the documents.
#pragma once

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "lakeqa/index/ranking.h"
#include "lakeqa/index/schema.h"
#include "lakeqa/index/searcher.h"
#include "lakeqa/text/analyzer.h"
#include "lakeqa/text/normalize.h"

namespace lakeqa::index::testing {

struct RefDoc {
  std::string id;
  // per field: term -> positions
  std::vector<std::map<std::string, std::vector<uint32_t>>> terms;
  std::vector<uint32_t> qlen;  // quantised length per field
  std::vector<std::set<std::string>> keywords;
};

struct RefHit {
  std::string id;
  double score;
};

class Reference {
 public:
  Reference(const Schema& schema, const std::vector<Document>& docs) : schema_(schema) {
    text::Analyzer a;
    size_t nf = schema.fields().size();
    for (const Document& d : docs) {
      RefDoc r;
      r.id = d.id;
      r.terms.resize(nf);
      r.keywords.resize(nf);
      std::vector<uint32_t> len(nf, 0), base(nf, 0);
      for (const auto& [name, value] : d.fields) {
        int f = schema.Find(name);
        const FieldSpec& spec = schema.fields()[f];
        if (spec.text) {
          for (const text::Token& t : a.Analyze(value, base[f]))
            r.terms[f][std::string(a.Term(t))].push_back(t.position);
          len[f] += a.length();
          base[f] += a.positions_used() + kValuePositionGap;
        }
        if (spec.keyword) {
          std::string v = text::FoldKeyword(value);
          if (!v.empty()) r.keywords[f].insert(v);
        }
      }
      for (size_t f = 0; f < nf; ++f) r.qlen.push_back(DecodeLength(EncodeLength(len[f])));
      vocab_.resize(nf);
      for (size_t f = 0; f < nf; ++f) {
        for (const auto& [term, pos] : r.terms[f]) ++vocab_[f][term];
      }
      docs_.push_back(std::move(r));
    }
  }

  struct Output {
    std::vector<RefHit> ranked;  // every match, best first
    std::map<std::string, std::map<std::string, uint64_t>> facets;
  };

  // Every match scored by BM25F (ranking.h) with `ranking`, best first.
  Output Run(const Query& q, const SearchOptions& o, const RankingParams& ranking,
             const std::vector<std::string>& facet_fields = {}) const {
    const auto& fields = schema_.fields();
    size_t nf = fields.size();
    std::vector<double> docs_with(nf, 0), sum_len(nf, 0);
    for (const RefDoc& d : docs_) {
      for (size_t f = 0; f < nf; ++f) {
        if (fields[f].text && d.qlen[f] > 0) {
          docs_with[f] += 1;
          sum_len[f] += d.qlen[f];
        }
      }
    }
    // (restriction, term) in canonical order; the first clause that names it decides its position and
    // whether it may pair. Prefixes expand per field to the first max_prefix_expansions terms.
    struct Src {
      uint32_t position;
      bool pairs;
      double boost;
    };
    std::map<std::pair<int, std::string>, Src> wanted;
    for (const TermClause& t : q.terms) {
      if (!t.prefix) {
        wanted.try_emplace({t.field, t.term},
                           Src{t.position, !t.inferred && t.kind != text::TokenKind::kPart, t.boost});
        continue;
      }
      for (size_t f = 0; f < nf; ++f) {
        if (!fields[f].text || (t.field >= 0 && static_cast<size_t>(t.field) != f)) continue;
        size_t n = 0;
        for (auto it = vocab_[f].lower_bound(t.term); it != vocab_[f].end(); ++it) {
          if (it->first.compare(0, t.term.size(), t.term) != 0 || n++ == o.max_prefix_expansions) break;
          wanted.try_emplace({t.field, it->first}, Src{t.position, false, t.boost});
        }
      }
    }
    struct T {
      std::string term;
      std::vector<int> fields;  // allowed fields that hold the term somewhere
      double idf;
      Src src;
    };
    std::vector<T> ts;
    const double n_docs = static_cast<double>(docs_.size());
    for (const auto& [key, src] : wanted) {
      T t{key.second, {}, 0, src};
      double df = 0;
      for (size_t f = 0; f < nf; ++f) {
        if (!fields[f].text || (key.first >= 0 && static_cast<size_t>(key.first) != f)) continue;
        auto v = vocab_[f].find(t.term);
        if (v == vocab_[f].end()) continue;
        double field_df = static_cast<double>(v->second);
        t.fields.push_back(static_cast<int>(f));
        df = std::max(df, field_df);  // the term's df is its largest per-field df
      }
      if (df == 0) continue;
      t.idf = std::log(1.0 + (n_docs - df + 0.5) / (df + 0.5));
      ts.push_back(std::move(t));
    }
    double max_w = 0;
    for (const auto& [name, fr] : ranking.fields) max_w = std::max(max_w, fr.weight);
    Output out;
    for (const RefDoc& d : docs_) {
      if (!Passes(d, q)) continue;
      double score = 0;
      bool any = false;
      std::vector<bool> present(ts.size(), false);
      for (size_t i = 0; i < ts.size(); ++i) {
        double x = 0, data = 0;
        bool held = false;
        for (int f : ts[i].fields) {
          auto it = d.terms[f].find(ts[i].term);
          if (it == d.terms[f].end()) continue;
          held = true;
          const FieldRanking& fr = ranking.fields.at(fields[f].name);
          double avg = sum_len[f] / docs_with[f];
          double tf = static_cast<double>(it->second.size());
          double n = tf / (1.0 - fr.b + fr.b * static_cast<double>(d.qlen[f]) / avg);
          if (fr.data) {
            // A data field: its own saturation, its weight outside it (ranking.h).
            data += ts[i].src.boost * ts[i].idf * fr.weight * n / (n + ranking.data_k1);
          } else {
            x += fr.weight * n;
          }
        }
        if (!held) continue;
        any = present[i] = true;
        if (x > 0) score += ts[i].src.boost * ts[i].idf * x * (ranking.k1 + 1.0) / (x + ranking.k1);
        score += data;
      }
      if (!any && !q.terms.empty()) continue;
      if (ranking.proximity > 0) {
        for (size_t a = 0; a < ts.size(); ++a) {
          for (size_t b = 0; b < ts.size(); ++b) {
            if (a == b || !ts[a].src.pairs || !ts[b].src.pairs ||
                ts[b].src.position != ts[a].src.position + 1)
              continue;
            bool shared = false;
            for (int f : ts[a].fields) shared |= std::count(ts[b].fields.begin(), ts[b].fields.end(), f) > 0;
            if (!shared || !present[a] || !present[b]) continue;
            double best = 0;
            for (int f : ts[a].fields) {
              // Only a field both terms may match: `columns:tes` next to `ga` pairs in columns alone,
              // even when the document holds "tes" beside "ga" in another field.
              if (std::count(ts[b].fields.begin(), ts[b].fields.end(), f) == 0) continue;
              auto pa = d.terms[f].find(ts[a].term), pb = d.terms[f].find(ts[b].term);
              if (pa == d.terms[f].end() || pb == d.terms[f].end()) continue;
              double w = ranking.fields.at(fields[f].name).weight;
              if (w > best && Near(pa->second, pb->second)) best = w;
            }
            score += ranking.proximity * std::min(ts[a].idf, ts[b].idf) * best / max_w;
          }
        }
      }
      out.ranked.push_back({d.id, score});
      for (const std::string& ff : facet_fields) {
        int f = schema_.Find(ff);
        for (const std::string& v : d.keywords[f]) ++out.facets[ff][v];
      }
    }
    std::sort(out.ranked.begin(), out.ranked.end(), [](const RefHit& a, const RefHit& b) {
      return a.score > b.score || (a.score == b.score && a.id < b.id);
    });
    return out;
  }

 private:
  // Two positions 1 or 2 apart, in either order.
  static bool Near(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
    for (uint32_t p : a) {
      for (uint32_t q : b) {
        if (p != q && (p > q ? p - q : q - p) <= kProximityWindow) return true;
      }
    }
    return false;
  }

  bool Passes(const RefDoc& d, const Query& q) const {
    for (const FilterClause& f : q.filters) {
      bool any = false;
      for (const std::string& v : f.values) any |= d.keywords[f.field].count(v) > 0;
      if (!any) return false;
    }
    for (const PhraseClause& ph : q.phrases) {
      bool found = false;
      for (size_t f = 0; f < schema_.fields().size() && !found; ++f) {
        if (!schema_.fields()[f].text || (ph.field >= 0 && static_cast<size_t>(ph.field) != f)) continue;
        auto first = d.terms[f].find(ph.terms[0].first);
        if (first == d.terms[f].end()) continue;
        for (uint32_t p0 : first->second) {
          if (p0 < ph.terms[0].second) continue;
          uint32_t p = p0 - ph.terms[0].second;
          bool all = true;
          for (const auto& [term, off] : ph.terms) {
            auto it = d.terms[f].find(term);
            if (it == d.terms[f].end() ||
                std::find(it->second.begin(), it->second.end(), p + off) == it->second.end()) {
              all = false;
              break;
            }
          }
          if (all) {
            found = true;
            break;
          }
        }
      }
      if (!found) return false;
    }
    return true;
  }

  Schema schema_;
  std::vector<RefDoc> docs_;
  std::vector<std::map<std::string, uint64_t>> vocab_;  // per field, every term of the documents -> df
};

}  // namespace lakeqa::index::testing
