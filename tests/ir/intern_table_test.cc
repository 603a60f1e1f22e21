// The intern table (ir/intern_table.h) with hashes chosen by the test: entries of one hash told
// apart by `same`, dead entries dropped as probes meet them, rebuilds past many inserts.
#include "ir/intern_table.h"

#include <gtest/gtest.h>

#include <vector>

#include "ir/graph.h"

namespace vka {
namespace {

// Distinct nodes: constants of distinct values (a Graph of the test's own).
std::vector<NodePtr> nodes(Graph& g, int n) {
  std::vector<NodePtr> out;
  for (int i = 0; i < n; ++i) out.push_back(g.full(Scalar::of_int(i, DType::kInt64), {}));
  return out;
}

TEST(InternTable, FindsEachEntryOfOneHashByStructure) {
  Graph g;
  std::vector<NodePtr> v = nodes(g, 5);
  InternTable t;
  for (const NodePtr& n : v) t.insert(7, n);  // one hash for all: a chain of collisions
  EXPECT_EQ(t.size(), 5u);
  for (const NodePtr& n : v) {
    EXPECT_EQ(t.find_live(7, [&](const Node& e) { return &e == n.get(); }), n);
  }
  EXPECT_EQ(t.find_live(8, [](const Node&) { return true; }), nullptr);  // another hash
  EXPECT_EQ(t.find_live(7, [](const Node&) { return false; }), nullptr);
}

TEST(InternTable, DropsDeadEntriesAndReusesTheirSlots) {
  Graph g;
  std::vector<NodePtr> v = nodes(g, 4);
  InternTable t;
  for (const NodePtr& n : v) t.insert(3, n);
  const Node* third = v[2].get();
  v[0].reset();
  v[1].reset();
  // A probe meets the two dead entries before the live ones and drops them.
  EXPECT_EQ(t.find_live(3, [&](const Node& e) { return &e == third; }).get(), third);
  EXPECT_EQ(t.size(), 2u);
  int live = 0;
  t.for_each_live([&](const NodePtr& n) { live += n != nullptr; });
  EXPECT_EQ(live, 2);
  std::vector<NodePtr> more = nodes(g, 8);
  t.insert(3, more[7]);  // into a dead entry's slot
  EXPECT_EQ(t.size(), 3u);
  EXPECT_EQ(t.find_live(3, [&](const Node& e) { return &e == more[7].get(); }), more[7]);
}

TEST(InternTable, RebuildsKeepTheLiveAndDropTheDead) {
  Graph g;
  std::vector<NodePtr> kept = nodes(g, 3000);
  InternTable t;
  for (size_t i = 0; i < kept.size(); ++i) t.insert(i % 100, kept[i]);  // 30 a hash
  for (size_t i = 0; i < kept.size(); i += 2) kept[i].reset();          // half die
  std::vector<NodePtr> later = nodes(g, 6000);
  for (size_t i = 3000; i < later.size(); ++i) t.insert(i % 100, later[i]);  // rebuilds
  for (size_t i = 1; i < kept.size(); i += 2) {
    ASSERT_EQ(t.find_live(i % 100, [&](const Node& e) { return &e == kept[i].get(); }), kept[i])
        << i;
  }
  for (size_t i = 3000; i < later.size(); ++i) {
    ASSERT_EQ(t.find_live(i % 100, [&](const Node& e) { return &e == later[i].get(); }), later[i])
        << i;
  }
  int live = 0;
  t.for_each_live([&](const NodePtr&) { ++live; });
  EXPECT_EQ(live, 1500 + 3000);
}

}  // namespace
}  // namespace vka
