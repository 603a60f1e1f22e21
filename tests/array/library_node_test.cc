// Library nodes (array/library_node.h): their computation runs when the value is needed, once,
// after their inputs; the value is a buffer of its own whatever the computation returns.
#include "array/library_node.h"

#include <gtest/gtest.h>

#include "tests/array/array_testing.h"

namespace vka {
namespace {

using testing::iota;
using testing::kernels;

TEST(LibraryNodeTest, RunsOnceWhenTheValueIsNeeded) {
  Array x = iota(6, {2, 3});
  int runs = 0;
  // A computation returning a view (a transpose): the node's value is copied into C order.
  Array y = library_node("transposed", {x * 2.0}, DType::kFloat64, {3, 2},
                         [&runs](const std::vector<Array>& in) {
                           ++runs;
                           EXPECT_FALSE(in[0].is_lazy());  // inputs arrive computed
                           return transpose(in[0]);
                         });
  EXPECT_EQ(runs, 0);
  Array z = y + 1.0, w = y * 10.0;
  const uint64_t before = kernels();
  eval(z, w);
  EXPECT_GT(kernels(), before);
  EXPECT_EQ(runs, 1);  // read by two expressions, computed once
  EXPECT_EQ(z.to_vector<double>(), (std::vector<double>{1, 7, 3, 9, 5, 11}));
  EXPECT_EQ(w.to_vector<double>(), (std::vector<double>{0, 60, 20, 80, 40, 100}));
  EXPECT_EQ(y.to_vector<double>(), (std::vector<double>{0, 6, 2, 8, 4, 10}));
  EXPECT_EQ(y.to_vector<double>(), (std::vector<double>{0, 6, 2, 8, 4, 10}));
  EXPECT_EQ(runs, 2);  // y itself was an intermediate of (z, w): computed again, then kept
}

TEST(LibraryNodeTest, AValueReturnedFromStorageIsCopied) {
  Array base = iota(5);
  Array part = base[{range(1, 4)}];  // a view: base's buffer is now storage
  Array same = library_node("same", {part}, DType::kFloat64, {3},
                            [](const std::vector<Array>& in) { return in[0]; });
  same.eval();
  base.fill(Arg(-1.0));  // the write may not reach the node's value
  EXPECT_EQ(same.to_vector<double>(), (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(part.to_vector<double>(), (std::vector<double>{-1, -1, -1}));
}

TEST(LibraryNodeTest, NodesReadingNodesRunInOrder) {
  Array x = iota(4);
  std::vector<std::string> log;
  auto step = [&log](std::string name) {
    return [&log, name](const std::vector<Array>& in) {
      log.push_back(name);
      return in[0] + in.back();
    };
  };
  Array a = library_node("a", {x}, DType::kFloat64, {4}, step("a"));
  Array b = library_node("b", {x * 3.0}, DType::kFloat64, {4}, step("b"));
  Array c = library_node("c", {a, b}, DType::kFloat64, {4}, step("c"));
  EXPECT_EQ((c - 1.0).to_vector<double>(), (std::vector<double>{-1, 7, 15, 23}));
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log.back(), "c");
}

}  // namespace
}  // namespace vka
