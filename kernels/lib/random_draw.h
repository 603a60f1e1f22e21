// Library kernels of vka::random's samplers that loop (rejection, or a sequential search):
// gamma, Poisson, binomial, hypergeometric, Zipf, von Mises and logarithmic series draws.
//
// One invocation draws one element, from a stream of its own: element i of a draw at
// generator position (key, counter) reads the Philox-4x32-10 blocks
// philox(key, (counter + first + i, j, 0)) for j = 0, 1, 2, ..., the j-th block of its loop in
// the third counter word. Block j = 0 is the ordinary stream's block counter + first + i, which
// the draw owns (the generator advances past one block per element), and blocks with j > 0
// belong to no other draw: the loop may take as many rounds as it needs and the values still
// depend only on the seed and the element's position, never on the launch. Every loop is
// bounded: a round that can fail is retried at most a fixed number of times chosen so that
// running out has probability below 2^-128 per element (each sampler says why); an element
// that runs out anyway is written as NaN (float results) or -1 (integer results).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/kernel_spec.h"

namespace vka {

inline constexpr int kRandomDrawThreads = 256;
// The elements of one launch: one per invocation, at most 65535 workgroups. One element per
// invocation also keeps an invocation's loops far below llvmpipe's 65535 iterations in all.
inline constexpr int64_t kRandomDrawMaxElements = int64_t{65535} * kRandomDrawThreads;

// A sampler's parameter: `array` ones are an input binding (one value per element, in order),
// the others a push-constant slot.
struct DrawParam {
  DType dtype;
  bool array;
};

// The spec of a sampler (`kind` one of KernelKind::kRandomGamma .. kRandomLogseries) and its
// parameters, in order:
//   kRandomGamma          shape (T) → T = float32 or float64; slot c3 = 1: log G instead of G
//   kRandomPoisson        lam (float64) → int64
//   kRandomBinomial       n (int64), p (float64) → int64
//   kRandomHypergeometric ngood, nbad, nsample (int64) → int64 (ngood + nbad < 2^53)
//   kRandomZipf           a (float64) → int64
//   kRandomVonmises       mu, kappa (float64) → float64
//   kRandomLogseries      p (float64) → int64
// Bindings: the array parameters, then out0. Slots: c0 key, c1 counter (uint64), c2 the first
// element's position in the draw (int64: a draw larger than one launch is several), c3 the
// mode, then one per slot parameter. The tape holds one entry per parameter: kBuffer with the
// input's index as `accessor`, or kFull with its `slot`. Parameters are valid (the caller
// checks them as numpy does); NaN where numpy allows it gives NaN.
KernelSpec random_draw_spec(KernelKind kind, DType out, const std::vector<DrawParam>& params);

// The parameter dtypes `kind` takes (T: the result's dtype).
std::vector<DType> random_draw_params(KernelKind kind, DType out);

// GLSL for the specs above.
std::string emit_random_draw(const KernelSpec& spec);

}  // namespace vka
