// Explicit transfers: copy planning, pinned host memory, padded arrays, events, device copies,
// zero, and mapped device memory (coherent, and forced non-coherent).
#include <cstring>
#include <numeric>

#include <gtest/gtest.h>

#include "array/array.h"
#include "array/transfer.h"
#include "base/errors.h"
#include "device/stream.h"
#include "tests/array/array_testing.h"

namespace vka {
namespace {

using testing::iota;

std::vector<int64_t> c_strides(const Shape& shape, int64_t itemsize) {
  std::vector<int64_t> s(shape.size());
  int64_t step = itemsize;
  for (int k = static_cast<int>(shape.size()) - 1; k >= 0; --k) {
    s[k] = step;
    step *= shape[k];
  }
  return s;
}

// Copy commands for replica 0: on its stream, and on its device's transfer stream where one
// is open (VKA_TRANSFER_QUEUE=shared, or a device with a dedicated transfer family).
uint64_t copies0() {
  const Replica& r = Context::default_context()->replica(0);
  Stream* t = r.device->transfer_stream();
  return r.stream->stats().copies + (t ? t->stats().copies : 0);
}

// A HostView of all of `buf`, holding `shape` of `dtype` with padding `padded`.
HostView pinned_view(HostBuffer& buf, const Shape& shape, DType dtype, const Shape& padded) {
  HostView v;
  v.data = static_cast<uint8_t*>(buf.data());
  v.shape = shape;
  v.strides = c_strides(padded, static_cast<int64_t>(itemsize(dtype)));
  v.dtype = dtype;
  v.pinned = &buf;
  v.padded = padded;
  return v;
}

TEST(CopyPlanTest, MergesContiguousAxesAndRows) {
  // Contiguous on both sides: one region, whatever the rank.
  auto one = plan_copy({3, 4, 5}, 4, 0, c_strides({3, 4, 5}, 4), 8, c_strides({3, 4, 5}, 4));
  ASSERT_TRUE(one);
  EXPECT_EQ(*one, (std::vector<CopyRegion>{{0, 8, 240}}));
  // Rows padded differently: one region per row.
  auto rows = plan_copy({3, 4}, 4, 0, {32, 4}, 0, {16, 4});
  ASSERT_TRUE(rows);
  EXPECT_EQ(*rows, (std::vector<CopyRegion>{{0, 0, 16}, {32, 16, 16}, {64, 32, 16}}));
  // Two outer axes that are contiguous with each other merge into one loop of 6 rows.
  auto merged = plan_copy({2, 3, 4}, 1, 0, {24, 8, 1}, 0, {12, 4, 1});
  ASSERT_TRUE(merged);
  EXPECT_EQ(merged->size(), 6u);
  EXPECT_EQ((*merged)[5], (CopyRegion{40, 20, 4}));
  // Extent-1 axes never split a run; empty copies have no regions.
  EXPECT_EQ(plan_copy({1, 5}, 2, 0, {999, 2}, 0, {7, 2})->size(), 1u);
  EXPECT_TRUE(plan_copy({0, 5}, 2, 0, {10, 2}, 0, {10, 2})->empty());
  // Broadcast sources are fine; reversed or broadcast destinations, or too many regions, not.
  EXPECT_EQ(plan_copy({3, 2}, 4, 0, {0, 4}, 0, {8, 4})->size(), 3u);
  EXPECT_FALSE(plan_copy({3}, 4, 8, {-4}, 0, {4}));
  EXPECT_FALSE(plan_copy({3}, 4, 0, {4}, 0, {0}));
  EXPECT_FALSE(plan_copy({100, 2}, 4, 0, {16, 4}, 0, {8, 4}, 50));
}

TEST(TransferTest, PinnedRoundTripIsOneCopyEachWay) {
  auto ctx = Context::default_context();
  const Shape shape{7, 13};
  std::vector<float> want(7 * 13);
  std::iota(want.begin(), want.end(), 1.0f);
  HostBuffer in(ctx, 0, want.size() * 4), out(ctx, 0, want.size() * 4);
  std::memcpy(in.data(), want.data(), want.size() * 4);
  Array x = empty_padded(shape, shape, DType::kFloat32, ctx);
  const uint64_t c0 = copies0();
  Event up(ctx);
  upload(x, pinned_view(in, shape, DType::kFloat32, shape), std::nullopt, up);
  up.wait();
  EXPECT_EQ(copies0(), c0 + 1);
  EXPECT_EQ(x.to_vector<float>(), want);  // a staged read on a GPU adds its own copy
  const uint64_t c1 = copies0();
  Event down(ctx);
  download(x, pinned_view(out, shape, DType::kFloat32, shape), 0, down);
  down.wait();
  EXPECT_EQ(copies0(), c1 + 1);
  EXPECT_EQ(std::memcmp(out.data(), want.data(), want.size() * 4), 0);
}

TEST(TransferTest, MatchingPaddingIsOneRegionAndMismatchIsStillOneCopy) {
  auto ctx = Context::default_context();
  const Shape shape{5, 3}, padded{8, 4};
  HostBuffer host(ctx, 0, 8 * 4 * 8);
  auto* h = static_cast<double*>(host.data());
  for (int i = 0; i < 32; ++i) h[i] = i;
  Array x = empty_padded(shape, padded, DType::kFloat64, ctx);
  ASSERT_EQ(padded_shape(x), padded);
  EXPECT_FALSE(padded_shape(x[{range(0, 2)}]));  // a part of it has real elements around it
  const uint64_t c0 = copies0();
  Event e(ctx);
  upload(x, pinned_view(host, shape, DType::kFloat64, padded), std::nullopt, e);
  e.wait();
  EXPECT_EQ(copies0(), c0 + 1);
  std::vector<double> want;
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 3; ++j) want.push_back(i * 4 + j);
  }
  EXPECT_EQ(x.to_vector<double>(), want);
  // A host layout padded differently: one copy command of one region per row.
  HostBuffer other(ctx, 0, 5 * 3 * 8);
  HostView dense = pinned_view(other, shape, DType::kFloat64, shape);
  const uint64_t c1 = copies0();
  Event d(ctx);
  download(x, dense, 0, d);
  d.wait();
  EXPECT_EQ(copies0(), c1 + 1);
  EXPECT_EQ(std::memcmp(other.data(), want.data(), want.size() * 8), 0);
}

