// vka::Array: lazy nodes on a context, views, element assignment, evaluation, in-place ops.
#include "array/array.h"

#include <cmath>
#include <cstring>

#include "array/replicas.h"
#include "array/write.h"
#include "base/errors.h"
#include "device/stream.h"
#include "ir/promotion.h"
#include "ir/value_range.h"
#include "runtime/device_support.h"
#include "runtime/realize.h"

namespace vka {
namespace {

const std::shared_ptr<Context>& context_of(const std::vector<Arg>& args, Op op) {
  const std::shared_ptr<Context>* ctx = nullptr;
  for (const Arg& a : args) {
    if (!a.array()) continue;
    if (ctx && a.array()->context() != *ctx) {
      throw ShapeError("[" + std::string(name(op)) +
                       "] operands live on different contexts; move one with to_device() or "
                       "evaluate it on the other context first");
    }
    ctx = &a.array()->context();
  }
  if (!ctx) throw InternalError("[" + std::string(name(op)) + "] needs at least one array");
  return *ctx;
}

}  // namespace

Array::Array()
    : Array(default_graph().full(Scalar::of_double(0, DType::kFloat32)),
            Context::default_context()) {}

Array::Array(NodePtr node, std::shared_ptr<Context> context)
    : state_(std::make_shared<State>(State{std::move(node), std::move(context)})) {
  VKA_ASSERT(state_->node && state_->context);
  NodePtr& n = state_->node;
  if (n->is_leaf() && n->buffer()->is_storage()) {
    n = default_graph().convert(n, n->dtype(), n->shape());
  }
}

namespace {

// A leaf whose buffer holds its values on every replica (false while writes recorded into it
// wait, array/write.h).
bool is_valid_everywhere(const NodePtr& n) {
  return !n->is_leaf() || device_buffer(*n->buffer())->valid_everywhere();
}

}  // namespace

Array Array::reading(NodePtr leaf, std::shared_ptr<Context> context) {
  VKA_ASSERT(leaf && leaf->is_leaf() && context);
  return Array(std::make_shared<State>(
      State{std::move(leaf), std::move(context), false, false, nullptr, true}));
}

namespace {

// True when every reference to `leaf` other than the one array state holding it comes from
// the input lists of live graph nodes (lazy expressions), not from other arrays.
bool held_only_by_graph(const NodePtr& leaf) {
  if (leaf.use_count() == 1) return true;
  long edges = 0;
  {
    std::vector<NodePtr> live = default_graph().live();
    for (const NodePtr& n : live) {
      for (const NodePtr& in : n->inputs()) edges += in == leaf;
    }
  }
  return leaf.use_count() - edges == 1;
}

}  // namespace

void Array::refresh() const {
  const NodePtr& n = state_->node;
  if (n->is_leaf()) {
    state_->node = default_graph().buffer(n->buffer(), n->dtype(), n->view());
    return;
  }
  // A computed value (pinned, or kept by evaluation) becomes the array's leaf, as eval() makes
  // it; one made on some replicas only is completed from the node on the others.
  if (has_value(*n)) state_->node = substitute_realized({n})[0];
}

bool Array::is_storage() const {
  const NodePtr& n = state_->node;
  return n->is_leaf() && n->buffer()->is_storage();
}

bool Array::owns_buffer() const {
  const NodePtr& n = state_->node;
  return n->is_leaf() && n->buffer().use_count() == 1 && !n->buffer()->has_live_producer() &&
         n->view() == View::contiguous(n->shape()) && held_only_by_graph(n);
}

const NodePtr& Array::storage() const {
  node();  // a fresh leaf after writes
  NodePtr& n = state_->node;
  if (n->is_leaf() && (n->buffer()->is_storage() || state_->in_place)) return n;
  // An evaluated buffer no other array can reach becomes storage as it is. Expressions that
  // read it are fine: writes pin them first (array/write.h).
  if (owns_buffer()) {
    // Storage holds its value on every replica: writes and views never wait on a computation.
    auto buf = device_buffer(*n->buffer());
    for (int r = 0; r < context()->num_replicas(); ++r) buf->ensure_valid(r);
    n->buffer()->mark_storage();
    return n;
  }
  // Otherwise the value is computed (or copied) into a buffer of its own.
  auto ref = allocate_for(context(), dtype(), shape());
  ref->mark_storage();
  NodePtr dest = default_graph().buffer(ref, dtype(), View::contiguous(shape()));
  realize(context(), {n}, std::nullopt, {dest});
  note_values(*n, *ref);
  n = std::move(dest);
  return n;
}

Array Array::view(const View& v, bool writeable) const { return view_as(dtype(), v, writeable); }

Array Array::view_as(DType dtype, const View& v) const { return view_as(dtype, v, true); }

Array Array::view_as(DType dtype, const View& v, bool writeable) const {
  const NodePtr& base = storage();
  const bool w = writeable && is_writeable();
  const std::shared_ptr<State> owner = state_->base ? state_->base : state_;
  return Array(std::make_shared<State>(State{default_graph().buffer(base->buffer(), dtype, v),
                                             context(), w, w, owner, state_->in_place}));
}

void Array::become_view(DType dtype, const View& v) {
  const NodePtr& base = storage();
  state_->node = default_graph().buffer(base->buffer(), dtype, v);
}

std::optional<Array> Array::base() const {
  if (!state_->base) return std::nullopt;
  return Array(state_->base);
}

void Array::set_writeable(bool writeable) {
  if (writeable && !state_->may_write) {
    throw ShapeError("[setflags] cannot set WRITEABLE flag to True of this array");
  }
  state_->writeable = writeable;
}

Array Array::operator[](const Index& index) const {
  const NodePtr& base = storage();
  return view(apply_index(base->view(), index));
}

namespace {

// numpy's conversion of an assigned Python scalar: any cast, but Python ints must fit.
Scalar assigned_scalar(const WeakScalar& w, DType t) {
  // numpy stores any nonzero Python number into a bool array as True.
  if (t == DType::kBool) {
    bool nonzero = w.kind == WeakKind::kInt || w.kind == WeakKind::kBool
                       ? (w.i.magnitude != 0)
                       : (w.c.real() != 0 || w.c.imag() != 0);
    return Scalar::of_int(nonzero ? 1 : 0, DType::kBool);
  }
  if (w.kind == WeakKind::kInt) check_weak_int_fits("setitem", w.i, t);
  if (w.kind == WeakKind::kComplex && !is_complex(t) && w.c.imag() != 0) {
    throw DTypeError("[setitem] cannot assign the complex value " +
                     Scalar::of_complex(w.c, DType::kComplex128).to_string() + " to a " +
                     std::string(name(t)) + " array");
  }
  return w.to(t);
}

}  // namespace

void Array::set(const Index& index, const Arg& value) const {
  if (value.array() && value.array()->context() != context()) {
    throw ShapeError("[setitem] the value lives on a different context than the array");
  }
  set_node(index, value.array() ? value.array()->node()
                                : default_graph().full(assigned_scalar(value.weak(), dtype())));
}

void Array::set(const Index& index, Array&& value) const {
  if (value.context() != context()) {
    throw ShapeError("[setitem] the value lives on a different context than the array");
  }
  set_node(index, value.release());
}

void Array::set_node(const Index& index, NodePtr v) const {
  if (!is_writeable()) throw ShapeError("[setitem] assignment destination is read-only");
  // Check everything before anything changes: the index, then the value's shape.
  const View target = apply_index(View::contiguous(shape()), index);
  // numpy drops leading extent-1 axes of a value with more axes than the selection.
  while (v->shape().size() > target.shape.size() && v->shape()[0] == 1) {
    Shape s(v->shape().begin() + 1, v->shape().end());
    if (v->is_constant()) {
      v = default_graph().full(v->params()[0], s);
    } else {
      Array tmp(std::move(v), context());
      v = reshape(tmp, s).node();
    }
  }
  if (!can_broadcast_to(v->shape(), target.shape)) {
    throw ShapeError("[setitem] could not broadcast input array from shape " +
                     vka::to_string(v->shape()) + " into shape " + vka::to_string(target.shape));
  }
  require_dtype(*context(), dtype(), "setitem");
  // The whole of a value array: rebinding is the write (and stays lazy).
  if (!is_storage() && target == View::contiguous(shape())) {
    NodePtr c = default_graph().convert(v, dtype(), shape());
    v.reset();
    state_->node = std::move(c);
    return;
  }
  const NodePtr& base = storage();
  NodePtr dest = default_graph().buffer(base->buffer(), dtype(), apply_index(base->view(), index));
  NodePtr c = default_graph().convert(v, dtype(), dest->shape());
  v.reset();
  write_into(context(), dest, std::move(c));
}

NodePtr Array::release() {
  node();  // a fresh leaf after writes
  if (state_.use_count() != 1) return state_->node;
  NodePtr out = std::move(state_->node);
  state_->node = default_graph().full(Scalar::of_int(0, out->dtype()), out->shape());
  return out;
}

Array Array::from_host(const void* data, const Shape& shape, DType dtype,
                       std::shared_ptr<Context> context) {
  for (int64_t d : shape) {
    if (d < 0) throw ShapeError("[asarray] negative dimension " + std::to_string(d));
  }
  require_dtype(*context, dtype, "asarray");
  auto ref = allocate_for(context, dtype, shape, "asarray");
  const uint64_t nbytes = static_cast<uint64_t>(vka::size(shape)) * vka::itemsize(dtype);
  device_buffer(*ref)->write(data, 0, nbytes, std::nullopt);
  return Array(default_graph().buffer(ref, dtype, View::contiguous(shape)), std::move(context));
}

Array& Array::eval(std::optional<int> replica) {
  if (!replica) replica = current_replica();
  if (replica) context()->replica(*replica);  // IndexError before any work
  // realize() also makes an evaluated buffer valid where it was computed on other replicas.
  // A storage leaf may hold recorded writes (array/write.h): evaluating runs them.
  if (is_lazy() || context()->num_replicas() > 1 || !is_valid_everywhere(node())) {
    state_->node = realize(context(), {node()}, replica)[0];
  }
  return *this;
}

void eval(const std::vector<Array*>& arrays) { eval_on(arrays, std::nullopt); }

void eval_on(const std::vector<Array*>& arrays, std::optional<int> replica) {
  if (!replica) replica = current_replica();
  std::vector<NodePtr> lazy;
  std::vector<Array*> owners;
  for (Array* a : arrays) {
    if (replica) a->context()->replica(*replica);  // IndexError before any work
    if (!a->is_lazy() && a->context()->num_replicas() == 1 && is_valid_everywhere(a->node())) {
      continue;
    }
    if (!owners.empty() && a->context() != owners[0]->context()) {
      throw ShapeError("[eval] arrays live on different contexts");
    }
    lazy.push_back(a->node());
    owners.push_back(a);
  }
  if (lazy.empty()) return;
  std::vector<NodePtr> leaves = realize(owners[0]->context(), lazy, replica);
  for (size_t i = 0; i < owners.size(); ++i) {
    if (owners[i]->is_lazy()) owners[i]->assign(leaves[i]);
  }
}

Array Array::astype(DType t) const {
  require_dtype(*context(), t, "astype");
  return Array(default_graph().astype(node(), t), context());  // storage leaves become copies
}

void Array::assign(NodePtr node) {
  VKA_ASSERT(node->shape() == shape());
  if (!is_writeable()) throw ShapeError("[assign] assignment destination is read-only");
  if (!is_storage()) {
    if (node->is_leaf() && node->buffer()->is_storage()) {
      node = default_graph().convert(node, node->dtype(), node->shape());
    }
    state_->node =
        node->dtype() == dtype() ? std::move(node) : default_graph().astype(node, dtype());
    return;
  }
  NodePtr c = default_graph().convert(node, dtype(), shape());
  node.reset();
  write_into(context(), this->node(), std::move(c));
}

void Array::inplace(Op op, const Arg& o) {
  Array result = apply(op, {*this, o});
  const DType t = dtype();
  if (result.dtype() != t && !can_cast(result.dtype(), t, Casting::kSameKind)) {
    throw DTypeError("[" + std::string(name(op)) + "] cannot cast the result from " +
                     std::string(name(result.dtype())) + " to " + std::string(name(t)) +
                     " in place (numpy's same_kind rule)");
  }
  if (result.shape() != shape()) {
    throw ShapeError("[" + std::string(name(op)) +
                     "] non-broadcastable output operand with shape " + to_string(shape()) +
                     " doesn't match the broadcast shape " + to_string(result.shape()));
  }
  NodePtr value = result.release();
  assign(std::move(value));
}

Array& Array::operator+=(const Arg& o) {
  inplace(Op::kAdd, o);
  return *this;
}
Array& Array::operator-=(const Arg& o) {
  inplace(Op::kSubtract, o);
  return *this;
}
Array& Array::operator*=(const Arg& o) {
  inplace(Op::kMultiply, o);
  return *this;
}
Array& Array::operator/=(const Arg& o) {
  inplace(Op::kDivide, o);
  return *this;
}

Array apply(Op op, const std::vector<Arg>& args) {
  const std::shared_ptr<Context>& ctx = context_of(args, op);
  std::vector<Operand> operands;
  for (const Arg& a : args) {
    if (a.array()) {
      operands.emplace_back(a.array()->node());
    } else {
      operands.emplace_back(a.weak());
    }
  }
  NodePtr node = apply(default_graph(), op, operands);
  require_dtype(*ctx, node->dtype(), std::string(name(op)));
  return Array(std::move(node), ctx);
}

}  // namespace vka
