// Internal to kernels/lib/linalg*.cc: the shared preamble, QR's and the Jacobi eigensolvers' emitters.
#pragma once

#include <string>

#include "ir/kernel_spec.h"
#include "kernels/lib/linalg.h"

namespace vka {

// Version, extensions, workgroup size, T/EPS/BIG/SYNC macros, the spec's storage buffers
// (inputs readonly, outputs coherent: invocations of a workgroup read each other's writes
// after SYNC) and the push-constant block with slot() to read an int64 slot. `threads`: the
// workgroup size (WG); 0: linalg_threads(spec).
std::string linalg_preamble(const KernelSpec& spec, int threads = 0);
std::string emit_qr(const KernelSpec& spec);
std::string emit_svd_jacobi(const KernelSpec& spec);
std::string emit_eigh_jacobi(const KernelSpec& spec);
std::string emit_svd_jacobi_wide(const KernelSpec& spec);
std::string emit_eigh_jacobi_wide(const KernelSpec& spec);
// GLSL of the round-robin pairing (pair_of(pr, r, np, p, q): pair pr of round r over np
// indices, p < q) and of tan_of(z), the rotation's tangent for cot(2θ) = z.
std::string jacobi_pairs_glsl();

}  // namespace vka
