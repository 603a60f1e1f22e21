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
//  3. A small write (at most 4096 elements, one replica) whose value nothing else holds is
//     recorded instead of run, when the writes recorded into B before it can run together
//     with it: its reads of B are exactly the elements of a recorded write (then they read
//     that write's value) or elements no recorded write touches, and the elements it writes
//     are neither read by the recorded values nor written by them (unless exactly those of one
//     earlier write, which it then replaces). Whatever reads B next (a kernel, an evaluation,
//     the host) runs the recorded writes first, in one evaluation: a loop of element writes
//     `v[i] = v[i - 1] * 0.5 + 1` is one kernel per 64 writes. Every other writer of B runs
//     them before it writes. Where runs keep ending after fewer than 4 writes (the next
//     statement reads part of what was written), writes run at once for a while.
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

// Runs the writes recorded into `buffer` (step 3), if any; with no buffer, every recorded
// write, and recording starts afresh (synchronize does).
void run_recorded_writes(const BufferRef& buffer);
void run_recorded_writes();

// Runs the writes recorded into `buffer` (step 3), then computes and pins every live
// expression that reads elements of `buffer` that `written` (a view of it; null: all of it)
// may change, and is held from outside `keep` (step 1 above): every writer of a storage
// buffer other than write_into calls it before writing.
void pin_readers(const std::shared_ptr<Context>& context, const BufferRef& buffer,
                 const NodePtr& keep = nullptr, const View* written = nullptr);

// True when `value` reads `buffer` anywhere other than exactly the elements `dest` names (the
// overlap test of step 2); views are compared after broadcasting to dest's shape.
bool reads_other_elements(const NodePtr& value, const NodePtr& dest);

}  // namespace vka
