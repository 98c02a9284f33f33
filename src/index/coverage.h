// What time a dataset covers, read from its metadata and sampled dates: the months and years the
// `coverage` field of its search document holds. Months make "March" find a game log whose dates are
// "March 2", "March 4", ...; numeric dates ("2019-03-15", "3/15/2019") give their month names too.
#pragma once

#include <set>
#include <string>
#include <string_view>

namespace lakeqa::index {

struct Coverage {
  std::set<int> months;  // 1..12
  std::set<int> years;   // 1800..2099

  // Years of a title or temporal text: every 4-digit year and every year of a span ("2008–09").
  void AddYears(std::string_view text);
  // Dates in a value: month names (full or abbreviated, unless numeric_only), ISO (2019-03, 2019-03-15,
  // 2019/03/15) and US (3/15/2019, 03/15/19) dates; dates with a year add the year.
  void AddDates(std::string_view value, bool numeric_only);
  bool empty() const { return months.empty() && years.empty(); }
  // "<months>; <years>": "March, April; 2008–2009", "; 1999, 2003" (a run of 3 or more consecutive
  // years is written as a span), "" when nothing is known.
  std::string Text() const;
};

// The years part of a Coverage::Text() ("2008–2009" above), or "".
std::string CoverageYears(std::string_view text);

}  // namespace lakeqa::index
