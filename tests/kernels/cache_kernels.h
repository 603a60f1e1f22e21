// Small float32 kernels for the cache tests: specs from the real scheduler, and a dispatch
// that runs a cached pipeline on a stream and returns the output.
#pragma once

#include <cmath>
#include <memory>
#include <vector>

#include "device/buffer.h"
#include "device/context.h"
#include "device/pipeline.h"
#include "device/stream.h"
#include "ir/kernel_spec.h"
#include "ir/node_ops.h"
#include "kernels/gen/elementwise.h"
#include "schedule/schedule.h"

namespace vka {
namespace cache_kernels {

enum class Expr { kAdd, kMulAdd, kChain };  // a + b;  a * s + b;  sqrt(abs(a - b) + s)

// The one kernel of `expr` over two float32 leaves of n elements (s: the scalar, if any).
inline ScheduledKernel kernel(Expr expr, int64_t n, double s = 2.0) {
  Graph g;
  NodePtr a = g.buffer(std::make_shared<BufferRef>(), DType::kFloat32, View::contiguous({n}));
  NodePtr b = g.buffer(std::make_shared<BufferRef>(), DType::kFloat32, View::contiguous({n}));
  WeakScalar w = WeakScalar::of_float(s);
  NodePtr y;
  switch (expr) {
    case Expr::kAdd:
      y = apply(g, Op::kAdd, {a, b});
      break;
    case Expr::kMulAdd:
      y = apply(g, Op::kAdd, {apply(g, Op::kMultiply, {a, w}), b});
      break;
    case Expr::kChain:
      y = apply(g, Op::kSqrt,
                {apply(g, Op::kAdd, {apply(g, Op::kAbs, {apply(g, Op::kSubtract, {a, b})}), w})});
      break;
  }
  Schedule sched = schedule({y});
  return sched.kernels.at(0);
}

inline float reference(Expr expr, float a, float b, float s) {
  switch (expr) {
    case Expr::kAdd:
      return a + b;
    case Expr::kMulAdd:
      return a * s + b;
    case Expr::kChain:
      return std::sqrt(std::fabs(a - b) + s);
  }
  return 0;
}

inline float input_a(int64_t i) { return 0.5f * static_cast<float>(i); }
inline float input_b(int64_t i) { return 3.0f - static_cast<float>(i % 17); }

// Runs `pipeline` for kernel `k` (two float32 inputs, one output) on `replica` and returns the
// number of elements that differ from the reference by more than 1e-6 relative.
inline int64_t mismatches(const std::shared_ptr<Context>& ctx, const Pipeline& pipeline,
                          const ScheduledKernel& k, Expr expr, double s = 2.0, int replica = 0) {
  const int64_t n = k.params.count();
  const uint64_t bytes = static_cast<uint64_t>(n) * 4;
  std::vector<float> a(n), b(n), out(n, -1.0f);
  for (int64_t i = 0; i < n; ++i) a[i] = input_a(i), b[i] = input_b(i);
  ReplicatedBuffer A(ctx, bytes), B(ctx, bytes), C(ctx, bytes);
  A.write(a.data(), 0, bytes, std::nullopt);
  B.write(b.data(), 0, bytes, std::nullopt);
  std::vector<uint8_t> push = pack_push_constants(k.spec, push_layout(k.spec), k.params);
  const uint32_t groups = static_cast<uint32_t>((n + 255) / 256);  // EmitOptions default
  Stream& stream = *ctx->replica(replica).stream;
  const int r = replica;
  stream.dispatch(pipeline, {{A.vk_buffer(r)}, {B.vk_buffer(r)}, {C.vk_buffer(r)}},
                  {false, false, true}, push.data(), groups);
  C.read(out.data(), 0, bytes, r);
  int64_t bad = 0;
  for (int64_t i = 0; i < n; ++i) {
    const float want = reference(expr, a[i], b[i], static_cast<float>(s));
    bad += !(std::fabs(out[i] - want) <= 1e-6f * std::fabs(want));
  }
  return bad;
}

}  // namespace cache_kernels
}  // namespace vka
