// A brute-force reference for the searcher: analyses every document itself, keeps plain maps, and
// scores every document against the query with the documented formula. Slow and obviously right.
#pragma once

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

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
          for (const text::Token& t : a.Analyze(value, base[f])) r.terms[f][std::string(a.Term(t))].push_back(t.position);
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
        for (const auto& [term, pos] : r.terms[f]) vocab_[f].insert(term);
      }
      docs_.push_back(std::move(r));
    }
  }

  struct Output {
    std::vector<RefHit> ranked;  // every match, best first
    std::map<std::string, std::map<std::string, uint64_t>> facets;
  };

  Output Run(const Query& q, const SearchOptions& o, const std::vector<std::string>& facet_fields = {}) const {
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
    // Expand to (field, term), sorted like the engine's canonical order.
    std::set<std::pair<int, std::string>> pairs;
    for (const TermClause& t : q.terms) {
      for (size_t f = 0; f < nf; ++f) {
        if (!fields[f].text || (t.field >= 0 && static_cast<size_t>(t.field) != f)) continue;
        if (!t.prefix) {
          pairs.emplace(static_cast<int>(f), t.term);
          continue;
        }
        size_t n = 0;
        for (auto it = vocab_[f].lower_bound(t.term); it != vocab_[f].end(); ++it) {
          if (it->compare(0, t.term.size(), t.term) != 0 || n++ == o.max_prefix_expansions) break;
          pairs.emplace(static_cast<int>(f), *it);
        }
      }
    }
    struct C {
      int f;
      std::string term;
      double idf;
    };
    std::vector<C> cs;
    for (const auto& [f, term] : pairs) {
      double df = 0;
      for (const RefDoc& d : docs_) df += d.terms[f].count(term);
      if (df == 0) continue;
      cs.push_back({f, term, std::log(1.0 + (docs_with[f] - df + 0.5) / (df + 0.5))});
    }
    Output out;
    for (const RefDoc& d : docs_) {
      if (!Passes(d, q)) continue;
      double score = 0;
      bool any = false;
      for (const C& c : cs) {
        auto it = d.terms[c.f].find(c.term);
        if (it == d.terms[c.f].end()) continue;
        any = true;
        double tf = static_cast<double>(it->second.size());
        double avg = sum_len[c.f] / docs_with[c.f];
        double kk = o.k1 * (1.0 - o.b + o.b * static_cast<double>(d.qlen[c.f]) / avg);
        score += fields[c.f].weight * c.idf * tf * (o.k1 + 1.0) / (tf + kk);
      }
      if (!any && !q.terms.empty()) continue;
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
  std::vector<std::set<std::string>> vocab_;  // per field, every term of the documents
};

}  // namespace lakeqa::index::testing
