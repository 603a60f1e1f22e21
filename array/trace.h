// Recorded functions (vkarray.jit): the graph a function built from its array inputs, replayed
// over other inputs of the same layout without calling the function again.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "array/array.h"
#include "ir/graph.h"

namespace vka {

// What a replay needs to match in an input, a computed array (a leaf): its context, dtype and
// view of its buffer, which earlier input shares that buffer (-1: none), and the bounds known
// of its values without reading them (ir/value_range.h: graph building may rely on them, as a
// gather's bounds check does). Calls whose inputs agree on these build graphs of one structure.
struct TraceInputKey {
  const Context* context;
  DType dtype;
  View view;
  int alias;
  std::optional<ValueRange> known;
};
// Inputs must be computed (vkarray.jit evaluates lazy ones first: graph building may fold a
// lazy input's structure, a constant's value, into what it builds).
std::vector<TraceInputKey> trace_input_keys(const std::vector<Array>& inputs);

class Trace {
 public:
  // Records `outputs`, built from `inputs` by a function that had no effect (base/effects.h)
  // while it ran. The recording holds no input buffer: the inputs' leaves are replaced by
  // placeholders, so a large first argument is not kept alive by the cache that holds this.
  Trace(const std::vector<Array>& inputs, const std::vector<Array>& outputs);

  // Empty when the recording can be replayed; else why not ("draws random numbers": replaying
  // would repeat the numbers; "returns a view or a computed array": a replay would copy it;
  // a view of an argument's buffer past the argument, which another call's may not hold).
  const std::string& unreplayable() const { return unreplayable_; }
  // False once an array the function read without being given it (a captured leaf) has been
  // written in place: the function must be recorded again to read the new values. (An array
  // rebound to another value, like a global name bound to another array, is not seen: as with
  // JAX's jit, what a function reads besides its arguments is fixed at the recording.)
  bool current() const;

  // The outputs over `inputs`, whose trace_input_keys equal the recording's: each recorded node
  // rebuilt over the inputs' nodes (views the function made of an input read the new input's
  // buffer through the same view).
  std::vector<Array> replay(const std::vector<Array>& inputs) const;

 private:
  // What stands for a recorded node in a replay: the node itself, an input's node, a captured
  // leaf, a view of an input's buffer, or the node over its inputs' replacements (positions
  // in order_).
  enum class StepKind { kKeep, kInput, kCaptured, kInputView, kRebuild };
  struct Step {
    StepKind kind;
    int index;  // kInput, kInputView: the input; kCaptured: the entry of captured_
    std::vector<int> inputs;
  };
  void compile(const std::vector<NodePtr>& outputs);

  std::vector<NodePtr> placeholders_;  // per input: its placeholder node
  std::vector<NodePtr> order_;         // the recorded graph, inputs before users
  std::vector<Step> steps_;            // one per node of order_
  std::vector<int> outputs_;           // positions in order_
  // Leaves over buffers that are not inputs': each one's placeholder and the leaf itself.
  std::vector<std::pair<NodePtr, NodePtr>> captured_;
  std::vector<std::shared_ptr<Context>> contexts_;
  std::string unreplayable_;
};

}  // namespace vka
