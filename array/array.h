// vka::Array: the lazy array. Operators and functions build graph nodes; nothing runs on the
// device until a value is needed (read, to_host, eval); then the whole expression becomes as
// few generated kernels as possible (runtime/realize.h).
#pragma once

#include <complex>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "device/context.h"
#include "ir/graph.h"
#include "ir/index.h"
#include "ir/node_ops.h"

namespace vka {

class Arg;

// Values and views. An array is a value (a lazy expression, or a buffer nobody else sees) until
// a view is taken of it or part of it is written; then it becomes storage: a buffer that
// arrays view and writes change in place, as numpy's arrays and views share memory. Taking a
// view computes the array first; a view costs no copy and no device work, and kernels read
// it through its strides.
class Array {
 public:
  // A 0-d float32 zero on the default context (so that `Array a;` is a valid array).
  Array();
  // Wraps a node; every array operand of one expression must share `context`. A leaf over
  // storage is wrapped as a copy: the new array is a value, not a view.
  Array(NodePtr node, std::shared_ptr<Context> context);

  // An array reading `leaf` as it is, a view of storage included, not writeable; its views
  // (reshape, transposes, indexing) read the same buffer in place: for code that consumes a
  // value at once (a library node's evaluation, array/library_node.h; the blocks the blocked
  // factorizations multiply, array/linalg/launch.h).
  static Array reading(NodePtr leaf, std::shared_ptr<Context> context);

  // Uploads host data (C order) to every replica.
  static Array from_host(const void* data, const Shape& shape, DType dtype,
                         std::shared_ptr<Context> context = Context::default_context());

  const Shape& shape() const { return node()->shape(); }
  DType dtype() const { return node()->dtype(); }
  int ndim() const { return static_cast<int>(shape().size()); }
  int64_t size() const { return vka::size(shape()); }
  std::size_t itemsize() const { return vka::itemsize(dtype()); }
  uint64_t nbytes() const { return static_cast<uint64_t>(size()) * itemsize(); }
  const std::shared_ptr<Context>& context() const { return state_->context; }
  // The value's node. A view made before a write into its buffer gets a fresh leaf (the
  // buffer's new version), so new expressions see the write. A computed node whose value is
  // known (pinned before a write changed what it reads, or kept by an evaluation) is replaced
  // by a leaf of that value, so new expressions do not hold its inputs: a recurrence
  // (`beta = f(alpha, beta)` in a loop) would otherwise keep every earlier step alive, and
  // writes walk what is alive.
  const NodePtr& node() const {
    const Node& n = *state_->node;
    if (n.is_stale_leaf() || (n.was_realized() && !n.is_leaf())) refresh();
    return state_->node;
  }
  // True until the value has been computed (or when it was uploaded, false from the start).
  bool is_lazy() const { return !state_->node->is_leaf(); }

  // Computes the value (on every replica, or the one named; unnamed inside a ReplicaScope, the
  // scope's) and keeps it; returns *this. A value computed earlier on other replicas only is
  // completed where it is missing.
  Array& eval(std::optional<int> replica = std::nullopt);
  // Downloads replica `replica` in C order; `nbytes` must equal this->nbytes().
  void read(void* out, uint64_t nbytes, int replica = 0) const;
  template <typename T>
  std::vector<T> to_vector(int replica = 0) const {
    check_host_type(dtype_of_v<T>);
    std::vector<T> out(static_cast<size_t>(size()));
    read(out.data(), out.size() * sizeof(T), replica);
    return out;
  }
  // Downloads into an xtensor array (defined in array/xtensor.h, which callers include).
  template <typename T>
  auto to_xtensor(int replica = 0) const;
  // Replaces the contents with host data of this shape and dtype: every replica, or one.
  void write(const void* data, uint64_t nbytes, std::optional<int> replica = std::nullopt);

  Array astype(DType dtype) const;

