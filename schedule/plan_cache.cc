// Plan keys (a graph's structure as words, its free values beside) and the cache of schedules
// they index.
#include "schedule/plan_cache.h"

#include <array>
#include <climits>
#include <complex>
#include <cstring>
#include <iterator>

#include "base/pointer_index.h"

namespace vka {
namespace {

uint64_t bits(double v) {
  uint64_t b;
  std::memcpy(&b, &v, sizeof(b));
  return b;
}

class Writer {
 public:
  explicit Writer(std::vector<uint64_t>& w) : w_(w) {}
  void put(uint64_t v) { w_.push_back(v); }
  void put_signed(int64_t v) { w_.push_back(static_cast<uint64_t>(v)); }
  void put_dims(const std::vector<int64_t>& dims) {
    put(dims.size());
    for (int64_t d : dims) put_signed(d);
  }
  void put_scalar(const Scalar& s) {
    const std::array<uint32_t, 4> v = s.words();
    put(static_cast<uint64_t>(s.dtype()));
    put(uint64_t{v[0]} | uint64_t{v[1]} << 32);
    put(uint64_t{v[2]} | uint64_t{v[3]} << 32);
    // The value as the host holds it, which conversions of the parameter start from.
    const std::complex<double> c = s.as_complex();
    put(bits(c.real()));
    put(bits(c.imag()));
  }
  // A view but its offset: shape, strides, and whether its elements lie within int32
  // positions (a kernel's index width depends on it).
  void put_view_shape(const View& v) {
    put_dims(v.shape);
    put_dims(v.strides);
    auto [lo, hi] = v.extent();
    put(lo >= INT32_MIN && hi <= INT32_MAX);
  }

