// Library operations as lazy graph nodes: sorts and scans return an array at once and run
// their library kernels when its value is needed, after their inputs' expressions.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "array/array.h"

namespace vka {

// Computes a library operation's value from arrays reading its inputs' values.
using LibraryRun = std::function<Array(const std::vector<Array>& inputs)>;

// An array of `dtype` and `shape`, on `inputs[0]`'s context, whose value `run` computes when
// something needs it (runtime/realize.h evaluates library nodes before the kernels that read
// them). Until then the inputs stay lazy too: `cumsum(a * 2)` builds a graph, and evaluating it
// computes `a * 2` (fused with everything else it needs) and then the scan. Callers check their
// arguments first, so errors are raised at the call, as numpy's are. `run` must return an
// array of `dtype` and `shape`; it may return a view or a lazy array.
Array library_node(std::string name, const std::vector<Array>& inputs, DType dtype, Shape shape,
                   LibraryRun run);

}  // namespace vka
