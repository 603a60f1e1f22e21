// Recording and replaying a function's graph (array/trace.h).
#include "array/trace.h"

#include <unordered_map>
#include <utility>

#include "base/errors.h"
#include "ir/value_range.h"

namespace vka {
namespace {

bool draws_random_numbers(Op op) {
  return op == Op::kRandomBits || op == Op::kRandomBelow || op == Op::kRandomNormal;
}

// Buffers of one call's inputs, and what stands for each in another graph.
using BufferMap = std::vector<std::pair<const BufferRef*, std::shared_ptr<BufferRef>>>;

const std::shared_ptr<BufferRef>* find(const BufferMap& m, const BufferRef* b) {
  for (const auto& [from, to] : m) {
    if (from == b) return &to;
  }
  return nullptr;
}

// The bytes of its buffer a leaf reads: [first, end).
std::pair<int64_t, int64_t> byte_range(const Node& leaf) {
  auto [lo, hi] = leaf.view().extent();
  const auto size = static_cast<int64_t>(itemsize(leaf.dtype()));
  return {lo * size, hi * size};
}

// True when `leaf` (a view the function made of an input's buffer) reads only bytes some input
// over that buffer reads: another call's inputs of the same layout hold them. as_strided can
// reach past its argument into the rest of the buffer, which another call's may not have.
bool within_inputs(const Node& leaf, const std::vector<Array>& inputs) {
  const auto [lo, hi] = byte_range(leaf);
  for (const Array& a : inputs) {
    const Node& in = *a.node();
    if (in.buffer() != leaf.buffer()) continue;
    const auto [in_lo, in_hi] = byte_range(in);
    if (lo >= in_lo && hi <= in_hi) return true;
  }
  return lo == hi;  // an empty view reads nothing
}

}  // namespace

std::vector<TraceInputKey> trace_input_keys(const std::vector<Array>& inputs) {
  std::vector<TraceInputKey> keys;
  keys.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const NodePtr& n = inputs[i].node();
    VKA_ASSERT(n->is_leaf());
    int alias = -1;
    for (size_t j = 0; j < i && alias < 0; ++j) {
      if (inputs[j].node()->buffer() == n->buffer()) alias = static_cast<int>(j);
    }
    keys.push_back({inputs[i].context().get(), n->dtype(), n->view(), alias, value_range(*n)});
  }
  return keys;
}

Trace::Trace(const std::vector<Array>& inputs, const std::vector<Array>& outputs) {
  // Each input's buffer gets a placeholder (no device memory): the recorded graph reads it
  // through the same views the function's graph read the input's buffer.
  BufferMap placeholder_of;
  std::unordered_map<const Node*, NodePtr> recorded;
  for (const Array& a : inputs) {
    const NodePtr& n = a.node();
    VKA_ASSERT(n->is_leaf());
    const std::shared_ptr<BufferRef>* p = find(placeholder_of, n->buffer().get());
    if (p == nullptr) {
      placeholder_of.push_back({n->buffer().get(), std::make_shared<BufferRef>()});
      p = &placeholder_of.back().second;
    }
    placeholders_.push_back(default_graph().buffer(*p, n->dtype(), n->view()));
    recorded[n.get()] = placeholders_.back();
  }
  std::vector<NodePtr> roots;
  for (const Array& a : outputs) {
    roots.push_back(a.node());
    contexts_.push_back(a.context());
    if (roots.back()->is_leaf()) unreplayable_ = "returns a view or a computed array";
  }
  for (const NodePtr& n : topological_order(roots)) {
    if (recorded.count(n.get())) continue;
    if (draws_random_numbers(n->op())) unreplayable_ = "draws random numbers";
    if (!n->is_leaf()) {
      recorded[n.get()] = with_replaced_inputs(n, recorded);
    } else if (const std::shared_ptr<BufferRef>* p = find(placeholder_of, n->buffer().get())) {
      if (!within_inputs(*n, inputs)) {
        unreplayable_ = "reads its argument's buffer outside the argument (as_strided)";
      }
      recorded[n.get()] = default_graph().buffer(*p, n->dtype(), n->view());
    } else {
      // An array the function read without being given it: the recording reads a placeholder
      // too, so no node it holds reads a live buffer (a write into that buffer would compute
      // such a reader first, array/write.h, and this one reads placeholders). Replays read
      // the leaf itself.
      recorded[n.get()] =
          default_graph().buffer(std::make_shared<BufferRef>(), n->dtype(), n->view());
      captured_.push_back({recorded[n.get()], n});
    }
  }
  std::vector<NodePtr> recorded_outputs;
  for (const NodePtr& r : roots) recorded_outputs.push_back(recorded.at(r.get()));
  compile(recorded_outputs);
}

