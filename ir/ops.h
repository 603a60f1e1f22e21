// The Op enum and per-op facts, all generated from ops.def; plus the result-dtype rules.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ir/dtype.h"

namespace vka {

enum class Op : uint8_t {
#define VKA_OP(e, name, ...) e,
#include "ir/ops.def"
#undef VKA_OP
};

inline constexpr int kNumOps = 0
#define VKA_OP(e, ...) +1
#include "ir/ops.def"
#undef VKA_OP
    ;

enum class OpKind : uint8_t {
  kLeaf,
  kSource,
  kUnary,
  kBinary,
  kTernary,
  kReduce,
  kMovement,
  kContract,  // matrix products: a GEMM kernel (array/matmul.h)
  kLibrary,   // sorts, scans: library kernels run by the node's Primitive (ir/graph.h)
};

// How a row's expression is written, for real or complex operands (ops.def: real, complex).
enum class EmitForm : uint8_t {
  kNone,      // no elementwise expression (or, for complex operands, no complex form)
  kTemplate,  // the row's glsl template
  kMath,      // the math library's function of the row's name
  kCustom,    // a case of the emitter's switch
};

// VKA_OP_IF(form, kMath, x) expands to x when `form` (an ops.def EmitForm column) is kMath,
// else to nothing: the emitters' exhaustive switches take their table-driven case labels from
// it, so a row with a table form needs no hand-written case.
#define VKA_OP_IF(form, want, x) VKA_OP_IF_##form##_##want(x)
#define VKA_OP_IF_kNone_kNone(x) x
#define VKA_OP_IF_kNone_kTemplate(x)
#define VKA_OP_IF_kNone_kMath(x)
#define VKA_OP_IF_kNone_kCustom(x)
#define VKA_OP_IF_kTemplate_kNone(x)
#define VKA_OP_IF_kTemplate_kTemplate(x) x
#define VKA_OP_IF_kTemplate_kMath(x)
#define VKA_OP_IF_kTemplate_kCustom(x)
#define VKA_OP_IF_kMath_kNone(x)
#define VKA_OP_IF_kMath_kTemplate(x)
#define VKA_OP_IF_kMath_kMath(x) x
#define VKA_OP_IF_kMath_kCustom(x)
#define VKA_OP_IF_kCustom_kNone(x)
#define VKA_OP_IF_kCustom_kTemplate(x)
#define VKA_OP_IF_kCustom_kMath(x)
#define VKA_OP_IF_kCustom_kCustom(x) x

// How an op's result dtype follows from its (already promoted) operand dtype.
enum class ResultRule : uint8_t {
  kSame,        // the promoted operand dtype
  kNoBool,      // the promoted dtype, but bool becomes int8 (numpy's square(bool) is int8)
  kFloat,       // floats and complex stay; integers → smallest float holding them
  kTrueDivide,  // floats and complex stay; bool and integers → float64
  kBool,        // comparisons, predicates, logical ops
  kReal,        // complex → its component float; other dtypes stay (abs, real, imag)
  kWhere,       // operand 0 is the condition; the result is operands 1 and 2 promoted
  kExplicit,    // the dtype is a parameter of the node (astype, sources, buffers)
};

// What an elementwise op costs a kernel beyond plain arithmetic (ops.def: cost). The
// scheduler's limit on transcendental functions per kernel weighs it: compile time and
// registers grow with these routines, most on llvmpipe (schedule/schedule.h).
enum class Cost : uint8_t {
  kCheap,  // arithmetic, comparisons, bit operations, conversions
  kLibm,   // a math library routine (exp, log, tanh, power): weight 1, 4 for complex operands
  kTrig,   // one whose float64 form is long too (sin, arctan): weight 4 for float64 and complex
};

struct OpInfo {
  Op op;
  std::string_view name;  // vkarray's name: "floor_divide"
  int arity;              // array operands
  OpKind kind;
  std::string_view kinds;  // accepted numpy kinds; uppercase = numpy has it, vkarray not yet
  ResultRule rule;
  EmitForm real;              // how real operands' expression is written
  EmitForm complex;           // how complex operands' expression is written (kNone: no form)
  std::string_view glsl;      // template for real operands (kTemplate rows), or ""
  std::string_view numpy;     // numpy's name: "absolute"
  std::string_view aliases;   // more Python names, space-separated: "acos"
  std::string_view identity;  // numpy's ufunc identity ("0", "True"), "reorder" or ""
  Cost cost;
};

const OpInfo& info(Op op);
inline std::string_view name(Op op) { return info(op).name; }
inline int arity(Op op) { return info(op).arity; }
inline OpKind kind(Op op) { return info(op).kind; }
inline bool is_elementwise(Op op) {
  OpKind k = kind(op);
  return k == OpKind::kUnary || k == OpKind::kBinary || k == OpKind::kTernary;
}
std::string_view name(OpKind k);

// Looks an op up by vkarray's or numpy's name; throws DTypeError naming the text if unknown.
Op op_from_name(std::string_view name);

// True when vkarray implements `op` for operands of dtype `t`.
bool accepts(Op op, DType t);

// Throws DTypeError when `op` cannot take an operand of dtype `t`, naming both and saying
// whether numpy would have accepted it ("not supported yet") or not ("not supported").
void check_accepts(Op op, DType t);

// The dtype every operand is converted to before the op runs ("compute dtype"), given the
// operand dtypes. For kWhere operand 0 is excluded (it becomes bool). Promotion follows
// numpy 2 (promotion.h); then the rule decides, e.g. sqrt(int16) computes in float32.
DType compute_dtype(Op op, const std::vector<DType>& operands);
// The same where every value operand has dtype `t` (a where's condition aside).
DType compute_dtype(Op op, DType t);

// The result dtype of `op` when its operands are already in `compute` dtype.
DType result_dtype(Op op, DType compute);

// The smallest float dtype that holds every value of `t` (numpy's rule for sqrt(int8) etc.):
// bool/int8/uint8 → float16, int16/uint16 → float32, wider integers → float64.
DType smallest_float_for(DType t);

// The dtype linspace computes its values in before converting to `dtype`: float32 for
// float16 and float32, the dtype itself for complex, float64 otherwise.
DType linspace_compute_dtype(DType dtype);

// The real component dtype of a complex dtype (complex64 → float32); identity otherwise.
DType real_dtype(DType t);

// A stable fingerprint of the op table (names, arities, rules), for on-disk cache keys:
// editing the table invalidates cached kernels instead of reusing mismatched ones.
uint64_t ops_table_fingerprint();

}  // namespace vka
