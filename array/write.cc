// Writes into storage buffers (see write.h for the rules).
#include "array/write.h"

#include <algorithm>
#include <cstdlib>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "array/write_record.h"
#include "base/errors.h"
#include "runtime/realize.h"

namespace vka {

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

namespace {

// A view with every stride positive (reversed axes turned around) and extent-1 axes dropped:
// the same set of elements.
View normalized(const View& v) {
  View out{v.offset, {}, {}};
  for (int d = 0; d < v.ndim(); ++d) {
    if (v.shape[d] == 1) continue;
    int64_t s = v.strides[d];
    if (s < 0) {
      out.offset += (v.shape[d] - 1) * s;
      s = -s;
    }
    out.shape.push_back(v.shape[d]);
    out.strides.push_back(s);
  }
  return out;
}

// Two boxes of one lattice (the same strides, as slices of one array have): element sets are
// disjoint when b.offset - a.offset has no representation Σ t_k s_k with -nb_k < t_k < na_k.
// Taking axes from the largest stride down, when the smaller axes together reach less than
// one step of this axis, at most one t_k (floor(rem / s) or the next) leaves a remainder they
// can still reach; otherwise nothing is proved and the answer is "may overlap".
bool lattice_disjoint(const View& va, const View& vb) {
  View a = normalized(va), b = normalized(vb);
  if (a.strides != b.strides) return false;
  std::vector<int> order(a.ndim());
  for (int d = 0; d < a.ndim(); ++d) order[d] = d;
  std::sort(order.begin(), order.end(), [&](int x, int y) { return a.strides[x] > a.strides[y]; });
  int64_t rem = b.offset - a.offset;
  for (size_t k = 0; k < order.size(); ++k) {
    const int d = order[k];
    const int64_t s = a.strides[d], lo = -(b.shape[d] - 1), hi = a.shape[d] - 1;
    int64_t tail = 0;  // the most the smaller axes can add or take away
    for (size_t m = k + 1; m < order.size(); ++m) {
      const int e = order[m];
      tail += std::max(b.shape[e] - 1, a.shape[e] - 1) * a.strides[e];
    }
    if (tail >= s) return false;  // the axes do not nest: no single answer per axis
    int found = 0;
    int64_t pick = 0;
    const int64_t q = rem >= 0 ? rem / s : -((-rem + s - 1) / s);  // floor(rem / s)
    for (int64_t t : {q, q + 1}) {
      if (t < lo || t > hi || std::abs(rem - t * s) > tail) continue;
      ++found;
      pick = t;
    }
    if (found == 0) return true;
    if (found > 1) return false;
    rem -= pick * s;
  }
  return rem != 0;
}

}  // namespace

bool disjoint(const View& a, const View& b) {
  if (a.size() == 0 || b.size() == 0) return true;
  auto [alo, ahi] = a.extent();
  auto [blo, bhi] = b.extent();
  return ahi <= blo || bhi <= alo || lattice_disjoint(a, b);
}

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

namespace {

void pin_readers_now(const std::shared_ptr<Context>& context, const BufferRef& buffer,
                     const NodePtr& keep, const View* written) {
  auto affected = [&](const NodePtr& in) {
    return in->is_leaf() && in->buffer().get() == &buffer &&
           (!written || !disjoint(in->view(), *written));
  };
  // Every expression that reads written elements does so through a node made with such a
  // leaf as an input (the buffer's live readers): with none alive, there is nothing to pin,
  // and no walk of the whole live graph, which a loop of writes would otherwise pay at every
  // write.
  bool any = false;
  for (const NodePtr& n : buffer.live_readers()) {
    for (const NodePtr& in : n->inputs()) any = any || affected(in);
  }
  if (!any) return;
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
      reads = reads || affected(in) || readers.count(in.get());
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
    // A value recorded into this buffer (step 3) is held by its record alone (record_write
    // takes no value anything else holds): it runs with the record, which this write runs
    // first where they may meet, before anything changes what it reads.
    if (outside > 0 && !is_recorded_value(n.get())) targets.push_back(n);
  }
  live.clear();
  if (targets.empty()) return;
  std::vector<NodePtr> values = realize(context, targets);
  for (size_t i = 0; i < targets.size(); ++i) targets[i]->pin(values[i]->buffer());
}

}  // namespace

void pin_readers(const std::shared_ptr<Context>& context, const BufferRef& buffer,
                 const NodePtr& keep, const View* written) {
  run_recorded_writes(buffer);  // a writer changes the buffer after them
  pin_readers_now(context, buffer, keep, written);
}

void write_into(const std::shared_ptr<Context>& context, const NodePtr& dest, NodePtr value,
                std::optional<int> replica) {
  VKA_ASSERT(dest->is_leaf() && dest->buffer()->is_storage());
  VKA_ASSERT(value->shape() == dest->shape() && value->dtype() == dest->dtype());
  if (replica) context->replica(*replica);  // IndexError before any work
  if (dest->view().size() == 0) return;
  // x[k] = x[k] (Python's `x[k] += 1` ends with it): the elements already hold the value.
  // Conversions to the value's own dtype and shape change nothing (a temporary's setitem
  // wraps the value in one more).
  const Node* same = value.get();
  while (same->op() == Op::kAstype && same->inputs()[0]->dtype() == same->dtype() &&
         same->inputs()[0]->shape() == same->shape()) {
    same = same->inputs()[0].get();
  }
  if (same == dest.get()) return;
  pin_readers_now(context, *dest->buffer(), value, &dest->view());
  NodePtr v = substitute_realized({value})[0];
  value.reset();
  // Recorded only when nothing else holds the value (an array, another expression): what a
  // record holds is computed by its run alone.
  if (!replica && v.use_count() == 1 && record_write(context, dest, v)) {
    dest->buffer()->bump_version();
    return;
  }
  run_recorded_writes(*dest->buffer());
  if (reads_other_elements(v, dest)) v = realize(context, {v})[0];  // staged through a temporary
  realize(context, {v}, replica, {dest});
  dest->buffer()->bump_version();
}

}  // namespace vka
