// Scalar conversion and push-constant encoding.
#include "ir/scalar.h"

#include <cmath>
#include <cstring>
#include <sstream>

#include "base/errors.h"

namespace vka {
namespace {

uint64_t wrap_to(uint64_t v, DType t) {
  std::size_t n = itemsize(t) * 8;
  if (is_bool(t)) return v != 0;
  if (n >= 64) return v;
  uint64_t mask = (uint64_t{1} << n) - 1;
  v &= mask;
  // Sign-extend signed types so as_int() and equality see the canonical value.
  if (is_signed_integer(t) && (v >> (n - 1)) & 1) v |= ~mask;
  return v;
}

double round_to(double v, DType t) {
  if (t == DType::kFloat32 || t == DType::kComplex64) return static_cast<float>(v);
  if (t == DType::kFloat16) return half_to_double(double_to_half(v));
  return v;
}

// numpy's float → integer cast for in-range values: truncation toward zero. Out-of-range and
// NaN values are platform-defined in numpy; here they saturate-free wrap through int64.
uint64_t float_to_int_bits(double v, DType t) {
  if (std::isnan(v)) return is_unsigned_integer(t) ? 0 : uint64_t{1} << 63;
  double tr = std::trunc(v);
  if (is_unsigned_integer(t) && tr >= 9223372036854775808.0) {
    return tr >= 18446744073709551616.0 ? uint64_t{1} << 63 : static_cast<uint64_t>(tr);
  }
  if (tr >= 9223372036854775808.0 || tr < -9223372036854775808.0) return uint64_t{1} << 63;
  return static_cast<uint64_t>(static_cast<int64_t>(tr));
}

uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

uint64_t double_bits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}

}  // namespace

uint16_t double_to_half(double v) {
  uint64_t b = double_bits(v);
  uint16_t sign = static_cast<uint16_t>((b >> 48) & 0x8000);
  if (std::isnan(v)) return sign | 0x7e00;
  double a = std::fabs(v);
  if (a >= 65520.0) return sign | 0x7c00;     // rounds to infinity (max half is 65504)
  if (a < std::ldexp(1.0, -25)) return sign;  // below half the smallest subnormal
  int e;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  int exp = e - 1;    // a = 1.f * 2^exp
  if (exp < -14) {
    // Subnormal: units of 2^-24, rounded half to even by nearbyint in the default mode.
    double units = std::nearbyint(std::ldexp(a, 24));
    return sign | static_cast<uint16_t>(units);  // 1024 units becomes the smallest normal
  }
  double mant = std::nearbyint(std::ldexp(a, 10 - exp));  // in [1024, 2048]
  uint32_t m = static_cast<uint32_t>(mant);
  if (m == 2048) {
    m = 1024;
    ++exp;
  }
  if (exp > 15) return sign | 0x7c00;
  return sign | static_cast<uint16_t>(((exp + 15) << 10) | (m - 1024));
}

double half_to_double(uint16_t h) {
  int sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double v;
  if (exp == 0) {
    v = std::ldexp(mant, -24);
  } else if (exp == 31) {
    v = mant ? std::nan("") : INFINITY;
  } else {
    v = std::ldexp(mant + 1024, exp - 25);
  }
  return sign ? -v : v;
}

Scalar Scalar::of_bool(bool v, DType dtype) { return of_uint(v ? 1 : 0, dtype); }

Scalar Scalar::of_int(int64_t v, DType dtype) {
  Scalar s;
  s.dtype_ = dtype;
  if (is_floating(dtype) || is_complex(dtype)) {
    s.re_ = round_to(static_cast<double>(v), dtype);
  } else {
    s.i_ = wrap_to(static_cast<uint64_t>(v), dtype);
  }
  return s;
}

Scalar Scalar::of_uint(uint64_t v, DType dtype) {
  Scalar s;
  s.dtype_ = dtype;
  if (is_floating(dtype) || is_complex(dtype)) {
    s.re_ = round_to(static_cast<double>(v), dtype);
  } else {
    s.i_ = wrap_to(v, dtype);
  }
  return s;
}

