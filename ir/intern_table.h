// The graph's intern table (ir/graph.h): structural hash -> weak node, open addressing in one
// array, so interning a node allocates nothing beyond the node (every numpy-level operation
// interns at least one).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace vka {

class Node;

class InternTable {
 public:
  InternTable() : slots_(kMinSlots) {}

  // The live node of `hash` that `same` accepts, or null. Dead entries of this hash are
  // dropped as they are met: a loop that remakes one structure each iteration (a scalar, a
  // view) would otherwise probe past a run of dead ones until the next rebuild.
  template <class Same>
  std::shared_ptr<const Node> find_live(std::size_t hash, const Same& same) {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = start(hash);; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.state == kEmpty) return nullptr;
      if (s.state != kFull || s.hash != hash) continue;
      if (std::shared_ptr<const Node> n = s.node.lock()) {
        if (same(*n)) return n;
      } else {
        drop(s);
      }
    }
  }

  // Adds `node` under `hash` (the caller found no live node of its structure).
  void insert(std::size_t hash, const std::shared_ptr<const Node>& node) {
    // At most half the slots empty-or-dead in use: probes stay short. A rebuild drops dead
    // entries and sizes the array for twice the live ones.
    if ((used_ + 1) * 2 > slots_.size()) rebuild();
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = start(hash);
    while (slots_[i].state == kFull) i = (i + 1) & mask;
    if (slots_[i].state == kEmpty) ++used_;
    slots_[i] = Slot{hash, node, kFull};
    ++full_;
  }

  // Calls f(node) for every live node, dropping dead entries.
  template <class F>
  void for_each_live(const F& f) {
    for (Slot& s : slots_) {
      if (s.state != kFull) continue;
      if (std::shared_ptr<const Node> n = s.node.lock()) {
        f(std::move(n));
      } else {
        drop(s);
      }
    }
  }

  // Entries held, live or not yet found dead.
  std::size_t size() const { return full_; }

 private:
  enum State : uint8_t { kEmpty, kFull, kDead };
  struct Slot {
    std::size_t hash = 0;
    std::weak_ptr<const Node> node;
    State state = kEmpty;
  };
  static constexpr std::size_t kMinSlots = 1024;

  // A full slot whose node died: dead, so later probes go past it and inserts may reuse it.
  void drop(Slot& s) {
    s.node.reset();
    s.state = kDead;
    --full_;
  }

  std::size_t start(std::size_t hash) const {
    // Structural hashes mix well in their low bits already; fold the high ones in anyway.
    return (hash ^ (hash >> 29)) & (slots_.size() - 1);
  }

  void rebuild() {
    std::vector<Slot> old;
    old.swap(slots_);
    std::size_t live = 0;
    for (const Slot& s : old) live += s.state == kFull && !s.node.expired();
    std::size_t n = kMinSlots;
    while (n < live * 4) n *= 2;
    slots_.assign(n, Slot{});
    used_ = full_ = 0;
    const std::size_t mask = n - 1;
    for (Slot& s : old) {
      if (s.state != kFull || s.node.expired()) continue;
      std::size_t i = start(s.hash);
      while (slots_[i].state != kEmpty) i = (i + 1) & mask;
      slots_[i] = std::move(s);
      ++used_;
      ++full_;
    }
  }

  std::vector<Slot> slots_;
  std::size_t used_ = 0;  // slots not empty: full or dead
  std::size_t full_ = 0;  // slots holding an entry
};

}  // namespace vka
