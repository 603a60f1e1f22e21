// Node construction and hash-consing (gathers, reductions, products: graph_nodes.cc).
#include "ir/graph.h"

#include <algorithm>
#include <functional>

#include "base/errors.h"
#include "base/pointer_index.h"

namespace vka {
namespace {

std::atomic<uint64_t> g_next_buffer_id{1};
std::atomic<uint64_t> g_next_node_id{1};

void mix(std::size_t& h, std::size_t v) { h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); }

std::size_t structural_hash(Op op, DType dtype, const Shape& shape,
                            const std::vector<NodePtr>& inputs, const std::vector<Scalar>& params,
                            const BufferRef* buf, const View& view, const Primitive* primitive) {
  std::size_t h = static_cast<std::size_t>(op) * 131 + static_cast<std::size_t>(dtype);
  if (primitive) mix(h, std::hash<const Primitive*>()(primitive));
  for (int64_t d : shape) mix(h, std::hash<int64_t>()(d));
  // Inputs are interned, so their identity is their structure: hash the pointer's node hash
  // and rely on pointer equality in same_structure().
  for (const NodePtr& in : inputs) mix(h, in->hash());
  for (const Scalar& s : params) mix(h, s.hash());
  if (buf) {
    mix(h, std::hash<uint64_t>()(buf->id()));
    mix(h, std::hash<uint64_t>()(buf->version()));
    mix(h, std::hash<int64_t>()(view.offset));
    for (int64_t s : view.strides) mix(h, std::hash<int64_t>()(s));
  }
  return h;
}

}  // namespace

BufferRef::BufferRef(std::shared_ptr<void> payload)
    : id_(g_next_buffer_id.fetch_add(1)), payload_(std::move(payload)) {}

void BufferRef::add_producer(const NodePtr& n) {
  std::lock_guard<std::mutex> lock(mu_);
  producers_.push_back(n);
}

bool BufferRef::has_live_producer() const {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& p : producers_) {
    if (!p.expired()) return true;
  }
  return false;
}

void BufferRef::set_known_values(const KnownValues& k) {
  std::lock_guard<std::mutex> lock(mu_);
  known_ = k;
}

std::optional<BufferRef::KnownValues> BufferRef::known_values() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (!known_ || known_->version != version()) return std::nullopt;
  return known_;
}

void BufferRef::add_reader(const NodePtr& n) {
  std::lock_guard<std::mutex> lock(mu_);
  if (readers_.size() >= purge_readers_at_) {
    readers_.erase(std::remove_if(readers_.begin(), readers_.end(),
                                  [](const std::weak_ptr<const Node>& w) { return w.expired(); }),
                   readers_.end());
    purge_readers_at_ = std::max<std::size_t>(64, readers_.size() * 2);
  }
  readers_.push_back(n);
}

std::vector<NodePtr> BufferRef::live_readers() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<NodePtr> out;
  auto kept = readers_.begin();
  for (auto it = readers_.begin(); it != readers_.end(); ++it) {
    NodePtr n = it->lock();
    if (!n) continue;
    out.push_back(std::move(n));
    if (kept != it) *kept = std::move(*it);
    ++kept;
  }
  readers_.erase(kept, readers_.end());
  return out;
}

bool Node::same_structure(const Node& o) const {
  if (op_ != o.op_ || dtype_ != o.dtype_ || shape_ != o.shape_ || params_ != o.params_ ||
      inputs_.size() != o.inputs_.size() || buffer_ != o.buffer_ || view_ != o.view_ ||
      version_ != o.version_ || primitive_ != o.primitive_) {
    return false;
  }
  for (std::size_t i = 0; i < inputs_.size(); ++i) {
    if (inputs_[i] != o.inputs_[i]) return false;
  }
  return true;
}

std::string Node::to_string() const {
  std::string s = "%" + std::to_string(id_) + " = " + std::string(name(op_)) + " " +
                  std::string(name(dtype_)) + " " + vka::to_string(shape_);
  if (primitive_) s += " " + primitive_->name();
  for (const NodePtr& in : inputs_) s += " %" + std::to_string(in->id());
  for (const Scalar& p : params_) s += " " + p.to_string();
  if (buffer_) s += " buffer#" + std::to_string(buffer_->id()) + " " + view_.to_string();
  return s;
}

