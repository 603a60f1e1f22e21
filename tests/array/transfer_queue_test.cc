// Pinned-host transfers of arrays on the device's transfer stream (transfer_queue kShared: the
// synchronization of a dedicated queue on a one-queue device; kAuto: the dedicated family
// where the device has one) and on the replica's stream (kOff): results, and the queue waits
// that only dependent work pays.
#include <cstring>
#include <numeric>

#include <gtest/gtest.h>

#include "array/array.h"
#include "array/reduce.h"
#include "array/transfer.h"
#include "base/errors.h"
#include "device/stream.h"
#include "tests/array/array_testing.h"

namespace vka {
namespace {

HostView pinned_view(HostBuffer& buf, int64_t n) {
  HostView v;
  v.data = static_cast<uint8_t*>(buf.data());
  v.shape = {n};
  v.strides = {4};
  v.dtype = DType::kFloat32;
  v.pinned = &buf;
  v.padded = Shape{n};
  return v;
}

// The float32 value of a 0-d array.
double scalar(Array a) {
  float v = 0;
  a.read(&v, 4, 0);
  return v;
}

std::vector<float> read_floats(Array a) {
  std::vector<float> out(static_cast<size_t>(a.size()));
  a.read(out.data(), out.size() * 4, 0);
  return out;
}

class TransferQueueTest : public ::testing::TestWithParam<TransferQueue> {
 protected:
  void SetUp() override {
    ContextOptions o;
    o.transfer_queue = GetParam();
    ctx_ = Context::create(o);
  }
  // Whether HostArray copies run on a transfer stream: always for kShared, never for kOff,
  // for kAuto where the device has a dedicated transfer family (not lavapipe; NVIDIA GPUs).
  bool routed() const { return ctx_->device(0).transfer_stream() != nullptr; }
  Stream& compute() { return *ctx_->replica(0).stream; }
  uint64_t waits() { return compute().stats().queue_waits; }
  uint64_t transfer_copies() {
    Stream* t = ctx_->device(0).transfer_stream();
    return t ? t->stats().copies : 0;
  }
  std::shared_ptr<Context> ctx_;
};

TEST_P(TransferQueueTest, UploadThenDependentComputeWaitsOnce) {
  for (int64_t n : {1, 7, 1000, 1000003}) {
    HostBuffer h(ctx_, 0, n * 4);
    auto* f = static_cast<float*>(h.data());
    for (int64_t i = 0; i < n; ++i) f[i] = static_cast<float>(i % 509) - 3.0f;
    Array x = empty_padded({n}, {n}, DType::kFloat32, ctx_);
    const uint64_t w0 = waits(), c0 = transfer_copies();
    Event e(ctx_);
    upload(x, pinned_view(h, n), std::nullopt, e);
    EXPECT_EQ(transfer_copies(), c0 + (routed() ? 1 : 0));
    Array y = x * 2.0f + 1.0f;
    y.eval();
    EXPECT_EQ(waits(), w0 + (routed() ? 1 : 0)) << n;
    const std::vector<float> got = read_floats(y);
    for (int64_t i = 0; i < n; ++i) {
      ASSERT_EQ(got[i], (static_cast<float>(i % 509) - 3.0f) * 2.0f + 1.0f) << n << " " << i;
    }
    e.wait();
  }
}

TEST_P(TransferQueueTest, UnrelatedComputeRunsWithoutWaiting) {
  const int64_t n = 1 << 20;
  HostBuffer h(ctx_, 0, n * 4), back(ctx_, 0, 4096);
  std::memset(h.data(), 0, n * 4);
  Array x = empty_padded({n}, {n}, DType::kFloat32, ctx_);
  Array z = arange(0, 1024, 1, DType::kFloat32, ctx_);
  z.eval();
  Array w = arange(0, 1000, 1, DType::kFloat32, ctx_);
  w.eval();
  ctx_->synchronize();
  const uint64_t w0 = waits();
  Event up(ctx_), down(ctx_);
  upload(x, pinned_view(h, n), std::nullopt, up);
  download(z, pinned_view(back, 1024), 0, down);
  Array s = sum(w * 3.0f);
  EXPECT_EQ(scalar(s), 3.0 * 999 * 1000 / 2);
  EXPECT_EQ(waits(), w0);  // neither x nor z
  down.wait();
  const auto* b = static_cast<const float*>(back.data());
  for (int i = 0; i < 1024; ++i) ASSERT_EQ(b[i], static_cast<float>(i));
  Array t = z + 1.0f;  // reads z, which the download only read: no wait
  t.eval();
  EXPECT_EQ(waits(), w0);
  Array x1 = x + 1.0f;  // reads what the upload wrote: one wait
  x1.eval();
  EXPECT_EQ(waits(), w0 + (routed() ? 1 : 0));
  EXPECT_EQ(scalar(sum(x)), 0.0);
  up.wait();
}

TEST_P(TransferQueueTest, OverwriteAfterDownloadWaitsForTheCopy) {
  const int64_t n = 100003;
  HostBuffer back(ctx_, 0, n * 4);
  Array x = arange(0, static_cast<double>(n), 1, DType::kFloat32, ctx_);
  x.eval();
  Array x_storage = empty_padded({n}, {n}, DType::kFloat32, ctx_);
  Event e0(ctx_);
  copy_device(x_storage, x, std::nullopt, e0);
  Event e(ctx_);
  download(x_storage, pinned_view(back, n), 0, e);
  zero(x_storage);  // a fill on the replica's stream: write after the copy's read
  e.wait();
  const auto* b = static_cast<const float*>(back.data());
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(b[i], static_cast<float>(i)) << i;
  EXPECT_EQ(scalar(sum(x_storage)), 0.0);
}

INSTANTIATE_TEST_SUITE_P(Modes, TransferQueueTest,
                         ::testing::Values(TransferQueue::kShared, TransferQueue::kOff,
                                           TransferQueue::kAuto),
                         [](const ::testing::TestParamInfo<TransferQueue>& p) {
                           return p.param == TransferQueue::kShared ? "Shared"
                                  : p.param == TransferQueue::kOff  ? "Off"
                                                                    : "Auto";
                         });

}  // namespace
}  // namespace vka
