// One kernel's tape (schedule/schedule.cc builds each kernel from one): the walk from the
// kernel's roots to its inputs, in the order its values are computed.
#pragma once

#include <functional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/graph.h"
#include "ir/kernel_spec.h"
#include "schedule/schedule.h"

namespace vka {

struct Tape {
  // spec's tape, inputs (with input_bindings), sources and slots; the input nodes, in binding
  // order.
  ScheduledKernel k;
  std::vector<NodePtr> interior;  // computed tape nodes that are not outputs: split points
  std::unordered_map<const Node*, int> tape_index;
  std::vector<View> in_views;   // per input accessor: the view it is read through
  std::vector<View> src_views;  // per source accessor
  std::vector<bool> gathered;   // per input accessor: read by a gather
  bool gather_index64 = false;  // a gathered array's positions need 64-bit indices
  std::vector<Scalar> slot_values;
  std::vector<const Node*> slot_nodes;  // per slot value: its constant node, or null
};

// The tape computing `roots` (post-order, iterative: chains can be long), each node once.
// `is_input(n)`: n is read from a buffer (a leaf, or a materialized node computed elsewhere).
// Nodes outside `in_group` that are computed here are the split points. A materialized node
// with one of `destinations` is read through its destination's view; others are contiguous.
Tape walk_tape(const std::vector<NodePtr>& roots, const std::unordered_set<const Node*>& in_group,
               const std::function<bool(const Node*)>& is_input,
               const std::unordered_map<const Node*, NodePtr>& destinations);

// Appends v's push-constant slots to spec and its value to values.
void add_slots(const Scalar& v, KernelSpec& spec, std::vector<Scalar>& values);

}  // namespace vka