TEST(TransferTest, UnpinnedAndStridedHostDataIsStaged) {
  auto ctx = Context::default_context();
  std::vector<int32_t> data(24);
  std::iota(data.begin(), data.end(), -5);
  Array x = empty_padded({4, 3}, {4, 3}, DType::kInt32, ctx);
  HostView v;  // every other column of a 4 x 6 host array
  v.data = reinterpret_cast<uint8_t*>(data.data());
  v.shape = {4, 3};
  v.strides = {24, 8};
  v.dtype = DType::kInt32;
  Event e(ctx);
  upload(x, v, std::nullopt, e);
  e.wait();
  EXPECT_EQ(x.to_vector<int32_t>(),
            (std::vector<int32_t>{-5, -3, -1, 1, 3, 5, 7, 9, 11, 13, 15, 17}));
  // Errors name the op and leave the array unchanged.
  v.dtype = DType::kFloat32;
  EXPECT_THROW(upload(x, v, std::nullopt, e, "set"), DTypeError);
  v.dtype = DType::kInt32;
  v.shape = {3, 4};
  EXPECT_THROW(upload(x, v, std::nullopt, e, "set"), ShapeError);
  v.shape = {4, 3};
  EXPECT_THROW(upload(x, v, 5, e, "set"), IndexError);
  EXPECT_EQ(x.to_vector<int32_t>()[0], -5);
}

TEST(TransferTest, DeviceCopiesAndOverlapAndZero) {
  Array a = iota(20);
  Array b = iota(20) * 0.0;
  Array src = a[{range(2, 12)}];
  Array dst = b[{range(0, 10)}];
  Event e(a.context());
  copy_device(dst, src, std::nullopt, e);
  e.wait();
  EXPECT_EQ(b.to_vector<double>()[0], 2.0);
  EXPECT_EQ(b.to_vector<double>()[9], 11.0);
  // One buffer, overlapping: numpy's a[1:11] = a[0:10].
  Array lo = a[{range(0, 10)}];
  Array hi = a[{range(1, 11)}];
  copy_device(hi, lo, std::nullopt, e);
  std::vector<double> got = a.to_vector<double>();
  EXPECT_EQ(got[1], 0.0);
  EXPECT_EQ(got[10], 9.0);
  EXPECT_EQ(got[11], 11.0);
  zero(a);
  EXPECT_EQ(a.to_vector<double>(), std::vector<double>(20, 0.0));
  Array bytes = Array::from_host(std::vector<int8_t>(7, 3).data(), {7}, DType::kInt8);
  Array part = bytes[{range(1, 6)}];  // odd offset and size: the kernel path
  zero(part);
  EXPECT_EQ(bytes.to_vector<int8_t>(), (std::vector<int8_t>{3, 0, 0, 0, 0, 0, 3}));
}

