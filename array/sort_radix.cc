// The radix sort's host side: key phases (complex values: imaginary part, real part, NaN
// class), 4-bit passes over the digits that vary, then passes over the row index.
#include "array/sort_radix.h"

#include <algorithm>
#include <string>
#include <vector>

#include "base/errors.h"
#include "device/stream.h"
#include "kernels/lib/scan.h"
#include "kernels/lib/sort.h"
#include "runtime/library.h"
#include "runtime/realize.h"

namespace vka {
namespace {

std::shared_ptr<BufferRef> alloc(const std::shared_ptr<Context>& ctx, DType t, int64_t n) {
  return allocate_for(ctx, t, {std::max<int64_t>(n, 1)});  // a binding may not be empty
}

Scalar slot(int64_t v) { return Scalar::of_int(v, DType::kInt64); }

// The key bits that differ between elements: OR of key ^ key[0] over all replicas.
uint64_t varying_bits(const std::shared_ptr<Context>& ctx,
                      const std::shared_ptr<ReplicatedBuffer>& keys, DType key, int64_t n) {
  auto bits = device_buffer(*alloc(ctx, DType::kUInt32, 2));
  for (int r = 0; r < ctx->num_replicas(); ++r) {
    ctx->replica(r).stream->fill(bits->vk_buffer(r), 0, bits->nbytes(), 0);
  }
  dispatch_library(ctx, sort_varying_spec(key), {keys, bits}, n, sort_groups(n, kSortThreads));
  uint64_t mask = 0;
  for (int r = 0; r < ctx->num_replicas(); ++r) {
    uint32_t w[2] = {0, 0};
    bits->read(w, 0, sizeof(w), r);
    mask |= uint64_t{w[0]} | (uint64_t{w[1]} << 32);
  }
  return mask;
}

}  // namespace

uint64_t sort_groups(int64_t items, int64_t per_group) {
  return static_cast<uint64_t>(std::clamp<int64_t>((items + per_group - 1) / per_group, 1, 65535));
}

Array sort_permutation(const Array& a, int64_t rowlen, std::string_view op) {
  const std::shared_ptr<Context>& ctx = a.context();
  const int64_t n = a.size();
  const DType t = a.dtype();
  VKA_ASSERT(rowlen > 0 && n % rowlen == 0);
  if (n >= (int64_t{1} << 31)) {
    throw ShapeError("[" + std::string(op) + "] sorting 2^31 elements or more is not supported "
                     "yet (got " + std::to_string(n) + ")");
  }
  // The values as a fresh contiguous buffer (one copy kernel).
  Array data(default_graph().convert(reshape(a, {-1}).node(), t, {n}), ctx);
  data.eval();
  VKA_ASSERT(data.node()->is_leaf() && data.node()->view().offset == 0);
  const DType key = sort_key_dtype(t);
  std::shared_ptr<BufferRef> idx_ref[2] = {alloc(ctx, DType::kUInt32, n),
                                           alloc(ctx, DType::kUInt32, n)};
  std::shared_ptr<ReplicatedBuffer> keys[2] = {device_buffer(*alloc(ctx, key, n)),
                                               device_buffer(*alloc(ctx, key, n))};
  std::shared_ptr<ReplicatedBuffer> idx[2] = {device_buffer(*idx_ref[0]),
                                              device_buffer(*idx_ref[1])};
  int cur = 0;
  const int64_t nb = (n + kSortBlock - 1) / kSortBlock;
  auto pass = [&](int shift, int64_t row_length) {
    const std::vector<Scalar> slots = {slot(shift), slot(row_length), slot(nb)};
    auto counts = device_buffer(*alloc(ctx, DType::kUInt32, kSortDigits * nb));
    dispatch_library(ctx, sort_histogram_spec(key), {keys[cur], idx[cur], counts}, n,
                     sort_groups(nb, 1), slots);
    auto offsets = exclusive_sums(ctx, counts, DType::kUInt32, kSortDigits * nb);
    dispatch_library(ctx, sort_scatter_spec(key),
                     {keys[cur], idx[cur], offsets, keys[1 - cur], idx[1 - cur]}, n,
                     sort_groups(nb, 1), slots);
    cur = 1 - cur;
  };
  // Least significant key first: a complex number orders by (NaN class, real, imaginary).
  const std::vector<int> parts = is_complex(t) ? std::vector<int>{1, 0, 2} : std::vector<int>{0};
  const int bits = static_cast<int>(itemsize(key)) * 8;
  for (size_t p = 0; p < parts.size(); ++p) {
    dispatch_library(ctx, sort_keys_spec(t), {device_buffer(*data.node()->buffer()), keys[cur],
                     idx[cur]}, n, sort_groups(n, kSortThreads),
                     {slot(parts[p]), slot(p == 0 ? 1 : 0)});
    const uint64_t mask = varying_bits(ctx, keys[cur], key, n);
    for (int shift = 0; shift < bits; shift += kSortDigitBits) {
      if ((mask >> shift) & (kSortDigits - 1)) pass(shift, 0);
    }
  }
  // Rows last: the most significant digits (the sort within each row is already done).
  const int64_t rows = n / rowlen;
  for (int shift = 0; rows > 1 && ((rows - 1) >> shift) != 0; shift += kSortDigitBits) {
    pass(shift, rowlen);
  }
  return Array(default_graph().buffer(idx_ref[cur], DType::kUInt32, View::contiguous({n})), ctx);
}

}  // namespace vka
