// Library nodes: the Primitive that runs a library operation's eager pipeline over its inputs'
// values and hands evaluation a buffer of its own.
#include "array/library_node.h"

#include <memory>
#include <utility>

#include "base/errors.h"
#include "runtime/realize.h"

namespace vka {
namespace {

class FunctionPrimitive final : public Primitive {
 public:
  FunctionPrimitive(std::string name, std::shared_ptr<Context> context, DType dtype, Shape shape,
                    LibraryRun run)
      : name_(std::move(name)),
        context_(std::move(context)),
        dtype_(dtype),
        shape_(std::move(shape)),
        run_(std::move(run)) {}

  std::string name() const override { return name_; }

  std::shared_ptr<BufferRef> evaluate(const std::vector<NodePtr>& inputs) const override {
    std::vector<Array> args;
    args.reserve(inputs.size());
    for (const NodePtr& in : inputs) args.push_back(Array::reading(in, context_));
    Array result = run_(args);
    VKA_ASSERT(result.dtype() == dtype_ && result.shape() == shape_);
    NodePtr leaf = result.eval().node();
    // The node's value is a buffer of its own, in C order from its start: a view (a moved
    // axis), a part of a larger buffer or a buffer arrays write in place is copied out.
    const View& v = leaf->view();
    if (!v.is_contiguous() || v.offset != 0 || leaf->buffer()->is_storage()) {
      leaf = realize(context_, {default_graph().convert(leaf, dtype_, shape_)})[0];
    }
    return leaf->buffer();
  }

 private:
  std::string name_;
  std::shared_ptr<Context> context_;
  DType dtype_;
  Shape shape_;
  LibraryRun run_;
};

}  // namespace

Array library_node(std::string name, const std::vector<Array>& inputs, DType dtype, Shape shape,
                   LibraryRun run) {
  VKA_ASSERT(!inputs.empty());
  const std::shared_ptr<Context>& context = inputs[0].context();
  std::vector<NodePtr> nodes;
  nodes.reserve(inputs.size());
  for (const Array& a : inputs) {
    if (a.context() != context) {
      throw ShapeError("[" + name + "] arrays live on different contexts");
    }
    nodes.push_back(a.node());
  }
  auto primitive =
      std::make_shared<const FunctionPrimitive>(name, context, dtype, shape, std::move(run));
  return Array(
      default_graph().library(std::move(primitive), dtype, std::move(shape), std::move(nodes)),
      context);
}

}  // namespace vka
