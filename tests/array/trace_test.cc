// Recorded functions (array/trace.h): replays against arithmetic by hand, what a recording
// holds, the input keys, and what makes a recording unreplayable or out of date.
#include <gtest/gtest.h>

#include <memory>

#include "array/array.h"
#include "array/functions.h"
#include "array/random/random.h"
#include "array/trace.h"
#include "base/effects.h"
#include "tests/array/array_testing.h"

namespace vka {
namespace {

using testing::iota;
using testing::kernels;

TEST(TraceTest, ReplaysOverOtherInputsThroughTheSameViews) {
  Array x = iota(6);
  // f(x) = x[1:] * x[:-1] + 2: two views of the input, a constant.
  auto f = [](const Array& a) { return a[{range(1, {})}] * a[{range({}, -1)}] + 2.0; };
  const uint64_t effects = effect_count();
  Array traced = f(x);
  EXPECT_EQ(effect_count(), effects);  // building a graph has no effect
  Trace trace({x}, {traced});
  EXPECT_EQ(trace.unreplayable(), "");
  EXPECT_TRUE(trace.current());

  Array y = iota(6) * 10.0;
  y.eval();
  const uint64_t k0 = kernels();
  std::vector<Array> out = trace.replay({y});
  EXPECT_EQ(kernels(), k0);  // a replay is lazy
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].to_vector<double>(), (std::vector<double>{2, 202, 602, 1202, 2002}));
  EXPECT_EQ(kernels() - k0, 1u);
  EXPECT_EQ(traced.to_vector<double>(), (std::vector<double>{2, 4, 8, 14, 22}));
}

TEST(TraceTest, HoldsNoInputBuffer) {
  Array x = iota(8);
  std::weak_ptr<BufferRef> buffer = x.node()->buffer();
  Trace trace({x}, {x * 3.0});
  x = Array();
  EXPECT_TRUE(buffer.expired());
  Array y = iota(8);
  y.eval();
  EXPECT_EQ(trace.replay({y})[0].to_vector<double>()[7], 21);
}

TEST(TraceTest, KeysNameLayoutsAndSharedBuffers) {
  Array a = iota(12, {3, 4});
  a.eval();
  Array t = transpose(a);
  std::vector<TraceInputKey> keys = trace_input_keys({a, t, a});
  ASSERT_EQ(keys.size(), 3u);
  EXPECT_EQ(keys[0].alias, -1);
  EXPECT_EQ(keys[1].alias, 0);  // the transpose views a's buffer
  EXPECT_EQ(keys[2].alias, 0);
  EXPECT_EQ(keys[1].view.strides, (std::vector<int64_t>{1, 4}));
  EXPECT_EQ(keys[0].dtype, DType::kFloat64);
  EXPECT_FALSE(keys[0].known.has_value());  // float values have no known bounds
}

TEST(TraceTest, RandomNumbersAndReturnedViewsAreNotReplayed) {
  Array x = iota(4);
  random::Generator g{random::SeedSequence({5})};
  EXPECT_EQ(Trace({x}, {x + g.random({4})}).unreplayable(), "draws random numbers");
  Array v = x[{range(1, {})}];
  EXPECT_EQ(Trace({x}, {v}).unreplayable(), "returns a view or a computed array");
  // A view reaching past its argument into the rest of the buffer (as_strided's kind).
  Array base = iota(8);
  Array arg = base[{range(2, 5)}];
  Array past = arg.view(View{2, {5}, {1}});  // elements 2..6 of base, two past arg
  EXPECT_EQ(Trace({arg}, {past * 2.0}).unreplayable(),
            "reads its argument's buffer outside the argument (as_strided)");
  EXPECT_EQ(Trace({arg}, {arg[{range(1, {})}] * 2.0}).unreplayable(), "");
}

TEST(TraceTest, AWriteIntoACapturedArrayOutdatesTheRecording) {
  Array x = iota(3);
  Array captured = iota(3);
  Array view = captured[{range(1, {})}];  // captured is storage: writes go in place
  Trace trace({x}, {x + captured});
  EXPECT_TRUE(trace.current());
  Array y = iota(3) * 2.0;
  y.eval();
  Array before = trace.replay({y})[0];
  // The write computes lazy readers of the old values first (before), never the recording's
  // nodes, which read placeholders.
  captured.set({0}, 50.0);
  EXPECT_FALSE(trace.current());
  EXPECT_EQ(before.to_vector<double>(), (std::vector<double>{0, 3, 6}));
  EXPECT_EQ(view.to_vector<double>(), (std::vector<double>{1, 2}));
}

}  // namespace
}  // namespace vka
