// The analysis chain shared by indexing and querying: tokenizer -> fold -> (stop words) -> stemmer.
//
// Identifiers keep their shape: a run of letters/digits joined by one of `-_./` ("2017-18", "K-8",
// "apd-searches-by-type", "file_name.csv") is emitted whole (folded, not stemmed) AND as its parts, all at
// the same position, so that `2017-18`, `vadir` and `searches` all find "vadir-searches_2017-18.csv".
// Plain words are folded and stemmed with Snowball English; stop words are dropped only from plain words
// and only when enabled (they never leave identifiers).
//
// Year spans ("2008–09", "2008-09", "1999/2000", "2007–2008"; hyphen, slash, en or em dash; start year
// 1800-2099, ending 1 to 10 years later) are one token in a canonical form, "2008-09" for a one-year span
// ("1999-00" for 1999–2000) and "1999-2004" for longer ones, plus every year they cover as parts at the
// same position ("2008", "2009"): "2008–09" and "2008-2009" are the same term, and "2009" finds the
// 2008–09 season. A date such as 2007-08-15 is not a span.
//
// An Analyzer owns a libstemmer instance, which is not thread-safe: use one Analyzer per thread. Results
// live in buffers the Analyzer reuses, so analysing does not allocate per token once warmed up.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

struct sb_stemmer;  // libstemmer

namespace lakeqa::text {

struct AnalyzerOptions {
  bool stem = true;
  bool stop_words = false;    // drop English stop words from plain words
  bool strip_accents = true;  // "café" -> "cafe"
  bool split_identifiers = true;
  bool year_spans = true;          // see above
  uint32_t max_token_bytes = 128;  // longer (folded) tokens are skipped
};

enum class TokenKind : uint8_t {
  kWord,      // a plain word or number
  kCompound,  // an identifier kept whole ("2017-18")
  kPart,      // a part of an identifier ("2017", "18"), same position as its whole
};

struct Token {
  uint32_t term_offset;  // into the Analyzer's term buffer; use Analyzer::Term()
  uint32_t term_size;
  uint32_t position;    // word position (parts share their compound's position)
  uint32_t start, end;  // byte offsets of the source span in the analysed text
  TokenKind kind;
};

class Analyzer {
 public:
  explicit Analyzer(AnalyzerOptions options = {});
  ~Analyzer();
  Analyzer(Analyzer&&) noexcept;
  Analyzer& operator=(Analyzer&&) noexcept;
  Analyzer(const Analyzer&) = delete;
  Analyzer& operator=(const Analyzer&) = delete;

  // Tokenises `text`; positions start at `position_base`. The returned tokens (and Term() views) stay
  // valid until the next call.
  const std::vector<Token>& Analyze(std::string_view text, uint32_t position_base = 0);
  std::string_view Term(const Token& t) const { return {terms_.data() + t.term_offset, t.term_size}; }
  // Positions the last Analyze call consumed (words seen, stop words included): the next value's base.
  uint32_t positions_used() const { return positions_used_; }
  // Distinct positions that produced at least one token: the field length used by BM25.
  uint32_t length() const { return length_; }
  const AnalyzerOptions& options() const { return options_; }

 private:
  void EmitWord(std::string_view text, size_t begin, size_t end, const std::vector<uint32_t>& cuts,
                uint32_t position);
  // A year span starting at text[begin]; returns its end (0 if there is none) and emits its tokens.
  size_t EmitYearSpan(std::string_view text, size_t begin, uint32_t position);
  bool Fold(std::string_view raw, bool stem, bool drop_stop, uint32_t* offset, uint32_t* size);

  AnalyzerOptions options_;
  struct StemmerDeleter {
    void operator()(::sb_stemmer* s) const;
  };
  std::unique_ptr<::sb_stemmer, StemmerDeleter> stemmer_;
  std::vector<Token> tokens_;
  std::string terms_;
  std::vector<uint32_t> cuts_;
  uint32_t positions_used_ = 0;
  uint32_t length_ = 0;
};

// True if `folded` is in the built-in English stop word list (Lucene's/Snowball's short list).
bool IsStopWord(std::string_view folded);

// Question phrasing that says what kind of answer is wanted, not what it is about: interrogatives,
// auxiliaries, pronouns and quantifiers ("how", "many", "did", "you", "me"). Queries drop them like stop
// words.
bool IsQuestionWord(std::string_view folded);
// Request verbs that open a question ("tell", "list", "identify", "calculate", "name"): dropped only in
// the run of dropped words a query starts with ("Can you tell me ...", "List the ..."), since elsewhere
// they may be the topic ("list of broadcasters").
bool IsRequestWord(std::string_view folded);

// The canonical form of the year span "<start>-<end>" ("2008-09", "1999-00", "1999-2004"); see above.
std::string YearSpanTerm(int start, int end);

}  // namespace lakeqa::text
