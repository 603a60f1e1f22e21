// The stable LSD radix sort behind sort, argsort, unique, bincount, histogram and isin
// (kernels/lib/sort.h has the kernels and the key encoding).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "array/array.h"
#include "device/buffer.h"

namespace vka {

// The stable sorting permutation of every row of `a` taken as C-ordered rows of `rowlen`
// elements (a.size() a multiple of rowlen > 0): a uint32 array of a.size() elements whose
// position p holds the flat index of the element that sorts to p (rows stay in place: the
// row index is the most significant key). numpy's order: NaN last, -0.0 equal to 0.0.
Array sort_permutation(const Array& a, int64_t rowlen, std::string_view op);

// The values of `a` (any shape, taken flat) in ascending order, sorted as keys alone (no
// permutation moves with them), where the device runs the 8-bit passes and the dtype is real;
// nullopt otherwise, and also when some value is -0.0 or a NaN other than the quiet NaN (the
// keys lose those bits; only the stable permutation of sort_permutation keeps them in place).
std::optional<Array> sort_values(const Array& a, std::string_view op);

// `values` (8-byte elements, any shape, taken flat) in the stable order of `keys` (integers of
// the same size, taken flat), moved with the keys through the passes rather than gathered
// through a permutation afterwards, where the device runs the 8-bit passes; nullopt otherwise.
std::optional<Array> sort_by_key(const Array& keys, const Array& values, std::string_view op);

// Workgroups for `items` units of `per_group` each, capped at the portable 65535 (the sort
// kernels loop over what is left).
uint64_t sort_groups(int64_t items, int64_t per_group);

}  // namespace vka
