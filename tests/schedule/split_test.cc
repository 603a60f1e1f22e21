// The split points' subtree measures (schedule/split.h) against a count by hand: the distinct
// tape entries under each entry, for a tree (a running sum) and for a graph that reuses values.
#include "schedule/split.h"

#include <gtest/gtest.h>

#include <functional>
#include <unordered_set>

#include "ir/node_ops.h"
#include "schedule/tape.h"

namespace vka {
namespace {

WeakScalar f(double v) { return WeakScalar::of_float(v); }

// The tape of one kernel computing `root` from leaves.
Tape tape_of(const NodePtr& root) {
  return walk_tape({root}, {}, [](const Node* n) { return n->is_leaf(); }, {});
}

// The distinct tape entries under each entry and the entry itself, by a walk from it that
// stops at the kernel's inputs (buffer entries, which read no tape values).
std::vector<int> by_hand(const Tape& t) {
  std::vector<int> sizes(t.k.spec.tape.size(), 0);
  for (const auto& [node, i] : t.tape_index) {
    std::unordered_set<const Node*> seen;
    std::function<void(const Node*)> visit = [&](const Node* n) {
      auto it = t.tape_index.find(n);
      if (it == t.tape_index.end() || !seen.insert(n).second) return;
      if (t.k.spec.tape[it->second].op == Op::kBuffer) return;
      for (const NodePtr& in : n->inputs()) visit(in.get());
    };
    visit(node);
    sizes[i] = static_cast<int>(seen.size());
  }
  return sizes;
}

TEST(Split, SubtreeMeasuresOfATree) {
  // A running sum of terms: no value read twice.
  Graph g;
  auto buf = std::make_shared<BufferRef>();
  NodePtr t = apply(g, Op::kTanh, {g.buffer(buf, DType::kFloat64, View{0, {}, {}})});
  for (int k = 1; k < 50; ++k) {
    NodePtr term = apply(g, Op::kTanh, {g.buffer(buf, DType::kFloat64, View{k, {}, {}})});
    t = apply(g, Op::kAdd, {t, apply(g, Op::kMultiply, {term, f(k)})});
  }
  const Tape tape = tape_of(t);
  const std::vector<int> sizes = tape_subtree_sizes(tape.k.spec.tape, tape.tape_index);
  EXPECT_EQ(sizes, by_hand(tape));
  // The last entry holds every entry: 50 loads and tanh, 49 constants, products and sums.
  EXPECT_EQ(sizes.back(), static_cast<int>(tape.k.spec.tape.size()));
}

TEST(Split, SubtreeMeasuresOfAGraphThatReusesValues) {
  // Each step reads the previous value twice: subtrees overlap, so sums would overcount.
  Graph g;
  auto buf = std::make_shared<BufferRef>();
  NodePtr x = g.buffer(buf, DType::kFloat64, View::contiguous({8}));
  NodePtr t = apply(g, Op::kExp, {x});
  for (int k = 0; k < 40; ++k) {
    t = apply(g, Op::kAdd, {apply(g, Op::kMultiply, {t, t}), apply(g, Op::kSin, {t})});
  }
  const Tape tape = tape_of(t);
  const std::vector<int> sizes = tape_subtree_sizes(tape.k.spec.tape, tape.tape_index);
  EXPECT_EQ(sizes, by_hand(tape));
}

}  // namespace
}  // namespace vka
