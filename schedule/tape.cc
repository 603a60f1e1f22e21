// One kernel's tape: the post-order walk from its roots that numbers each node once, binds
// its inputs (one binding per storage) and gathers, and puts sources' parameters in slots.
#include "schedule/tape.h"

#include <map>
#include <utility>

namespace vka {
namespace {

// Sources whose values depend on the element's position in a view of their own.
bool needs_accessor(Op op) {
  return op == Op::kArange || op == Op::kLinspace || op == Op::kEye || op == Op::kRandomBits ||
         op == Op::kRandomBelow || op == Op::kRandomNormal;
}

}  // namespace

void add_slots(const Scalar& v, KernelSpec& spec, std::vector<Scalar>& values) {
  for (int i = 0; i < Scalar::slot_count(v.dtype()); ++i) spec.slots.push_back(v.dtype());
  values.push_back(v);
}

Tape walk_tape(const std::vector<NodePtr>& roots, const std::unordered_set<const Node*>& in_group,
               const std::function<bool(const Node*)>& is_input,
               const std::unordered_map<const Node*, NodePtr>& destinations) {
  auto view_of = [&destinations](const NodePtr& n) {
    if (n->is_leaf()) return n->view();
    auto d = destinations.find(n.get());
    return d == destinations.end() ? View::contiguous(n->shape()) : d->second->view();
  };
  Tape t;
  ScheduledKernel& k = t.k;
  KernelSpec& spec = k.spec;
  // Post-order DFS (iterative: chains can be long) so operands precede their users. The stack
  // points at the roots' and the nodes' own input pointers (no reference counting per step).
  std::vector<std::pair<const NodePtr*, std::size_t>> stack;
  // A gather's array is bound as a buffer, not a tape value: the walk starts at its indices.
  auto first_input = [](const NodePtr& n) -> std::size_t { return n->op() == Op::kGather; };
  // One binding per storage and dtype: a leaf's buffer, or a materialized node's own.
  std::map<std::pair<const void*, DType>, int32_t> binding_of;
  auto bind = [&](const NodePtr& n) {
    const void* storage = n->is_leaf() ? static_cast<const void*>(n->buffer().get())
                                       : static_cast<const void*>(n.get());
    auto it = binding_of.emplace(std::make_pair(storage, n->dtype()),
                                 static_cast<int32_t>(binding_of.size()));
    spec.input_bindings.push_back(it.first->second);
  };
  for (const NodePtr& root : roots) {
    stack.push_back({&root, first_input(root)});
    while (!stack.empty()) {
      const NodePtr& node = *stack.back().first;
      bool input = is_input(node.get());
      std::size_t& next = stack.back().second;
      if (t.tape_index.count(node.get())) {
        stack.pop_back();
        continue;
      }
      if (!input && next < node->inputs().size()) {
        const NodePtr& in = node->inputs()[next++];
        stack.push_back({&in, first_input(in)});
        continue;
      }
      stack.pop_back();
      TapeEntry e{node->op(), node->dtype()};
      if (input) {
        e.op = Op::kBuffer;
        e.accessor = static_cast<int32_t>(spec.inputs.size());
        spec.inputs.push_back(Accessor{node->dtype(), Layout::kStrided});
        k.inputs.push_back(node);
        bind(node);
        t.in_views.push_back(view_of(node));
        t.gathered.push_back(false);
      } else if (node->op() == Op::kGather) {
        const NodePtr& x = node->inputs()[0];
        GatherInfo gi = gather_info(*node);
        e.accessor = static_cast<int32_t>(spec.inputs.size());
        spec.inputs.push_back(Accessor{x->dtype(), Layout::kStrided});
        k.inputs.push_back(x);
        bind(x);
        t.in_views.push_back(gi.base);
        t.gathered.push_back(true);
        const View xv = x->is_leaf() ? x->view() : View::contiguous(x->shape());
        auto [lo, hi] = xv.extent();
        t.gather_index64 = t.gather_index64 || lo < INT32_MIN || hi > INT32_MAX;
        e.slot = static_cast<int32_t>(spec.slots.size());
        for (size_t a = 0; a < gi.axes.size(); ++a) {
          e.args[a] = t.tape_index.at(node->inputs()[a + 1].get());
          add_slots(Scalar::of_int(xv.strides[gi.axes[a]], DType::kInt64), spec, t.slot_values);
          add_slots(Scalar::of_int(xv.shape[gi.axes[a]], DType::kInt64), spec, t.slot_values);
        }
      } else if (kind(node->op()) == OpKind::kSource) {
        if (needs_accessor(node->op())) {
          e.accessor = static_cast<int32_t>(spec.sources.size());
          spec.sources.push_back(Layout::kStrided);
          t.src_views.push_back(View::contiguous(node->shape()));
        }
        e.slot = static_cast<int32_t>(spec.slots.size());
        for (const Scalar& v : node->params()) add_slots(v, spec, t.slot_values);
      } else {
        for (std::size_t i = 0; i < node->inputs().size(); ++i) {
          e.args[i] = t.tape_index.at(node->inputs()[i].get());
        }
        if (!in_group.count(node.get())) t.interior.push_back(node);
      }
      // The slots this entry added hold a constant's value, or parameters of its own.
      t.slot_nodes.resize(t.slot_values.size(), node->is_constant() ? node.get() : nullptr);
      t.tape_index[node.get()] = static_cast<int>(spec.tape.size());
      spec.tape.push_back(e);
    }
  }
  // Every accessor its own binding: the plain numbering, which needs no table.
  if (binding_of.size() == spec.inputs.size()) spec.input_bindings.clear();
  return t;
}

}  // namespace vka