std::vector<DType> source_param_dtypes(Op op, DType dtype) {
  // Not a switch: only 7 of the ops are sources, and a switch over Op must list them all.
  if (op == Op::kFull) return {dtype};
  if (op == Op::kArange) return {dtype, dtype};
  if (op == Op::kLinspace) {
    DType c = linspace_compute_dtype(dtype);
    return {c, c, c, DType::kInt64};
  }
  if (op == Op::kEye) return {DType::kInt64, DType::kInt64};
  if (op == Op::kRandomBits || op == Op::kRandomBelow || op == Op::kRandomNormal) {
    return {DType::kUInt64, DType::kUInt64, DType::kUInt64};
  }
  internal_error("source_param_dtypes of a non-source op", __FILE__, __LINE__);
}

// A node and its reference count in one allocation.
struct AllocatedNode final : Node {};

std::shared_ptr<Node> Graph::new_node() { return std::make_shared<AllocatedNode>(); }

NodePtr Graph::find_source(std::size_t hash, Op op, DType dtype, const Shape& shape,
                           const std::vector<Scalar>& params) {
  std::lock_guard<std::mutex> lock(mu_);
  return table_.find_live(hash, [&](const Node& e) {
    return e.op() == op && e.dtype() == dtype && e.shape() == shape && e.params() == params &&
           e.inputs().empty() && !e.buffer();
  });
}

NodePtr Graph::intern(std::shared_ptr<Node> n) {
  n->hash_ = structural_hash(n->op_, n->dtype_, n->shape_, n->inputs_, n->params_, n->buffer_.get(),
                             n->view_, n->primitive_.get());
  std::lock_guard<std::mutex> lock(mu_);
  if (NodePtr existing =
          table_.find_live(n->hash_, [&](const Node& e) { return e.same_structure(*n); })) {
    return existing;
  }
  n->id_ = g_next_node_id.fetch_add(1);
  NodePtr p = std::move(n);
  table_.insert(p->hash_, p);
  for (const NodePtr& in : p->inputs_) {
    if (in->is_leaf()) in->buffer_->add_reader(p);
  }
  return p;
}

NodePtr Graph::buffer(std::shared_ptr<BufferRef> buf, DType dtype, View view) {
  VKA_ASSERT(buf != nullptr && view.shape.size() == view.strides.size());
  std::shared_ptr<Node> n = new_node();
  n->op_ = Op::kBuffer;
  n->dtype_ = dtype;
  n->shape_ = view.shape;
  n->version_ = buf->version();
  n->buffer_ = std::move(buf);
  n->view_ = std::move(view);
  return intern(std::move(n));
}

NodePtr Graph::source(Op op, DType dtype, Shape shape, std::vector<Scalar> params) {
  VKA_ASSERT(kind(op) == OpKind::kSource);
  check_accepts(op, dtype);
  std::vector<DType> want = source_param_dtypes(op, dtype);
  VKA_ASSERT(want.size() == params.size());
  for (std::size_t i = 0; i < params.size(); ++i) params[i] = params[i].astype(want[i]);
  size(shape);  // validates extents
  // Constants are remade on every call that names one (x * 2.0): found before allocating.
  const std::size_t h = structural_hash(op, dtype, shape, {}, params, nullptr, View(), nullptr);
  if (NodePtr existing = find_source(h, op, dtype, shape, params)) return existing;
  std::shared_ptr<Node> n = new_node();
  n->op_ = op;
  n->dtype_ = dtype;
  n->shape_ = std::move(shape);
  n->params_ = std::move(params);
  return intern(std::move(n));
}

NodePtr Graph::full(Scalar value, Shape shape) {
  DType t = value.dtype();
  return source(Op::kFull, t, std::move(shape), {value});
}

NodePtr Graph::elementwise(Op op, DType dtype, std::vector<NodePtr> inputs) {
  VKA_ASSERT(is_elementwise(op) && static_cast<int>(inputs.size()) == arity(op));
  std::shared_ptr<Node> n = new_node();
  // The common cases without copying shapes: operands of one shape, and 0-d constants.
  const Shape* common = nullptr;
  for (const NodePtr& in : inputs) {
    if (in->shape().empty() && in->is_constant()) continue;
    if (common == nullptr || *common == in->shape()) {
      common = &in->shape();
      continue;
    }
    common = nullptr;
    break;
  }
  if (common != nullptr) {
    n->shape_ = *common;
  } else {
    std::vector<Shape> shapes;
    for (const NodePtr& in : inputs) shapes.push_back(in->shape());
    n->shape_ = broadcast_shapes(name(op), shapes);
  }
  n->op_ = op;
  n->dtype_ = dtype;
  n->inputs_ = std::move(inputs);
  return intern(std::move(n));
}

