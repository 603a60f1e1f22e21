// Schedules reused by structure: a graph evaluated again with the same operations, shapes and
// strides over other buffers, offsets or constant values (a function called in a loop, a time
// step, a write at the next index) takes the kernels scheduled the first time, with its own
// nodes, offsets and constants in them.
#pragma once

#include <cstdint>
#include <list>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/graph.h"
#include "schedule/schedule.h"

namespace vka {

// A graph's structure as words: every node under the roots in topological order (op, dtype,
// shape, inputs by position, parameters, and for leaves the view's shape and strides and which
// buffer, numbered by first use), then the roots and their destinations. Two graphs with equal
// words schedule alike up to the free values beside them: the leaves' and destinations' view
// offsets (the words keep whether each view's elements lie within int32 positions, which
// decides a kernel's index width) and the constants' values, which kernels take as arguments.
// Buffer identities, versions and node ids are left out.
struct PlanKey {
  std::vector<uint64_t> words;
  std::size_t hash = 0;
  std::vector<NodePtr> order;         // the nodes, in the positions the words give them
  std::vector<int64_t> offsets;       // per position: a leaf's view offset (0 otherwise)
  std::vector<uint32_t> roots;        // per root: its position
  std::vector<bool> has_dest;         // per root: written into a destination
  std::vector<int64_t> dest_offsets;  // per root: its destination's view offset
};
// `order`: topological_order(roots).
PlanKey plan_key(const std::vector<NodePtr>& roots, std::vector<NodePtr> order,
                 const std::unordered_map<const Node*, NodePtr>& destinations);

// The schedules of recent structures, least recently used dropped first. Thread-safe.
class PlanCache {
 public:
  static constexpr std::size_t kCapacity = 256;
  // Structures of more nodes are not kept (their words would outweigh what they save).
  static constexpr std::size_t kMaxNodes = 1 << 16;

  // The schedule of `key`'s structure over key.order's nodes, offsets and constants, when one
  // was added whose other values match.
  std::optional<Schedule> find(const PlanKey& key);
  // Keeps `plan`, scheduled for the graph of `key`. A plan naming a node outside key.order
  // is not kept. Each kernel argument that holds a leaf's offset (plus a fixed difference), a
  // destination's offset or a constant is rewritten on reuse; a free value no argument shows
  // in that way must match on reuse instead.
  void add(const PlanKey& key, const Schedule& plan);
  // Whether a key of this hash missed before: a loop whose shapes change every iteration (a
  // triangular solve's rows) would pay for keeping plans it never reuses, so realize() keeps
  // one at its structure's second miss.
  bool missed_before(const PlanKey& key);

  uint64_t hits() const { return hits_; }

 private:
  struct OffsetPatch {
    uint32_t view;  // input view, or output view for outputs
    uint32_t from;  // position (inputs) or root (outputs)
    int64_t delta;  // the argument's offset less the leaf's
  };
  struct SlotPatch {
    uint32_t slot;  // params.slots index
    uint32_t from;  // the constant's position
  };
  struct KernelTemplate {
    ScheduledKernel kernel;  // nodes cleared; spec, params and reason kept
    std::vector<uint32_t> inputs, outputs, slot_nodes;  // positions (kNone: no node)
    std::vector<OffsetPatch> input_offsets, output_offsets;
    std::vector<SlotPatch> slots;
  };
  struct Entry {
    std::vector<uint64_t> words;
    std::size_t hash;
    std::vector<KernelTemplate> kernels;
    // Free values no argument shows: they must be as they were.
    std::vector<std::pair<uint32_t, int64_t>> fixed_offsets, fixed_dest_offsets;
    std::vector<std::pair<uint32_t, Scalar>> fixed_constants;
  };
  using Lru = std::list<Entry>;
  static constexpr uint32_t kNone = UINT32_MAX;

  static bool matches(const Entry& e, const PlanKey& key);

  std::mutex mu_;
  Lru entries_;  // most recently used first
  std::unordered_multimap<std::size_t, Lru::iterator> index_;
  std::unordered_set<std::size_t> missed_;  // emptied when it reaches kMaxMissed
  static constexpr std::size_t kMaxMissed = 4096;
  uint64_t hits_ = 0;
};

// True when a kernel of `plan` reads a value another one wrote into one of `dests`: it reads
// it through that destination's view, which a plan's free values do not rewrite, so such
// plans are not kept.
bool reads_a_destination(const Schedule& plan,
                         const std::unordered_map<const Node*, NodePtr>& dests);

}  // namespace vka
