// Library kernels for scans (cumsum, cumprod, cummax, cummin) of any dtype but bool. A scan
// runs over "rows": a contiguous (rows, len) array scanned along len. Each row is cut into
// chunks of whole blocks, one workgroup a chunk. When a row has several chunks,
// cumulative_reduce writes each chunk's total; cumulative_rows then folds the totals of the
// row's earlier chunks (in order) and scans its chunk block by block, each block starting from
// the last result before it. Long rows take 3n elements of traffic in two kernels, and every
// result is combined in a fixed order, so floating-point results are bit-identical from run to
// run. Short rows, and scans along an outer axis of a contiguous array, take cumulative_lines:
// one invocation scans one line sequentially (lines at stride `inner`, so neighbouring
// invocations read neighbouring elements).
#pragma once

#include <cstdint>
#include <string>

#include "ir/kernel_spec.h"

namespace vka {

inline constexpr int kCumThreads = 256;

// Elements per thread of a block: the block of compute values fills 16 KiB of shared memory
// (plus one padding value per 32).
int cumulative_per_thread(DType t);
// Elements per block (kCumThreads * cumulative_per_thread).
int64_t cumulative_block(DType t);

// The combining op: Op::kAdd, kMultiply, kMaximum or kMinimum (maximum and minimum propagate
// NaN as numpy's do). `t` is the dtype of the data and of every accessor; not bool; maximum
// and minimum not complex. The op travels as the spec's one tape entry.
//
// cumulative_reduce: in0 data (rows * len) → out0 one total per chunk (rows * chunks), a chunk
//   being `per_chunk` consecutive blocks of a row (the row's last chunk may hold fewer).
//   Slots c0 = len, c1 = per_chunk; n = rows * chunks, chunks = ceil(ceil(len / block) /
//   per_chunk).
// cumulative_rows: in0 data, in1 the chunk totals (read only when chunks > 1) → out0 the scan
//   (rows * len). Slots and n as cumulative_reduce.
// cumulative_lines: in0 data → out0 the scan of every line: line i = (o, j) with o = i / inner,
//   j = i % inner, elements o * len * inner + j + k * inner for k < len. Slots c0 = len,
//   c1 = inner; n = number of lines.
KernelSpec cumulative_reduce_spec(Op op, DType t);
KernelSpec cumulative_rows_spec(Op op, DType t);
KernelSpec cumulative_lines_spec(Op op, DType t);

// GLSL for the three kinds above.
std::string emit_cumulative(const KernelSpec& spec);

}  // namespace vka
