// Recorded writes (write.h, step 3): runs of small writes kept instead of run, and run
// together when something reads what they write.
#include "array/write_record.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "array/write.h"
#include "base/errors.h"
#include "base/pointer_index.h"
#include "runtime/realize.h"

namespace vka {
namespace {

// Writes of at most this many elements may be recorded (step 3); larger ones run at once.
constexpr int64_t kMaxRecordedElements = 4096;
// A run of recorded writes runs once it holds this many: each run length is a kernel of its
// own to compile, and long ones compile slowly (1024 element writes of a recurrence: seconds
// on lavapipe), while 64 already make launches a small part of each write's cost.
constexpr size_t kMaxRecorded = 64;

// Runs this short (writes) gain nothing over running each write at once, and cost a second
// evaluation: after kShortRunsToPause of them in a row (a loop whose next statement reads part
// of what the last one wrote, as LU's inner step does), the next kPausedWrites writes run at
// once, then recording is tried again.
constexpr size_t kShortRun = 4;
constexpr int kShortRunsToPause = 8;
constexpr int kPausedWrites = 256;

// Where views of one buffer lie, for finding the ones that may overlap a view without
// comparing it with every one: by the start of their extents.
class Extents {
 public:
  void add(const View& v, size_t index) {
    const auto [lo, hi] = v.extent();
    by_lo_.emplace(lo, index);
    longest_ = std::max(longest_, hi - lo);
  }
  // Calls f(index) for every view added whose extent may meet v's.
  template <class F>
  void visit(const View& v, const F& f) const {
    const auto [lo, hi] = v.extent();
    for (auto it = by_lo_.lower_bound(lo - longest_); it != by_lo_.end() && it->first < hi; ++it) {
      f(it->second);
    }
  }

