// Views and writes of vka::Array on the device: values against host arithmetic done by hand,
// numpy's eager order for lazy readers, overlap, aliasing, and kernel counts.
#include <algorithm>
#include <numeric>

#include <gtest/gtest.h>

#include "array/array.h"
#include "array/gather.h"
#include "array/reduce.h"
#include "base/errors.h"
#include "runtime/realize.h"
#include "tests/array/array_testing.h"

namespace vka {
namespace {

using testing::iota;
using testing::kernels;

TEST(ViewsTest, SlicesReadWithoutKernels) {
  Array a = iota(12, {3, 4});
  const uint64_t before = kernels();
  Array v = a[{range({}, {}, -1), range(1, {}, 2)}];
  EXPECT_EQ(kernels(), before);
  EXPECT_EQ(v.shape(), (Shape{3, 2}));
  EXPECT_TRUE(v.is_storage());
  EXPECT_EQ(v.to_vector<double>(), (std::vector<double>{9, 11, 5, 7, 1, 3}));
  // A view feeds a fused kernel through its strides: one kernel.
  const uint64_t k0 = kernels();
  EXPECT_EQ((v * 2 + 1).to_vector<double>(), (std::vector<double>{19, 23, 11, 15, 3, 7}));
  EXPECT_EQ(kernels() - k0, 1u);
}

TEST(ViewsTest, APinnedValueIsReadAsALeafAndItsInputsAreReleased) {
  // A recurrence over a buffer it writes (Durbin's alpha and beta): the write pins the lazy
  // reader, and the array then reads that value as a leaf, so the expressions it made the
  // value from are released and the next step does not hold every earlier one.
  Array a = iota(4);
  Array total = sum(a * 2);  // lazy, reads a
  std::weak_ptr<const Node> made = total.node();
  a.set({0}, 100.0);  // pins total's node with the old value
  EXPECT_TRUE(total.node()->is_leaf());
  EXPECT_TRUE(made.expired());
  EXPECT_EQ(total.to_vector<double>(), (std::vector<double>{12}));
  Array next = total * 0.5 + sum(a);  // reads the pinned value and the new a
  EXPECT_EQ(next.to_vector<double>(), (std::vector<double>{6 + 100 + 1 + 2 + 3}));
}

TEST(ViewsTest, WritesAreSeenByEveryView) {
  Array a = iota(12, {3, 4});
  Array row = a[{1}];
  Array col = a[{all(), 2}];
  a.set({1, 2}, 100.0);
  EXPECT_EQ(row.to_vector<double>(), (std::vector<double>{4, 5, 100, 7}));
  EXPECT_EQ(col.to_vector<double>(), (std::vector<double>{2, 100, 10}));
  col.set({0}, -1.0);  // through a view
  EXPECT_EQ(a.to_vector<double>()[2], -1);
  row += 1;  // in place on a view: one kernel, seen by the base
  EXPECT_EQ(a.to_vector<double>(), (std::vector<double>{0, 1, -1, 3, 5, 6, 101, 8, 8, 9, 10, 11}));
}

TEST(ViewsTest, LazyExpressionsKeepTheValuesTheySaw) {
  Array a = iota(4);
  Array twice = a * 2;  // lazy, reads a
  Array v = a[{range(1, 3)}];
  Array plus = v + 10;  // lazy, reads the view
  a.set({all()}, 7.0);
  EXPECT_EQ(twice.to_vector<double>(), (std::vector<double>{0, 2, 4, 6}));
  EXPECT_EQ(plus.to_vector<double>(), (std::vector<double>{11, 12}));
  EXPECT_EQ(v.to_vector<double>(), (std::vector<double>{7, 7}));
  // A copy is a value, not a view.
  Array c = copy(a);
  a.set({0}, -5.0);
  EXPECT_EQ(c.to_vector<double>(), (std::vector<double>{7, 7, 7, 7}));
  Array wrapped(a.node(), a.context());
  a.set({0}, -6.0);
  EXPECT_EQ(wrapped.to_vector<double>()[0], -5);
}

TEST(ViewsTest, OverlappingAssignmentGivesNumpysAnswer) {
  Array a = iota(6);
  a.set({range(1, {})}, a[{range({}, -1)}]);  // a[1:] = a[:-1]
  EXPECT_EQ(a.to_vector<double>(), (std::vector<double>{0, 0, 1, 2, 3, 4}));
  Array b = iota(5);
  b.set({range({}, {}, -1)}, b);  // b[::-1] = b
  EXPECT_EQ(b.to_vector<double>(), (std::vector<double>{4, 3, 2, 1, 0}));
  Array m = iota(9, {3, 3});
  m.set({all()}, transpose(m));
  EXPECT_EQ(m.to_vector<double>(), (std::vector<double>{0, 3, 6, 1, 4, 7, 2, 5, 8}));
  // Disjoint halves and element-wise updates need no temporary: one kernel each.
  Array c = iota(8);
  c.eval();
  c[{0}].eval();  // make c storage before counting
  uint64_t k0 = kernels();
  c.set({range({}, 4)}, c[{range(4, {})}] * 2);
  c.eval();  // a small write is recorded until something needs the array (write.h)
  EXPECT_EQ(kernels() - k0, 1u);
  EXPECT_EQ(c.to_vector<double>(), (std::vector<double>{8, 10, 12, 14, 4, 5, 6, 7}));
}

TEST(ViewsTest, ValuesSharedByHashConsingStayApart) {
  Array x = iota(3);
  Array a = x + 1, b = x + 1;  // one node
  a.eval();
  b.eval();
  a.set({0}, 50.0);
  EXPECT_EQ(a.to_vector<double>(), (std::vector<double>{50, 2, 3}));
  EXPECT_EQ(b.to_vector<double>(), (std::vector<double>{1, 2, 3}));
}

TEST(ViewsTest, JacobiStepIsOneKernel) {
  const int64_t n = 16;
  Array A = iota(n * n, {n, n}), B = iota(n * n, {n, n}) * 0;
  B.eval();
  B[{0}].eval();
  std::vector<double> ha = A.to_vector<double>(), hb = B.to_vector<double>();
  const uint64_t k0 = kernels();
  auto in = range(1, -1);
  B.set({in, in}, 0.2 * (A[{in, in}] + A[{in, range({}, -2)}] + A[{in, range(2, {})}] +
                         A[{range(2, {}), in}] + A[{range({}, -2), in}]));
  B.eval();  // a small write is recorded until something needs the array (write.h)
  EXPECT_EQ(kernels() - k0, 1u);
  for (int64_t i = 1; i < n - 1; ++i) {
    for (int64_t j = 1; j < n - 1; ++j) {
      hb[i * n + j] = 0.2 * (ha[i * n + j] + ha[i * n + j - 1] + ha[i * n + j + 1] +
                             ha[(i + 1) * n + j] + ha[(i - 1) * n + j]);
    }
  }
  EXPECT_EQ(B.to_vector<double>(), hb);
}

TEST(ViewsTest, HostWritesIntoViews) {
  Array a = iota(12, {3, 4});
  Array v = a[{all(), range(1, 3)}];  // strided
  std::vector<double> data = {-1, -2, -3, -4, -5, -6};
  v.write(data.data(), data.size() * sizeof(double));
  EXPECT_EQ(a.to_vector<double>(),
            (std::vector<double>{0, -1, -2, 3, 4, -3, -4, 7, 8, -5, -6, 11}));
  Array r = a[{2}];  // contiguous
  std::vector<double> row = {9, 9, 9, 9};
  r.write(row.data(), row.size() * sizeof(double));
  EXPECT_EQ(a.to_vector<double>()[8], 9);
}

TEST(ViewsTest, ReshapeAndFriends) {
  Array a = iota(6, {2, 3});
  Array r = reshape(a, {3, -1});
  EXPECT_EQ(r.shape(), (Shape{3, 2}));
  r.set({0, 0}, 42.0);
  EXPECT_EQ(a.to_vector<double>()[0], 42);  // a view
  Array t = transpose(a);
  Array flat = reshape(t, {6});  // not expressible with strides: a copy
  EXPECT_EQ(flat.to_vector<double>(), (std::vector<double>{42, 3, 1, 4, 2, 5}));
  flat.set({0}, 0.0);
  EXPECT_EQ(a.to_vector<double>()[0], 42);
  EXPECT_THROW(reshape(a, {4}), ShapeError);
  Array b = broadcast_to(a[{0}], {4, 3});
  EXPECT_FALSE(b.is_writeable());
  EXPECT_THROW(b.set({0, 0}, 1.0), ShapeError);
  EXPECT_EQ(b.to_vector<double>()[9], 42);
  EXPECT_EQ(diagonal(a).to_vector<double>(), (std::vector<double>{42, 4}));
  EXPECT_EQ(flip(a, std::vector<int64_t>{1}).to_vector<double>(),
            (std::vector<double>{2, 1, 42, 5, 4, 3}));
}

TEST(ViewsTest, FailedAssignmentChangesNothing) {
  Array a = iota(6, {2, 3});
  Array bad = iota(2);
  EXPECT_THROW(a.set({all()}, bad), ShapeError);  // (2,) into (2, 3)
  EXPECT_THROW(a.set({0, 5}, 1.0), IndexError);
  Array i8 = Array::from_host(std::vector<int8_t>{1, 2}.data(), {2}, DType::kInt8);
  EXPECT_THROW(i8.set({0}, 300), OverflowError);
  EXPECT_EQ(a.to_vector<double>(), (std::vector<double>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(i8.to_vector<int8_t>(), (std::vector<int8_t>{1, 2}));
}

// An array larger than maxStorageBufferRange (128 MiB on lavapipe): a kernel reaches it through
// its buffer device address (runtime/launch.h: choose_interface), in one launch, whatever its
// views: slices, a whole-array expression with a generated source and a reversed view, a 2-d
// strided view, and a gather, which may read anywhere.
TEST(ViewsTest, ViewsOfArraysLargerThanTheBindingRange) {
  auto ctx = Context::default_context();
  const uint64_t limit = ctx->device(0).caps().max_storage_buffer_range;
  if (limit > (uint64_t{1} << 30)) GTEST_SKIP() << "binding range " << limit << " bytes: too large";
  const int64_t n = static_cast<int64_t>(limit / 4) + (int64_t{1} << 20) + 7;  // float32
  std::vector<float> host(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) host[i] = static_cast<float>(i % 1000);
  Array a = Array::from_host(host.data(), {n}, DType::kFloat32, ctx);
  const int64_t m = n / 2;
  std::vector<float> head = (a[{range(0, m)}] + 1).to_vector<float>();
  std::vector<float> tail = (a[{range(n - m, n)}] * 2).to_vector<float>();
  for (int64_t i = 0; i < m; i += 4099) {
    ASSERT_EQ(head[i], host[i] + 1) << i;
    ASSERT_EQ(tail[i], host[n - m + i] * 2) << i;
  }
  a.set({range(n - 10, n)}, -1.0);  // a write into the far end
  EXPECT_EQ(a[{range(n - 11, n - 9)}].to_vector<float>(), (std::vector<float>{host[n - 11], -1}));
  std::fill(host.end() - 10, host.end(), -1.0f);
  // The whole array, wider than the range, with a generated source (arange) and a reversed
  // view of the same storage: one kernel.
  const uint64_t k0 = kernels();
  Array whole =
      a * 2 + arange(0, static_cast<double>(n), 1, DType::kFloat32, ctx) + a[{range({}, {}, -1)}];
  std::vector<float> w = whole.to_vector<float>();
  EXPECT_EQ(kernels() - k0, 1u);
  for (int64_t i = 0; i < n; i += 4099) {
    ASSERT_EQ(w[i], host[i] * 2 + static_cast<float>(i) + host[n - 1 - i]) << i;
  }
  ASSERT_EQ(w[n - 1], host[n - 1] * 2 + static_cast<float>(n - 1) + host[0]);
  // Two dimensions: rows of a (rows, 1024) view, every other column.
  const int64_t rows = n / 1024;
  Array grid = reshape(a[{range(0, rows * 1024)}], {rows, 1024})[{all(), range({}, {}, 2)}];
  std::vector<float> g = (grid - 1).to_vector<float>();
  for (int64_t i = 0; i < rows * 512; i += 4099) {
    ASSERT_EQ(g[i], host[(i / 512) * 1024 + (i % 512) * 2] - 1) << i;
  }
  Array idx = Array::from_host(std::vector<int64_t>{0, n - 1}.data(), {2}, DType::kInt64, ctx);
  EXPECT_EQ(take(a, idx).to_vector<float>(), (std::vector<float>{host[0], host[n - 1]}));
}

TEST(ViewsTest, SelectionsAssignInXtensorStyle) {
  Array a = iota(16, {4, 4});
  a[{0}].eval();  // storage before counting
  const uint64_t k0 = kernels();
  auto in = range(1, -1);
  a.at({in, in}) = 0.5 * (a[{range({}, -2), in}] + a[{range(2, {}), in}]);
  a.eval();
  EXPECT_EQ(kernels() - k0, 2u);  // it reads row 1, which it writes: staged, numpy's order
  Array b = iota(16, {4, 4});
  b.eval();
  const uint64_t k1 = kernels();
  b.at({in, in}) = 0.5 * (a[{range({}, -2), in}] + a[{range(2, {}), in}]);
  b.eval();                       // recorded until then (write.h)
  EXPECT_EQ(kernels() - k1, 1u);  // from another array: one fused kernel
  a.at({0}) += 100;
  a.at({all(), 3}) = -1;
  Array corner = a.at({range(2, {}), range(2, {})});
  EXPECT_EQ(corner.to_vector<double>(), (std::vector<double>{10, -1, 14, -1}));
  EXPECT_EQ(a.to_vector<double>(),
            (std::vector<double>{100, 101, 102, -1, 4, 5, 6, -1, 8, 9, 10, -1, 12, 13, 14, -1}));
}

}  // namespace
}  // namespace vka