NodePtr Graph::astype(const NodePtr& x, DType dtype) {
  if (x->dtype() == dtype) return x;
  // A constant converts on the host: the kernel then reads one push constant, not two ops.
  if (x->is_constant()) return full(x->params()[0].astype(dtype), x->shape());
  return elementwise(Op::kAstype, dtype, {x});
}

NodePtr Graph::convert(const NodePtr& x, DType dtype, const Shape& shape) {
  if (broadcast_shapes("convert", x->shape(), shape) != shape) {
    throw ShapeError("[convert] cannot broadcast shape " + vka::to_string(x->shape()) + " to " +
                     vka::to_string(shape));
  }
  std::shared_ptr<Node> n = new_node();
  n->op_ = Op::kAstype;
  n->dtype_ = dtype;
  n->shape_ = shape;
  n->inputs_ = {x};
  return intern(std::move(n));
}

NodePtr Graph::with_inputs(const Node& o, std::vector<NodePtr> inputs) {
  std::shared_ptr<Node> n = new_node();
  n->op_ = o.op_;
  n->dtype_ = o.dtype_;
  n->shape_ = o.shape_;
  n->params_ = o.params_;
  n->primitive_ = o.primitive_;
  n->inputs_ = std::move(inputs);
  return intern(std::move(n));
}

NodePtr with_replaced_inputs(const NodePtr& n,
                             const std::unordered_map<const Node*, NodePtr>& replaced) {
  return with_replaced_inputs(n, [&](const Node* in) -> const NodePtr& { return replaced.at(in); });
}

std::vector<NodePtr> Graph::live() {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<NodePtr> out;
  out.reserve(table_.size());
  table_.for_each_live([&](NodePtr n) { out.push_back(std::move(n)); });
  return out;
}

std::size_t Graph::live_nodes() {
  std::lock_guard<std::mutex> lock(mu_);
  std::size_t n = 0;
  table_.for_each_live([&](const NodePtr&) { ++n; });
  return n;
}

Graph& default_graph() {
  static Graph* g = new Graph();  // never destroyed: arrays may outlive static destruction
  return *g;
}

Node::~Node() {
  // Inputs released while another node is being destroyed on this thread are handed to that
  // destruction's loop instead of being released here, so the depth stays one.
  thread_local std::vector<NodePtr>* pending = nullptr;
  if (pending) {
    for (NodePtr& in : inputs_) pending->push_back(std::move(in));
    return;
  }
  std::vector<NodePtr> work = std::move(inputs_);
  pending = &work;
  while (!work.empty()) {
    NodePtr n = std::move(work.back());
    work.pop_back();
    n.reset();  // may append its own inputs to `work`
  }
  pending = nullptr;
}

std::vector<NodePtr> topological_order(const std::vector<NodePtr>& roots,
                                       const std::function<bool(const Node&)>& stop) {
  std::vector<NodePtr> order;
  PointerIndex seen(64);
  // Iterative DFS: expression chains can be thousands of nodes deep (x = x*a + b in a loop).
  // The stack points at the references the roots and the nodes' input lists hold (alive while
  // the walk runs), so only `order` takes references of its own: evaluation walks every graph
  // several times, and each reference taken and dropped is two atomic operations.
  struct Frame {
    const NodePtr* node;
    std::size_t next;
  };
  std::vector<Frame> stack;
  stack.reserve(32);
  for (const NodePtr& r : roots) {
    bool added = false;
    if (!r || (seen.insert(r.get(), &added), !added)) continue;
    stack.push_back({&r, 0});
    while (!stack.empty()) {
      Frame& f = stack.back();
      const Node& node = **f.node;
      if (f.next == 0 && stop && stop(node)) f.next = node.inputs().size();
      if (f.next < node.inputs().size()) {
        const NodePtr& in = node.inputs()[f.next++];
        seen.insert(in.get(), &added);
        if (added) stack.push_back({&in, 0});
      } else {
        order.push_back(*f.node);
        stack.pop_back();
      }
    }
  }
  return order;
}

std::string to_string(const std::vector<NodePtr>& roots) {
  std::string s;
  for (const NodePtr& n : topological_order(roots)) s += n->to_string() + "\n";
  return s;
}

}  // namespace vka
