// The evaluation pipeline, one stage a line in realize(); the helpers below keep it that way.
#include "runtime/realize.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "base/debug.h"
#include "base/errors.h"
#include "ir/value_range.h"
#include "runtime/debug_schedule.h"
#include "runtime/gemm.h"
#include "runtime/held_values.h"
#include "runtime/launch.h"
#include "runtime/valid_leaves.h"
#include "schedule/plan_cache.h"

namespace vka {
namespace {

std::atomic<uint64_t> realizations{0};

// Nodes computed earlier, by node id, for as long as their buffers live: an array evaluated
// once is never recomputed because another lazy expression still refers to its old node.
class RealizedTable {
 public:
  std::shared_ptr<BufferRef> find(const Node& n) {
    if (auto pinned = n.pinned()) return pinned;
    std::lock_guard<std::mutex> lock(mu_);
    auto it = table_.find(n.id());
    return it == table_.end() ? nullptr : it->second.lock();
  }
  void add(const NodePtr& node, const std::shared_ptr<BufferRef>& buf) {
    const Node& n = *node;
    n.mark_realized();
    buf->add_producer(node);
    std::lock_guard<std::mutex> lock(mu_);
    if (++inserts_ % 4096 == 0) {  // purge entries whose buffers are gone
      for (auto it = table_.begin(); it != table_.end();) {
        it = it->second.expired() ? table_.erase(it) : std::next(it);
      }
    }
    table_[n.id()] = buf;
  }

 private:
  std::mutex mu_;
  std::unordered_map<uint64_t, std::weak_ptr<BufferRef>> table_;
  uint64_t inserts_ = 0;
};

// VKA_DEBUG=2: how long each stage of one realize() took, on one line, and per graph node for
// the stages that walk the graph (the scheduler's cost must stay linear in its size).
class StageTimer {
 public:
  StageTimer() : on_(debug_level() >= 2), last_(std::chrono::steady_clock::now()) {}
  bool on() const { return on_; }
  void mark(const char* stage, size_t nodes = 0) {
    if (!on_) return;
    auto now = std::chrono::steady_clock::now();
    const double us = std::chrono::duration<double, std::micro>(now - last_).count();
    char text[96];
    if (nodes > 0) {
      std::snprintf(text, sizeof(text), " %s %.0f us (%.2f us/node)", stage, us, us / nodes);
    } else {
      std::snprintf(text, sizeof(text), " %s %.0f us", stage, us);
    }
    line_ += text;
    last_ = now;
  }
  void report(size_t kernels) const {
    if (on_) std::fprintf(stderr, "[vkarray] realize %zu kernel(s):%s\n", kernels, line_.c_str());
  }

