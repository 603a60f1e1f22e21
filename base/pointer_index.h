// PointerIndex: pointers numbered in the order first seen, in one open-addressed table: the
// graph walks that run on every evaluation (topological order, plan keys) visit each node
// once, where a node-based hash map's allocations cost more than the walk itself.
#pragma once

#include <cstdint>
#include <vector>

namespace vka {

class PointerIndex {
 public:
  static constexpr uint32_t kAbsent = UINT32_MAX;

  explicit PointerIndex(std::size_t expected = 16) {
    std::size_t cap = 32;
    while (cap < expected * 2) cap *= 2;
    slots_.assign(cap, Slot{nullptr, kAbsent});
  }

  // The number of `p`, giving it the next one (size() before the call) when it has none.
  // `added` (when given) says which happened.
  uint32_t insert(const void* p, bool* added = nullptr) {
    Slot& s = probe(p);
    if (s.key == p) {
      if (added) *added = false;
      return s.value;
    }
    s = Slot{p, static_cast<uint32_t>(size_)};
    if (added) *added = true;
    if (++size_ * 2 > slots_.size()) grow();
    return static_cast<uint32_t>(size_ - 1);
  }
  // The number of `p`, or kAbsent.
  uint32_t find(const void* p) const {
    const Slot& s = const_cast<PointerIndex*>(this)->probe(p);
    return s.key == p ? s.value : kAbsent;
  }
  std::size_t size() const { return size_; }

 private:
  struct Slot {
    const void* key;
    uint32_t value;
  };
  Slot& probe(const void* p) {
    const std::size_t mask = slots_.size() - 1;
    // Heap pointers are aligned: mix the high bits into the low ones before masking.
    uint64_t h = reinterpret_cast<uintptr_t>(p) * 0x9e3779b97f4a7c15ull;
    std::size_t i = static_cast<std::size_t>(h >> 32) & mask;
    while (slots_[i].key != nullptr && slots_[i].key != p) i = (i + 1) & mask;
    return slots_[i];
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.size() * 2, Slot{nullptr, kAbsent});
    for (const Slot& s : old) {
      if (s.key != nullptr) probe(s.key) = s;
    }
  }

  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

}  // namespace vka
