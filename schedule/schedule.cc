// The scheduler: materialization decisions, kernel grouping, limit splits (tapes: tape.cc).
#include "schedule/schedule.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "base/errors.h"
#include "schedule/gemm.h"
#include "schedule/kernel_layout.h"
#include "schedule/split.h"
#include "schedule/tape.h"

namespace vka {
namespace {

bool is_computed(const NodePtr& n) { return !n->is_leaf() && !n->is_constant(); }
bool is_reduce(const Node* n) { return kind(n->op()) == OpKind::kReduce; }
bool is_product(const Node* n) { return kind(n->op()) == OpKind::kContract; }
// Nodes computed by a kernel of their own (a reduction, or a GEMM whose epilogue may fuse).
bool is_alone(const Node* n) { return is_reduce(n) || is_product(n); }

class Scheduler {
 public:
  Scheduler(const std::vector<NodePtr>& targets, const Limits& limits,
            const std::unordered_map<const Node*, NodePtr>& destinations)
      : targets_(targets),
        order_(topological_order(targets)),
        limits_(limits),
        destinations_(destinations) {}

  Schedule run() {
    for (const NodePtr& t : targets_) {
      if (is_computed(t) || t->is_constant()) materialized_.insert(t.get());
    }
    // A gather reads its array at computed positions: the array is a buffer written by an
    // earlier kernel (or a leaf), never a value computed alongside.
    // A reduction is a kernel of its own: it is always written out.
    // A product is one too (its elementwise reader may become its epilogue: fuse_epilogues),
    // and reads its operands as buffers.
    for (const NodePtr& n : order_) {
      if (is_alone(n.get())) materialized_.insert(n.get());
    }
    for (const NodePtr& n : order_) {
      if (n->op() != Op::kGather && !is_product(n.get())) continue;
      for (std::size_t i = 0; i < (is_product(n.get()) ? 2 : 1); ++i) {
        const NodePtr& x = n->inputs()[i];
        if (!x->is_leaf()) {
          materialized_.insert(x.get());
          forced_.insert(x.get());
        }
      }
    }
    for (;;) {
      settle_shared();
      Schedule s;
      bool split = false;
      for (const Group& g : make_groups()) {
        Built b = build(g);
        std::string why = over_limit(b.k.spec, launch_elements(g));
        if (!why.empty()) {
          split_one(g, b, why);
          split = true;
          break;
        }
        for (const NodePtr& o : g.outputs) {
          auto r = reasons_.find(o.get());
          if (r == reasons_.end()) continue;
          b.k.reason += (b.k.reason.empty() ? "" : "; ") + r->second;
        }
        s.kernels.push_back(std::move(b.k));
      }
      if (!split) {
        fuse_epilogues(s, targets_, destinations_,
                       [this](const KernelSpec& spec) { return over_limit(spec).empty(); });
        for (ScheduledKernel& k : s.kernels) k.spec.fma = limits_.fma;
        return s;
      }
    }
  }

 private:
  struct Group {
    int stage;
    Shape shape;
    int partition;
    std::vector<NodePtr> outputs;
  };
  struct Built {
    ScheduledKernel k;
    std::vector<NodePtr> interior;  // computed tape nodes that are not outputs: split points
    std::unordered_map<const Node*, int> tape_index;
  };

  bool is_input(const Node* n, const std::unordered_set<const Node*>& in_group) const {
    return n->is_leaf() || (is_computed_raw(n) && materialized_.count(n) && !in_group.count(n));
  }
  static bool is_computed_raw(const Node* n) { return !n->is_leaf() && !n->is_constant(); }

