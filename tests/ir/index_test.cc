// Basic indexing and the view functions on Views (GPU-free), against element positions worked
// out by hand from numpy's rules.
#include "ir/index.h"

#include <gtest/gtest.h>

#include "base/errors.h"

namespace vka {
namespace {

// The buffer element of every index of `v`, in C order.
std::vector<int64_t> elements(const View& v) {
  std::vector<int64_t> out;
  std::vector<int64_t> idx(v.ndim(), 0);
  if (v.size() == 0) return out;
  for (;;) {
    int64_t e = v.offset;
    for (int d = 0; d < v.ndim(); ++d) e += idx[d] * v.strides[d];
    out.push_back(e);
    int d = v.ndim() - 1;
    for (; d >= 0; --d) {
      if (++idx[d] < v.shape[d]) break;
      idx[d] = 0;
    }
    if (d < 0) break;
  }
  return out;
}

const View k3x4 = View::contiguous({3, 4});  // elements 0..11, row-major

TEST(IndexTest, IntegersAndSlices) {
  EXPECT_EQ(elements(apply_index(k3x4, {1})), (std::vector<int64_t>{4, 5, 6, 7}));
  EXPECT_EQ(elements(apply_index(k3x4, {-1, -2})), (std::vector<int64_t>{10}));
  EXPECT_EQ(apply_index(k3x4, {-1, -2}).ndim(), 0);
  // a[::-1, 1::2] of arange(12).reshape(3, 4) is [[9, 11], [5, 7], [1, 3]].
  EXPECT_EQ(elements(apply_index(k3x4, {range({}, {}, -1), range(1, {}, 2)})),
            (std::vector<int64_t>{9, 11, 5, 7, 1, 3}));
  // Out-of-range bounds clamp as Python's slices do: a[5:100] is empty, a[-100:2] is a[:2].
  EXPECT_EQ(apply_index(k3x4, {range(5, 100)}).shape, (Shape{0, 4}));
  EXPECT_EQ(elements(apply_index(k3x4, {range(-100, 2), 0})), (std::vector<int64_t>{0, 4}));
  // a[2:0:-1, 3] is [11, 7].
  EXPECT_EQ(elements(apply_index(k3x4, {range(2, 0, -1), 3})), (std::vector<int64_t>{11, 7}));
}

TEST(IndexTest, EllipsisAndNewAxis) {
  View v = apply_index(k3x4, {ellipsis, 2});
  EXPECT_EQ(v.shape, (Shape{3}));
  EXPECT_EQ(elements(v), (std::vector<int64_t>{2, 6, 10}));
  v = apply_index(k3x4, {newaxis, 1, ellipsis, newaxis});
  EXPECT_EQ(v.shape, (Shape{1, 4, 1}));
  EXPECT_EQ(elements(v), (std::vector<int64_t>{4, 5, 6, 7}));
  EXPECT_EQ(apply_index(k3x4, {}).shape, (Shape{3, 4}));
  EXPECT_EQ(apply_index(View::contiguous({}), {ellipsis, newaxis}).shape, (Shape{1}));
}

TEST(IndexTest, ErrorsAsNumpy) {
  EXPECT_THROW(apply_index(k3x4, {3}), IndexError);
  EXPECT_THROW(apply_index(k3x4, {0, -5}), IndexError);
  try {
    apply_index(k3x4, {0, 0, 0});
    FAIL();
  } catch (const IndexError& e) {
    EXPECT_NE(std::string(e.what()).find("too many indices for array: array is 2-dimensional, "
                                         "but 3 were indexed"),
              std::string::npos);
  }
  EXPECT_THROW(apply_index(k3x4, {ellipsis, ellipsis}), IndexError);
  EXPECT_THROW(apply_index(k3x4, {range(0, 3, 0)}), ShapeError);
}

TEST(IndexTest, ViewFunctions) {
  EXPECT_EQ(expand_dims(k3x4, {0, -1}).shape, (Shape{1, 3, 4, 1}));
  EXPECT_EQ(squeeze(View::contiguous({1, 3, 1}), std::nullopt).shape, (Shape{3}));
  EXPECT_EQ(squeeze(View::contiguous({1, 3, 1}), std::vector<int64_t>{2}).shape, (Shape{1, 3}));
  EXPECT_THROW(squeeze(k3x4, std::vector<int64_t>{0}), ShapeError);
  EXPECT_EQ(elements(swapaxes(k3x4, 0, 1)),
            (std::vector<int64_t>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
  View c = View::contiguous({2, 3, 4});
  EXPECT_EQ(moveaxis(c, {0}, {-1}).shape, (Shape{3, 4, 2}));
  EXPECT_EQ(moveaxis(c, {0, 1}, {-1, -2}).shape, (Shape{4, 3, 2}));
  EXPECT_EQ(elements(flip(k3x4, std::vector<int64_t>{1})),
            (std::vector<int64_t>{3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8}));
  EXPECT_EQ(elements(flip(k3x4, std::nullopt)).front(), 11);
  // np.arange(12).reshape(3, 4).diagonal(1) is [1, 6, 11]; diagonal(-1) is [4, 9].
  EXPECT_EQ(elements(diagonal(k3x4, 1, 0, 1)), (std::vector<int64_t>{1, 6, 11}));
  EXPECT_EQ(elements(diagonal(k3x4, -1, 0, 1)), (std::vector<int64_t>{4, 9}));
  EXPECT_EQ(diagonal(k3x4, 7, 0, 1).shape, (Shape{0}));
  EXPECT_THROW(diagonal(k3x4, 0, 1, -1), ShapeError);
}

}  // namespace
}  // namespace vka
