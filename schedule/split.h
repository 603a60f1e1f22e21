// The scheduler's split points (schedule/schedule.cc, rule 5): subtree measures over a kernel's
// tape, and the nodes chosen to materialize.
#pragma once

#include <unordered_map>
#include <vector>

#include "ir/graph.h"
#include "ir/kernel_spec.h"
#include "schedule/schedule.h"

namespace vka {

// For every tape entry, the measure of the distinct tape nodes under it in this kernel,
// stopping at its inputs: their number, or with `weights` (one per entry) the sum of their
// weights. Where no entry is read twice (a tree, such as a running sum), subtrees are disjoint
// and one pass sums them; otherwise bit sets over tape positions, inputs first, so one pass
// serves every candidate split point (a walk per candidate made long chains quadratic; the
// sets cost n^2 / 64 words). Past 8192 entries the sets would be
// large: the measure of the tape up to the entry (which lists inputs first, but for gathers'
// operands) stands in.
// `tape_index`: the tape position of each node computed in the kernel.
std::vector<int> tape_subtree_sizes(const std::vector<TapeEntry>& tape,
                                    const std::unordered_map<const Node*, int>& tape_index,
                                    const std::vector<int>& weights = {});

// Rule 5's choice for a kernel over `limits` (its tape, and its interior nodes: computed, not
// outputs): the nodes to materialize as earlier kernels. A tape over twice its limit is cut every
// 3/4 of the limit at once, each cut a node whose subtree holds the next 3/4; otherwise one
// node, the one whose subtree is closest to half the kernel.
std::vector<NodePtr> split_points(const std::vector<TapeEntry>& tape,
                                  const std::vector<NodePtr>& interior,
                                  const std::unordered_map<const Node*, int>& tape_index,
                                  const Limits& limits);

}  // namespace vka