  // numpy's basic indexing, a[1, 2:5, ..., newaxis]: a view of this array (which becomes
  // storage). `index` items: integers, range(start, stop, step), all(), newaxis, ellipsis.
  Array operator[](const Index& index) const;
  // The same selection as something to assign to, xtensor's view style:
  //   a.at({range(1, -1), all()}) = 0.5 * (b + c);   a.at({0}) += 1;
  class Selection at(Index index) const;
  // numpy's a[index] = value, at once: value is broadcast to the selection and converted to
  // this dtype as numpy's assignment converts (any cast; Python ints must fit: OverflowError).
  // Other views of the buffer see the change; expressions made earlier keep their values.
  void set(const Index& index, const Arg& value) const;
  // A temporary value (a[k] = b[k] * 2): nothing else holds it, so when it reads this buffer
  // only at the written elements the write stays one kernel.
  void set(const Index& index, Array&& value) const;
  // Every element: a[...] = value.
  void fill(const Arg& value) const { set({ellipsis}, value); }

  // A leaf over a storage buffer: views share it, writes change it in place.
  bool is_storage() const;
  // False for read-only views (broadcast_to, diagonal), as numpy's flags.writeable.
  bool is_writeable() const { return state_->writeable; }
  // This array as storage (computing it, and copying a buffer something else shares): the
  // leaf over the buffer and this array's view of it. Used by the view functions.
  const NodePtr& storage() const;
  // A new array viewing this array's storage through `view` (elements of the buffer).
  Array view(const View& view, bool writeable = true) const;
  // The same as `dtype` elements (numpy's view(dtype), ndarray(buffer=...)): `view` counts
  // in elements of `dtype`, and the caller has checked that it lies in this array's bytes.
  Array view_as(DType dtype, const View& view) const;
  // This array (every copy of this Array object) becomes the view `view`, as `dtype`, of its
  // own storage: numpy's assignments to a.shape and a.dtype. Its base stays what it was.
  void become_view(DType dtype, const View& view);
  // This array (every copy of this Array object) takes `other`'s value, shape, dtype and
  // flags: numpy's in-place resize and __setstate__, which replace an array's memory.
  void replace(const Array& other) { *state_ = *other.state_; }
  // numpy's base: the array whose storage a view was taken from (the first owner, as numpy
  // collapses chains of views); nullopt for an array that owns its values.
  std::optional<Array> base() const;
  // numpy's setflags(write=): false always allowed; true only for arrays made writeable
  // (not read-only views: broadcast_to, diagonal). ShapeError otherwise.
  void set_writeable(bool writeable);

  // In place (numpy's `a += b`): the array, and every copy of this Array object, takes the
  // new value; the result must cast back to this dtype under numpy's same_kind rule.
  Array& operator+=(const Arg& o);
  Array& operator-=(const Arg& o);
  Array& operator*=(const Arg& o);
  Array& operator/=(const Arg& o);

  // Gives this array (and its copies) the value `node`, which must have its shape: a value
  // array is rebound to it (lazily), a storage array is written in place at once. Used by
  // in-place ops and `out=`; `node` is converted to this dtype as assignment converts.
  void assign(NodePtr node);

  // The node of a temporary: moved out when this is the only Array sharing the state (the
  // array is left holding a zero constant), copied otherwise. Lets a write see that nothing
  // else holds the value it computes.
  NodePtr release();
  // True when no other Array object shares this one's state (C++ copies share it).
  bool is_only_handle() const { return state_.use_count() == 1; }

 private:
  Array view_as(DType dtype, const View& view, bool writeable) const;
  void check_host_type(DType requested) const;
  void inplace(Op op, const Arg& o);
  void set_node(const Index& index, NodePtr value) const;
  void refresh() const;
  // A leaf over a whole buffer that no other array, and no computed expression, holds.
  bool owns_buffer() const;

  struct State {
    NodePtr node;
    std::shared_ptr<Context> context;
    bool writeable = true;
    // What setflags(write=True) may restore: false for views made read-only.
    bool may_write = true;
    // The owner of the storage a view was taken from (numpy's base); null for an owner.
    std::shared_ptr<State> base;
    // An array made by reading(): it and its views read the leaf's buffer as it is, storage or
    // not, never through a copy.
    bool in_place = false;
  };
  explicit Array(std::shared_ptr<State> state) : state_(std::move(state)) {}
  // Copies of an Array share one State, like Python names bound to one numpy array.
  std::shared_ptr<State> state_;
};

// A basic-indexing selection of an array (Array::at): assigning to it writes the selected
// elements (Array::set), compound assignment updates them in place, and it converts to the
// view. Like xtensor's views, keep it in `auto` only while the array it selects from lives.
class Selection {
 public:
  Selection(Array base, Index index) : base_(std::move(base)), index_(std::move(index)) {}
  operator Array() const { return base_[index_]; }  // NOLINT: implicit, the view
  Array view() const { return base_[index_]; }
  Selection& operator=(const Arg& value) {
    base_.set(index_, value);
    return *this;
  }
  Selection& operator=(Array&& value) {
    base_.set(index_, std::move(value));
    return *this;
  }
  Selection& operator=(const Selection& o) { return *this = o.view(); }
  Selection& operator+=(const Arg& v) { return update(&Array::operator+=, v); }
  Selection& operator-=(const Arg& v) { return update(&Array::operator-=, v); }
  Selection& operator*=(const Arg& v) { return update(&Array::operator*=, v); }
  Selection& operator/=(const Arg& v) { return update(&Array::operator/=, v); }

