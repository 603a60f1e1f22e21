// Shapes, broadcasting, axis normalization, and view algebra against hand-computed cases.
#include <gtest/gtest.h>

#include "base/errors.h"
#include "ir/shape.h"
#include "ir/view.h"

namespace vka {
namespace {

template <typename E, typename F>
std::string message_of(F f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "<no exception>";
}

TEST(Shape, SizeAndPrinting) {
  EXPECT_EQ(size({}), 1);
  EXPECT_EQ(size({3, 0, 2}), 0);
  EXPECT_EQ(size({3, 4}), 12);
  EXPECT_EQ(to_string({}), "()");
  EXPECT_EQ(to_string({5}), "(5,)");
  EXPECT_EQ(to_string({3, 4}), "(3, 4)");
  EXPECT_THROW(size({-1}), ShapeError);
}

TEST(Shape, Broadcast) {
  EXPECT_EQ(broadcast_shapes("add", {3, 1}, {1, 4}), (Shape{3, 4}));
  EXPECT_EQ(broadcast_shapes("add", {}, {2, 3}), (Shape{2, 3}));
  EXPECT_EQ(broadcast_shapes("add", {5, 1, 3}, {4, 1}), (Shape{5, 4, 3}));
  EXPECT_EQ(broadcast_shapes("add", {0}, {1}), (Shape{0}));
  EXPECT_EQ(broadcast_shapes("where", std::vector<Shape>{{2, 1}, {3}, {1, 1}}), (Shape{2, 3}));
  EXPECT_EQ(message_of<ShapeError>([] {
              broadcast_shapes("add", {3, 4}, {5});
            }),
            "[add] cannot broadcast shapes (3, 4) and (5,)");
  EXPECT_EQ(message_of<ShapeError>([] {
              broadcast_shapes("where", std::vector<Shape>{{2}, {3}, {1}});
            }),
            "[where] cannot broadcast shapes (2,), (3,) and (1,)");
}

TEST(Shape, NormalizeAxis) {
  EXPECT_EQ(normalize_axis("sum", -1, 2), 1);
  EXPECT_EQ(normalize_axis("sum", 0, 2), 0);
  EXPECT_EQ(message_of<IndexError>([] { normalize_axis("sum", 3, 2); }),
            "[sum] axis 3 is out of bounds for array of dimension 2");
  EXPECT_THROW(normalize_axis("sum", -3, 2), IndexError);
}

TEST(View, ContiguityAndExtent) {
  View v = View::contiguous({2, 3});
  EXPECT_EQ(v.strides, (std::vector<int64_t>{3, 1}));
  EXPECT_TRUE(v.is_contiguous());
  EXPECT_FALSE(transpose(v).is_contiguous());
  EXPECT_EQ(transpose(v).strides, (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(v.extent(), (std::pair<int64_t, int64_t>{0, 6}));
  View rev = slice(View::contiguous({5}), 0, {std::nullopt, std::nullopt, -1});
  EXPECT_EQ(rev.offset, 4);
  EXPECT_EQ(rev.strides[0], -1);
  EXPECT_EQ(rev.extent(), (std::pair<int64_t, int64_t>{0, 5}));
  View ones{7, {1, 4}, {99, 1}};  // extent-1 dims may carry any stride
  EXPECT_TRUE(ones.is_contiguous());
}

TEST(View, BroadcastTo) {
  View b = broadcast_to("add", View::contiguous({3, 1}), {2, 3, 4});
  EXPECT_EQ(b.shape, (Shape{2, 3, 4}));
  EXPECT_EQ(b.strides, (std::vector<int64_t>{0, 1, 0}));
  EXPECT_TRUE(broadcast_to("add", View::contiguous({}), {4}).is_scalar_broadcast());
  EXPECT_EQ(message_of<ShapeError>([] {
              broadcast_to("add", View::contiguous({3}), {2, 4});
            }),
            "[add] cannot broadcast shape (3,) to (2, 4)");
}

TEST(View, Permute) {
  View v = permute("transpose", View::contiguous({2, 3, 4}), {2, 0, -2});
  EXPECT_EQ(v.shape, (Shape{4, 2, 3}));
  EXPECT_EQ(v.strides, (std::vector<int64_t>{1, 12, 4}));
  EXPECT_THROW(permute("transpose", View::contiguous({2, 3}), {0, 0}), ShapeError);
  EXPECT_THROW(permute("transpose", View::contiguous({2, 3}), {0, 2}), IndexError);
}

TEST(View, NormalizeSliceLikePython) {
  // Cases checked against Python's slice(...).indices(10) and len(range(...)).
  auto r = normalize_slice({1, 8, 3}, 10);
  EXPECT_EQ(r.start, 1);
  EXPECT_EQ(r.count, 3);  // 1 4 7
  r = normalize_slice({std::nullopt, std::nullopt, -2}, 10);
  EXPECT_EQ(r.start, 9);
  EXPECT_EQ(r.count, 5);  // 9 7 5 3 1
  r = normalize_slice({-3, std::nullopt, 1}, 10);
  EXPECT_EQ(r.start, 7);
  EXPECT_EQ(r.count, 3);
  r = normalize_slice({100, -100, -1}, 10);
  EXPECT_EQ(r.start, 9);
  EXPECT_EQ(r.count, 10);
  r = normalize_slice({5, 2, 1}, 10);
  EXPECT_EQ(r.count, 0);
  r = normalize_slice({-20, 20, 1}, 10);
  EXPECT_EQ(r.start, 0);
  EXPECT_EQ(r.count, 10);
  EXPECT_EQ(message_of<ShapeError>([] {
              normalize_slice({0, 1, 0}, 3);
            }),
            "[slice] slice step cannot be zero");
}

TEST(View, SliceAndIndex) {
  View v = View::contiguous({4, 6});
  View s = slice(v, 1, {5, 0, -2});  // columns 5 3 1
  EXPECT_EQ(s.shape, (Shape{4, 3}));
  EXPECT_EQ(s.offset, 5);
  EXPECT_EQ(s.strides, (std::vector<int64_t>{6, -2}));
  View row = index_axis(v, 0, -1);
  EXPECT_EQ(row.offset, 18);
  EXPECT_EQ(row.shape, (Shape{6}));
  EXPECT_EQ(message_of<IndexError>([&] { index_axis(v, 0, 4); }),
            "[index] index 4 is out of bounds for axis 0 with size 4");
}

TEST(View, ReshapeAsView) {
  View v = View::contiguous({2, 3, 4}, 10);
  auto r = reshape_view(v, {6, -1});
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->shape, (Shape{6, 4}));
  EXPECT_EQ(r->offset, 10);
  // A transposed array can be split along a dim without a copy, but not flattened.
  View t = transpose(View::contiguous({4, 6}));  // shape (6, 4), strides (1, 6)
  auto split = reshape_view(t, {2, 3, 4});
  ASSERT_TRUE(split.has_value());
  EXPECT_EQ(split->strides, (std::vector<int64_t>{3, 1, 6}));
  EXPECT_FALSE(reshape_view(t, {24}).has_value());
  // Every other column of 6: (4, 3) with strides (6, 2) is evenly spaced, so it flattens to
  // stride 2; every fourth column, (4, 2) with strides (6, 4), is not.
  View cols = slice(View::contiguous({4, 6}), 1, {std::nullopt, std::nullopt, 2});
  auto flat = reshape_view(cols, {12});
  ASSERT_TRUE(flat.has_value());
  EXPECT_EQ(flat->strides, (std::vector<int64_t>{2}));
  View sparse = slice(View::contiguous({4, 6}), 1, {std::nullopt, std::nullopt, 4});
  EXPECT_FALSE(reshape_view(sparse, {8}).has_value());
  auto more = reshape_view(cols, {2, 2, 3, 1});
  ASSERT_TRUE(more.has_value());
  EXPECT_EQ(more->strides[0], 12);
  EXPECT_EQ(more->strides[1], 6);
  EXPECT_EQ(more->strides[2], 2);
  EXPECT_EQ(message_of<ShapeError>([&] {
              reshape_view(v, {5, 5});
            }),
            "[reshape] cannot reshape array of size 24 into shape (5, 5)");
}

TEST(View, CollapseDims) {
  View a = View::contiguous({2, 3, 4});
  View b = broadcast_to("add", View::contiguous({4}), {2, 3, 4});
  std::vector<View*> vs{&a, &b};
  Shape s = collapse_dims(vs);
  // a merges fully; b's zero strides over (2, 3) merge, its 4 stays separate.
  EXPECT_EQ(s, (Shape{6, 4}));
  EXPECT_EQ(a.strides, (std::vector<int64_t>{4, 1}));
  EXPECT_EQ(b.strides, (std::vector<int64_t>{0, 1}));
  View c = View::contiguous({5, 1, 7});
  std::vector<View*> one{&c};
  EXPECT_EQ(collapse_dims(one), (Shape{35}));
  EXPECT_TRUE(c.is_contiguous());
}

}  // namespace
}  // namespace vka
