// Internal to the GLSL math library: the function templates, split by role into math.cc
// (basics), math_arith.cc (double-word arithmetic, hypot, fmod), math_exp.cc (exp/log/pow and
// the hyperbolic functions) and math_trig.cc (argument reduction, trig, inverse trig).
//
// Template language (instantiated by math.cc): T is the type (float or double), C its
// complex type (vec2, dvec2: re, im), _F the
// function suffix (_f32, _f64), INF and NAN the constants, @KEY@ a per-precision constant, and
// `$` after a literal adds the precision's literal suffix (GLSL literals are float unless LF).
// Every local declaration of T or C that starts a line is emitted `precise`: without it the driver
// may reassociate and contract (a*b + c into fma, (x - k*a) - k*b into x - k*(a + b)), which
// silently destroys Cody-Waite reduction and the error terms of two-sum/two-product. This
// was worth 30 ulp on exp in lavapipe. Results meant to be exact must be computed into such
// a local before being written to an `out` parameter.
#pragma once

#include <map>
#include <string>

namespace vka {
namespace math_internal {

struct Template {
  const char* deps;  // space-separated functions this one calls
  const char* code;
  bool shared = false;  // precision-independent code (no T, _F): added once per shader
  // float64's code where its algorithm differs from float32's (same name, same deps): where
  // numpy's answer is glibc's double algorithm, which a float32 version has no use for.
  const char* code_f64 = nullptr;
};

using Templates = std::map<std::string, Template>;

void add_arith_templates(Templates* m);    // math_arith.cc: twosum, hypot, fmod, ...
void add_exp_templates(Templates* m);      // math_exp.cc
void add_trig_templates(Templates* m);     // math_trig.cc
void add_bits_templates(Templates* m);     // math_bits.cc: ldexp, nextafter, frexp
void add_complex_templates(Templates* m);  // complex.cc
void add_complex_exp_templates(Templates* m);  // complex_exp.cc: exp, expm1, sinh, ...
void add_complex_inverse_templates(Templates* m);  // complex_inv.cc: asin, acos, ...

}  // namespace math_internal
}  // namespace vka