  // Rule 3: a non-materialized computed node reached from materialized roots of two different
  // shapes becomes materialized. Iterated to a fixpoint: each addition changes reachability.
  // When every computed node has one shape (the common case: no broadcasting inside the
  // expression), no node can be reached from two shapes, and there is nothing to settle.
  void settle_shared() {
    if (single_shape()) return;
    for (bool changed = true; changed;) {
      changed = false;
      const std::vector<NodePtr>& order = order_;
      std::unordered_map<const Node*, std::set<KernelKey>> reach;
      for (auto it = order.rbegin(); it != order.rend(); ++it) {
        const Node* n = it->get();
        if (materialized_.count(n)) reach[n] = {kernel_key(n)};
        for (const NodePtr& in : n->inputs()) {
          if (!is_computed(in) || materialized_.count(in.get())) continue;
          reach[in.get()].insert(reach[n].begin(), reach[n].end());
        }
      }
      // Users before their inputs: materializing the shared node nearest the kernels often
      // leaves the nodes under it reached from one kernel only.
      for (auto it = order.rbegin(); it != order.rend(); ++it) {
        const NodePtr& n = *it;
        if (is_computed(n) && !materialized_.count(n.get()) && reach[n.get()].size() > 1) {
          materialized_.insert(n.get());
          changed = true;
          break;
        }
      }
    }
  }

  // The kernel a materialized node is computed in: elementwise ones by shape; a reduction's
  // input is computed in the reduction's own kernel, over the input's shape.
  using KernelKey = std::pair<Shape, const Node*>;
  static KernelKey kernel_key(const Node* n) {
    if (is_reduce(n)) return {n->inputs()[0]->shape(), n};
    if (is_product(n)) return {n->shape(), n};
    return {n->shape(), nullptr};
  }

  bool single_shape() const {
    const Shape& shape = targets_.front()->shape();
    for (const NodePtr& n : order_) {
      if (is_alone(n.get())) return false;
      if (is_computed_raw(n.get()) && n->shape() != shape) return false;
    }
    return true;
  }

  // Materialized computed nodes the kernel body of `root` reads.
  std::vector<const Node*> frontier(const NodePtr& root) const {
    std::vector<const Node*> out;
    std::unordered_set<const Node*> seen;
    std::vector<const Node*> stack;
    for (const NodePtr& in : root->inputs()) stack.push_back(in.get());
    while (!stack.empty()) {
      const Node* n = stack.back();
      stack.pop_back();
      if (!seen.insert(n).second) continue;
      if (is_computed_raw(n) && materialized_.count(n)) {
        out.push_back(n);
        continue;
      }
      for (const NodePtr& in : n->inputs()) stack.push_back(in.get());
    }
    return out;
  }

  // Rule 2. A node reading a materialized node of another shape, or one a limit split off,
  // runs a stage later; one of the same shape shares its kernel (computed inline, written).
  // A reduction has a kernel of its own, a stage after whatever it reads; its readers run a
  // stage after it.
  std::vector<Group> make_groups() const {
    std::unordered_map<const Node*, int> stage;
    std::map<std::tuple<int, Shape, int>, std::size_t> index;
    std::vector<Group> groups;
    for (const NodePtr& n : order_) {
      if (!materialized_.count(n.get())) continue;
      int st = 0;
      for (const Node* d : frontier(n)) {
        bool later =
            d->shape() != n->shape() || forced_.count(d) || is_alone(d) || is_alone(n.get());
        st = std::max(st, stage[d] + (later ? 1 : 0));
      }
      stage[n.get()] = st;
      auto p = partition_.find(n.get());
      int part = p == partition_.end() ? 0 : p->second;
      if (is_alone(n.get())) part = -static_cast<int>(groups.size()) - 1;  // alone
      auto key = std::make_tuple(st, n->shape(), part);
      auto it = index.find(key);
      if (it == index.end()) {
        it = index.emplace(key, groups.size()).first;
        groups.push_back(Group{st, n->shape(), std::get<2>(key), {}});
      }
      groups[it->second].outputs.push_back(n);
    }
    std::stable_sort(groups.begin(), groups.end(),
                     [](const Group& a, const Group& b) { return a.stage < b.stage; });
    return groups;
  }

