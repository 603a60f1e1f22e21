// Which small values an evaluation keeps beyond its targets: held_values, realize()'s rule for
// scalar recurrences a program keeps building on.
#pragma once

#include <vector>

#include "ir/graph.h"

namespace vka {

// Small values a program still holds, computed along the way: a computed node of one element
// that something outside this graph references (an array, another expression), under a chain
// of at least 8 computations (kHeldDepth). Such values are kept like targets: a scalar recurrence
// (beta = (1 - alpha * alpha) * beta in a loop, read through later writes) otherwise makes
// every evaluation recompute the whole recurrence, a longer kernel, compiled anew, each time.
// A value of one element adds no traffic worth counting to the kernel that writes it.
// `order`: the nodes under `roots`, inputs first, down to values computed earlier.
std::vector<NodePtr> held_values(const std::vector<NodePtr>& order,
                                 const std::vector<NodePtr>& roots);

}  // namespace vka
