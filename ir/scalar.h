// Scalar constants as typed values: they travel to kernels as push-constant bits, never as
// GLSL literals, so a new value never means a new shader.
#pragma once

#include <array>
#include <complex>
#include <cstdint>
#include <string>

#include "ir/dtype.h"

namespace vka {

class Scalar {
 public:
  Scalar() = default;
  // The value converted to `dtype` with numpy's casting results for in-range values
  // (float → int truncates toward zero; int → narrower int wraps; anything → bool is != 0).
  static Scalar of_bool(bool v, DType dtype = DType::kBool);
  static Scalar of_int(int64_t v, DType dtype = DType::kInt64);
  static Scalar of_uint(uint64_t v, DType dtype = DType::kUInt64);
  static Scalar of_double(double v, DType dtype = DType::kFloat64);
  static Scalar of_complex(std::complex<double> v, DType dtype = DType::kComplex128);

  DType dtype() const { return dtype_; }
  Scalar astype(DType t) const;

  // The value as host numbers (converting as numpy would).
  std::complex<double> as_complex() const;
  double as_double() const { return as_complex().real(); }
  int64_t as_int() const;
  bool as_bool() const;

  // Push-constant encoding: slot_count() 8-byte slots (uvec2 each in GLSL). Integers are
  // two's-complement low/high words, float16 is its IEEE half bits, float32 its bits,
  // float64 its bits (low, high), complex64 (re bits, im bits), complex128 two slots.
  static int slot_count(DType t) { return t == DType::kComplex128 ? 2 : 1; }
  std::array<uint32_t, 4> words() const;

  // Exact (bitwise) identity: two NaNs with equal bits are equal, -0.0 != 0.0. This is the
  // equality graph hash-consing needs: equal scalars must generate identical results.
  bool operator==(const Scalar& o) const;
  bool operator!=(const Scalar& o) const { return !(*this == o); }
  std::size_t hash() const;
  std::string to_string() const;

 private:
  DType dtype_ = DType::kFloat64;
  // Canonical payload by kind: b/i/u → i (two's complement, wrapped to the dtype's width);
  // f → re (already rounded to the dtype's precision); c → re, im.
  uint64_t i_ = 0;
  double re_ = 0, im_ = 0;
};

// IEEE binary16 conversions with round-to-nearest-even, done on the host so that a float16
// constant has exactly numpy's value.
uint16_t double_to_half(double v);
double half_to_double(uint16_t h);

}  // namespace vka
