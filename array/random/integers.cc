// vka::random: integers with array-valued bounds (array/random/random.h): the multiply-shift of the
// scalar form's kernel (kernels/glsl/random.cc, vka_random_below) written as uint64
// elementwise ops, so both forms give the same values for the same bounds.
#include "array/random/random.h"
#include "array/reduce.h"
#include "base/errors.h"
#include "runtime/device_support.h"

namespace vka::random {
namespace {

constexpr uint64_t kLow32 = 0xffffffffull;

bool any_true(const Array& cond) {
  return any(cond).astype(DType::kUInt8).to_vector<uint8_t>()[0] != 0;
}

// The high and low 64 bits of the 128-bit product a * r (uint64 arrays).
std::pair<Array, Array> mul_64x64(const Array& a, const Array& r) {
  Array al = a & Arg(kLow32), ah = a >> 32, rl = r & Arg(kLow32), rh = r >> 32;
  Array ll = al * rl, lh = al * rh, hl = ah * rl, hh = ah * rh;
  Array mid = (ll >> 32) + (lh & Arg(kLow32)) + (hl & Arg(kLow32));  // below 3 * 2^32
  Array lo = (ll & Arg(kLow32)) | (mid << 32);
  Array hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
  return {hi, lo};
}

}  // namespace

Array Generator::integers(const Array& low, const Array& high, std::optional<Shape> size,
                          DType dtype, bool endpoint) {
  if (!(is_bool(dtype) || is_integer(dtype))) {
    throw DTypeError("[integers] Unsupported dtype " + std::string(name(dtype)) + " for integers");
  }
  for (const Array* b : {&low, &high}) {
    if (!(is_bool(b->dtype()) || is_integer(b->dtype()))) {
      throw DTypeError("[integers] low and high must be integer arrays, got " +
                       std::string(name(b->dtype())));
    }
  }
  const Shape shape = size ? *size : broadcast_shapes("integers", low.shape(), high.shape());
  const Array lo = broadcast_to(low, shape), hi = broadcast_to(high, shape);
  require_dtype(*context_, DType::kUInt64, "integers");
  const std::string t(name(dtype));
  const int width = static_cast<int>(itemsize(dtype)) * 8;
  const bool is_signed = is_signed_integer(dtype);
  // The dtype's range as weak Python ints (comparisons with them are exact, as numpy 2's).
  const Arg min_v = is_signed ? Arg(static_cast<int64_t>(~uint64_t{0} << (width - 1))) : Arg(0);
  const uint64_t max_u = is_bool(dtype) ? 1
                         : is_signed    ? (uint64_t{1} << (width - 1)) - 1
                                        : (width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1);
  if (vka::size(shape) > 0) {
    if (any_true(lo < min_v)) throw ShapeError("[integers] low is out of bounds for " + t);
    const bool high_over = endpoint ? any_true(hi > Arg(max_u))
                                    : (max_u != ~uint64_t{0} && any_true(hi > Arg(max_u + 1)));
    if (high_over) throw ShapeError("[integers] high is out of bounds for " + t);
    if (endpoint ? any_true(lo > hi) : any_true(lo >= hi)) {
      throw ShapeError(endpoint ? "[integers] low > high" : "[integers] low >= high");
    }
  }
  // In range, both fit int64 (signed targets) or uint64 (unsigned): two's complement bits.
  const Array lo_u = lo.astype(DType::kUInt64), hi_u = hi.astype(DType::kUInt64);
  const Array r = endpoint ? hi_u - lo_u + Arg(1) : hi_u - lo_u;  // 0 stands for 2^64
  return draw("integers", shape, dtype, static_cast<uint64_t>(vka::size(shape)),
              [&](uint64_t k, uint64_t c) {
                // The block's high and low 64 bits, as random_below reads them.
                Array a = bits(shape, DType::kUInt64, 2, 1, k, c);
                Array x_lo = bits(shape, DType::kUInt64, 2, 0, k, c);
                auto [p_hi, p_lo] = mul_64x64(a, r);
                Array q_hi = mul_64x64(x_lo, r).first;
                Array sum = p_lo + q_hi;
                Array v = p_hi + (sum < p_lo).astype(DType::kUInt64);
                v = where(r == Arg(0), a, v);
                return (v + lo_u).astype(dtype);
              });
}

}  // namespace vka::random
