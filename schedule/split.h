// The scheduler's split point (schedule/schedule.cc, rule 5): subtree sizes over a kernel's tape.
#pragma once

#include <unordered_map>
#include <vector>

#include "ir/graph.h"
#include "ir/kernel_spec.h"

namespace vka {

// For every tape entry, the number of distinct tape nodes under it in this kernel, stopping
// at its inputs: bit sets over tape positions, inputs first, so one pass serves every
// candidate split point (a walk per candidate made long chains quadratic). Past 8192
// entries the sets would be large: the position in the tape (which lists inputs first, but
// for gathers' operands) stands in for the size.
// `tape_index`: the tape position of each node computed in the kernel.
std::vector<int> tape_subtree_sizes(const std::vector<TapeEntry>& tape,
                                    const std::unordered_map<const Node*, int>& tape_index);

}  // namespace vka
