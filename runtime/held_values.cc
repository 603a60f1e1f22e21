// held_values: one pass over an evaluation's nodes for the small values a program holds under
// long chains of computations.
#include "runtime/held_values.h"

#include <algorithm>

#include "base/pointer_index.h"

namespace vka {
namespace {

constexpr int kHeldDepth = 8;

}  // namespace

std::vector<NodePtr> held_values(const std::vector<NodePtr>& order,
                                 const std::vector<NodePtr>& roots) {
  if (order.size() <= kHeldDepth) return {};  // no chain that long (a write, a small step)
  PointerIndex position(order.size());
  for (const NodePtr& n : order) position.insert(n.get());
  std::vector<int> depth(order.size(), 0), parents(order.size(), 0);
  std::vector<bool> root(order.size(), false);
  for (const NodePtr& r : roots) {
    const uint32_t p = position.find(r.get());
    if (p != PointerIndex::kAbsent) root[p] = true;
  }
  for (size_t i = 0; i < order.size(); ++i) {
    const Node& n = *order[i];
    const bool computed = !n.is_leaf() && !n.is_constant();
    for (const NodePtr& in : n.inputs()) {
      const uint32_t p = position.find(in.get());
      if (p == PointerIndex::kAbsent) continue;  // under a value computed earlier: not walked
      ++parents[p];
      if (computed) depth[i] = std::max(depth[i], depth[p] + 1);
    }
  }
  std::vector<NodePtr> held;
  for (size_t i = 0; i < order.size(); ++i) {
    const NodePtr& n = order[i];
    if (root[i] || n->is_leaf() || n->is_constant() || n->was_realized() || depth[i] < kHeldDepth ||
        size(n->shape()) != 1) {
      continue;
    }
    // References: `order`'s, one per input list here, and any from outside.
    if (n.use_count() > 1 + parents[i]) held.push_back(n);
  }
  return held;
}

}  // namespace vka
