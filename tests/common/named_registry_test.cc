// NamedRegistry: the one shape behind the source kind, task format and report section registries.
#include "lakeqa/common/named_registry.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace lakeqa {
namespace {

struct Spec {
  std::string name;
  int value = 0;
};

std::vector<std::string> Names(const NamedRegistry<Spec>& r) {
  std::vector<std::string> out;
  for (const Spec& s : r.All()) out.push_back(s.name);
  return out;
}

TEST(NamedRegistry, KeepsRegistrationOrderAfterTheBuiltInEntries) {
  NamedRegistry<Spec> r({{"a", 1}, {"b", 2}});
  r.Add({"c", 3});
  r.Add({"d", 4});
  EXPECT_EQ(Names(r), (std::vector<std::string>{"a", "b", "c", "d"}));
}

TEST(NamedRegistry, SameNameReplacesInPlace) {
  NamedRegistry<Spec> r({{"a", 1}, {"b", 2}});
  r.Add({"a", 10});
  r.Add({"a", 11}, "b");  // a known name keeps its place even when asked to go elsewhere
  EXPECT_EQ(Names(r), (std::vector<std::string>{"a", "b"}));
  ASSERT_NE(r.Find("a"), nullptr);
  EXPECT_EQ(r.Find("a")->value, 11);
}

TEST(NamedRegistry, InsertsBeforeANamedEntryOrLastWhenTheNameIsUnknown) {
  NamedRegistry<Spec> r({{"enwiki", 0}, {"datagov", 0}, {"dir", 0}});
  r.Add({"cmdbench", 0}, "dir");
  r.Add({"other", 0}, "no-such-entry");
  EXPECT_EQ(Names(r), (std::vector<std::string>{"enwiki", "datagov", "cmdbench", "dir", "other"}));
}

TEST(NamedRegistry, FindReturnsNullForAnUnknownNameAndPointersSurviveAddingLast) {
  NamedRegistry<Spec> r;
  EXPECT_EQ(r.Find("x"), nullptr);
  r.Add({"x", 7});
  const Spec* x = r.Find("x");
  for (int i = 0; i < 1000; ++i) r.Add({"y" + std::to_string(i), i});
  ASSERT_EQ(r.Find("x"), x);
  EXPECT_EQ(x->value, 7);
}

}  // namespace
}  // namespace lakeqa
