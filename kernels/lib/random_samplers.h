// Internal to kernels/lib/random_draw.cc: the samplers' GLSL (random_samplers.cc) and the
// template language they share with the element streams.
//
// Templates: $T is the compute type (float or double), $F the function suffix (_f32, _f64),
// $L the literal suffix ("" or LF: GLSL literals are float unless suffixed), and @name( a call
// of the math library's function `name` (kernels/glsl/math.h) for $T, added to the helpers.
#pragma once

#include <string>

#include "ir/kernel_spec.h"
#include "kernels/glsl/math.h"

namespace vka::random_draw_internal {

// `code` instantiated for `t` (kFloat32 or kFloat64).
std::string instantiate(const std::string& code, DType t, HelperSet* h);

// Adds the element stream: vka_rs_start(key, position), vka_rs_u32(), vka_rs_below(bound: uint64)
// and, per precision, vka_rs_uniform$F() in [0, 1) and vka_rs_normal$F().
void add_stream(DType t, HelperSet* h);

// Adds the sampler of `kind` for results of dtype `out` and returns its function's name; it
// takes the parameters of random_draw_params(kind, out) in order (gamma: and a bool, log G).
std::string add_sampler(KernelKind kind, DType out, HelperSet* h);

}  // namespace vka::random_draw_internal
