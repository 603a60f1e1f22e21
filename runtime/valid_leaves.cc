// make_leaves_valid: one pass over an evaluation's leaves, filling the buffers that are not
// valid where it runs.
#include "runtime/valid_leaves.h"

#include "device/buffer.h"

namespace vka {

bool make_leaves_valid(const std::shared_ptr<Context>& context, const std::vector<NodePtr>& order,
                       const std::unordered_set<const BufferRef*>& filling,
                       std::optional<int> replica) {
  bool filled = false;
  for (const NodePtr& n : order) {
    if (!n->is_leaf() || filling.count(n->buffer().get())) continue;
    const auto* buf = static_cast<const ReplicatedBuffer*>(n->buffer()->payload().get());
    if (buf->valid_everywhere()) continue;
    for (int q = 0; q < context->num_replicas(); ++q) {
      if (!replica || *replica == q) buf->ensure_valid(q);
    }
    filled = true;
  }
  return filled;
}

}  // namespace vka