  Built build(const Group& g) {
    Built b;
    if (is_product(g.outputs[0].get())) {
      const NodePtr& p = g.outputs[0];
      VKA_ASSERT(limits_.gemm_tiling);  // a schedule with products needs the device's tilings
      b.k = gemm_kernel(p, limits_.gemm_tiling(p->dtype(), matmul_info(*p)));
      return b;
    }
    // A reduction's kernel computes its input's expression (no node of the group is in the
    // tape) and reduces it.
    const bool reduction = is_reduce(g.outputs[0].get());
    const std::vector<NodePtr> roots = reduction ? g.outputs[0]->inputs() : g.outputs;
    std::unordered_set<const Node*> in_group;
    if (!reduction) {
      for (const NodePtr& o : g.outputs) in_group.insert(o.get());
    }
    Tape t = walk_tape(
        roots, in_group, [this, &in_group](const Node* n) { return is_input(n, in_group); },
        destinations_);
    b.k = std::move(t.k);
    b.interior = std::move(t.interior);
    b.tape_index = std::move(t.tape_index);
    ScheduledKernel& k = b.k;
    KernelSpec& spec = k.spec;
    if (reduction) {
      k.outputs.push_back(g.outputs[0]);
      lay_out_reduction(k, *g.outputs[0], b.tape_index.at(g.outputs[0]->inputs()[0].get()),
                        {t.in_views, {}, t.src_views, t.gathered, t.gather_index64}, t.slot_values);
      k.slot_nodes = std::move(t.slot_nodes);
      if (g.outputs[0]->op() == Op::kMean) {
        const DType real = real_dtype(spec.reduce.acc);
        spec.reduce.divisor_slot = static_cast<int32_t>(spec.slots.size());
        add_slots(Scalar::of_double(reduce_info(*g.outputs[0]).divisor).astype(real), spec,
                  k.params.slots);
        k.slot_nodes.push_back(nullptr);
      }
      return b;
    }
    std::vector<View> out_views;
    for (const NodePtr& o : g.outputs) {
      spec.outputs.push_back(Accessor{o->dtype(), Layout::kContiguous});
      spec.results.push_back(b.tape_index.at(o.get()));
      k.outputs.push_back(o);
      auto d = destinations_.find(o.get());
      out_views.push_back(d == destinations_.end() ? View::contiguous(g.shape) : d->second->view());
    }

    lay_out_elementwise(k, g.shape,
                        {t.in_views, out_views, t.src_views, t.gathered, t.gather_index64},
                        t.slot_values);
    k.slot_nodes = std::move(t.slot_nodes);
    return b;
  }

  // The elements one launch of a group's kernel computes: a reduction's input, else its shape.
  static int64_t launch_elements(const Group& g) {
    const Node* o = g.outputs[0].get();
    return is_reduce(o) ? size(o->inputs()[0]->shape()) : size(o->shape());
  }

  // Limits::max_transcendental, or for a kernel of one element the lower
  // max_scalar_transcendental (schedule.h says why).
  int transcendental_limit(int64_t elements) const {
    return elements <= 1 ? std::min(limits_.max_transcendental, limits_.max_scalar_transcendental)
                         : limits_.max_transcendental;
  }

