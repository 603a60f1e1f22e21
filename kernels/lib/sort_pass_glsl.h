// The GLSL pieces the radix sort's pass kernels share (kernels/lib/sort_pass.cc, sort_scatter.cc):
// the shader's head, the digit, the partition of tiles, and the offsets carried between tiles.
#pragma once

#include <string>

#include "ir/kernel_spec.h"
#include "kernels/lib/sort_pass.h"

namespace vka {
namespace sort_pass_internal {

std::string str(int v);
// The 8-bit form's specs have four slots (sort_pass.h).
bool eight_bit(const KernelSpec& spec);
// The GLSL type of a key as wide as `key`.
std::string key_type(DType key);
// #version, extensions (subgroup ones for the 8-bit form), local size, argument block.
std::string header(const KernelSpec& spec, const SortGeometry& g);
// GLSL `uint digit(KEY k, uint id)`: the pass's digit, of the key or of the row.
std::string digit_function(const std::string& K, const SortGeometry& g);
// GLSL: the workgroup's partition p of `parts`: tiles first .. last - 1 of B elements, in
// order (each workgroup sorts a contiguous range, so one set of digit offsets per partition).
std::string partition(const std::string& B);
// GLSL after a tile's writes: each digit's next position moves past the tile's run of it
// (dstart: the runs' starts in the tile; the last run ends at the tile's element count).
std::string advance_offsets(const std::string& D, const std::string& T, const std::string& B);

// GLSL: an exclusive prefix sum, in place, of the shared array `array` of T * per entries,
// invocation t owning entries t * per .. t * per + per - 1 (through shared `part`).
std::string owned_exclusive_scan(const std::string& array, const std::string& per,
                                 const std::string& T);

// The scatters (sort_scatter.cc).
std::string emit_scatter_portable(const KernelSpec& spec, const SortGeometry& g);
std::string emit_scatter_ballot(const KernelSpec& spec, const SortGeometry& g);

}  // namespace sort_pass_internal
}  // namespace vka
