// Recorded writes (write.h, step 3), for write.cc: the record itself and the view overlap
// tests both files use.
#pragma once

#include <memory>

#include "device/context.h"
#include "ir/graph.h"

namespace vka {

// The same elements in the same order: offsets equal and equal strides on every axis longer
// than 1.
bool same_elements(const View& a, const View& b);
// Proved to share no element (false: they may).
bool disjoint(const View& a, const View& b);

// Records `dest = value` instead of running it, when the recorded run can compute it with the
// others (write.h, step 3); false when the write must run now, after the recorded ones.
// `value` must be held by nothing else.
bool record_write(const std::shared_ptr<Context>& context, const NodePtr& dest,
                  const NodePtr& value);

// True when `n` is the value of a recorded write.
bool is_recorded_value(const Node* n);

}  // namespace vka
