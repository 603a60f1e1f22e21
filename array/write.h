// Writes into storage buffers: the one place where a buffer's contents change after it was
// made, so the one place that keeps numpy's eager order for everything lazy.
//
// A write `dest = value` (dest: a leaf over a storage buffer B seen through a view) runs at
// once, and:
//  1. Every live expression that reads elements of B the write may change, and is held from
//     outside the written value (by an array, a pinned node, ...), is computed first and
//     pinned (Node::pin), so it gives the value it had when it was made, as numpy's eager
//     evaluation would. After the write, B's version moves on: leaves made before it are
//     different nodes from leaves made after (BufferRef::version), so a value computed before
//     the write never stands for an expression made after it.
//  2. The value is computed straight into B through dest's view, fused into one kernel, when
//     every read of B inside it is the element being written (x[::2] += 1) or lies outside
//     the written range (a[:n] = a[n:]); otherwise it is staged through a temporary first
//     (a[1:] = a[:-1], a[:] = a.T), which gives numpy's answer for overlapping operands.
#pragma once

#include <memory>
#include <optional>

#include "device/context.h"
#include "ir/graph.h"

namespace vka {

// Writes `value` (already of dest's dtype and shape) into `dest` on every replica, or on
// `replica` only. `value` is taken by value: the caller passes its only reference when the
// value is a temporary, which lets a value that reads B fuse into the writing kernel.
void write_into(const std::shared_ptr<Context>& context, const NodePtr& dest, NodePtr value,
                std::optional<int> replica = std::nullopt);

// Computes and pins every live expression that reads elements of `buffer` that `written`
// (a view of it; null: all of it) may change, and is held from outside `keep` (step 1 above);
// the host writes of array/array.cc call it before uploading.
void pin_readers(const std::shared_ptr<Context>& context, const BufferRef& buffer,
                 const NodePtr& keep = nullptr, const View* written = nullptr);

// True when `value` reads `buffer` anywhere other than exactly the elements `dest` names (the
// overlap test of step 2); views are compared after broadcasting to dest's shape.
bool reads_other_elements(const NodePtr& value, const NodePtr& dest);

}  // namespace vka
