// Walks the lines of a text held in memory, as every JSONL reader (predictions, traces, cassettes, run
// logs) needs: the 1-based line number for messages, blank lines skipped, and whether a newline ended
// the line. Writers append one whole line per write(), so a line without its newline can only be the
// last one, left by a kill mid-append ("torn"); readers skip it where a rerun redoes its work.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "lakeqa/common/status.h"

namespace lakeqa {

class LineReader {
 public:
  explicit LineReader(std::string_view text) : text_(text) {}

  // Moves to the next line holding more than spaces, tabs and carriage returns; false at the end.
  bool Next() {
    while (pos_ < text_.size()) {
      size_t nl = text_.find('\n', pos_);
      complete_ = nl != std::string_view::npos;
      size_t end = complete_ ? nl : text_.size();
      line_ = text_.substr(pos_, end - pos_);
      pos_ = complete_ ? nl + 1 : text_.size();
      ++number_;
      if (line_.find_first_not_of(" \t\r") != std::string_view::npos) return true;
    }
    return false;
  }
  std::string_view line() const { return line_; }
  size_t number() const { return number_; }
  // False for a last line without its newline.
  bool complete() const { return complete_; }

 private:
  std::string_view text_, line_;
  size_t pos_ = 0, number_ = 0;
  bool complete_ = true;
};

// Cuts a stream read in chunks (a file, a decompressor, an HTTP body) into lines without their '\n',
// keeping the unfinished line between chunks. A line that fits in one chunk is passed without a copy.
class ChunkedLines {
 public:
  // `max_line`: the longest unfinished line kept; past it, overflow() says so and the reader gives up with
  // its own message (naming its file), rather than holding a runaway line in memory.
  explicit ChunkedLines(size_t max_line) : max_(max_line) {}

  // Calls on_line(std::string_view) for each line `chunk` completes; on_line returns Status (the first
  // error stops and is returned) or nothing.
  template <typename Fn>
  Status Feed(std::string_view chunk, Fn&& on_line) {
    size_t start = 0;
    for (size_t nl; (nl = chunk.find('\n', start)) != std::string_view::npos; start = nl + 1) {
      Status s;
      if (!tail_.empty()) {
        tail_.append(chunk.substr(start, nl - start));
        s = Call(on_line, std::string_view(tail_));
        tail_.clear();
      } else {
        s = Call(on_line, chunk.substr(start, nl - start));
      }
      if (!s.ok()) return s;
    }
    tail_.append(chunk.substr(start));
    return Status::Ok();
  }
  // At the end of the stream: the last line, when it has no newline.
  template <typename Fn>
  Status Finish(Fn&& on_line) {
    if (tail_.empty()) return Status::Ok();
    std::string last = std::move(tail_);
    tail_.clear();
    return Call(on_line, std::string_view(last));
  }
  bool overflow() const { return tail_.size() > max_; }

 private:
  template <typename Fn>
  static Status Call(Fn& fn, std::string_view line) {
    if constexpr (std::is_void_v<std::invoke_result_t<Fn&, std::string_view>>) {
      fn(line);
      return Status::Ok();
    } else {
      return fn(line);
    }
  }
  size_t max_;
  std::string tail_;
};

}  // namespace lakeqa
