// The synthetic lake's random stream and vocabulary: data.gov-like topics (title, Table 10 theme, tags,
// columns), places, publishers, the words of name-like cells, and county names. The lake synthesiser
// (synth.cc) draws from them, and so does the search benchmark's synthetic catalog
// (bench/search_engines.cc), so that its documents have the words and shapes a synthetic lake's index holds.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace lakeqa::ingest {

// splitmix64: a counter-based generator, so dataset i's stream depends only on (seed, i), and a
// benchmark's document i likewise.
class SynthRng {
 public:
  explicit SynthRng(uint64_t seed) : s_(seed) {}
  uint64_t Next() {
    uint64_t z = (s_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  uint64_t Below(uint64_t n) { return n ? Next() % n : 0; }
  double Unit() { return static_cast<double>(Next() >> 11) / 9007199254740992.0; }
  bool Chance(double p) { return Unit() < p; }
  template <typename T, std::size_t N>
  const T& Pick(const std::array<T, N>& a) {
    return a[Below(N)];
  }
  template <typename T>
  const T& Pick(const std::vector<T>& a) {
    return a[Below(a.size())];
  }

 private:
  uint64_t s_;
};

struct SynthTopic {
  const char* slug;
  const char* title;
  const char* theme;  // a Table 10 theme, so categories spread over all 8
  std::vector<const char*> tags;
  std::vector<const char*> columns;
};

const std::vector<SynthTopic>& SynthTopics();

extern const std::array<const char*, 16> kSynthPlaces;
extern const std::array<const char*, 10> kSynthPublishers;
extern const std::array<const char*, 12> kSynthNameWords;  // first names and compass words
extern const std::array<const char*, 24> kSynthCounties;

}  // namespace lakeqa::ingest
