// The lazy expression graph: immutable nodes, created only through a hash-consing factory so
// identical subexpressions are one node.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/effects.h"
#include "ir/dtype.h"
#include "ir/intern_table.h"
#include "ir/ops.h"
#include "ir/scalar.h"
#include "ir/shape.h"
#include "ir/view.h"

namespace vka {

// A realized buffer as the graph sees it: an identity plus an opaque payload (the device
// layer's buffer object). The graph never looks inside; only leaves own a reference, so a
// buffer lives exactly as long as some array or some live graph node needs it.
class Node;
using NodePtr = std::shared_ptr<const Node>;

// Bounds of integer values (ir/value_range.h computes them): every value lies in [lo, hi].
// `affine`: moreover, the value at flat C-order position p is a + b * p (an arange and what
// shifts and scales it elementwise), so a slice of a buffer holding them knows its own bounds,
// not only the whole buffer's.
struct ValueRange {
  int64_t lo = 0;
  int64_t hi = 0;
  bool affine = false;
  int64_t a = 0;
  int64_t b = 0;
};

class BufferRef {
 public:
  explicit BufferRef(std::shared_ptr<void> payload = nullptr);
  uint64_t id() const { return id_; }
  const std::shared_ptr<void>& payload() const { return payload_; }

  // Storage: a buffer that arrays view and write in place (array/array.h). Set once, when an
  // array first shares or writes its buffer; never unset. Buffers without it are immutable.
  bool is_storage() const { return storage_.load(std::memory_order_relaxed); }
  void mark_storage() { storage_.store(true, std::memory_order_relaxed); }
  // Writes so far: a leaf records the version it was made at, so the same view before and
  // after a write are different nodes (and a value computed before never stands for one after).
  uint64_t version() const { return version_.load(std::memory_order_relaxed); }
  void bump_version() {
    note_effect();
    version_.fetch_add(1, std::memory_order_relaxed);
  }

  // The nodes whose computed value this buffer holds (evaluation records them): while one of
  // them lives, some expression may still substitute this buffer for it.
  void add_producer(const NodePtr& n);
  bool has_live_producer() const;

  // The nodes made with a leaf over this buffer as an input (the graph records them): a
  // write into the buffer has lazy readers to look after only while one of them lives.
  void add_reader(const NodePtr& n);
  // Those of them still alive (the others are dropped).
  std::vector<NodePtr> live_readers() const;

  // What is known about the values the buffer holds (ir/value_range.h), recorded with the
  // version it holds for and the dtype it was computed in: a later write, or a view in
  // another dtype, knows nothing.
  struct KnownValues {
    uint64_t version = 0;
    DType dtype = DType::kInt64;
    ValueRange range;
  };
  void set_known_values(const KnownValues& k);
  std::optional<KnownValues> known_values() const;

 private:
  uint64_t id_;
  std::shared_ptr<void> payload_;
  std::atomic<bool> storage_{false};
  std::atomic<uint64_t> version_{0};
  mutable std::mutex mu_;
  std::vector<std::weak_ptr<const Node>> producers_;
  mutable std::vector<std::weak_ptr<const Node>> readers_;
  std::size_t purge_readers_at_ = 64;
  std::optional<KnownValues> known_;
};

// A library operation (a sort, a scan) as a graph node's computation: evaluation
// (runtime/realize.h) computes the node's inputs, then asks the Primitive for its value. The
// layers that know the library kernels define Primitives (array/library_node.h); the graph
// and the scheduler see an opaque op. Nodes with different Primitive objects are different
// nodes.
class Primitive {
 public:
  virtual ~Primitive() = default;
  // The operation's name, for debug printing: "cumsum".
  virtual std::string name() const = 0;
  // The node's value from its inputs' values (leaves, in the order of the node's inputs): a
  // buffer holding the node's shape and dtype in C order from its start.
  virtual std::shared_ptr<BufferRef> evaluate(const std::vector<NodePtr>& inputs) const = 0;
};

class Node {
 public:
  Op op() const { return op_; }
  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  const std::vector<NodePtr>& inputs() const { return inputs_; }
  // Parameters as values (see source_param_dtypes); empty for elementwise ops.
  const std::vector<Scalar>& params() const { return params_; }
  // Leaves only: the buffer and how this array sees it.
  const std::shared_ptr<BufferRef>& buffer() const { return buffer_; }
  const View& view() const { return view_; }
  // Leaves only: the buffer's version when the leaf was made (BufferRef::version).
  uint64_t version() const { return version_; }
  // Library nodes only (Op::kLibrary): what computes the value.
  const std::shared_ptr<const Primitive>& primitive() const { return primitive_; }
  // A leaf made before the latest write into its buffer.
  bool is_stale_leaf() const { return buffer_ && buffer_->version() != version_; }
  // A process-unique number, for debug printing ("%17").
  uint64_t id() const { return id_; }
  std::size_t hash() const { return hash_; }
  bool is_leaf() const { return op_ == Op::kBuffer; }
  // A constant with one value everywhere (full): kernels read it from push constants.
  bool is_constant() const { return op_ == Op::kFull; }
  // One line: "%5 = add float32 (3, 4) %3 %4".
  std::string to_string() const;

