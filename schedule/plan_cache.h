// Schedules reused by structure: a graph evaluated again with the same operations, shapes,
// views and constants over other buffers (a function called in a loop, a time step) takes the
// kernels scheduled the first time, with its own nodes in them.
#pragma once

#include <cstdint>
#include <list>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "ir/graph.h"
#include "schedule/schedule.h"

namespace vka {

// A graph's structure as words: every node under the roots in topological order (op, dtype,
// shape, inputs by position, parameters, and for leaves the view and which buffer, numbered by
// first use), then the roots and their destinations. Two graphs with equal words schedule
// alike: schedule() reads nothing else of them. Buffer identities, versions and node ids are
// left out, so a new evaluation over fresh buffers has the words of the last.
struct PlanKey {
  std::vector<uint64_t> words;
  std::size_t hash = 0;
  std::vector<NodePtr> order;  // the nodes, in the positions the words give them
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

  // The schedule of `key`'s structure over key.order's nodes, when one was added.
  std::optional<Schedule> find(const PlanKey& key);
  // Keeps `plan`, scheduled for the graph of `key`. A plan naming a node outside key.order
  // is not kept.
  void add(const PlanKey& key, const Schedule& plan);

  uint64_t hits() const { return hits_; }

 private:
  struct KernelTemplate {
    KernelSpec spec;
    LaunchParams params;
    std::vector<uint32_t> inputs, outputs;  // positions in the key's order
    std::string reason;
  };
  struct Entry {
    std::vector<uint64_t> words;
    std::vector<KernelTemplate> kernels;
  };
  using Lru = std::list<Entry>;

  std::mutex mu_;
  Lru entries_;  // most recently used first
  std::unordered_multimap<std::size_t, Lru::iterator> index_;
  uint64_t hits_ = 0;
};

}  // namespace vka
