// Writes into storage buffers (see write.h for the rules).
#include "array/write.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "array/realize.h"
#include "device/errors.h"

namespace vka {
namespace {

// The same elements in the same order: offsets equal and equal strides on every axis longer
// than 1 (an axis of extent 1 may carry any stride).
bool same_elements(const View& a, const View& b) {
  if (a.shape != b.shape) return false;
  if (a.size() == 0) return true;
  if (a.offset != b.offset) return false;
  for (int d = 0; d < a.ndim(); ++d) {
    if (a.shape[d] > 1 && a.strides[d] != b.strides[d]) return false;
  }
  return true;
}

bool disjoint(const View& a, const View& b) {
  auto [alo, ahi] = a.extent();
  auto [blo, bhi] = b.extent();
  return ahi <= blo || bhi <= alo;
}

}  // namespace

bool reads_other_elements(const NodePtr& value, const NodePtr& dest) {
  const BufferRef* target = dest->buffer().get();
  for (const NodePtr& n : topological_order({value})) {
    // A gather may read any element of its array.
    if (n->op() == Op::kGather) {
      const NodePtr& x = n->inputs()[0];
      if (x->is_leaf() && x->buffer().get() == target && !disjoint(x->view(), dest->view())) {
        return true;
      }
      continue;
    }
    if (!n->is_leaf() || n->buffer().get() != target) continue;
    if (!can_broadcast_to(n->shape(), dest->shape())) {  // only a gather's array
      if (!disjoint(n->view(), dest->view())) return true;
      continue;
    }
    const View seen = broadcast_to("write", n->view(), dest->shape());
    if (!same_elements(seen, dest->view()) && !disjoint(seen, dest->view())) return true;
  }
  return false;
}

void pin_readers(const std::shared_ptr<Context>& context, const BufferRef& buffer,
                 const NodePtr& keep) {
  std::vector<NodePtr> live = default_graph().live();  // one reference each (counted below)
  // Node ids grow with creation and inputs exist before their users: id order is a
  // topological order of the live graph.
  std::sort(live.begin(), live.end(),
            [](const NodePtr& a, const NodePtr& b) { return a->id() < b->id(); });
  std::unordered_map<const Node*, long> edges;  // references held by live nodes' input lists
  for (const NodePtr& n : live) {
    for (const NodePtr& in : n->inputs()) ++edges[in.get()];
  }
  // Unsettled readers: computed nodes that reach the buffer through nodes without a value.
  std::unordered_set<const Node*> readers;
  for (const NodePtr& n : live) {
    if (n->is_leaf() || n->is_constant()) continue;
    bool reads = false;
    for (const NodePtr& in : n->inputs()) {
      reads = reads || (in->is_leaf() && in->buffer().get() == &buffer) || readers.count(in.get());
    }
    if (!reads) continue;
    if (!has_value(*n)) readers.insert(n.get());
  }
  if (readers.empty()) return;
  // Holders outside the live graph (arrays, pins, callers): use_count less the input-list
  // references and the ones this function holds (`live`, and `keep` held by the caller's
  // parameter, which write_into passes as its only reference).
  std::vector<NodePtr> targets;
  for (const NodePtr& n : live) {
    if (!readers.count(n.get())) continue;
    long own = 1 + (n == keep ? 1 : 0);
    long outside = static_cast<long>(n.use_count()) - edges[n.get()] - own;
    if (outside > 0) targets.push_back(n);
  }
  live.clear();
  if (targets.empty()) return;
  std::vector<NodePtr> values = realize(context, targets);
  for (size_t i = 0; i < targets.size(); ++i) targets[i]->pin(values[i]->buffer());
}

void write_into(const std::shared_ptr<Context>& context, const NodePtr& dest, NodePtr value,
                std::optional<int> replica) {
  VKA_ASSERT(dest->is_leaf() && dest->buffer()->is_storage());
  VKA_ASSERT(value->shape() == dest->shape() && value->dtype() == dest->dtype());
  if (replica) context->replica(*replica);  // IndexError before any work
  if (dest->view().size() == 0) return;
  // x[k] = x[k] (Python's `x[k] += 1` ends with it): the elements already hold the value.
  if (value == dest ||
      (value->op() == Op::kAstype && value->inputs()[0] == dest && value->dtype() == dest->dtype())) {
    return;
  }
  pin_readers(context, *dest->buffer(), value);
  NodePtr v = substitute_realized({value})[0];
  value.reset();
  if (reads_other_elements(v, dest)) v = realize(context, {v})[0];  // staged through a temporary
  realize(context, {v}, replica, {dest});
}

}  // namespace vka