TEST(TransferTest, EventsCompleteAndQueueSideWaitsAreValid) {
  auto ctx = Context::default_context();
  HostBuffer host(ctx, 0, 1000 * 4);
  std::vector<float> v(1000, 2.5f);
  std::memcpy(host.data(), v.data(), v.size() * 4);
  Array x = empty_padded({1000}, {1000}, DType::kFloat32, ctx);
  Event e(ctx);
  upload(x, pinned_view(host, {1000}, DType::kFloat32, {1000}), std::nullopt, e);
  wait_event(x, e, std::nullopt);  // the same queue: ordered anyway, and valid to wait on
  Array y = x * 2.0f;
  EXPECT_EQ(y.to_vector<float>(), std::vector<float>(1000, 5.0f));
  EXPECT_TRUE(e.is_done());
  Event r = record_event(ctx, std::nullopt);
  r.wait();
  EXPECT_TRUE(r.is_done());
}

TEST(MappedTest, CoherentMemoryIsTheArray) {
  auto ctx = Context::default_context();
  MappedBuffer m(ctx, 16 * 4);
  EXPECT_TRUE(m.is_coherent());
  EXPECT_EQ(m.non_coherent_atom_size(), 1u);
  auto* p = static_cast<float*>(m.host_ptr(0));
  for (int i = 0; i < 16; ++i) p[i] = static_cast<float>(i);
  m.flush(0, 0, std::nullopt);
  Array a = storage_array(m.buffer(), {16}, DType::kFloat32, ctx);
  a += 1.0f;  // in place, in the mapped memory
  m.invalidate(0, 0, std::nullopt);
  EXPECT_EQ(p[15], 16.0f);
  EXPECT_THROW(m.flush(0, 0, 65), ShapeError);
  EXPECT_THROW(m.host_ptr(3), IndexError);
  MappedOptions strict;
  strict.require_coherent = true;
  EXPECT_NO_THROW(MappedBuffer(ctx, 4, strict));
}

TEST(MappedTest, ForcedNonCoherentNeedsFlushAndInvalidate) {
  auto ctx = Context::default_context();
  MappedOptions o;
  o.force_non_coherent = true;
  const uint64_t n = 100;  // not a multiple of the atom
  MappedBuffer m(ctx, n * 4, o);
  ASSERT_FALSE(m.is_coherent());
  const uint64_t atom = m.non_coherent_atom_size();
  ASSERT_GT(atom, 1u);
  auto* p = static_cast<int32_t*>(m.host_ptr(0));
  for (uint64_t i = 0; i < n; ++i) p[i] = static_cast<int32_t>(i);
  m.flush(0, 0, std::nullopt);
  Array a = storage_array(m.buffer(), {100}, DType::kInt32, ctx);
  BufferRef* ref = a.node()->buffer().get();
  EXPECT_EQ(a.to_vector<int32_t>()[99], 99);
  // An unflushed host write stays on the host; a flushed one reaches the device.
  p[0] = -1;
  ref->bump_version();
  EXPECT_EQ(a.to_vector<int32_t>()[0], 0);
  m.flush(0, 0, atom);
  ref->bump_version();
  EXPECT_EQ(a.to_vector<int32_t>()[0], -1);
  // Device writes reach the host view only after invalidate.
  a += 1;
  ctx->synchronize();
  EXPECT_EQ(p[50], 50);
  m.invalidate(0, atom, std::nullopt);  // from the second atom to the end (not atom-aligned)
  EXPECT_EQ(p[50], 51);
  EXPECT_EQ(p[0], -1);  // the first atom was not invalidated
  EXPECT_THROW(m.flush(0, 1, atom), ShapeError);
  EXPECT_THROW(m.invalidate(0, 0, atom + 4), ShapeError);
  EXPECT_NO_THROW(m.flush(0, 0, n * 4));  // the end of the memory need not be aligned
}

}  // namespace
}  // namespace vka
