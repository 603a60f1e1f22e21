// The launch plumbing of vka::linalg (array/linalg/launch.h).
#include "array/linalg/launch.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "array/linalg/linalg.h"
#include "kernels/lib/linalg.h"
#include "runtime/library.h"
#include "runtime/realize.h"

namespace vka::linalg_detail {

Stack stack_of(std::string_view op, const Array& a, bool square) {
  if (a.ndim() < 2) {
    throw LinAlgError(std::to_string(a.ndim()) +
                      "-dimensional array given. Array must be at least two-dimensional");
  }
  Stack s;
  s.t = linalg_dtype(op, a.dtype());
  s.batch.assign(a.shape().begin(), a.shape().end() - 2);
  s.count = size(s.batch);
  s.m = a.shape()[a.ndim() - 2];
  s.n = a.shape()[a.ndim() - 1];
  if (square && s.m != s.n) throw LinAlgError("Last 2 dimensions of the array must be square");
  if (a.size() >= (int64_t{1} << 31) || s.count * s.m * s.m >= (int64_t{1} << 31) ||
      s.count * s.n * s.n >= (int64_t{1} << 31)) {
    throw ShapeError("[" + std::string(op) + "] stacks of 2^31 elements or more are not "
                     "supported yet (shape " + to_string(a.shape()) + ")");
  }
  return s;
}

Shape with(const Shape& batch, std::initializer_list<int64_t> tail) {
  Shape s = batch;
  s.insert(s.end(), tail);
  return s;
}

std::shared_ptr<BufferRef> fresh(const Array& like, DType t, int64_t n) {
  return allocate_for(like.context(), t, {std::max<int64_t>(n, 1)});
}

// A fresh contiguous buffer holding `a` converted to t: the kernels factor it in place, so it
// is never a buffer anything else sees (a realize destination is not recorded as a value).
std::shared_ptr<BufferRef> copy_in(const Array& a, DType t) {
  auto ref = fresh(a, t, a.size());
  if (a.size() > 0) {
    NodePtr dest = default_graph().buffer(ref, t, View::contiguous(a.shape()));
    realize(a.context(), {default_graph().convert(a.node(), t, a.shape())}, std::nullopt, {dest});
  }
  return ref;
}

Array wrap(const Array& like, const std::shared_ptr<BufferRef>& ref, DType t, Shape shape) {
  return Array(default_graph().buffer(ref, t, View::contiguous(std::move(shape))),
               like.context());
}

void run(const Array& like, const KernelSpec& spec,
         const std::vector<std::shared_ptr<BufferRef>>& refs, int64_t count,
         std::vector<int64_t> slots) {
  Buffers bufs;
  for (const auto& r : refs) bufs.push_back(device_buffer(*r));
  std::vector<Scalar> values;
  for (int64_t v : slots) values.push_back(Scalar::of_int(v));
  dispatch_library(like.context(), spec, bufs, count,
                   std::min<uint64_t>(static_cast<uint64_t>(count), kMaxGroups), values);
}

// Loop iterations one invocation may run in one launch: llvmpipe ends every loop of an
// invocation once 65535 iterations have run in all (a shared limiter), so launches there are
// split into step ranges below that; other devices take each call in one launch.
int64_t loop_budget(const std::shared_ptr<Context>& ctx) {
  for (int d = 0; d < ctx->num_devices(); ++d) {
    const Caps& c = ctx->device(d).caps();
    if (c.driver_name.find("llvmpipe") != std::string::npos ||
        c.device_name.find("llvmpipe") != std::string::npos) {
      return 40000;
    }
  }
  return int64_t{1} << 40;
}

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

int64_t per_thread(int64_t work, int64_t threads) { return ceil_div(work, threads); }

int64_t panel_threads(const std::shared_ptr<Context>& ctx) {
  // VKA_LINALG_PANEL_THREADS=256 keeps the narrow workgroup (to compare the two on a device).
  static const bool narrow = [] {
    const char* env = std::getenv("VKA_LINALG_PANEL_THREADS");
    return env != nullptr && std::string(env) == std::to_string(kLinalgThreads);
  }();
  if (narrow) return kLinalgThreads;
  for (int d = 0; d < ctx->num_devices(); ++d) {
    const Caps& c = ctx->device(d).caps();
    // QR's complex128 panel kernel: two workgroup-sized arrays of 8 and 16 bytes per element.
    if (c.max_compute_work_group_invocations < kLinalgWideThreads ||
        c.max_compute_work_group_size[0] < kLinalgWideThreads ||
        c.max_compute_shared_memory_size < 24 * kLinalgWideThreads + 1024) {
      return kLinalgThreads;
    }
  }
  return kLinalgWideThreads;
}

// numpy's result type of two linalg dtypes (float32, float64, complex64, complex128).
DType promote(DType a, DType b) {
  const bool wide = a == DType::kFloat64 || a == DType::kComplex128 || b == DType::kFloat64 ||
                    b == DType::kComplex128;
  if (is_complex(a) || is_complex(b)) return wide ? DType::kComplex128 : DType::kComplex64;
  return wide ? DType::kFloat64 : DType::kFloat32;
}

// True when any matrix's int32 flag in `flags` is nonzero, on any replica.
bool any_flag(const Array& like, const std::shared_ptr<BufferRef>& flags, int64_t count) {
  if (count == 0) return false;
  std::vector<int32_t> v(static_cast<size_t>(count));
  const auto& ctx = like.context();
  for (int r = 0; r < ctx->num_replicas(); ++r) {
    device_buffer(*flags)->read(v.data(), 0, v.size() * sizeof(int32_t), r);
    if (std::any_of(v.begin(), v.end(), [](int32_t f) { return f != 0; })) return true;
  }
  return false;
}

// The (r0:r1, c0:c1) block of the stack of rows×cols matrices in `ref`, as an Array.
Array block(const Array& like, const std::shared_ptr<BufferRef>& ref, DType t, const Shape& batch,
            int64_t rows, int64_t cols, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
  const int nd = static_cast<int>(batch.size()) + 2;
  View v = slice(View::contiguous(with(batch, {rows, cols})), nd - 2, SliceSpec{r0, r1, 1});
  v = slice(v, nd - 1, SliceSpec{c0, c1, 1});
  return Array::reading(default_graph().buffer(ref, t, v), like.context());
}

Array herm(const Array& x) {
  return is_complex(x.dtype()) ? conj(matrix_transpose(x)) : matrix_transpose(x);
}

// dest -= a @ b on the GEMM kernel, written back in place (each element is read and written
// by the same invocation): the trailing updates of the blocked factorizations and solves.
void subtract_product(const Array& dest, const Array& a, const Array& b) {
  Array update = subtract(dest, matmul(a, b));
  realize(dest.context(), {update.node()}, std::nullopt, {dest.node()});
}

void throw_if_not_converged(std::string_view op, const Array& like,
                            const std::shared_ptr<BufferRef>& flags, int64_t count) {
  if (any_flag(like, flags, count)) {
    throw LinAlgError(std::string(op) + " did not converge");
  }
}

}  // namespace vka::linalg_detail
