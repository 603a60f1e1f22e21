// Leaves an evaluation reads, made valid before it is scheduled (array/write.h's recorded
// writes, values made on other replicas only).
#pragma once

#include <memory>
#include <optional>
#include <unordered_set>
#include <vector>

#include "device/context.h"
#include "ir/graph.h"

namespace vka {

// Leaves under an evaluation whose buffers are not valid where it runs (writes recorded into
// them, array/write.h; values made on other replicas only) are made valid before anything is
// scheduled, so that what this evaluation computes reads them as they now are. Not the
// buffers it fills: their fills are this evaluation. True when some buffer was filled.
bool make_leaves_valid(const std::shared_ptr<Context>& context, const std::vector<NodePtr>& order,
                       const std::unordered_set<const BufferRef*>& filling,
                       std::optional<int> replica);

}  // namespace vka
