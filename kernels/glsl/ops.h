// op × dtype → GLSL expression, with numpy's semantics (integer division by zero is 0,
// floor_divide/remainder take the divisor's sign, NaN rules of maximum vs fmax, round half to
// even, bool stored as uint8). Driven by ir/ops.def: ops.cc writes the table's forms and its
// kCustom rows, complex*.cc the complex forms, convert.cc the types and casts.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ir/dtype.h"
#include "ir/ops.h"
#include "kernels/glsl/math.h"

namespace vka {

// The GLSL type of a dtype in three roles:
//   storage: one buffer element (dtypes.def): bool is uint8_t, complex64 is vec2.
//   value:   an SSA value of the kernel body: bool is bool, int8 is int8_t, float16 is
//            float16_t, so every op result is rounded/wrapped to its dtype as numpy does.
//   compute: what an op computes in: 8- and 16-bit integers in 32 bits (wrapping back on
//            conversion gives numpy's modular results, and avoids overflow traps such as
//            INT8_MIN / -1), float16 in float (numpy also computes half ops in float).
std::string_view storage_type(DType t);
std::string_view value_type(DType t);
std::string_view compute_type(DType t);
// The `width`-vector (2 to 4) of a storage type (vec4, dvec2, i8vec4, u16vec4, ...; not
// complex).
std::string storage_vec_type(DType t, int width);
std::string to_compute(DType t, const std::string& value);
std::string from_compute(DType t, const std::string& expr);
// from_compute for an SSA value that later ops read: float16 goes through vka_f16 (added to
// `helpers`), which rounds in exact float32 arithmetic, so no driver can keep a float16
// intermediate at float precision (NVIDIA's compiler drops float(float16_t(x))).
std::string from_compute(DType t, const std::string& expr, HelperSet* helpers);

// A value in compute type → bool, numpy's truthiness (NaN is true, complex: either part).
std::string truth(DType t, const std::string& x);

// astype: compute(from) → compute(to) with numpy's results for in-range values and numpy's
// x86 results for NaN/out-of-range float → integer (via int32 or int64, INT_MIN pattern).
std::string emit_cast(DType from, DType to, const std::string& x, HelperSet* helpers);

// `op` applied to `args` (compute type of `operand`; for where, args[0] is a bool), giving
// an expression in the compute type of result_dtype(op, operand). Throws DTypeError when the
// op does not take `operand` (ops.def decides).
std::string emit_op(Op op, DType operand, const std::vector<std::string>& args, HelperSet* helpers);

// Complex operands (complex64 = vec2, complex128 = dvec2); emit_op forwards here.
std::string emit_complex_op(Op op, DType operand, const std::vector<std::string>& args,
                            HelperSet* helpers);

// kFloat32 for float16/float32/complex64, kFloat64 for float64/complex128: the math library
// precision a floating dtype uses.
DType math_dtype(DType t);

}  // namespace vka
