// Reduction kernels: the main() of a KernelKind::kReduce spec (ir/kernel_spec.h). The
// elementwise emitter (kernels/gen/elementwise.h) writes the declarations and the tape; this file
// writes the loops around the tape and the accumulation.
//
// Every reduction keeps a state per invocation: the value (and, for floating sums, the
// compensation term of a Kahan-Babuska sum, combined by exact two-sums, so a float32 sum of
// 2^26 values is within an ulp or two of the exact one; and, for arg reductions, the index).
// A state starts at the op's identity; elements join in increasing index order; states
// combine in a fixed tree; so the same launch gives bit-identical results every time.
#pragma once

#include <cstdint>

#include "ir/kernel_spec.h"
#include "kernels/glsl/math.h"
#include "kernels/glsl/writer.h"

namespace vka {

// Writes the tape of the spec for the current element (the caller declares the flat index
// `i` and the N-d index i0..i{rank-1}). With `lane` >= 0 (vector_width 4), contiguous inputs
// read component `lane` of the 4-vectors l<a> the caller loaded.
class TapeEmitter {
 public:
  virtual ~TapeEmitter() = default;
  virtual void emit(GlslWriter& w, int lane = -1) = 0;
};

// argmax and argmin: the state carries an index, the result is int64.
bool is_arg_reduction(Op op);

// Floating sums and means: compensated (value and error term).
bool is_compensated(const ReduceSpec& r);

// main() of a reduction spec. Shared arrays and GLSL functions go into `helpers` (written
// before main by the caller).
void emit_reduce_main(const KernelSpec& spec, uint32_t workgroup_size, TapeEmitter& tape,
                      HelperSet* helpers, GlslWriter& w);

}  // namespace vka
