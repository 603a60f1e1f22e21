// Bounds on the values of integer expressions, known on the host without computing them: an
// index array made from arange by shifts, scalings and slices provably lies within an axis, and
// its bounds check (array/gather.h) needs no kernel and no wait for the device.
#pragma once

#include <cstdint>
#include <optional>

#include "ir/graph.h"

namespace vka {

// The bounds of `n`'s values, when its dtype is an integer one and its graph is made (within a
// few levels) of aranges, integer constants, leaves of buffers with known values (below),
// +, -, *, negation, maximum, minimum and conversions between integer dtypes that keep the
// values. nullopt otherwise, and wherever an intermediate could leave its dtype's range.
std::optional<ValueRange> value_range(const Node& n);

// Records on `buffer` (its current version) that it holds `value`'s values, contiguous from
// its start: leaves of it made at this version know their bounds. Nothing when value_range
// does not know them. A write into the buffer (a new version) forgets them.
void note_values(const Node& value, BufferRef& buffer);

}  // namespace vka