  // Why `spec` exceeds a limit, or "". `elements`: its launch's, -1 when not known (an
  // epilogue's, over a product's shape).
  std::string over_limit(const KernelSpec& spec, int64_t elements = -1) const {
    if (spec.kind == KernelKind::kGemm) {
      const int bindings = spec.num_operand_bindings() + (static_cast<int>(push_layout(spec).size) >
                                                          limits_.max_push_constant_bytes);
      if (bindings > limits_.max_gemm_bindings) {
        return "needs " + std::to_string(bindings) + " bindings > max_gemm_bindings " +
               std::to_string(limits_.max_gemm_bindings);
      }
    }
    if (spec.kind == KernelKind::kGemm && !spec.gemm.coop &&
        gemm_shared_bytes(spec) > limits_.max_shared_bytes) {
      return "needs " + std::to_string(gemm_shared_bytes(spec)) +
             " bytes of shared memory > max_shared_bytes " +
             std::to_string(limits_.max_shared_bytes);
    }
    if (static_cast<int>(spec.tape.size()) > limits_.max_tape) {
      return "has " + std::to_string(spec.tape.size()) + " SSA values > max_tape " +
             std::to_string(limits_.max_tape);
    }
    const int heavy = total_weight(spec.tape);
    const int limit = transcendental_limit(elements);
    if (heavy > limit) {
      return "has transcendental functions of weight " + std::to_string(heavy) + " > " +
             (limit == limits_.max_transcendental ? "max_transcendental "
                                                  : "max_scalar_transcendental ") +
             std::to_string(limit);
    }
    return "";
  }

  static int total_weight(const std::vector<TapeEntry>& tape) {
    int w = 0;
    for (const TapeEntry& e : tape) w += transcendental_weight(e);
    return w;
  }

  // Rule 5: divide the outputs when there are several; otherwise materialize the interior
  // node whose subtree is closest to half the kernel, as an earlier kernel.
  void split_one(const Group& g, const Built& b, const std::string& why) {
    std::string from = "split from " + b.k.spec.name() + ": " + why;
    if (g.outputs.size() > 1) {
      int part = ++next_partition_;
      for (std::size_t i = g.outputs.size() / 2; i < g.outputs.size(); ++i) {
        partition_[g.outputs[i].get()] = part;
        reasons_[g.outputs[i].get()] = from + "; outputs divided between two kernels";
      }
      return;
    }
    if (b.interior.empty()) {
      throw DeviceError("[schedule] kernel " + b.k.spec.name() + " " + why +
                        ", and a single operation cannot be split further");
    }
    auto materialize = [&](const NodePtr& c) {
      materialized_.insert(c.get());
      forced_.insert(c.get());
      reasons_[c.get()] = from + "; materialized %" + std::to_string(c->id()) + " (" +
                          std::string(name(c->op())) + ") as its own kernel";
    };
    Limits limits = limits_;
    limits.max_transcendental = transcendental_limit(launch_elements(g));
    for (const NodePtr& c : split_points(b.k.spec.tape, b.interior, b.tape_index, limits)) {
      materialize(c);
    }
  }

  std::vector<NodePtr> targets_;
  std::vector<NodePtr> order_;  // every node under the targets, inputs first (fixed per run)
  Limits limits_;
  const std::unordered_map<const Node*, NodePtr>& destinations_;
  std::unordered_set<const Node*> materialized_;
  std::unordered_set<const Node*> forced_;
  std::unordered_map<const Node*, int> partition_;
  int next_partition_ = 0;
  std::unordered_map<const Node*, std::string> reasons_;
};

}  // namespace

std::string Schedule::to_string() const {
  std::string s;
  for (const ScheduledKernel& k : kernels) {
    s += k.spec.name() + " shape=" + vka::to_string(k.params.shape) + " writes";
    for (const NodePtr& o : k.outputs) s += " %" + std::to_string(o->id());
    if (!k.reason.empty()) s += " [" + k.reason + "]";
    s += "\n";
  }
  return s;
}

Schedule schedule(const std::vector<NodePtr>& targets, const Limits& limits,
                  const std::unordered_map<const Node*, NodePtr>& destinations) {
  return Scheduler(targets, limits, destinations).run();
}

int transcendental_weight(const TapeEntry& e) {
  const bool wide = e.dtype == DType::kFloat64 || is_complex(e.dtype);
  switch (info(e.op).cost) {
    case Cost::kCheap:
      return 0;
    case Cost::kLibm:
      return is_complex(e.dtype) ? 4 : 1;
    case Cost::kTrig:
      return wide ? 4 : 1;
  }
  return 0;
}

}  // namespace vka