  // Set once this node's value has been computed into a buffer (runtime/realize.cc keeps the
  // buffers): evaluation looks the node up only when this is set. Not part of the structure.
  bool was_realized() const { return realized_.load(std::memory_order_relaxed); }
  void mark_realized() const { realized_.store(true, std::memory_order_relaxed); }
  // A value this node keeps for as long as it lives: set when a write into a storage buffer
  // is about to change what the node reads (array/write.h), so it still gives the old value.
  std::shared_ptr<BufferRef> pinned() const { return std::atomic_load(&pinned_); }
  void pin(std::shared_ptr<BufferRef> value) const {
    std::atomic_store(&pinned_, std::move(value));
    mark_realized();
  }

  // Releases the inputs without recursion: a lazy chain (x = x * a + b in a loop) can be
  // hundreds of thousands of nodes long, deeper than any stack.
  ~Node();

 private:
  friend class Graph;

 protected:
  Node() = default;

 private:
  bool same_structure(const Node& o) const;

  Op op_ = Op::kBuffer;
  DType dtype_ = DType::kFloat32;
  Shape shape_;
  std::vector<NodePtr> inputs_;
  std::vector<Scalar> params_;
  std::shared_ptr<BufferRef> buffer_;
  View view_;
  std::shared_ptr<const Primitive> primitive_;
  uint64_t version_ = 0;
  uint64_t id_ = 0;
  std::size_t hash_ = 0;
  mutable std::atomic<bool> realized_{false};
  mutable std::shared_ptr<BufferRef> pinned_;
};

// The parameter dtypes a source op's node carries (and the kernel reads from push constants):
// full {value}; arange {start, step}; linspace {start, step, stop, last} computed in
// linspace_compute_dtype (ops.h), `last` = index that is set to `stop` exactly (-1: none, when
// endpoint=False); eye {k, columns} as int64; random_bits/random_below {key, counter,
// layout or bound} as uint64 (ops.def).
std::vector<DType> source_param_dtypes(Op op, DType dtype);

// A gather node's parameters ({axes..., at}) and, over the node's shape, the view x's elements
// are read through before the index terms are added (0 strides on the index axes).
struct GatherInfo {
  std::vector<int64_t> axes;
  int64_t at;
  View base;
};
GatherInfo gather_info(const Node& gather);

// A reduction node's parameters ({keepdims, divisor, axes...}): the input's axes it reduces
// (sorted, distinct), whether they stay as extent-1 axes of the result, and mean's divisor.
struct ReduceInfo {
  std::vector<int> axes;
  bool keepdims;
  double divisor;
};
ReduceInfo reduce_info(const Node& reduction);

// What a matmul node says about its operands (its parameters): the stride-1 axis of each, which
// the tile loaders walk fastest (A: m when A is a transposed view; B: n unless B is
// transposed). The tiling is the device's, chosen when the product is scheduled
// (schedule/schedule.h: Limits::gemm_tiling).
struct MatmulInfo {
  bool a_m_fast;
  bool b_n_fast;
  // Products built under different GEMM configurations are different nodes, as writes make a
  // buffer's later leaves different (runtime/gemm.h: gemm_config_epoch).
  int64_t epoch = 0;
};
MatmulInfo matmul_info(const Node& product);

// Creates nodes. Identical requests return the same node while it is alive: the intern table
// holds weak pointers only, so the factory never keeps a node (or a leaf's buffer) alive.
// Thread-safe.
class Graph {
 public:
  NodePtr buffer(std::shared_ptr<BufferRef> buf, DType dtype, View view);
  NodePtr source(Op op, DType dtype, Shape shape, std::vector<Scalar> params);
  NodePtr full(Scalar value, Shape shape = {});
  // A raw elementwise node: inputs must already be converted to the op's compute dtype
  // (node_ops.h does promotion); shapes are broadcast here, with the op in any error.
  NodePtr elementwise(Op op, DType dtype, std::vector<NodePtr> inputs);
  NodePtr astype(const NodePtr& x, DType dtype);
  // x converted to `dtype` and broadcast to `shape`, always as a computed node (a copy even
  // when nothing changes): what writes and copies of storage arrays are made of.
  NodePtr convert(const NodePtr& x, DType dtype, const Shape& shape);
  // x read at integer index arrays (gather). `axes`: the distinct axes of x the indices
  // address, one per index array. `at` >= 0: numpy's advanced-indexing layout, the index
  // shape `index_shape` replacing the indexed axes at position `at` of x's other axes; each
  // index array must already broadcast (right-aligned) to the result there (trailing extent-1
  // axes place it). `at` == kAlong: take_along_axis, one index array of the result's rank.
  // Indices may be negative (from the end); the kernel clamps into range, so callers check
  // bounds first (array/gather.h).
  static constexpr int64_t kAlong = -1;
  NodePtr gather(const NodePtr& x, std::vector<NodePtr> indices, const std::vector<int64_t>& axes,
                 int64_t at, const Shape& index_shape);
  // op (a kReduce row of ops.def) of x over `axes` (normalized, sorted, distinct), with the
  // result in `dtype`; x must already be in the accumulation dtype. `divisor`: kMean's.
  NodePtr reduce(Op op, const NodePtr& x, std::vector<int> axes, bool keepdims, DType dtype,
                 double divisor = 1);
  // The batched product a @ b (kMatmul) of 3-d operands (batch, m, k) and (batch, k, n), both
  // of one dtype, whose stride-1 axes `layout` names; the result has `shape`, whose elements
  // in C order are the (batch, m, n) products in C order.
  NodePtr matmul(const NodePtr& a, const NodePtr& b, Shape shape, MatmulInfo layout);
  // A library operation's node (kLibrary): `primitive` computes its value, of `dtype` and
  // `shape`, from the values of `inputs`. Each Primitive object makes one node.
  NodePtr library(std::shared_ptr<const Primitive> primitive, DType dtype, Shape shape,
                  std::vector<NodePtr> inputs);
  // A node like `n` (op, dtype, shape, params, primitive) over other inputs.
  NodePtr with_inputs(const Node& n, std::vector<NodePtr> inputs);

