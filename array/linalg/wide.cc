// The wide Jacobi svd and eigh (array/linalg/wide.h): the host's sequence of phases.
#include "array/linalg/wide.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <string_view>

#include "array/linalg/launch.h"
#include "array/linalg/linalg.h"
#include "kernels/lib/linalg.h"
#include "runtime/library.h"
#include "runtime/realize.h"

namespace vka::linalg_detail {
namespace {

// Phases of kernels/lib/linalg.h's wide kernels shared by both.
constexpr int64_t kInit = 0, kSweepEnd = 2;

// One launch of a wide phase: `groups` workgroups (grid-striding past kMaxGroups).
void launch(const Array& like, const KernelSpec& spec,
            const std::vector<std::shared_ptr<BufferRef>>& refs, int64_t count, int64_t groups,
            const std::vector<int64_t>& slots) {
  Buffers bufs;
  for (const auto& r : refs) bufs.push_back(device_buffer(*r));
  std::vector<Scalar> values;
  for (int64_t v : slots) values.push_back(Scalar::of_int(v));
  dispatch_library(like.context(), spec, bufs, count,
                   static_cast<uint64_t>(std::clamp<int64_t>(groups, 1, kMaxGroups)), values);
}

int64_t groups_for(int64_t invocations) { return per_thread(invocations); }

// The init phase's workgroup walks the whole matrix (three passes of per_thread): past
// llvmpipe's loop limit it would stop early, so refuse there as run_steps does.
void check_budget(std::string_view op, const Array& like, int64_t elements) {
  const int64_t loops = 3 * per_thread(elements) + 64;
  if (loops > loop_budget(like.context())) {
    throw DeviceError("[" + std::string(op) + "] the wide mode's first step on matrices this "
                      "large needs " + std::to_string(loops) + " loop iterations in one "
                      "invocation, past llvmpipe's limit of 65535: run it on a GPU");
  }
}

// True when every matrix's done flag (the first of its two) is set, on every replica.
bool all_done(const Array& like, const std::shared_ptr<BufferRef>& flags, int64_t count) {
  std::vector<int32_t> v(static_cast<size_t>(2 * count));
  const auto& ctx = like.context();
  for (int r = 0; r < ctx->num_replicas(); ++r) {
    device_buffer(*flags)->read(v.data(), 0, v.size() * sizeof(int32_t), r);
    for (int64_t b = 0; b < count; ++b) {
      if (v[static_cast<size_t>(2 * b)] == 0) return false;
    }
  }
  return true;
}

// Sweeps of `round(r)` for r in [0, np - 1) and the sweep-end launch, until every matrix is
// done or kJacobiSweeps have run (the final phase then reports non-convergence).
template <typename Round, typename SweepEnd>
void sweeps(const Array& like, const std::shared_ptr<BufferRef>& flags, int64_t count,
            int64_t n, Round round, SweepEnd sweep_end) {
  const int64_t np = n + (n & 1);
  for (int sweep = 0; sweep < kJacobiSweeps; ++sweep) {
    for (int64_t r = 0; r < np - 1; ++r) round(r);
    sweep_end();
    if (all_done(like, flags, count)) return;
  }
}

}  // namespace

bool use_wide_jacobi(const Array& like, int64_t count, int64_t n) {
  if (const char* env = std::getenv("VKA_JACOBI")) {
    const std::string mode = env;
    if (mode == "wide") return true;
    if (mode == "single") return false;
  }
  const bool cpu = loop_budget(like.context()) < (int64_t{1} << 40);
  return !cpu && n >= kWideMinOrder && count < kWideMaxCount;
}

void svd_wide(const Array& like, DType t, const std::vector<std::shared_ptr<BufferRef>>& refs,
              int64_t count, int64_t m, int64_t n, int64_t uc) {
  check_budget("svd", like, std::max(m * n, m * uc));
  const KernelSpec spec = svd_jacobi_wide_spec(t);
  auto phase = [&](int64_t p, int64_t groups, int64_t r = 0) {
    launch(like, spec, refs, count, groups, {m, n, uc, p, r});
  };
  phase(kInit, count);
  sweeps(like, refs[6], count, n, [&](int64_t r) { phase(1, count * ((n + 1) / 2), r); },
         [&] { phase(kSweepEnd, groups_for(count)); });
  phase(3, count * n);
  phase(4, count * n);
}

void eigh_wide(const Array& like, DType t, const std::vector<std::shared_ptr<BufferRef>>& refs,
               int64_t count, int64_t n, bool vectors) {
  check_budget("eigh", like, n * n);
  const KernelSpec spec = eigh_jacobi_wide_spec(t);
  const int64_t half = (n + 1) / 2, v = vectors ? 1 : 0;
  // The block phase's invocation index (plus one grid stride) is a GLSL int.
  if (count * (half * half + v * n * half) > (int64_t{1} << 31) - (int64_t{1} << 25)) {
    throw ShapeError("[eigh] " + std::to_string(count) + " matrices of order " +
                     std::to_string(n) + " are too large for the wide mode yet");
  }
  auto phase = [&](int64_t p, int64_t groups, int64_t r = 0) {
    launch(like, spec, refs, count, groups, {n, v, p, r});
  };
  phase(kInit, count);
  sweeps(like, refs[5], count, n, [&](int64_t r) {
           phase(1, groups_for(count * half), r);
           phase(3, groups_for(count * (half * half + v * n * half)), r);
         },
         [&] { phase(kSweepEnd, groups_for(count)); });
  phase(4, count * n);
}

}  // namespace vka::linalg_detail
