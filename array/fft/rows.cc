// VkFFT over many rows: one call where both operands fit a binding, else chunks of rows copied
// through staging buffers of at most a binding each (VkFFT binds its buffers whole, from offset
// 0, so a chunk cannot be a window of the large buffer).
#include <algorithm>
#include <memory>
#include <vector>

#include "array/fft/transform.h"
#include "base/errors.h"
#include "device/stream.h"
#include "runtime/library.h"

namespace vka {

uint64_t fft_binding_limit(const Context& ctx) {
  uint64_t lim = UINT64_MAX;
  for (int d = 0; d < ctx.num_devices(); ++d) {
    lim = std::min<uint64_t>(lim, ctx.device(d).caps().max_storage_buffer_range);
  }
  return lim;
}

namespace {

// The bytes of one packed complex row: n, or n/2+1 for real transforms.
uint64_t complex_row_bytes(const FftPlanKey& key) {
  const uint64_t complex_bytes = key.double_precision ? 16 : 8;
  const int64_t len = key.kind == FftKind::kReal ? key.n / 2 + 1 : key.n;
  return static_cast<uint64_t>(len) * complex_bytes;
}

// Whether VkFFT computes length n with Bluestein's algorithm: n has a prime factor over 13.
bool bluestein(int64_t n) {
  for (int64_t p = 2; p <= 13; ++p) {
    while (n % p == 0) n /= p;
  }
  return n != 1;
}

}  // namespace

uint64_t fft_row_bytes(const FftPlanKey& key) {
  // VkFFT's R2C work layout keeps one complex number more per row; Bluestein's algorithm pads
  // a row to a length of at least 2n-1 with factors up to 13, under 4n.
  const uint64_t complex_bytes = key.double_precision ? 16 : 8;
  const uint64_t row = complex_row_bytes(key) + complex_bytes;
  return bluestein(key.n) ? 4 * row : row;
}

void record_rows(const std::shared_ptr<Context>& ctx, const FftPlanKey& key, ReplicatedBuffer& in,
                 ReplicatedBuffer& out) {
  const uint64_t need = fft_row_bytes(key);
  const uint64_t row = complex_row_bytes(key);
  const uint64_t limit = fft_binding_limit(*ctx);
  VKA_ASSERT(need <= limit);
  const uint64_t rows = static_cast<uint64_t>(key.batch);
  if (rows * need <= limit) {
    for (int r = 0; r < ctx->num_replicas(); ++r) {
      in.ensure_valid(r);
      record_fft(ctx->replica(r), key, in.vk_buffer(r), rows * row, out.vk_buffer(r), rows * row);
    }
    return;
  }
  // Chunks of equal rows (the last one's extra rows transform stale data nobody reads), so one
  // plan serves them all.
  const uint64_t most = limit / need;
  const uint64_t chunks = (rows + most - 1) / most;
  const uint64_t per = (rows + chunks - 1) / chunks;
  FftPlanKey chunk = key;
  chunk.batch = static_cast<int64_t>(per);
  // The packed rows of each side: n reals on the real side, else complex rows.
  const uint64_t real_row = static_cast<uint64_t>(key.n) * (key.double_precision ? 8 : 4);
  const bool real_in = key.kind == FftKind::kReal && !key.inverse;
  const bool real_out = key.kind == FftKind::kReal && key.inverse;
  const uint64_t in_row = real_in ? real_row : row;
  const uint64_t out_row = real_out ? real_row : row;
  const DType complex = key.double_precision ? DType::kComplex128 : DType::kComplex64;
  const int64_t staged = static_cast<int64_t>(per * row / itemsize(complex));
  auto stage_in = scratch_buffer(ctx, complex, staged);
  auto stage_out = scratch_buffer(ctx, complex, staged);
  for (int r = 0; r < ctx->num_replicas(); ++r) {
    in.ensure_valid(r);
    Replica& rep = ctx->replica(r);
    Stream& s = *rep.stream;
    const VkBuffer si = stage_in->vk_buffer(r), so = stage_out->vk_buffer(r);
    for (uint64_t first = 0; first < rows; first += per) {
      const uint64_t count = std::min(per, rows - first);
      s.copy(in.vk_buffer(r), first * in_row, si, 0, count * in_row);
      record_fft(rep, chunk, si, per * row, so, per * row);
      s.copy(so, 0, out.vk_buffer(r), first * out_row, count * out_row);
    }
  }
}

void record_columns(const std::shared_ptr<Context>& ctx, const FftPlanKey& key, int64_t matrices,
                    int64_t width, ReplicatedBuffer& in, ReplicatedBuffer& out) {
  VKA_ASSERT(key.kind == FftKind::kComplex && key.batch == 1);
  const uint64_t need = fft_row_bytes(key);  // a column's, as a row's
  const uint64_t item = key.double_precision ? 16 : 8;
  const uint64_t limit = fft_binding_limit(*ctx);
  VKA_ASSERT(need <= limit);
  const uint64_t cols = static_cast<uint64_t>(width), n = static_cast<uint64_t>(key.n);
  const DType complex = key.double_precision ? DType::kComplex128 : DType::kComplex64;
  if (matrices == 1 && cols * need <= limit) {
    FftPlanKey whole = key;
    whole.columns = width;
    // An inverse transform works in its input: it gets a copy.
    auto work =
        key.inverse ? scratch_buffer(ctx, complex, static_cast<int64_t>(n * cols)) : nullptr;
    for (int r = 0; r < ctx->num_replicas(); ++r) {
      in.ensure_valid(r);
      VkBuffer source = in.vk_buffer(r);
      if (work) {
        ctx->replica(r).stream->copy(source, 0, work->vk_buffer(r), 0, n * cols * item);
        source = work->vk_buffer(r);
      }
      record_fft(ctx->replica(r), whole, source, n * cols * item, out.vk_buffer(r),
                 n * cols * item);
    }
    return;
  }
  // Blocks of equal columns (the last one's extra columns transform stale data), each copied
  // row by row into a staging matrix and back.
  const uint64_t most = std::min<uint64_t>(cols, limit / need);
  const uint64_t blocks = (cols + most - 1) / most;
  const uint64_t per = (cols + blocks - 1) / blocks;
  FftPlanKey block = key;
  block.columns = static_cast<int64_t>(per);
  auto stage_in = scratch_buffer(ctx, complex, static_cast<int64_t>(n * per));
  auto stage_out = scratch_buffer(ctx, complex, static_cast<int64_t>(n * per));
  std::vector<VkBufferCopy> gather(n), scatter(n);
  for (int r = 0; r < ctx->num_replicas(); ++r) {
    in.ensure_valid(r);
    Replica& rep = ctx->replica(r);
    Stream& s = *rep.stream;
    const VkBuffer si = stage_in->vk_buffer(r), so = stage_out->vk_buffer(r);
    for (uint64_t m = 0; m < static_cast<uint64_t>(matrices); ++m) {
      for (uint64_t first = 0; first < cols; first += per) {
        const uint64_t count = std::min(per, cols - first);
        for (uint64_t i = 0; i < n; ++i) {
          const uint64_t at = ((m * n + i) * cols + first) * item;
          gather[i] = {at, i * per * item, count * item};
          scatter[i] = {i * per * item, at, count * item};
        }
        s.copy_regions(in.vk_buffer(r), si, gather);
        record_fft(rep, block, si, n * per * item, so, n * per * item);
        s.copy_regions(so, out.vk_buffer(r), scatter);
      }
    }
  }
}

}  // namespace vka