void Trace::compile(const std::vector<NodePtr>& outputs) {
  order_ = topological_order(outputs);
  std::unordered_map<const Node*, int> position;
  for (size_t i = 0; i < order_.size(); ++i) position[order_[i].get()] = static_cast<int>(i);
  for (const NodePtr& o : outputs) outputs_.push_back(position.at(o.get()));
  std::unordered_map<const Node*, int> input_of, captured_of;
  for (size_t k = 0; k < placeholders_.size(); ++k) input_of.emplace(placeholders_[k].get(), k);
  for (size_t k = 0; k < captured_.size(); ++k) captured_of[captured_[k].first.get()] = k;
  // A step per node: what stands for it in a replay. Nodes that reach no input and nothing
  // captured (constants, aranges) are kept as they are.
  std::vector<bool> replaced(order_.size(), false);
  for (size_t i = 0; i < order_.size(); ++i) {
    const Node& n = *order_[i];
    Step step;
    if (auto in = input_of.find(&n); in != input_of.end()) {
      step = {StepKind::kInput, in->second, {}};
    } else if (auto c = captured_of.find(&n); c != captured_of.end()) {
      step = {StepKind::kCaptured, c->second, {}};
    } else if (n.is_leaf()) {  // a view the function made of an input
      int k = 0;
      while (placeholders_[k]->buffer() != n.buffer()) ++k;
      step = {StepKind::kInputView, k, {}};
    } else {
      step = {StepKind::kKeep, 0, {}};
      for (const NodePtr& x : n.inputs()) {
        const int p = position.at(x.get());
        step.inputs.push_back(p);
        if (replaced[p]) step.kind = StepKind::kRebuild;
      }
    }
    replaced[i] = step.kind != StepKind::kKeep;
    steps_.push_back(std::move(step));
  }
}

bool Trace::current() const {
  for (const auto& [placeholder, leaf] : captured_) {
    if (leaf->is_stale_leaf()) return false;
  }
  return true;
}

std::vector<Array> Trace::replay(const std::vector<Array>& inputs) const {
  VKA_ASSERT(inputs.size() == placeholders_.size() && unreplayable_.empty());
  std::vector<NodePtr> value(order_.size());
  std::vector<NodePtr> args;
  for (size_t i = 0; i < steps_.size(); ++i) {
    const Step& s = steps_[i];
    switch (s.kind) {
      case StepKind::kKeep:
        value[i] = order_[i];
        break;
      case StepKind::kInput:
        value[i] = inputs[s.index].node();
        VKA_ASSERT(value[i]->is_leaf() && value[i]->view() == order_[i]->view());
        break;
      case StepKind::kCaptured:
        value[i] = captured_[s.index].second;
        break;
      case StepKind::kInputView:
        value[i] = default_graph().buffer(inputs[s.index].node()->buffer(), order_[i]->dtype(),
                                          order_[i]->view());
        break;
      case StepKind::kRebuild:
        args.clear();
        for (int p : s.inputs) args.push_back(value[p]);
        value[i] = default_graph().with_inputs(*order_[i], args);
        break;
    }
  }
  std::vector<Array> out;
  out.reserve(outputs_.size());
  for (size_t i = 0; i < outputs_.size(); ++i) out.emplace_back(value[outputs_[i]], contexts_[i]);
  return out;
}

}  // namespace vka
