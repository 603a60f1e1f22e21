// Index math of generated kernels: global id → grid-stride loop → N-d index → each operand's
// buffer element, all sizes and strides read from the push-constant block.
#pragma once

#include <string>
#include <string_view>

#include "ir/kernel_spec.h"
#include "kernels/glsl/writer.h"

namespace vka {

// "int" or "int64_t": the type of element indices in a spec's kernel.
std::string index_type(const KernelSpec& spec);

// Writes the argument block's declaration as `pc` (the layout of ir/kernel_spec.h's
// push_layout(), with explicit offsets so host packing and GLSL agree by construction): push
// constants, or a uniform or storage buffer bound after the operands (spec.args).
void emit_push_block(const KernelSpec& spec, GlslWriter& w);

// Declares an operand's buffer `name` (binding `binding` of the spec, elements of `type`;
// `access`: "readonly" or "writeonly"), read and written as name.v[i]: a storage-buffer
// descriptor, or with Addressing::kAddresses a buffer reference made from the binding's
// address in the argument block (a cast, which costs nothing). `block` names its block type.
// Addressed kernels need GL_EXT_buffer_reference and 64-bit integers (address_extensions).
std::string operand_buffer(const KernelSpec& spec, int binding, std::string_view access,
                           std::string_view type, std::string_view block, std::string_view name);
// The same with block type B{binding}.
std::string operand_buffer(const KernelSpec& spec, int binding, std::string_view access,
                           std::string_view type, std::string_view name);
// The extensions addressed operands need; "" for a spec with bindings.
std::string address_extensions(const KernelSpec& spec);

// Opens the grid-stride loop over i in [0, pc.n): the dispatch may have fewer invocations
// than elements (maxComputeWorkGroupCount), so each invocation strides by the grid size.
// The caller closes it with w.close().
void open_grid_loop(const KernelSpec& spec, uint32_t workgroup_size, GlslWriter& w);

// Declares the N-d index i0..i{rank-1} of flat index `i` when some accessor is strided.
void emit_nd_index(const KernelSpec& spec, GlslWriter& w);

// Row mode: strided kernels of rank >= 2 run a 2-d dispatch, workgroups along y walking rows
// (every index but the last) and invocations along x walking the last index, so the N-d index
// needs no division per element. `uses_rows` decides it for both the emitter and the launch:
// kernels whose tape exceeds kMaxRowModeTape (ir/kernel_spec.h) compute far more per element
// than the division costs, and run flat, every invocation busy (row mode leaves invocations
// idle on rows shorter than a workgroup's columns).
// With vector_width 4 (ir/kernel_spec.h: every operand along rows with stride 1), each
// invocation handles 4 adjacent columns: a scalar head up to out0's 16-byte alignment, then
// aligned vector stores, inputs loaded as two aligned vectors and shifted, then a scalar tail.
bool uses_rows(const KernelSpec& spec);
// Columns each invocation of row mode handles per step: with vector_width 4, one vector of 4
// adjacent columns; otherwise 4 columns `workgroup size × grid` apart, so every load stays
// coalesced (independent loads in flight per invocation; 1 for large tapes).
int row_unroll(const KernelSpec& spec);
// True for the flat kernels that may unroll: elementwise, rank >= 1, not in row mode, one
// element at a time, no scalar (broadcast) output.
bool unrolls(const KernelSpec& spec);
// Elements each invocation of such a kernel computes per step of the grid loop (spec.unroll),
// 1 for every other kernel.
int flat_unroll(const KernelSpec& spec);
// Row mode's invocations per row: the fewest that cover a row of `inner` columns in one pass
// (each invocation takes row_unroll(spec) columns per pass), a power of two from
// kMinRowLanes to the workgroup's size. A workgroup walks workgroup / lanes rows at once:
// rows shorter than a workgroup's columns (a slice's last axis of a few dozen) would otherwise
// leave most of its invocations idle. The launch and the shader compute it alike.
inline constexpr uint32_t kMinRowLanes = 16;
uint32_t row_lanes(int64_t inner, int columns_per_lane, uint32_t workgroup_size);
// Opens row mode's loop over rows (declaring rows, cgrid, col0 (this invocation's first
// column) and i0..i{rank-2}); the caller walks the columns from col0 by cgrid and closes it.
void open_rows(const KernelSpec& spec, uint32_t workgroup_size, GlslWriter& w);
// Opens the loops of row mode and declares i0..i{rank-2}. Then, for each of row_unroll(spec)
// columns, open_row_column() opens a block declaring i{rank-1} and the flat index i, which
// the caller closes; the caller closes the two loops with w.close() twice at the end.
void open_row_loops(const KernelSpec& spec, uint32_t workgroup_size, GlslWriter& w);
void open_row_column(const KernelSpec& spec, int u, GlslWriter& w);

// The element offset of accessor `a` (inputs, then outputs, then sources) for the current
// element, in index type: "(pc.off2 + i)", "pc.off0", or "(pc.off1 + i0 * pc.st1_0 + ...)".
std::string element_offset(const KernelSpec& spec, int accessor, Layout layout);
// The same as an array subscript (uint(...) with 64-bit index math).
std::string element_index(const KernelSpec& spec, int accessor, Layout layout);

}  // namespace vka