 private:
  std::vector<uint64_t>& w_;
};

std::size_t hash_words(const std::vector<uint64_t>& words) {
  uint64_t h = 0x84222325cbf29ce4ull;
  for (uint64_t w : words) h = (h ^ w) * 0x100000001b3ull + (h >> 29);
  return static_cast<std::size_t>(h);
}

}  // namespace

PlanKey plan_key(const std::vector<NodePtr>& roots, std::vector<NodePtr> order,
                 const std::unordered_map<const Node*, NodePtr>& destinations) {
  PlanKey key;
  key.order = std::move(order);
  key.offsets.assign(key.order.size(), 0);
  PointerIndex position(key.order.size());
  PointerIndex buffer_number;
  key.words.reserve(key.order.size() * 8 + roots.size() * 4 + 2);
  Writer w(key.words);
  w.put(key.order.size());
  for (const NodePtr& n : key.order) {
    const uint32_t at = position.insert(n.get());
    w.put(static_cast<uint64_t>(n->op()) << 8 | static_cast<uint64_t>(n->dtype()));
    w.put_dims(n->shape());
    w.put(n->inputs().size());
    for (const NodePtr& in : n->inputs()) w.put(position.find(in.get()));
    if (n->is_constant()) {
      w.put(static_cast<uint64_t>(n->params()[0].dtype()));  // the value is free
    } else {
      w.put(n->params().size());
      for (const Scalar& s : n->params()) w.put_scalar(s);
    }
    if (n->is_leaf()) {
      w.put(buffer_number.insert(n->buffer().get()));
      w.put_view_shape(n->view());
      key.offsets[at] = n->view().offset;
    }
  }
  w.put(roots.size());
  for (const NodePtr& r : roots) {
    key.roots.push_back(position.find(r.get()));
    w.put(key.roots.back());
    auto d = destinations.find(r.get());
    key.has_dest.push_back(d != destinations.end());
    key.dest_offsets.push_back(d != destinations.end() ? d->second->view().offset : 0);
    if (d == destinations.end()) {
      w.put(0);
      continue;
    }
    w.put(1 + buffer_number.insert(d->second->buffer().get()));
    w.put(static_cast<uint64_t>(d->second->dtype()));
    w.put_view_shape(d->second->view());
  }
  key.hash = hash_words(key.words);
  return key;
}

bool PlanCache::matches(const Entry& e, const PlanKey& key) {
  if (e.words != key.words) return false;
  for (const auto& [at, offset] : e.fixed_offsets) {
    if (key.offsets[at] != offset) return false;
  }
  for (const auto& [root, offset] : e.fixed_dest_offsets) {
    if (key.dest_offsets[root] != offset) return false;
  }
  for (const auto& [at, value] : e.fixed_constants) {
    if (key.order[at]->params()[0] != value) return false;
  }
  return true;
}

std::optional<Schedule> PlanCache::find(const PlanKey& key) {
  std::lock_guard<std::mutex> lock(mu_);
  auto range = index_.equal_range(key.hash);
  for (auto it = range.first; it != range.second; ++it) {
    Lru::iterator e = it->second;
    if (!matches(*e, key)) continue;
    entries_.splice(entries_.begin(), entries_, e);
    ++hits_;
    Schedule s;
    s.kernels.reserve(e->kernels.size());
    for (const KernelTemplate& t : e->kernels) {
      ScheduledKernel k = t.kernel;
      for (uint32_t i : t.inputs) k.inputs.push_back(key.order[i]);
      for (uint32_t o : t.outputs) k.outputs.push_back(key.order[o]);
      for (uint32_t c : t.slot_nodes)
        k.slot_nodes.push_back(c == kNone ? nullptr : key.order[c].get());
      for (const OffsetPatch& p : t.input_offsets) {
        k.params.inputs[p.view].offset = key.offsets[p.from] + p.delta;
      }
      for (const OffsetPatch& p : t.output_offsets) {
        k.params.outputs[p.view].offset = key.dest_offsets[p.from] + p.delta;
      }
      for (const SlotPatch& p : t.slots) k.params.slots[p.slot] = key.order[p.from]->params()[0];
      s.kernels.push_back(std::move(k));
    }
    return s;
  }
  return std::nullopt;
}

bool PlanCache::missed_before(const PlanKey& key) {
  std::lock_guard<std::mutex> lock(mu_);
  if (missed_.size() >= kMaxMissed) missed_.clear();
  return !missed_.insert(key.hash).second;
}

void PlanCache::add(const PlanKey& key, const Schedule& plan) {
  if (key.order.size() > kMaxNodes) return;
  PointerIndex position(key.order.size());
  for (const NodePtr& n : key.order) position.insert(n.get());
  std::vector<bool> shown(key.order.size(), false), dest_shown(key.roots.size(), false);
  Entry entry{key.words, key.hash, {}, {}, {}, {}};
  for (const ScheduledKernel& k : plan.kernels) {
    KernelTemplate t;
    t.kernel = ScheduledKernel{k.spec, k.params, {}, {}, {}, k.reason};
    for (const auto& [nodes, into] :
         {std::make_pair(&k.inputs, &t.inputs), std::make_pair(&k.outputs, &t.outputs)}) {
      for (const NodePtr& n : *nodes) {
        const uint32_t p = position.find(n.get());
        if (p == PointerIndex::kAbsent) return;
        into->push_back(p);
      }
    }
    if (k.inputs.size() == k.params.inputs.size()) {
      for (uint32_t a = 0; a < k.inputs.size(); ++a) {
        if (!k.inputs[a]->is_leaf()) continue;
        const uint32_t from = t.inputs[a];
        t.input_offsets.push_back({a, from, k.params.inputs[a].offset - key.offsets[from]});
        shown[from] = true;
      }
    }
    if (k.outputs.size() == k.params.outputs.size()) {
      for (uint32_t j = 0; j < k.outputs.size(); ++j) {
        for (uint32_t r = 0; r < key.roots.size(); ++r) {
          if (key.roots[r] != t.outputs[j] || !key.has_dest[r]) continue;
          t.output_offsets.push_back({j, r, k.params.outputs[j].offset - key.dest_offsets[r]});
          dest_shown[r] = true;
          break;
        }
      }
    }
    for (const Node* c : k.slot_nodes) {
      const uint32_t p = c == nullptr ? kNone : position.find(c);
      if (c != nullptr && p == PointerIndex::kAbsent) return;
      t.slot_nodes.push_back(p);
    }
    if (k.slot_nodes.size() == k.params.slots.size()) {
      for (uint32_t i = 0; i < t.slot_nodes.size(); ++i) {
        if (t.slot_nodes[i] == kNone || !key.order[t.slot_nodes[i]]->is_constant()) continue;
        t.slots.push_back({i, t.slot_nodes[i]});
        shown[t.slot_nodes[i]] = true;
      }
    }
    entry.kernels.push_back(std::move(t));
  }
  for (uint32_t at = 0; at < key.order.size(); ++at) {
    const Node& n = *key.order[at];
    if (shown[at]) continue;
    if (n.is_leaf()) entry.fixed_offsets.push_back({at, key.offsets[at]});
    if (n.is_constant()) entry.fixed_constants.push_back({at, n.params()[0]});
  }
  for (uint32_t r = 0; r < key.roots.size(); ++r) {
    if (key.has_dest[r] && !dest_shown[r]) {
      entry.fixed_dest_offsets.push_back({r, key.dest_offsets[r]});
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  auto range = index_.equal_range(key.hash);
  for (auto it = range.first; it != range.second; ++it) {
    if (matches(*it->second, key)) return;  // added meanwhile by another thread
  }
  entries_.push_front(std::move(entry));
  index_.emplace(key.hash, entries_.begin());
  if (entries_.size() <= kCapacity) return;
  Lru::iterator last = std::prev(entries_.end());
  for (auto [it, end] = index_.equal_range(last->hash); it != end; ++it) {
    if (it->second == last) {
      index_.erase(it);
      break;
    }
  }
  entries_.pop_back();
}

bool reads_a_destination(const Schedule& plan,
                         const std::unordered_map<const Node*, NodePtr>& dests) {
  if (dests.size() < 2) return false;
  for (const ScheduledKernel& k : plan.kernels) {
    for (const NodePtr& in : k.inputs) {
      if (dests.count(in.get())) return true;
    }
  }
  return false;
}

}  // namespace vka
