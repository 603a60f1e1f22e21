// Accurate float32/float64 math functions as GLSL source. GLSL's built-ins are not enough:
// Vulkan only promises sin/cos to an absolute 2^-11 and offers no double exp/log/sin at all,
// while numpy parity needs a few ulp. Each function is generated for float and double from
// one template, so both precisions share one algorithm.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ir/dtype.h"

namespace vka {

// The helper functions one shader needs, each once, in dependency order.
class HelperSet {
 public:
  // The device computes in double: float32 functions that must round once (numpy's hypotf
  // does its arithmetic in double) may use it.
  bool float64 = false;

  bool has(const std::string& name) const { return names_.count(name) != 0; }
  void add(const std::string& name, const std::string& code);
  std::string str() const;

 private:
  std::set<std::string> names_;
  std::vector<std::string> code_;
};

// Adds math function `fn` (and what it calls) for `t` (kFloat32 or kFloat64) and returns the
// GLSL function name, e.g. math_function("exp", kFloat64, h) == "vka_exp_f64".
// Functions: exp exp2 expm1 log log2 log10 log1p sin cos tan arcsin arccos arctan arctan2
// sinh cosh tanh arcsinh arccosh arctanh hypot power copysign signbit inf nan, and rounding to
// integers: rint (ties to even) trunc floor ceil, which generated code uses instead of GLSL's
// built-ins (math.cc says why).
std::string math_function(std::string_view fn, DType t, HelperSet* helpers);

}  // namespace vka
