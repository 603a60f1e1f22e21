// Graph hash-consing, weak interning, library nodes, scalars, and numpy 2 dtype resolution of
// apply().
#include "ir/graph.h"

#include <gtest/gtest.h>

#include "base/errors.h"
#include "ir/node_ops.h"

namespace vka {
namespace {

NodePtr leaf(Graph& g, DType t, Shape s) {
  return g.buffer(std::make_shared<BufferRef>(), t, View::contiguous(s));
}

TEST(Graph, IdenticalSubexpressionsAreOneNode) {
  Graph g;
  NodePtr a = leaf(g, DType::kFloat32, {4}), b = leaf(g, DType::kFloat32, {4});
  NodePtr x = apply(g, Op::kMultiply, {a, b});
  NodePtr y = apply(g, Op::kMultiply, {a, b});
  EXPECT_EQ(x, y);
  EXPECT_NE(apply(g, Op::kMultiply, {b, a}), x);  // operand order is structure
  NodePtr two1 = apply(g, Op::kMultiply, {a, WeakScalar::of_float(2.0)});
  NodePtr two2 = apply(g, Op::kMultiply, {a, WeakScalar::of_float(2.0)});
  NodePtr three = apply(g, Op::kMultiply, {a, WeakScalar::of_float(3.0)});
  EXPECT_EQ(two1, two2);
  EXPECT_NE(two1, three);
  // The same buffer seen through the same view is the same leaf; another view is not.
  auto buf = std::make_shared<BufferRef>();
  EXPECT_EQ(g.buffer(buf, DType::kInt32, View::contiguous({3})),
            g.buffer(buf, DType::kInt32, View::contiguous({3})));
  EXPECT_NE(g.buffer(buf, DType::kInt32, View::contiguous({3})),
            g.buffer(buf, DType::kInt32, View::contiguous({3}, 1)));
}

TEST(Graph, InternTableDoesNotKeepNodesOrBuffersAlive) {
  Graph g;
  std::weak_ptr<BufferRef> weak_buf;
  {
    auto buf = std::make_shared<BufferRef>();
    weak_buf = buf;
    NodePtr a = g.buffer(buf, DType::kFloat32, View::contiguous({8}));
    buf.reset();
    NodePtr e = apply(g, Op::kExp, {a});
    EXPECT_FALSE(weak_buf.expired());  // the live graph needs it
    EXPECT_GE(g.live_nodes(), 2u);
  }
  EXPECT_TRUE(weak_buf.expired());
  EXPECT_EQ(g.live_nodes(), 0u);
}

TEST(Graph, DeepChainsDoNotRecurse) {
  Graph g;
  NodePtr x = leaf(g, DType::kFloat32, {16});
  for (int i = 0; i < 5000; ++i) {
    x = apply(
        g, Op::kAdd,
        {apply(g, Op::kMultiply, {x, WeakScalar::of_float(1.0001)}), WeakScalar::of_float(0.5)});
  }
  // The leaf, the two interned constants, and a multiply and an add per step.
  EXPECT_EQ(topological_order({x}).size(), 1u + 2u + 2u * 5000u);
}

// A Primitive the graph only holds (evaluation is runtime/realize.h's).
class NamedPrimitive final : public Primitive {
 public:
  std::string name() const override { return "scan"; }
  std::shared_ptr<BufferRef> evaluate(const std::vector<NodePtr>&) const override {
    return nullptr;
  }
};

TEST(Graph, LibraryNodesAreOnePerPrimitive) {
  Graph g;
  NodePtr a = leaf(g, DType::kFloat32, {4}), b = leaf(g, DType::kFloat32, {4});
  auto p = std::make_shared<NamedPrimitive>();
  NodePtr x = g.library(p, DType::kFloat32, {4}, {a});
  EXPECT_EQ(x->op(), Op::kLibrary);
  EXPECT_EQ(kind(x->op()), OpKind::kLibrary);
  EXPECT_EQ(x->primitive(), p);
  EXPECT_EQ(g.library(p, DType::kFloat32, {4}, {a}), x);
  // Another Primitive object is another computation, however alike.
  EXPECT_NE(g.library(std::make_shared<NamedPrimitive>(), DType::kFloat32, {4}, {a}), x);
  // Over other inputs it keeps its Primitive (substitution rebuilds nodes this way).
  NodePtr y = g.with_inputs(*x, {b});
  EXPECT_NE(y, x);
  EXPECT_EQ(y->primitive(), p);
  EXPECT_EQ(y->inputs()[0], b);
  EXPECT_NE(x->to_string().find("library float32 (4,) scan %" + std::to_string(a->id())),
            std::string::npos)
      << x->to_string();
}

TEST(Apply, WeakScalarsFollowNep50) {
  Graph g;
  NodePtr f32 = leaf(g, DType::kFloat32, {3});
  NodePtr i8 = leaf(g, DType::kInt8, {3});
  EXPECT_EQ(apply(g, Op::kMultiply, {f32, WeakScalar::of_float(2.0)})->dtype(), DType::kFloat32);
  EXPECT_EQ(apply(g, Op::kAdd, {i8, WeakScalar::of_int(1)})->dtype(), DType::kInt8);
  EXPECT_EQ(apply(g, Op::kAdd, {i8, WeakScalar::of_float(1.5)})->dtype(), DType::kFloat64);
  EXPECT_EQ(apply(g, Op::kAdd, {f32, WeakScalar::of_complex({0, 1})})->dtype(), DType::kComplex64);
  try {
    apply(g, Op::kAdd, {i8, WeakScalar::of_int(300)});
    FAIL() << "no exception";
  } catch (const OverflowError& e) {
    EXPECT_STREQ(e.what(), "[add] Python integer 300 out of bounds for int8");
  }
  // numpy 2 compares out-of-range Python ints exactly instead of raising.
  NodePtr eq = apply(g, Op::kEqual, {i8, WeakScalar::of_int(300)});
  EXPECT_EQ(eq->dtype(), DType::kBool);
  EXPECT_EQ(eq->inputs()[0]->dtype(), DType::kInt64);
  EXPECT_EQ(eq->inputs()[1]->params()[0].as_int(), 300);
}

TEST(Apply, PromotionInsertsCastsAndBroadcasts) {
  Graph g;
  NodePtr u64 = leaf(g, DType::kUInt64, {3, 1});
  NodePtr i64 = leaf(g, DType::kInt64, {4});
  NodePtr s = apply(g, Op::kAdd, {u64, i64});
  EXPECT_EQ(s->dtype(), DType::kFloat64);
  EXPECT_EQ(s->shape(), (Shape{3, 4}));
  EXPECT_EQ(s->inputs()[0]->op(), Op::kAstype);
  NodePtr q = apply(g, Op::kSqrt, {leaf(g, DType::kInt16, {2})});
  EXPECT_EQ(q->dtype(), DType::kFloat32);
  NodePtr d = apply(g, Op::kDivide, {leaf(g, DType::kInt8, {2}), leaf(g, DType::kInt8, {2})});
  EXPECT_EQ(d->dtype(), DType::kFloat64);
  NodePtr w =
      apply(g, Op::kWhere,
            {leaf(g, DType::kFloat32, {2}), WeakScalar::of_int(1), leaf(g, DType::kInt8, {2})});
  EXPECT_EQ(w->dtype(), DType::kInt8);
  EXPECT_EQ(w->inputs()[0]->dtype(), DType::kBool);
  EXPECT_THROW(
      apply(g, Op::kAdd, {leaf(g, DType::kFloat32, {3, 4}), leaf(g, DType::kFloat32, {5})}),
      ShapeError);
  EXPECT_THROW(apply(g, Op::kBitwiseAnd, {leaf(g, DType::kFloat32, {2}), WeakScalar::of_int(1)}),
               DTypeError);
  EXPECT_THROW(apply(g, Op::kSubtract, {leaf(g, DType::kBool, {2}), leaf(g, DType::kBool, {2})}),
               DTypeError);
}

TEST(Scalar, ConversionsAndEncoding) {
  EXPECT_EQ(Scalar::of_int(-1, DType::kUInt8).as_int(), 255);
  EXPECT_EQ(Scalar::of_int(300, DType::kInt8).as_int(), 44);
  EXPECT_EQ(Scalar::of_double(-2.7, DType::kInt32).as_int(), -2);
  EXPECT_EQ(Scalar::of_double(0.1, DType::kFloat32).as_double(), static_cast<double>(0.1f));
  EXPECT_EQ(Scalar::of_double(0.1, DType::kFloat16).words()[0], 0x2e66u);
  EXPECT_EQ(Scalar::of_double(65504.0, DType::kFloat16).words()[0], 0x7bffu);
  EXPECT_EQ(Scalar::of_double(65520.0, DType::kFloat16).words()[0], 0x7c00u);  // rounds to inf
  EXPECT_EQ(Scalar::of_double(5.960464477539063e-08, DType::kFloat16).words()[0], 0x0001u);
  EXPECT_EQ(Scalar::of_double(-0.0, DType::kFloat16).words()[0], 0x8000u);
  EXPECT_EQ(double_to_half(2049.0), 0x6800u);  // tie rounds to even (2048)
  EXPECT_EQ(half_to_double(0x3c00), 1.0);
  EXPECT_NE(Scalar::of_double(0.0), Scalar::of_double(-0.0));
  EXPECT_EQ(Scalar::of_double(NAN), Scalar::of_double(NAN));
  auto w = Scalar::of_int(-2, DType::kInt64).words();
  EXPECT_EQ(w[0], 0xfffffffeu);
  EXPECT_EQ(w[1], 0xffffffffu);
  EXPECT_EQ(Scalar::slot_count(DType::kComplex128), 2);
}

}  // namespace
}  // namespace vka
