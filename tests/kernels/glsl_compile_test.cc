// Every op × every dtype it accepts, every astype pair, every source op, and the layout and
// index-width variants: the generated GLSL must compile to SPIR-V (Vulkan 1.2).
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <thread>

#include "ir/node_ops.h"
#include "kernels/gen/elementwise.h"
#include "schedule/schedule.h"
#include "tests/kernels/shader_compiler.h"

namespace vka {
namespace {

constexpr DType kAll[] = {DType::kBool,      DType::kInt8,      DType::kUInt8,   DType::kInt16,
                          DType::kUInt16,    DType::kInt32,     DType::kUInt32,  DType::kInt64,
                          DType::kUInt64,    DType::kFloat16,   DType::kFloat32, DType::kFloat64,
                          DType::kComplex64, DType::kComplex128};

struct Case {
  std::string name;
  std::string glsl;
};

NodePtr leaf(Graph& g, DType t, Shape s) {
  return g.buffer(std::make_shared<BufferRef>(), t, View::contiguous(s));
}

Case make_case(const std::string& name, const std::vector<NodePtr>& targets) {
  Schedule s = schedule(targets, Limits{64, 256, 512});
  EXPECT_EQ(s.kernels.size(), 1u) << name;
  return Case{name + " " + s.kernels.at(0).spec.name(), emit_elementwise(s.kernels.at(0).spec)};
}

// Compiles all cases on every core; reports each failure with its numbered GLSL.
void compile_all(const std::vector<Case>& cases) {
  std::atomic<std::size_t> next{0};
  std::mutex mu;
  std::vector<std::string> failures;
  std::vector<std::thread> pool;
  unsigned n = std::max(1u, std::thread::hardware_concurrency());
  for (unsigned t = 0; t < n; ++t) {
    pool.emplace_back([&] {
      for (std::size_t i = next++; i < cases.size(); i = next++) {
        std::string err = compile_error(cases[i].glsl, cases[i].name);
        if (err.empty()) continue;
        std::lock_guard<std::mutex> lock(mu);
        failures.push_back(err);
      }
    });
  }
  for (std::thread& t : pool) t.join();
  EXPECT_TRUE(failures.empty()) << failures.size() << " of " << cases.size()
                                << " shaders failed; first:\n"
                                << (failures.empty() ? "" : failures[0]);
}

TEST(GlslCompile, EveryOpTimesEveryAcceptedDtype) {
  Graph g;
  std::vector<Case> cases;
  int skipped_not_yet = 0;
  for (int i = 0; i < kNumOps; ++i) {
    Op op = static_cast<Op>(i);
    if (!is_elementwise(op) || op == Op::kAstype) continue;
    for (DType t : kAll) {
      if (!accepts(op, t)) {
        skipped_not_yet += std::string(info(op).kinds).find(info(t).kind) == std::string::npos;
        continue;
      }
      std::vector<Operand> args;
      for (int k = 0; k < arity(op); ++k) {
        DType d = (op == Op::kWhere && k == 0) ? DType::kBool : t;
        args.push_back(leaf(g, d, {16}));
      }
      cases.push_back(make_case(std::string(name(op)) + "(" + std::string(name(t)) + ")",
                                {apply(g, op, args)}));
    }
  }
  EXPECT_GT(cases.size(), 600u);
  compile_all(cases);
}

TEST(GlslCompile, EveryAstypePair) {
  Graph g;
  std::vector<Case> cases;
  for (DType from : kAll) {
    for (DType to : kAll) {
      if (from == to) continue;
      cases.push_back(make_case("astype " + std::string(name(from)) + "->" + std::string(name(to)),
                                {g.astype(leaf(g, from, {16}), to)}));
    }
  }
  ASSERT_EQ(cases.size(), 14u * 13u);
  compile_all(cases);
}

TEST(GlslCompile, SourcesForEveryDtype) {
  Graph g;
  std::vector<Case> cases;
  for (DType t : kAll) {
    auto s = [&](double v) { return Scalar::of_double(v, t); };
    cases.push_back(make_case("full " + std::string(name(t)), {g.full(s(3), {4, 4})}));
    cases.push_back(
        make_case("eye " + std::string(name(t)),
                  {g.source(Op::kEye, t, {4, 5}, {Scalar::of_int(1), Scalar::of_int(5)})}));
    if (accepts(Op::kArange, t)) {
      cases.push_back(make_case("arange " + std::string(name(t)),
                                {g.source(Op::kArange, t, {10}, {s(1), s(2)})}));
    }
    if (accepts(Op::kLinspace, t)) {
      cases.push_back(
          make_case("linspace " + std::string(name(t)),
                    {g.source(Op::kLinspace, t, {10}, {s(0), s(0.5), s(4.5), Scalar::of_int(9)})}));
    }
    // A broadcast source inside an expression: arange(5) + m, shape (3, 5).
    if (accepts(Op::kArange, t) && accepts(Op::kAdd, t)) {
      NodePtr ar = g.source(Op::kArange, t, {5}, {s(0), s(1)});
      cases.push_back(make_case("arange+m " + std::string(name(t)),
                                {apply(g, Op::kAdd, {ar, leaf(g, t, {3, 5})})}));
    }
  }
  compile_all(cases);
}

TEST(GlslCompile, LayoutsIndexWidthsAndMultipleOutputs) {
  Graph g;
  std::vector<Case> cases;
  for (DType t : {DType::kFloat32, DType::kInt8, DType::kComplex128, DType::kFloat16}) {
    auto buf = std::make_shared<BufferRef>();
    View strided = slice(transpose(View::contiguous({6, 8})), 0, {7, std::nullopt, -2});
    NodePtr a = g.buffer(buf, t, strided);  // (4, 6), negative and transposed strides
    NodePtr b = leaf(g, t, {6});            // broadcast rows
    NodePtr c = leaf(g, t, {});             // scalar broadcast
    NodePtr sum = apply(g, Op::kAdd, {apply(g, Op::kAdd, {a, b}), c});
    NodePtr eq = apply(g, Op::kEqual, {a, b});
    cases.push_back(make_case("strided " + std::string(name(t)), {sum, eq}));
    NodePtr huge = leaf(g, t, {int64_t{5} << 30});
    cases.push_back(make_case("index64 " + std::string(name(t)),
                              {apply(g, Op::kMultiply, {huge, WeakScalar::of_int(3)})}));
    View big = broadcast_to("t", View::contiguous({int64_t{1} << 16, 1}),
                            {int64_t{1} << 16, int64_t{1} << 16});
    cases.push_back(make_case("index64 strided " + std::string(name(t)),
                              {apply(g, Op::kNegative, {g.buffer(buf, t, big)})}));
  }
  compile_all(cases);
}

}  // namespace
}  // namespace vka
