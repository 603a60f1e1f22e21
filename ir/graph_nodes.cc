// The graph's nodes with structured parameters: gathers, reductions, matrix products and library
// operations, and the readers of their parameters (gather_info, reduce_info, matmul_info).
#include <algorithm>

#include "base/errors.h"
#include "ir/graph.h"

namespace vka {

NodePtr Graph::gather(const NodePtr& x, std::vector<NodePtr> indices,
                      const std::vector<int64_t>& axes, int64_t at, const Shape& ishape) {
  VKA_ASSERT(!indices.empty() && indices.size() <= 3 && indices.size() == axes.size());
  for (const NodePtr& i : indices) VKA_ASSERT(is_integer(i->dtype()));
  Shape shape;
  if (at == kAlong) {
    VKA_ASSERT(indices.size() == 1 && ishape.size() == x->shape().size());
    Shape xs = x->shape();
    xs[axes[0]] = 1;
    shape = broadcast_shapes("take_along_axis", xs, ishape);
    shape[axes[0]] = ishape[axes[0]];
  } else {
    Shape rest;
    for (int d = 0; d < static_cast<int>(x->shape().size()); ++d) {
      if (std::find(axes.begin(), axes.end(), d) == axes.end()) rest.push_back(x->shape()[d]);
    }
    VKA_ASSERT(at >= 0 && at <= static_cast<int64_t>(rest.size()));
    shape.assign(rest.begin(), rest.begin() + at);
    shape.insert(shape.end(), ishape.begin(), ishape.end());
    shape.insert(shape.end(), rest.begin() + at, rest.end());
  }
  size(shape);  // validates extents
  for (const NodePtr& i : indices) VKA_ASSERT(can_broadcast_to(i->shape(), shape));
  std::shared_ptr<Node> n = new_node();
  n->op_ = Op::kGather;
  n->dtype_ = x->dtype();
  n->shape_ = std::move(shape);
  n->inputs_ = {x};
  n->inputs_.insert(n->inputs_.end(), indices.begin(), indices.end());
  for (int64_t a : axes) n->params_.push_back(Scalar::of_int(a, DType::kInt64));
  n->params_.push_back(Scalar::of_int(at, DType::kInt64));
  return intern(std::move(n));
}

GatherInfo gather_info(const Node& g) {
  VKA_ASSERT(g.op() == Op::kGather);
  GatherInfo info;
  for (size_t i = 0; i + 1 < g.params().size(); ++i) info.axes.push_back(g.params()[i].as_int());
  info.at = g.params().back().as_int();
  const Node& x = *g.inputs()[0];
  const View xv = x.is_leaf() ? x.view() : View::contiguous(x.shape());
  const int n = static_cast<int>(g.shape().size());
  info.base = View{xv.offset, g.shape(), std::vector<int64_t>(n, 0)};
  if (info.at == Graph::kAlong) {
    const int axis = static_cast<int>(info.axes[0]);
    for (int d = 0; d < n; ++d) {
      if (d != axis && xv.shape[d] == g.shape()[d]) info.base.strides[d] = xv.strides[d];
    }
    return info;
  }
  std::vector<int64_t> rest;
  for (int d = 0; d < xv.ndim(); ++d) {
    if (std::find(info.axes.begin(), info.axes.end(), d) == info.axes.end()) {
      rest.push_back(xv.strides[d]);
    }
  }
  const int index_dims = n - static_cast<int>(rest.size());
  for (int r = 0; r < static_cast<int>(rest.size()); ++r) {
    int d = r < info.at ? r : r + index_dims;
    info.base.strides[d] = rest[r];
  }
  return info;
}

NodePtr Graph::reduce(Op op, const NodePtr& x, std::vector<int> axes, bool keepdims, DType dtype,
                      double divisor) {
  VKA_ASSERT(kind(op) == OpKind::kReduce);
  const int ndim = static_cast<int>(x->shape().size());
  VKA_ASSERT(std::is_sorted(axes.begin(), axes.end()) &&
             std::adjacent_find(axes.begin(), axes.end()) == axes.end());
  Shape shape;
  for (int d = 0; d < ndim; ++d) {
    const bool reduced = std::binary_search(axes.begin(), axes.end(), d);
    if (!reduced) shape.push_back(x->shape()[d]);
    if (reduced && keepdims) shape.push_back(1);
  }
  std::shared_ptr<Node> n = new_node();
  n->op_ = op;
  n->dtype_ = dtype;
  n->shape_ = std::move(shape);
  n->inputs_ = {x};
  n->params_ = {Scalar::of_int(keepdims, DType::kInt64), Scalar::of_double(divisor)};
  for (int a : axes) {
    VKA_ASSERT(a >= 0 && a < ndim);
    n->params_.push_back(Scalar::of_int(a, DType::kInt64));
  }
  return intern(std::move(n));
}

ReduceInfo reduce_info(const Node& r) {
  VKA_ASSERT(kind(r.op()) == OpKind::kReduce && r.params().size() >= 2);
  ReduceInfo info{{}, r.params()[0].as_int() != 0, r.params()[1].as_double()};
  for (size_t i = 2; i < r.params().size(); ++i) {
    info.axes.push_back(static_cast<int>(r.params()[i].as_int()));
  }
  return info;
}

NodePtr Graph::matmul(const NodePtr& a, const NodePtr& b, Shape shape, MatmulInfo layout) {
  VKA_ASSERT(a->shape().size() == 3 && b->shape().size() == 3 && a->dtype() == b->dtype() &&
             a->shape()[0] == b->shape()[0] && a->shape()[2] == b->shape()[1] &&
             size(shape) == a->shape()[0] * a->shape()[1] * b->shape()[2]);
  std::shared_ptr<Node> n = new_node();
  n->op_ = Op::kMatmul;
  n->dtype_ = a->dtype();
  n->shape_ = std::move(shape);
  n->inputs_ = {a, b};
  for (int64_t v : {int64_t{layout.a_m_fast}, int64_t{layout.b_n_fast}, layout.epoch}) {
    n->params_.push_back(Scalar::of_int(v, DType::kInt64));
  }
  return intern(std::move(n));
}

MatmulInfo matmul_info(const Node& p) {
  VKA_ASSERT(p.op() == Op::kMatmul && p.params().size() == 3);
  return MatmulInfo{p.params()[0].as_int() != 0, p.params()[1].as_int() != 0,
                    p.params()[2].as_int()};
}

NodePtr Graph::library(std::shared_ptr<const Primitive> primitive, DType dtype, Shape shape,
                       std::vector<NodePtr> inputs) {
  VKA_ASSERT(primitive != nullptr);
  std::shared_ptr<Node> n = new_node();
  n->op_ = Op::kLibrary;
  n->dtype_ = dtype;
  n->shape_ = std::move(shape);
  n->inputs_ = std::move(inputs);
  n->primitive_ = std::move(primitive);
  return intern(std::move(n));
}

}  // namespace vka
