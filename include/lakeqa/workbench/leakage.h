// The leakage check of the rewrite step: a task's final question must not hand the solver its documents.
// It flags, in the question, what points straight at a source (docs/ui.md, "Leakage check"):
//  - dataset_id: an identifier-like dataset id ("noaa-gsod-2019", "t_1_X") written out;
//  - file: a source's file name or path ("rows.txt", "files/rows.txt");
//  - title: a catalogue title of two or more words written out (or three of its words in a row); Wikipedia
//    page titles are exempt — they name the entity a question is about;
//  - rare_token: a word of a source's id, title, file names or columns that (almost) no other dataset of
//    the index holds, so searching for it finds the source at once;
//  - answer: an intermediate answer (it gives a hop away) or the final answer; an answer written with a
//    capital letter is a name and matches only as written ("Reading" the town, not "reading" the verb).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "lakeqa/common/json_fwd.h"

namespace lakeqa::workbench {

struct LeakSource {
  std::string node;        // the node that uses it
  std::string ns;          // namespace
  std::string dataset_id;  // without the namespace
  std::string title;       // catalogue title ("" when unknown)
  std::string file_path;   // relative to the dataset
  std::vector<std::string> columns;
};

struct LeakAnswer {
  std::string node;  // "" for the task's final answer
  std::string text;
};

struct LeakFlag {
  std::string kind;     // dataset_id | file | title | rare_token | answer
  std::string text;     // what the question contains
  std::string node;     // the node whose source or answer it comes from ("" for the final answer)
  std::string message;  // why it is flagged and what to do
  Json ToJson() const;
};

struct LeakOptions {
  // A word is rare when at most this many datasets hold it (at least 1: the source itself) ...
  uint64_t rare_max_datasets = 1;
  // ... or at most this fraction of all datasets, whichever is larger.
  double rare_max_fraction = 0.001;
  uint64_t total_datasets = 0;
};

// `datasets_with`: how many datasets of the index hold a word (nullopt when unknown: the rare-token rule
// is then skipped for it, never guessed).
std::vector<LeakFlag> CheckLeakage(
    const std::string& question, const std::vector<LeakSource>& sources,
    const std::vector<LeakAnswer>& answers,
    const std::function<std::optional<uint64_t>(const std::string&)>& datasets_with,
    const LeakOptions& options);

}  // namespace lakeqa::workbench
