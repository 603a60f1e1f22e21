// Compaction: nonzero and the reads that depend on it (boolean masks, compress, extract). The
// number of results is a shape, so it is computed on the device (a prefix sum of the flags,
// kernels/lib/scan.h) and only that count comes back to the host: one 4-byte readback per call.
// Included by array/array.h after vka::Array; include array/array.h.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace vka {

// The flat (C-order) indices of the nonzero elements of `a`, as int64 (numpy.flatnonzero).
Array flatnonzero(const Array& a);
// numpy.nonzero: one int64 index array per axis (a 0-d array counts as 1-d).
std::vector<Array> nonzero(const Array& a);
// a[mask]: the elements where `mask` (bool, a's leading shape) is true, in C order; shape
// (count, *a.shape[mask.ndim:]).
Array masked(const Array& a, const Array& mask);
// numpy.compress along `axis` (flattened when nullopt); `condition` may be shorter than the
// axis (numpy's rule), never longer.
Array compress(const Array& condition, const Array& a, std::optional<int64_t> axis);
// numpy.extract: the elements of ravel(a) where ravel(condition) is true.
Array extract(const Array& condition, const Array& a);

}  // namespace vka