 private:
  Selection& update(Array& (Array::*op)(const Arg&), const Arg& v) {
    Array selected = view();  // a view: the in-place op writes the selected elements
    (selected.*op)(v);
    return *this;
  }
  Array base_;
  Index index_;
};

inline Selection Array::at(Index index) const { return Selection(*this, std::move(index)); }

// Evaluates several arrays together: one schedule, so they share kernels where possible.
void eval(const std::vector<Array*>& arrays);
// The same on one replica only (nullopt: every replica, or the ReplicaScope's).
void eval_on(const std::vector<Array*>& arrays, std::optional<int> replica);
template <typename... A>
void eval(A&... arrays) {
  eval(std::vector<Array*>{&arrays...});
}

// An operand: an Array, or a Python-like scalar, which is weak (NEP 50): `a * 2.0` keeps a's
// float32, `a + 1` keeps a's int8.
class Arg {
 public:
  Arg(const Array& a) : array_(&a) {}                 // NOLINT: implicit, like numpy's operands
  Arg(double v) : weak_(WeakScalar::of_float(v)) {}   // NOLINT
  Arg(float v) : weak_(WeakScalar::of_float(v)) {}    // NOLINT
  Arg(int v) : weak_(WeakScalar::of_int(v)) {}        // NOLINT
  Arg(int64_t v) : weak_(WeakScalar::of_int(v)) {}    // NOLINT
  Arg(uint64_t v) : weak_(WeakScalar::of_uint(v)) {}  // NOLINT
  Arg(bool v) : weak_(WeakScalar::of_bool(v)) {}      // NOLINT
  Arg(std::complex<double> v) : weak_(WeakScalar::of_complex(v)) {}  // NOLINT
  explicit Arg(const WeakScalar& w) : weak_(w) {}
  const Array* array() const { return array_; }
  const WeakScalar& weak() const { return weak_; }

 private:
  const Array* array_ = nullptr;
  WeakScalar weak_;
};

// op(operands...) with numpy 2 semantics (ir/node_ops.h); at least one operand is an Array.
Array apply(Op op, const std::vector<Arg>& operands);

// Creation, computed on the device (never uploaded).
Array full(const Shape& shape, Scalar value,
           std::shared_ptr<Context> context = Context::default_context());
Array zeros(const Shape& shape, DType dtype = DType::kFloat64,
            std::shared_ptr<Context> context = Context::default_context());
Array ones(const Shape& shape, DType dtype = DType::kFloat64,
           std::shared_ptr<Context> context = Context::default_context());
Array arange(double start, double stop, double step = 1, DType dtype = DType::kFloat64,
             std::shared_ptr<Context> context = Context::default_context());
Array linspace(double start, double stop, int64_t num = 50, bool endpoint = true,
               DType dtype = DType::kFloat64,
               std::shared_ptr<Context> context = Context::default_context());
Array eye(int64_t n, std::optional<int64_t> m = std::nullopt, int64_t k = 0,
          DType dtype = DType::kFloat64,
          std::shared_ptr<Context> context = Context::default_context());

}  // namespace vka

#include "array/cumulative.h"  // cumsum, cumprod, cummax, diff, ...
#include "array/functions.h"  // the operators and numpy-named functions
#include "array/gather.h"     // integer-array indexing, take, take_along_axis
#include "array/matmul.h"      // matmul and the GEMM tiling
#include "array/nonzero.h"    // nonzero, boolean-mask reads, compress, extract
#include "array/views.h"      // reshape, transpose, broadcast_to, ... as views
