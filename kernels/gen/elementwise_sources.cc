// The values of the elementwise tape's source ops (kernels/gen/elementwise_sources.h).
#include "kernels/gen/elementwise_sources.h"

#include "base/errors.h"
#include "ir/ops.h"
#include "kernels/glsl/indexing.h"
#include "kernels/glsl/ops.h"
#include "kernels/glsl/random.h"

namespace vka {
namespace {

// A scalar slot as a value in the compute type of `t` (kernel_spec.h: Scalar::words()).
std::string slot_compute(DType t, int slot) {
  std::string c = "pc.c" + std::to_string(slot);
  switch (t) {
    case DType::kBool:
      return "(" + c + ".x != 0u)";
    case DType::kInt8:
    case DType::kInt16:
    case DType::kInt32:
      return "int(" + c + ".x)";
    case DType::kUInt8:
    case DType::kUInt16:
    case DType::kUInt32:
      return c + ".x";
    case DType::kInt64:
      return "int64_t(pack64(" + c + "))";
    case DType::kUInt64:
      return "pack64(" + c + ")";
    case DType::kFloat16:
      return "unpackHalf2x16(" + c + ".x).x";
    case DType::kFloat32:
      return "uintBitsToFloat(" + c + ".x)";
    case DType::kFloat64:
      return "packDouble2x32(" + c + ")";
    case DType::kComplex64:
      return "uintBitsToFloat(" + c + ")";
    case DType::kComplex128:
      return "dvec2(packDouble2x32(" + c + "), packDouble2x32(pc.c" + std::to_string(slot + 1) +
             "))";
  }
  return c;
}

std::string slot_uvec2(int slot) { return "pc.c" + std::to_string(slot); }

// An element's position in the logical array, as (low, high) words.
std::string random_flat(const KernelSpec& spec, const std::string& f) {
  return spec.index64 ? "unpack32(uint64_t(" + f + "))" : "uvec2(uint(" + f + "), 0u)";
}

}  // namespace

bool has_random_quad(const KernelSpec& spec, const TapeEntry& e) {
  if (e.op != Op::kRandomBits && e.op != Op::kRandomNormal) return false;
  if (spec.sources[e.accessor] != Layout::kContiguous) return false;
  if (spec.vector_width == 2) return e.op == Op::kRandomBits && e.dtype == DType::kUInt64;
  return spec.vector_width == 4;
}

std::string random_quad(const KernelSpec& spec, const TapeEntry& e, int base,
                        const std::string& words, HelperSet* h) {
  VKA_ASSERT(has_random_quad(spec, e));
  const std::string f = element_offset(spec, base + e.accessor, Layout::kContiguous);
  return emit_random_quad(e.op, e.dtype, spec.vector_width, slot_uvec2(e.slot),
                          slot_uvec2(e.slot + 1), slot_uvec2(e.slot + 2), random_flat(spec, f),
                          words, h);
}

std::string slot_index(const KernelSpec& spec, int slot) {
  std::string c = "pc.c" + std::to_string(slot);
  return spec.index64 ? "int64_t(pack64(" + c + "))" : "int(" + c + ".x)";
}

std::string source_value(const KernelSpec& s_, const TapeEntry& e, int base, HelperSet* h,
                         const RandomLane* lane) {
  DType t = e.dtype;
  std::string ct(compute_type(t));
  if (e.op == Op::kFull) return slot_compute(t, e.slot);
  std::string f = element_offset(s_, base + e.accessor, s_.sources[e.accessor]);
  if (e.op == Op::kArange) {
    int step_slot = e.slot + Scalar::slot_count(t);
    return "(" + slot_compute(t, e.slot) + " + " + ct + "(" + f + ") * " +
           slot_compute(t, step_slot) + ")";
  }
  if (e.op == Op::kRandomBits || e.op == Op::kRandomBelow || e.op == Op::kRandomNormal) {
    return emit_random(e.op, t, slot_uvec2(e.slot), slot_uvec2(e.slot + 1), slot_uvec2(e.slot + 2),
                       random_flat(s_, f), h, lane);
  }
  if (e.op == Op::kEye) {
    std::string k = slot_index(s_, e.slot), m = slot_index(s_, e.slot + 1);
    std::string row = "(" + f + " / " + m + ")";
    std::string hit = "((" + f + " - " + row + " * " + m + ") - " + row + " == " + k + ")";
    return emit_cast(DType::kBool, t, hit, h);
  }
  // linspace: start + i * step in the compute dtype, the last index exactly `stop`,
  // integers floored (numpy 2), then converted.
  DType c = linspace_compute_dtype(t);
  int w = Scalar::slot_count(c);
  std::string start = slot_compute(c, e.slot), step = slot_compute(c, e.slot + w);
  std::string stop = slot_compute(c, e.slot + 2 * w), last = slot_index(s_, e.slot + 3 * w);
  std::string val = "((" + f + ") == " + last + " ? " + stop + " : " + start + " + " + step +
                    " * " + std::string(compute_type(math_dtype(c))) + "(" + f + "))";
  if (is_integer(t) || is_bool(t)) val = math_function("floor", math_dtype(c), h) + "(" + val + ")";
  return c == t ? val : emit_cast(c, t, val, h);
}

}  // namespace vka