 private:
  bool on_;
  std::chrono::steady_clock::time_point last_;
  std::string line_;
};

RealizedTable& realized() {
  static RealizedTable t;
  return t;
}

// Each context's schedules by structure (its limits and GEMM tilings are its devices'). A
// context at the address of one that is gone starts with none.
PlanCache& plans_of(const std::shared_ptr<Context>& context) {
  struct Held {
    std::weak_ptr<Context> owner;
    std::unique_ptr<PlanCache> plans;
  };
  static std::mutex mu;
  static std::unordered_map<const Context*, Held> held;
  std::lock_guard<std::mutex> lock(mu);
  Held& h = held[context.get()];
  if (h.owner.lock() != context) {
    for (auto it = held.begin(); it != held.end();) {
      it =
          it->second.owner.expired() && it->first != context.get() ? held.erase(it) : std::next(it);
    }
    h = Held{context, std::make_unique<PlanCache>()};
  }
  return *h.plans;
}

NodePtr leaf_for(const Node& n, const std::shared_ptr<BufferRef>& buf) {
  return default_graph().buffer(buf, n.dtype(), View::contiguous(n.shape()));
}

}  // namespace

bool has_value(const Node& n) {
  if (!n.was_realized()) return false;
  std::shared_ptr<BufferRef> buf = realized().find(n);
  // A value made on some replicas only is still to be computed on the others.
  return buf != nullptr && device_buffer(*buf)->valid_everywhere();
}

namespace {

// substitute_realized, except for nodes computed into one of `filling`: buffers this
// evaluation writes, as when a buffer made on one replica is computed on another.
// `result_order`, when given, receives the topological order of the result.
// `held`, when given, receives held_values() of the roots, each with the node standing for it
// in the result.
std::vector<NodePtr> substitute(const std::vector<NodePtr>& roots,
                                const std::unordered_set<const BufferRef*>& filling,
                                std::vector<NodePtr>* result_order = nullptr,
                                std::vector<std::pair<NodePtr, NodePtr>>* held = nullptr) {
  // The nodes under the roots, inputs first, down to values computed earlier, whose inputs are
  // not walked: a long recurrence whose steps were kept (held_values) stays a few nodes deep
  // however long the chain of nodes behind it.
  std::unordered_map<const Node*, std::shared_ptr<BufferRef>> values;
  std::vector<NodePtr> order = topological_order(roots, [&](const Node& n) {
    if (n.is_leaf() || n.is_constant() || !n.was_realized()) return false;
    std::shared_ptr<BufferRef> buf = realized().find(n);
    if (!buf || filling.count(buf.get())) return false;
    values.emplace(&n, std::move(buf));
    return true;
  });
  // Before `done` below adds references of its own.
  const std::vector<NodePtr> held_nodes = held ? held_values(order, roots) : std::vector<NodePtr>();
  if (values.empty()) {  // the common case: nothing under the roots was computed before
    if (result_order) *result_order = std::move(order);
    for (const NodePtr& h : held_nodes) held->push_back({h, h});
    return roots;
  }
  std::unordered_map<const Node*, NodePtr> done;
  for (const NodePtr& n : order) {
    NodePtr out = n;
    auto v = values.find(n.get());
    if (v != values.end()) {
      out = leaf_for(*n, v->second);
    } else if (!n->is_leaf() && !n->is_constant()) {
      out = with_replaced_inputs(n, done);
    }
    done[n.get()] = out;
  }
  std::vector<NodePtr> result;
  for (const NodePtr& r : roots) result.push_back(done.at(r.get()));
  if (result_order) *result_order = topological_order(result);
  for (const NodePtr& h : held_nodes) held->push_back({h, done.at(h.get())});
  return result;
}

// After an evaluation on replica `only`: the buffer of `root` holds its value there alone; on
// another replica it is computed the first time something needs it (ReplicatedBuffer's
// validity). The fill keeps the expression, which keeps its inputs.
void mark_made_on(const std::shared_ptr<Context>& context, const NodePtr& root,
                  const std::shared_ptr<BufferRef>& buf, int only) {
  std::weak_ptr<BufferRef> weak = buf;
  auto fill = [context, root, weak](int replica) {
    std::shared_ptr<BufferRef> ref = weak.lock();
    VKA_ASSERT(ref != nullptr);
    realize(context, {root}, replica, {leaf_for(*root, ref)});
  };
  device_buffer(*buf)->set_valid_only({only}, fill);
}

// Library nodes (sorts, scans) under `roots` without a value yet, in waves: the inputs of
// every node whose inputs hold no library node still to compute are evaluated together (one
// schedule: their expressions fused as any are), then each node's Primitive runs its library
// kernels, on every replica. Afterwards substitution reads them as buffers, so the scheduler
// never sees one. Returns their values, which the caller holds until its kernels have read
// them (as any intermediate's, they are not kept after).
std::vector<std::shared_ptr<BufferRef>> evaluate_library_nodes(
    const std::shared_ptr<Context>& context, const std::vector<NodePtr>& roots) {
  const std::vector<NodePtr> order =
      topological_order(roots, [](const Node& n) { return has_value(n); });
  // A node's wave: how many library nodes to compute lie on its deepest path of inputs.
  std::unordered_map<const Node*, int> wave;
  std::vector<std::vector<NodePtr>> waves;
  for (const NodePtr& n : order) {
    int w = 0;
    for (const NodePtr& in : n->inputs()) {
      auto it = wave.find(in.get());
      if (it != wave.end()) w = std::max(w, it->second);
    }
    if (n->op() == Op::kLibrary && !has_value(*n)) {
      if (static_cast<int>(waves.size()) <= w) waves.resize(w + 1);
      waves[w].push_back(n);
      ++w;
    }
    if (w > 0) wave[n.get()] = w;
  }
  std::vector<std::shared_ptr<BufferRef>> values;
  for (const std::vector<NodePtr>& nodes : waves) {
    std::vector<NodePtr> inputs;
    for (const NodePtr& n : nodes)
      inputs.insert(inputs.end(), n->inputs().begin(), n->inputs().end());
    const std::vector<NodePtr> leaves = realize(context, inputs);
    size_t at = 0;
    for (const NodePtr& n : nodes) {
      const std::vector<NodePtr> own(leaves.begin() + at, leaves.begin() + at + n->inputs().size());
      at += n->inputs().size();
      values.push_back(n->primitive()->evaluate(own));
      realized().add(n, values.back());
    }
  }
  return values;
}

}  // namespace

std::vector<NodePtr> substitute_realized(const std::vector<NodePtr>& roots) {
  return substitute(roots, {});
}

std::shared_ptr<ReplicatedBuffer> device_buffer(const BufferRef& ref) {
  return std::static_pointer_cast<ReplicatedBuffer>(ref.payload());
}

std::shared_ptr<BufferRef> allocate_for(const std::shared_ptr<Context>& context, DType dtype,
                                        const Shape& shape, std::string_view op) {
  // numpy raises ValueError where the byte count overflows, MemoryError where it cannot
  // allocate what it counted; so does this (the device raises the latter).
  int64_t bytes = itemsize(dtype);
  for (int64_t d : shape) {
    if (d < 0) size(shape);  // ShapeError naming the negative dimension
    if (__builtin_mul_overflow(bytes, d, &bytes)) {
      throw ShapeError("[" + std::string(op) + "] array is too big: shape " + to_string(shape) +
                       " of " + std::string(name(dtype)) + " is more than 2**63 - 1 bytes");
    }
  }
  auto buf = std::make_shared<ReplicatedBuffer>(context, static_cast<uint64_t>(bytes), op);
  return std::make_shared<BufferRef>(std::move(buf));
}

Limits limits_of(const Caps& caps) {
  Limits l;
  // VKA_MAX_TAPE: another tape limit, for measuring compile time against kernel size.
  if (const char* e = std::getenv("VKA_MAX_TAPE")) {
    if (*e) l.max_tape = std::max(1, std::atoi(e));
  }
  l.max_shared_bytes = caps.max_compute_shared_memory_size;
  l.max_gemm_bindings =
      static_cast<int>(std::min(caps.max_per_stage_storage_buffers, caps.max_push_descriptors));
  l.max_push_constant_bytes = static_cast<int>(caps.max_push_constants_size);
  // llvmpipe compiles compute shaders as coroutines, whose frame building grows fastest with
  // long routines: 8 float64 tanh compile in 0.5 s there, 40 in 7 s, 80 in 112 s.
  if (caps.is_cpu) l.max_transcendental = Limits::kMaxCpuTranscendental;
  // Read once: plans made under one setting are reused for the process's life.
  static const bool fma = [] {
    const char* e = std::getenv("VKA_FMA");
    return e != nullptr && std::string(e) == "1";
  }();
  l.fma = fma;
  return l;
}

std::vector<NodePtr> realize(const std::shared_ptr<Context>& context,
                             const std::vector<NodePtr>& targets, std::optional<int> replica,
                             const std::vector<NodePtr>& destinations) {
  VKA_ASSERT(destinations.empty() || destinations.size() == targets.size());
  if (replica) context->replica(*replica);  // IndexError before any work
  ++realizations;
  StageTimer timer;
  std::unordered_set<const BufferRef*> filling;
  for (const NodePtr& d : destinations) {
    if (d) filling.insert(d->buffer().get());
  }
  std::vector<NodePtr> order;  // of the roots, while they are substitute()'s
  // Held small values (held_values) join the targets where every replica computes them.
  std::vector<std::pair<NodePtr, NodePtr>> held;
  const bool keep_held = !replica || context->num_replicas() == 1;
  std::vector<NodePtr> roots = substitute(targets, filling, &order, keep_held ? &held : nullptr);
  std::vector<std::shared_ptr<BufferRef>> library_values;
  if (std::any_of(order.begin(), order.end(),
                  [](const NodePtr& n) { return n->op() == Op::kLibrary; })) {
    library_values = evaluate_library_nodes(context, targets);
    held.clear();
    roots = substitute(targets, filling, &order, keep_held ? &held : nullptr);
  }
  if (make_leaves_valid(context, order, filling, replica)) {
    held.clear();
    roots = substitute(targets, filling, &order, keep_held ? &held : nullptr);
  }
  // A destination is always written by a kernel, even when its value is a buffer already.
  std::unordered_map<const Node*, NodePtr> dests;
  for (size_t i = 0; i < destinations.size(); ++i) {
    if (!destinations[i]) continue;
    const NodePtr& d = destinations[i];
    VKA_ASSERT(d->is_leaf() && d->shape() == roots[i]->shape() && d->dtype() == roots[i]->dtype());
    // A reduction or a product writes a fresh buffer of its own; a copy writes the view.
    if (roots[i]->is_leaf() || kind(roots[i]->op()) == OpKind::kReduce ||
        kind(roots[i]->op()) == OpKind::kContract) {
      roots[i] = default_graph().convert(roots[i], d->dtype(), d->shape());
      order.clear();
    }
    VKA_ASSERT(!dests.count(roots[i].get()));
    dests[roots[i].get()] = d;
  }
  // A leaf's buffer is made valid where this evaluation reads it; kernels do it for their inputs.
  for (const NodePtr& r : roots) {
    if (!r->is_leaf() || dests.count(r.get())) continue;
    auto buf = device_buffer(*r->buffer());
    for (int q = 0; q < context->num_replicas(); ++q) {
      if (!replica || *replica == q) buf->ensure_valid(q);
    }
  }
  if (order.empty()) order = topological_order(roots);
  // Held values are under the roots: the order stands.
  const size_t n_targets = roots.size();
  for (const auto& [original, now] : held) {
    if (!now->is_leaf() && !now->is_constant()) roots.push_back(now);
  }
  const size_t nodes = order.size();
  timer.mark("substitute");
  // The same structure over other buffers (a function called again) reuses its schedule.
  // VKA_PLAN_CACHE=0 turns reuse off (to measure what it saves).
  static const bool reuse = [] {
    const char* e = std::getenv("VKA_PLAN_CACHE");
    return e == nullptr || std::string(e) != "0";
  }();
  PlanCache& plans = plans_of(context);
  const PlanKey key = reuse ? plan_key(roots, std::move(order), dests) : PlanKey();
  std::optional<Schedule> reused = reuse ? plans.find(key) : std::nullopt;
  const bool was_reused = reused.has_value();
  if (!was_reused) {
    Limits limits = limits_of(context->device(0).caps());
    limits.gemm_tiling = [&context](DType t, MatmulInfo layout) {
      return gemm_tiling(context, t, layout.a_m_fast, layout.b_n_fast);
    };
    reused = schedule(roots, limits, dests);
    // A kernel reading a value another one wrote into a destination reads it through that
    // destination's view, which the plan's free values do not rewrite: such plans are made
    // each time.
    if (reuse && !reads_a_destination(*reused, dests) && plans.missed_before(key)) {
      plans.add(key, *reused);
    }
  }
  Schedule plan = std::move(*reused);
  timer.mark(was_reused ? "schedule (reused)" : "schedule", nodes);
  debug_schedule(plan);
  std::unordered_map<const Node*, std::shared_ptr<BufferRef>> buffers;
  for (const ScheduledKernel& k : plan.kernels) launch(context, k, buffers, dests, replica);
  timer.mark("launch");
  timer.report(plan.kernels.size());
  for (const auto& [original, now] : held) {
    auto b = buffers.find(now.get());
    if (b == buffers.end()) continue;
    // The node keeps its value (nothing else holds the buffer); so does the original the
    // array holds, when substitution rebuilt it.
    now->pin(b->second);
    if (original != now) original->pin(b->second);
  }
  roots.resize(n_targets);
  std::vector<NodePtr> leaves;
  for (size_t i = 0; i < roots.size(); ++i) {
    const NodePtr& r = roots[i];
    auto d = dests.find(r.get());
    if (d != dests.end()) {
      leaves.push_back(d->second);
      continue;
    }
    if (r->is_leaf()) {
      leaves.push_back(r);
      continue;
    }
    const std::shared_ptr<BufferRef>& buf = buffers.at(r.get());
    if (replica && context->num_replicas() > 1) mark_made_on(context, r, buf, *replica);
    realized().add(targets[i], buf);
    realized().add(r, buf);
    note_values(*r, *buf);  // an index array's bounds, known without reading it
    leaves.push_back(leaf_for(*r, buf));
  }
  return leaves;
}

RealizeStats realize_stats() { return {kernels_launched(), realizations.load()}; }

}  // namespace vka
