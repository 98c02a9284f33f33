// The synthetic lake's vocabulary: data.gov-like topics (title, Table 10 theme, tags, columns), places,
// publishers, the words of name-like cells, and county names. The lake synthesiser (synth.cc) draws from
// them, and so does the search benchmark's synthetic catalog (bench/search_engines.cc), so that its
// documents have the words and shapes a synthetic lake's index holds.
#pragma once

#include <array>
#include <vector>

namespace lakeqa::ingest {

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
