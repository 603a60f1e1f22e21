// How a scheduled kernel walks memory: its iteration space and each accessor's layout, from
// the views of its operands. The scheduler (schedule/schedule.cc) decides what a kernel computes;
// these fill in spec.rank, spec.index64, the accessors' layouts, shared stride fields and the
// launch parameters.
#pragma once

#include <vector>

#include "ir/graph.h"
#include "ir/kernel_spec.h"
#include "schedule/schedule.h"

namespace vka {

// The views of a kernel's operands, in accessor order.
struct KernelViews {
  std::vector<View> inputs;  // a gather's array: its base view (graph.h: GatherInfo)
  std::vector<View> outputs;
  std::vector<View> sources;
  std::vector<bool> gathered;   // per input: read at computed positions (always strided)
  bool gather_index64 = false;  // a gathered array needs 64-bit offsets
};

// An elementwise kernel over `shape`: every view broadcast to it, then dims merged where every
// view allows (a contiguous kernel whatever the rank).
void lay_out_elementwise(ScheduledKernel& k, const Shape& shape, KernelViews v,
                         std::vector<Scalar> slots);

// The reduction `r` computing tape entry `result` (views over its input's shape; no output
// views): every view permuted to (kept axes, reduced axes), each group's dims merged where
// every view allows it; the output is written at the kept index only.
void lay_out_reduction(ScheduledKernel& k, const Node& r, int result, KernelViews v,
                       std::vector<Scalar> slots);

}  // namespace vka
