// GLSL of the radix sort's order-preserving keys (kernels/lib/sort.cc's key kernels and the
// passes of a sort of values, sort_pass.cc): a value's bits turned into an unsigned key whose
// order is numpy's sort order, and back.
#pragma once

#include <cstdint>
#include <string>

#include "ir/dtype.h"

namespace vka {
namespace sort_pass_internal {

// Bits of one component of t (a complex number has two).
int component_bits(DType t);
// The GLSL unsigned type of `bits` bits.
std::string raw_type(int bits);

// The bit patterns of a dtype's keys: KEY, its width, a component's sign bit, its bits, the
// exponent bits (floats) and the quiet NaN.
struct KeyBits {
  explicit KeyBits(DType t);
  std::string h(uint64_t v) const;  // a GLSL literal of KEY
  bool wide;
  std::string K;
  uint64_t sign, mask, expmask, quiet;
};

// GLSL `is_nan` and `float_key` of a float component's bits: the sign bit flipped (negatives:
// every bit), -0.0 as 0.0 and every NaN the largest key, so unsigned order is numpy's order;
// and `lossy_value`: a value whose bits its key loses (-0.0, a NaN other than the quiet NaN).
std::string float_key_functions(const KeyBits& b);
// The key of a real value x of t that is not a float.
std::string integer_key(DType t, const KeyBits& b, const std::string& x);

// GLSL for the passes that read and write a real t's values themselves (32 or 64 bits, the
// width of their keys): `K encode_value(K x)` (the key), `K decode_value(K k)` (the value back;
// the largest float key is the quiet NaN) and `bool lossy_value(K x)` (a value whose bits its
// key loses: -0.0, a NaN other than the quiet NaN).
std::string value_coding(DType t);

}  // namespace sort_pass_internal
}  // namespace vka