  // Every live node (for writes, which look for expressions that read a storage buffer).
  std::vector<NodePtr> live();

  // Number of live interned nodes (purges dead entries first); for tests and VKA_DEBUG.
  std::size_t live_nodes();

 private:
  static std::shared_ptr<Node> new_node();
  // The live source node (no inputs, no buffer) of this structure, or null.
  NodePtr find_source(std::size_t hash, Op op, DType dtype, const Shape& shape,
                      const std::vector<Scalar>& params);
  NodePtr intern(std::shared_ptr<Node> n);

  std::mutex mu_;
  InternTable table_;
};

// The process-wide factory arrays use.
Graph& default_graph();

// `n` over the replacements of its inputs, `replacement(input)` (a NodePtr: the input itself
// where unchanged): `n` when none changed, else a node like it (Graph::with_inputs). Graph walks
// that substitute nodes (evaluation's values computed earlier, recorded writes) rebuild with it.
template <class Replacement>
NodePtr with_replaced_inputs(const NodePtr& n, const Replacement& replacement) {
  std::vector<NodePtr> inputs;
  inputs.reserve(n->inputs().size());
  bool changed = false;
  for (const NodePtr& in : n->inputs()) {
    inputs.push_back(replacement(in.get()));
    changed = changed || inputs.back() != in;
  }
  return changed ? default_graph().with_inputs(*n, std::move(inputs)) : n;
}
// The same with the replacements in a map holding every input.
NodePtr with_replaced_inputs(const NodePtr& n,
                             const std::unordered_map<const Node*, NodePtr>& replaced);

// Every node reachable from `roots`, inputs before users, each once. With `stop`, a node for
// which it returns true (asked once per node) is listed but its inputs are not walked through
// it: evaluation stops at values computed earlier.
std::vector<NodePtr> topological_order(const std::vector<NodePtr>& roots,
                                       const std::function<bool(const Node&)>& stop = nullptr);

// The whole graph under `roots`, one node per line (VKA_DEBUG and test failure messages).
std::string to_string(const std::vector<NodePtr>& roots);

}  // namespace vka