 private:
  std::multimap<int64_t, size_t> by_lo_;
  int64_t longest_ = 0;
};

// The writes recorded (step 3), in program order, into any buffers (an entry a later write
// of the same elements replaced has a null value): they run together, since a value may read
// what another buffer's recorded write gives. Each value reads every buffer only as it was
// before the first of them: a read of elements a recorded write gives is that write's value.
struct Recorded {
  std::shared_ptr<Context> context;
  std::vector<NodePtr> dests, values;
  std::unordered_set<const Node*> value_nodes;
  struct PerBuffer {
    std::vector<size_t> entries;  // of dests/values
    Extents dest_at, read_at;
    std::vector<View> reads;
  };
  std::unordered_map<const BufferRef*, PerBuffer> buffers;
};

// The run being recorded, if any. Never destroyed: at exit, what it holds (buffers of contexts
// being torn down) is left to the process's end rather than freed in static destruction order.
std::mutex recorded_mu;
std::shared_ptr<Recorded>& current = *new std::shared_ptr<Recorded>();
int short_runs = 0;     // in a row
int paused_writes = 0;  // left to run at once

std::shared_ptr<Recorded> recorded_now() {
  std::lock_guard<std::mutex> lock(recorded_mu);
  return current;
}

// Runs `r`'s writes in one evaluation (their values fuse as any expressions do) and marks
// every buffer they write valid.
void run_recorded(const std::shared_ptr<Recorded>& r) {
  {
    std::lock_guard<std::mutex> lock(recorded_mu);
    if (current == r) current = nullptr;
  }
  std::vector<NodePtr> values, dests;
  for (size_t i = 0; i < r->values.size(); ++i) {
    if (!r->values[i]) continue;
    values.push_back(std::move(r->values[i]));
    dests.push_back(std::move(r->dests[i]));
  }
  std::vector<std::shared_ptr<BufferRef>> written;
  for (const NodePtr& d : dests) written.push_back(d->buffer());
  {
    std::lock_guard<std::mutex> lock(recorded_mu);
    short_runs = values.size() < kShortRun ? short_runs + 1 : 0;
    if (short_runs >= kShortRunsToPause) {
      short_runs = 0;
      paused_writes = kPausedWrites;
    }
  }
  r->values.clear();
  r->dests.clear();
  r->value_nodes.clear();
  r->buffers.clear();
  if (!values.empty()) realize(r->context, values, std::nullopt, dests);
  for (const std::shared_ptr<BufferRef>& b : written) device_buffer(*b)->mark_valid(0);
}

}  // namespace

// True when `n` is the value of a recorded write.
bool is_recorded_value(const Node* n) {
  std::shared_ptr<Recorded> r = recorded_now();
  return r && r->value_nodes.count(n) > 0;
}

namespace {

// A view of a buffer a value reads, and whether at any of its positions (a gather's array, a
// library operation's input, a product's operand) rather than element by element.
struct Read {
  const BufferRef* buffer;
  View view;
  bool anywhere;
};

// `value` with each read of elements a write of `r` (if any) gives replaced by that write's
// value; the reads of buffers left go to `reads`. Null when a read overlaps recorded writes
// without being exactly the elements of the latest of them, or a value read at any position
// would be replaced.
NodePtr rewritten(const NodePtr& value, const Recorded* r, std::vector<Read>* reads) {
  // Every write walks its value: nodes are numbered by their place in the order, and what
  // they become and whether they are read at any position live in vectors by that number.
  const std::vector<NodePtr> order = topological_order({value});
  PointerIndex position(order.size());
  for (const NodePtr& n : order) position.insert(n.get());
  std::vector<bool> anywhere(order.size(), false);
  for (const NodePtr& n : order) {
    if (n->op() == Op::kGather) anywhere[position.find(n->inputs()[0].get())] = true;
    if (n->op() == Op::kLibrary || kind(n->op()) == OpKind::kContract) {
      for (const NodePtr& in : n->inputs()) anywhere[position.find(in.get())] = true;
    }
  }
  std::vector<NodePtr> done(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    const NodePtr& n = order[i];
    NodePtr out = n;
    if (n->is_leaf()) {
      const bool at_any = anywhere[i];
      long last = -1;  // the latest recorded write of these elements
      auto pb = r ? r->buffers.find(n->buffer().get()) : decltype(r->buffers)::const_iterator();
      if (r && pb != r->buffers.end()) {
        pb->second.dest_at.visit(n->view(), [&](size_t k) {
          const size_t e = pb->second.entries[k];
          if (r->values[e] && static_cast<long>(e) > last &&
              !disjoint(r->dests[e]->view(), n->view())) {
            last = static_cast<long>(e);
          }
        });
      }
      if (last < 0) {
        reads->push_back({n->buffer().get(), n->view(), at_any});
      } else if (!at_any && same_elements(r->dests[last]->view(), n->view()) &&
                 r->dests[last]->dtype() == n->dtype()) {
        out = r->values[last];
      } else {
        return nullptr;
      }
    } else if (!n->is_constant()) {
      out = with_replaced_inputs(
          n, [&](const Node* in) -> const NodePtr& { return done[position.find(in)]; });
    }
    done[i] = std::move(out);
  }
  return done.back();  // the value: last in its own order
}

// True when a read of dest's buffer may run in the kernel writing `dest` after another
// invocation wrote its elements: it is neither disjoint from dest nor, element by element,
// exactly dest's elements (the rule of reads_other_elements).
bool clashes(const Read& read, const NodePtr& dest) {
  if (read.buffer != dest->buffer().get() || disjoint(read.view, dest->view())) return false;
  if (read.anywhere || !can_broadcast_to(read.view.shape, dest->shape())) return true;
  return !same_elements(broadcast_to("write", read.view, dest->shape()), dest->view());
}

}  // namespace

// Step 3: records `dest = value` instead of running it, when it is small and the recorded run
// can compute it together with the others: its reads are exactly the elements of recorded
// writes or untouched by them, and its elements are disjoint from the elements the run reads
// and writes (or exactly those of one earlier write, which it replaces). False when the write
// must run now (after the recorded ones).
bool record_write(const std::shared_ptr<Context>& context, const NodePtr& dest,
                  const NodePtr& value) {
  // VKA_RECORD_WRITES=0 runs every write at once (to measure what recording saves).
  static const bool enabled = [] {
    const char* e = std::getenv("VKA_RECORD_WRITES");
    return e == nullptr || std::string(e) != "0";
  }();
  if (!enabled) return false;
  // Not into adopted memory: a mapped array's host side reads it through its own pointer.
  if (context->num_replicas() != 1 || dest->view().size() > kMaxRecordedElements ||
      value->is_leaf() || value->is_constant() || device_buffer(*dest->buffer())->is_adopted()) {
    return false;
  }
  {
    std::lock_guard<std::mutex> lock(recorded_mu);
    if (paused_writes > 0 && !current) {
      --paused_writes;
      return false;
    }
  }
  std::shared_ptr<Recorded> r = recorded_now();
  if (r && (r->context != context || r->values.size() >= kMaxRecorded)) {
    run_recorded(r);
    r = nullptr;
  }
  std::vector<Read> reads;
  NodePtr v = rewritten(value, r.get(), &reads);
  if (!v) return false;
  for (const Read& read : reads) {
    if (clashes(read, dest)) return false;
  }
  const BufferRef* buffer = dest->buffer().get();
  // A run holds related writes only: one that neither writes nor reads any buffer it touches
  // starts a run of its own, after this one runs (a program's unrelated arrays do not wait on
  // each other, nor run together).
  if (r && !r->buffers.count(buffer) &&
      std::none_of(reads.begin(), reads.end(),
                   [&](const Read& read) { return r->buffers.count(read.buffer) > 0; })) {
    run_recorded(r);
    r = nullptr;
    reads.clear();
    v = rewritten(value, nullptr, &reads);
  }
  long replaces = -1;
  const View& at = dest->view();
  if (r) {
    auto pb = r->buffers.find(buffer);
    if (pb != r->buffers.end()) {
      bool ok = true;
      const Recorded::PerBuffer& b = pb->second;
      b.dest_at.visit(at, [&](size_t i) {
        const size_t e = b.entries[i];
        if (!r->values[e] || disjoint(r->dests[e]->view(), at)) return;
        if (replaces >= 0 || !same_elements(r->dests[e]->view(), at)) ok = false;
        replaces = static_cast<long>(e);
      });
      b.read_at.visit(at, [&](size_t i) {
        const View& read = b.reads[i];
        if (!disjoint(read, at) && !(replaces >= 0 && same_elements(read, at))) ok = false;
      });
      if (!ok) return false;
    }
    if (r->value_nodes.count(v.get())) return false;
  } else {
    r = std::make_shared<Recorded>();
    r->context = context;
    std::lock_guard<std::mutex> lock(recorded_mu);
    current = r;
  }
  Recorded::PerBuffer& b = r->buffers[buffer];
  if (b.entries.empty()) {
    // Whatever reads the buffer next (a kernel, an evaluation, the host) makes it valid
    // first, which runs the recorded writes.
    std::weak_ptr<Recorded> weak = r;
    device_buffer(*buffer)->set_valid_only({}, [weak](int) {
      if (std::shared_ptr<Recorded> run = weak.lock()) run_recorded(run);
    });
  }
  if (replaces >= 0) {
    r->value_nodes.erase(r->values[replaces].get());
    r->values[replaces] = nullptr;
  }
  b.dest_at.add(at, b.entries.size());
  b.entries.push_back(r->dests.size());
  r->dests.push_back(dest);
  r->value_nodes.insert(v.get());
  r->values.push_back(std::move(v));
  for (const Read& read : reads) {
    Recorded::PerBuffer& rb = r->buffers[read.buffer];
    rb.read_at.add(read.view, rb.reads.size());
    rb.reads.push_back(read.view);
  }
  return true;
}

void run_recorded_writes(const BufferRef& buffer) {
  std::shared_ptr<Recorded> r = recorded_now();
  if (r && r->buffers.count(&buffer)) run_recorded(r);
}

void run_recorded_writes() {
  if (std::shared_ptr<Recorded> r = recorded_now()) run_recorded(r);
  // A program's synchronization point: what its earlier loops did says nothing of the next.
  std::lock_guard<std::mutex> lock(recorded_mu);
  short_runs = 0;
  paused_writes = 0;
}

}  // namespace vka
