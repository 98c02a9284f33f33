// The LakeQA paper's Table 10: data.gov themes mapped to 8 main categories. Exact theme names first
// (case-insensitive); then keywords over themes, tags and finally the title, in that order of trust. The
// keywords were written for data.gov records: a dataset without themes or tags (a Wikipedia page, a CMDBench
// table) gets no category, since its title alone misfires ("Shooting Stars", "Portland Fire").
#include <cctype>
#include <cstring>
#include <map>
#include <unordered_map>

#include "lakeqa/common/strings.h"
#include "lakeqa/ingest/metadata.h"

namespace lakeqa::ingest {
namespace {

struct CategoryThemes {
  const char* category;
  std::vector<const char*> themes;    // Table 10's "Original Themes", verbatim
  std::vector<const char*> keywords;  // lower-case word prefixes for everything else
};

const std::vector<CategoryThemes>& Table10() {
  static const std::vector<CategoryThemes> kTable = {
      {"Government & Admin",
       {"Administration & Finance",
        "Budget",
        "Campaign Finance",
        "Ethics and Elections",
        "City Government",
        "Civic Vitality & Governance",
        "Elections & Politics",
        "Finance",
        "Finance/Tax/Property",
        "Government",
        "Government & Finance",
        "Government Administration",
        "Government and Taxes",
        "Government-Wide Support",
        "Licenses/Permits",
        "Local Government",
        "Politics",
        "Procurements and Contracts",
        "Regulation",
        "Regulatory",
        "Revenue & Expense",
        "Taxes & Tax Credits"},
       {"government",  "budget",      "election", "finance", "tax",      "permit",   "license",
        "procurement", "contract",    "revenue",  "expense", "payroll",  "spending", "council",
        "ethics",      "procurement", "campaign", "voter",   "lobbyist", "salar",    "audit"}},
      {"Environment",
       {"Boundaries", "Energy & Environment", "Energy and Environment", "Environment", "Geography",
        "Geospatial", "Locations and Maps", "Maps", "Natural Resources", "Utilities and City Services"},
       {"environment",      "energy",   "boundar",     "geograph", "geospatial", "map",
        "natural resource", "water",    "air quality", "climate",  "weather",    "utilit",
        "emission",         "wildlife", "forest",      "soil",     "wildfire",   "pollut",
        "greenhouse",       "electric", "solar",       "tree",     "flood"}},
      {"Transportation",
       {"Aviation", "Public Transit", "Railroads", "Roadways and Bridges", "Transportation"},
       {"transport", "transit", "aviation",  "airport",   "rail",     "roadway", "bridge",
        "traffic",   "bus ",    "ridership", "vehicle",   "parking",  "bicycle", "taxi",
        "highway",   "road",    "crash",     "collision", "railroad", "transit"}},
      {"Health & Social",
       {"500 Cities & Places",
        "Child & Adult Welfare",
        "Community/Recreation",
        "COVID-19",
        "Disability Compensation",
        "Family & Health",
        "Health",
        "Health & Human Services",
        "Health and Human Services",
        "Health Insurance",
        "Heart Disease & Stroke Prevention",
        "Human Services",
        "Medicare",
        "National Service",
        "NCHS",
        "Nutrition",
        "Parks & Recreation",
        "Physical Activity",
        "Recreation",
        "Recreation and Culture",
        "Smoking & Tobacco Use",
        "Social Services",
        "State Drug Utilization",
        "Unwinding",
        "Vaccinations"},
       {"health",
        "covid",
        "medic",
        "hospital",
        "disease",
        "welfare",
        "nutrition",
        "vaccin",
        "recreation",
        "park",
        "tobacco",
        "drug",
        "disabilit",
        "human service",
        "social service",
        "wic ",
        "mortality",
        "overdose",
        "death",
        "birth",
        "medicaid",
        "medicare",
        "restaurant inspection",
        "food inspection",
        "food safety",
        "homeless"}},
      {"Research & Demographics",
       {"Community Demographics", "Demographics", "Research and Statistics"},
       {"demograph", "census", "population", "research", "statistic", "survey", "american community survey"}},
      {"Economy & Infrastructure",
       {"Agriculture", "Built Environment", "Business", "Business and Economy", "City Infrastructure",
        "Economic Development", "Economic Statistics", "Economy and Demographics", "Employment", "Housing",
        "Housing & Development", "Housing and Development", "Housing and Real Estate", "Labor",
        "Planning & Zoning", "Public Works", "Sales & Distribution", "Sanitation", "Wireline"},
       {"econom",       "business",    "agricultur", "employment",     "unemployment", "labor",
        "housing",      "real estate", "zoning",     "infrastructure", "public works", "sanitation",
        "income",       "wage",        "industry",   "retail",         "sales",        "building permit",
        "construction", "waste",       "recycl",     "sewer",          "broadband"}},
      {"Public Safety",
       {"Courts", "Equity & Justice", "Public Safety", "Public Safety and Preparedness"},
       {"public safety", "police",   "crime",     "court", "justice",     "fire",    "emergency",
        "arrest",        "incident", "violation", "911",   "corrections", "firearm", "shooting",
        "use of force",  "offense",  "offence",   "jail",  "prison",      "inmate",  "sheriff"}},
      {"Education",
       {"Education", "Enrollment", "Quality"},
       {"education", "school", "enrollment", "student", "universit", "college", "teacher", "graduation",
        "academic", "kindergarten"}},
  };
  return kTable;
}

// The category whose keyword matches best: keywords must start a word ("tax" matches "taxes", not "syntax")
// and the longest match wins ("taxi" beats "tax"); ties go to the earlier row. "" when none matches.
std::string MatchKeywords(std::string_view text) {
  std::string lower = ToLowerAscii(text) + " ";  // so "bus " matches a trailing "bus"
  const char* best = "";
  size_t best_len = 0;
  for (const auto& row : Table10()) {
    for (const char* k : row.keywords) {
      size_t len = std::strlen(k);
      if (len <= best_len) continue;
      for (size_t p = lower.find(k); p != std::string::npos; p = lower.find(k, p + 1)) {
        if (p == 0 || !std::isalnum(static_cast<unsigned char>(lower[p - 1]))) {
          best = row.category;
          best_len = len;
          break;
        }
      }
    }
  }
  return best;
}

}  // namespace

const std::vector<std::string>& ThemeCategories() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> v;
    for (const auto& row : Table10()) v.push_back(row.category);
    return v;
  }();
  return kNames;
}

std::string CategorizeThemes(const DatasetMetadata& m) {
  if (m.themes.empty() && m.tags.empty()) return "";
  static const std::unordered_map<std::string, std::string> kExact = [] {
    std::unordered_map<std::string, std::string> map;
    for (const auto& row : Table10()) {
      for (const char* t : row.themes) map[ToLowerAscii(t)] = row.category;
    }
    return map;
  }();
  for (const auto& t : m.themes) {
    auto it = kExact.find(ToLowerAscii(Trim(t)));
    if (it != kExact.end()) return it->second;
  }
  for (const auto& t : m.themes) {
    if (auto c = MatchKeywords(t); !c.empty()) return c;
  }
  // Tags vote (a dataset has many, some generic); ties go to the category seen first.
  std::map<std::string, int> votes;
  std::vector<std::string> order;
  for (const auto& t : m.tags) {
    std::string c = MatchKeywords(t);
    if (c.empty()) continue;
    if (votes[c]++ == 0) order.push_back(c);
  }
  std::string winner;
  for (const auto& c : order) {
    if (winner.empty() || votes[c] > votes[winner]) winner = c;
  }
  if (!winner.empty()) return winner;
  return MatchKeywords(m.title);
}

}  // namespace lakeqa::ingest
