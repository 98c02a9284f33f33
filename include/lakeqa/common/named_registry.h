// A list of named specs that modules extend at start-up: a benchmark's source kind, task format or report
// section (ingest/source_kind.h, eval/task_format.h, eval/report_section.h). One registry shape, so that the
// rules "same name replaces" and "ordered as registered, or before a named entry" are written once.
#pragma once

#include <deque>
#include <string_view>
#include <utility>

namespace lakeqa {

// Spec needs a `name` member comparable with a string_view. Entries live in a deque: a pointer to one stays
// valid while others are added last, not when one is placed before another (a deque's insert in the middle
// moves its items). There is no lock: registries are filled at start-up (src/cli/benchmarks.cc), before any
// reader runs or holds a pointer.
template <typename Spec>
class NamedRegistry {
 public:
  NamedRegistry() = default;
  explicit NamedRegistry(std::deque<Spec> built_in) : entries_(std::move(built_in)) {}

  // Adds `spec`, or replaces the entry of the same name in place (registering twice is harmless). A new
  // entry goes before the one named `before`, or last when `before` is empty or names no entry.
  void Add(Spec spec, std::string_view before = {}) {
    for (Spec& e : entries_) {
      if (e.name == spec.name) {
        e = std::move(spec);
        return;
      }
    }
    auto at = entries_.end();
    if (!before.empty())
      for (auto it = entries_.begin(); it != entries_.end(); ++it)
        if (it->name == before) at = it;
    entries_.insert(at, std::move(spec));
  }

  // The entry named `name`, or nullptr.
  const Spec* Find(std::string_view name) const {
    for (const Spec& e : entries_)
      if (e.name == name) return &e;
    return nullptr;
  }

  const std::deque<Spec>& All() const { return entries_; }

 private:
  std::deque<Spec> entries_;
};

}  // namespace lakeqa
