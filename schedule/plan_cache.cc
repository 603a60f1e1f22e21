// Plan keys (a graph's structure as words) and the cache of schedules they index.
#include "schedule/plan_cache.h"

#include <array>
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
    // The value as the host holds it, which conversions of the constant start from.
    const std::complex<double> c = s.as_complex();
    put(bits(c.real()));
    put(bits(c.imag()));
  }
  void put_view(const View& v) {
    put_signed(v.offset);
    put_dims(v.shape);
    put_dims(v.strides);
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
  PointerIndex position(key.order.size());
  PointerIndex buffer_number;
  auto number_of = [&buffer_number](const BufferRef* b) { return buffer_number.insert(b); };
  key.words.reserve(key.order.size() * 8 + roots.size() * 4 + 2);
  Writer w(key.words);
  w.put(key.order.size());
  for (const NodePtr& n : key.order) {
    position.insert(n.get());
    w.put(static_cast<uint64_t>(n->op()) << 8 | static_cast<uint64_t>(n->dtype()));
    w.put_dims(n->shape());
    w.put(n->inputs().size());
    for (const NodePtr& in : n->inputs()) w.put(position.find(in.get()));
    w.put(n->params().size());
    for (const Scalar& s : n->params()) w.put_scalar(s);
    if (n->is_leaf()) {
      w.put(number_of(n->buffer().get()));
      w.put_view(n->view());
    }
  }
  w.put(roots.size());
  for (const NodePtr& r : roots) {
    w.put(position.find(r.get()));
    auto d = destinations.find(r.get());
    if (d == destinations.end()) {
      w.put(0);
      continue;
    }
    w.put(1 + number_of(d->second->buffer().get()));
    w.put(static_cast<uint64_t>(d->second->dtype()));
    w.put_view(d->second->view());
  }
  key.hash = hash_words(key.words);
  return key;
}

std::optional<Schedule> PlanCache::find(const PlanKey& key) {
  std::lock_guard<std::mutex> lock(mu_);
  auto range = index_.equal_range(key.hash);
  for (auto it = range.first; it != range.second; ++it) {
    Lru::iterator e = it->second;
    if (e->words != key.words) continue;
    entries_.splice(entries_.begin(), entries_, e);
    ++hits_;
    Schedule s;
    s.kernels.reserve(e->kernels.size());
    for (const KernelTemplate& t : e->kernels) {
      ScheduledKernel k{t.spec, t.params, {}, {}, t.reason};
      for (uint32_t i : t.inputs) k.inputs.push_back(key.order[i]);
      for (uint32_t o : t.outputs) k.outputs.push_back(key.order[o]);
      s.kernels.push_back(std::move(k));
    }
    return s;
  }
  return std::nullopt;
}

void PlanCache::add(const PlanKey& key, const Schedule& plan) {
  if (key.order.size() > kMaxNodes) return;
  PointerIndex position(key.order.size());
  for (const NodePtr& n : key.order) position.insert(n.get());
  Entry entry{key.words, {}};
  for (const ScheduledKernel& k : plan.kernels) {
    KernelTemplate t{k.spec, k.params, {}, {}, k.reason};
    for (const auto& [nodes, into] :
         {std::make_pair(&k.inputs, &t.inputs), std::make_pair(&k.outputs, &t.outputs)}) {
      for (const NodePtr& n : *nodes) {
        const uint32_t p = position.find(n.get());
        if (p == PointerIndex::kAbsent) return;
        into->push_back(p);
      }
    }
    entry.kernels.push_back(std::move(t));
  }
  std::lock_guard<std::mutex> lock(mu_);
  auto range = index_.equal_range(key.hash);
  for (auto it = range.first; it != range.second; ++it) {
    if (it->second->words == key.words) return;  // added meanwhile by another thread
  }
  entries_.push_front(std::move(entry));
  index_.emplace(key.hash, entries_.begin());
  if (entries_.size() <= kCapacity) return;
  Lru::iterator last = std::prev(entries_.end());
  const std::size_t h = hash_words(last->words);
  for (auto [it, end] = index_.equal_range(h); it != end; ++it) {
    if (it->second == last) {
      index_.erase(it);
      break;
    }
  }
  entries_.pop_back();
}

}  // namespace vka