Scalar Scalar::of_double(double v, DType dtype) { return of_complex({v, 0.0}, dtype); }

Scalar Scalar::of_complex(std::complex<double> v, DType dtype) {
  Scalar s;
  s.dtype_ = dtype;
  if (is_bool(dtype)) {
    s.i_ = (v.real() != 0 || v.imag() != 0) ? 1 : 0;
  } else if (is_integer(dtype)) {
    s.i_ = wrap_to(float_to_int_bits(v.real(), dtype), dtype);
  } else {
    s.re_ = round_to(v.real(), dtype);
    s.im_ = is_complex(dtype) ? round_to(v.imag(), dtype) : 0.0;
  }
  return s;
}

Scalar Scalar::astype(DType t) const {
  if (is_floating(dtype_) || is_complex(dtype_)) return of_complex({re_, im_}, t);
  if (is_unsigned_integer(dtype_) || is_bool(dtype_)) return of_uint(i_, t);
  return of_int(static_cast<int64_t>(i_), t);
}

std::complex<double> Scalar::as_complex() const {
  if (is_floating(dtype_) || is_complex(dtype_)) return {re_, im_};
  if (is_signed_integer(dtype_)) return {static_cast<double>(static_cast<int64_t>(i_)), 0.0};
  return {static_cast<double>(i_), 0.0};
}

int64_t Scalar::as_int() const {
  if (is_floating(dtype_) || is_complex(dtype_)) {
    return static_cast<int64_t>(float_to_int_bits(re_, DType::kInt64));
  }
  return static_cast<int64_t>(i_);
}

bool Scalar::as_bool() const {
  if (is_floating(dtype_) || is_complex(dtype_)) return re_ != 0 || im_ != 0;
  return i_ != 0;
}

std::array<uint32_t, 4> Scalar::words() const {
  std::array<uint32_t, 4> w{0, 0, 0, 0};
  auto put64 = [&w](int at, uint64_t v) {
    w[at] = static_cast<uint32_t>(v);
    w[at + 1] = static_cast<uint32_t>(v >> 32);
  };
  switch (dtype_) {
    case DType::kBool:
    case DType::kInt8:
    case DType::kUInt8:
    case DType::kInt16:
    case DType::kUInt16:
    case DType::kInt32:
    case DType::kUInt32:
    case DType::kInt64:
    case DType::kUInt64:
      put64(0, i_);
      break;
    case DType::kFloat16:
      w[0] = double_to_half(re_);
      break;
    case DType::kFloat32:
      w[0] = float_bits(static_cast<float>(re_));
      break;
    case DType::kFloat64:
      put64(0, double_bits(re_));
      break;
    case DType::kComplex64:
      w[0] = float_bits(static_cast<float>(re_));
      w[1] = float_bits(static_cast<float>(im_));
      break;
    case DType::kComplex128:
      put64(0, double_bits(re_));
      put64(2, double_bits(im_));
      break;
  }
  return w;
}

bool Scalar::operator==(const Scalar& o) const {
  return dtype_ == o.dtype_ && i_ == o.i_ && double_bits(re_) == double_bits(o.re_) &&
         double_bits(im_) == double_bits(o.im_);
}

std::size_t Scalar::hash() const {
  uint64_t h = static_cast<uint64_t>(dtype_) * 0x9e3779b97f4a7c15ull;
  for (uint64_t v : {i_, double_bits(re_), double_bits(im_)}) {
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  }
  return static_cast<std::size_t>(h);
}

std::string Scalar::to_string() const {
  std::ostringstream os;
  os.precision(17);
  if (is_complex(dtype_)) {
    os << "(" << re_ << (im_ < 0 || std::signbit(im_) ? "" : "+") << im_ << "j)";
  } else if (is_floating(dtype_)) {
    os << re_;
  } else if (is_bool(dtype_)) {
    os << (i_ ? "True" : "False");
  } else if (is_signed_integer(dtype_)) {
    os << static_cast<int64_t>(i_);
  } else {
    os << i_;
  }
  return os.str() + ":" + std::string(name(dtype_));
}

}  // namespace vka
