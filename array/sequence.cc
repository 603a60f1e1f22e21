// Sequences: operations replayed in order on one replica's stream, timestamped.
#include "array/sequence.h"

#include <chrono>
#include <thread>

#include "array/write.h"
#include "base/errors.h"
#include "device/stream.h"
#include "runtime/library.h"
#include "runtime/realize.h"

namespace vka {

struct Sequence::Op {
  enum Kind { kKernel, kWrite, kRead, kEval } kind = kKernel;
  std::shared_ptr<const UserKernel> kernel;
  std::vector<Array> args;
  UserCall call;
  BytesSource source;  // push constants (kernel) or data (write)
  Bytes bytes;         // what `source` gave when last recorded
  Array x;             // write, read
  std::function<Array()> expr;
  std::optional<Array> out;
  int slot = -1;
  std::shared_ptr<ReplicatedBuffer> scratch;  // a read's copy, taken at its place in the run
  uint64_t nbytes = 0;
  std::optional<Array> value;  // an evaluation's result
};

Sequence::Sequence(std::shared_ptr<Context> context, int replica)
    : ctx_(std::move(context)), replica_(replica) {
  ctx_->replica(replica);  // IndexError naming the range
}

Sequence::~Sequence() {
  try {
    if (running_) eval_await();
  } catch (...) {  // destructors must not throw
  }
}

void Sequence::check_idle(const char* what) {
  if (running_) {
    throw ShapeError(std::string("[Sequence.") + what +
                     "] the sequence is running: call eval_await() first");
  }
}

void Sequence::record_kernel(std::shared_ptr<const UserKernel> kernel, std::vector<Array> args,
                             UserCall call, BytesSource push) {
  check_idle("record");
  if (static_cast<int>(args.size()) != kernel->num_bindings()) {
    throw ShapeError("[Kernel " + kernel->name() + "] takes " +
                     std::to_string(kernel->num_bindings()) + " arrays, got " +
                     std::to_string(args.size()));
  }
  for (const Array& a : args) {
    if (a.context() != ctx_) throw ShapeError("[Sequence.record] an array of another context");
  }
  auto op = std::make_shared<Op>();
  op->kind = Op::kKernel;
  op->kernel = std::move(kernel);
  op->args = std::move(args);
  op->call = std::move(call);
  op->call.index = replica_;
  op->source = std::move(push);
  if (op->source) {
    op->bytes = op->source();
    op->call.push_consts = op->bytes;
  }
  ops_.push_back(std::move(op));
}

void Sequence::record_write(Array x, BytesSource data) {
  check_idle("record_write");
  auto op = std::make_shared<Op>();
  op->kind = Op::kWrite;
  op->bytes = data();
  if (op->bytes.size() != x.nbytes()) {
    throw ShapeError("[Sequence.record_write] data of " + std::to_string(op->bytes.size()) +
                     " bytes does not match " + std::string(name(x.dtype())) + " array of " +
                     std::to_string(x.nbytes()) + " bytes");
  }
  op->x = std::move(x);
  op->source = std::move(data);
  ops_.push_back(std::move(op));
}

int Sequence::record_read(Array x) {
  check_idle("record_read");
  auto op = std::make_shared<Op>();
  op->kind = Op::kRead;
  op->x = std::move(x);
  op->slot = slots_++;
  ops_.push_back(std::move(op));
  return ops_.back()->slot;
}

int Sequence::record_eval(std::function<Array()> expr, std::optional<Array> out) {
  check_idle("record_eval");
  auto op = std::make_shared<Op>();
  op->kind = Op::kEval;
  op->expr = std::move(expr);
  op->out = std::move(out);
  op->slot = slots_++;
  ops_.push_back(std::move(op));
  return ops_.back()->slot;
}

void Sequence::eval() {
  eval_async();
  eval_await();
}

void Sequence::eval_async() {
  check_idle("eval_async");
  Stream& s = *ctx_->replica(replica_).stream;
  // A stream holds 1024 timestamps between resets (device/stream.cc): longer runs go untimed.
  const bool timed = ctx_->replica(replica_).device->caps().timestamp_period_ns > 0 &&
                     ops_.size() < 1024;
  completed_ = false;
  queries_.clear();
  results_.assign(slots_, std::monostate{});
  if (timed) {
    s.reset_timestamps();
    queries_.push_back(s.timestamp());
  }
  for (const auto& op : ops_) {
    switch (op->kind) {
      case Op::kKernel: {
        std::vector<Array> args = op->args;  // shares the arrays' states
        auto prepared = op->kernel->prepare(args, op->call);
        op->kernel->record(*prepared, replica_, s);
        op->kernel->finish(*prepared, replica_);
        break;
      }
      case Op::kWrite:
        op->x.write(op->bytes.data(), op->bytes.size(), replica_);
        break;
      case Op::kRead: {
        NodePtr leaf = op->x.node();
        if (!leaf->is_leaf() || !leaf->view().is_contiguous()) {
          leaf = realize(ctx_, {default_graph().elementwise(vka::Op::kAstype, leaf->dtype(), {leaf})},
                         replica_)[0];
        }
        op->nbytes = op->x.nbytes();
        op->scratch = scratch_buffer(ctx_, DType::kUInt8, static_cast<int64_t>(op->nbytes));
        s.copy(device_buffer(*leaf->buffer())->vk_buffer(replica_),
               static_cast<uint64_t>(leaf->view().offset) * itemsize(leaf->dtype()),
               op->scratch->vk_buffer(replica_), 0, op->nbytes);
        break;
      }
      case Op::kEval: {
        Array v = op->expr();
        if (op->out) {
          if (v.shape() != op->out->shape()) {
            throw ShapeError("[Sequence.record_eval] the expression's shape " +
                             vka::to_string(v.shape()) + " does not match out's " +
                             vka::to_string(op->out->shape()));
          }
          const NodePtr dest = op->out->storage();
          write_into(ctx_, dest, default_graph().convert(v.node(), dest->dtype(), dest->shape()),
                     replica_);
          op->value = *op->out;
        } else {
          v.eval(replica_);
          op->value = v;
        }
        break;
      }
    }
    if (timed) queries_.push_back(s.timestamp());
  }
  value_ = s.submit();
  running_ = true;
}

bool Sequence::eval_await(std::optional<double> timeout_s) {
  if (!running_) {
    if (completed_) return true;
    throw ShapeError("[Sequence.eval_await] nothing was submitted: call eval_async() first");
  }
  Stream& s = *ctx_->replica(replica_).stream;
  if (timeout_s) {
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::duration<double>(std::max(0.0, *timeout_s));
    while (s.completed_value() < value_) {
      if (std::chrono::steady_clock::now() >= deadline) return false;
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  }
  s.wait(value_);
  collect();
  return true;
}

void Sequence::collect() {
  Stream& s = *ctx_->replica(replica_).stream;
  stamps_.clear();
  for (uint32_t q : queries_) stamps_.push_back(s.elapsed_ns(queries_[0], q));
  for (const auto& op : ops_) {
    if (op->kind == Op::kRead) {
      Bytes b(op->nbytes);
      op->scratch->read(b.data(), 0, op->nbytes, replica_);
      results_[op->slot] = std::move(b);
      op->scratch.reset();
    } else if (op->kind == Op::kEval) {
      results_[op->slot] = *op->value;
      op->value.reset();
    }
  }
  running_ = false;
  completed_ = true;
}

bool Sequence::is_running() {
  return running_ && ctx_->replica(replica_).stream->completed_value() < value_;
}

void Sequence::clear() {
  check_idle("clear");
  ops_.clear();
  slots_ = 0;
  completed_ = false;
  results_.clear();
  stamps_.clear();
}

void Sequence::rerecord() {
  check_idle("rerecord");
  for (const auto& op : ops_) {
    if (!op->source) continue;
    Bytes b = op->source();
    if (op->kind == Op::kWrite && b.size() != op->x.nbytes()) {
      throw ShapeError("[Sequence.rerecord] data of " + std::to_string(b.size()) +
                       " bytes does not match the array's " + std::to_string(op->x.nbytes()));
    }
    op->bytes = std::move(b);
    if (op->kind == Op::kKernel) op->call.push_consts = op->bytes;
  }
}

std::vector<double> Sequence::timestamps_ns() const {
  if (!completed_) throw ShapeError("[Sequence.get_timestamps] no completed run");
  if (stamps_.empty()) {
    throw DeviceError("[Sequence.get_timestamps] no timestamps: the device cannot write them on "
                      "its compute queue, or the run had more than 1023 operations");
  }
  return stamps_;
}

std::vector<double> Sequence::durations_ns() const {
  const std::vector<double> t = timestamps_ns();
  std::vector<double> d;
  for (size_t i = 1; i < t.size(); ++i) d.push_back(t[i] - t[i - 1]);
  return d;
}

const Sequence::Bytes& Sequence::read_result(int slot) const {
  if (!completed_ || slot < 0 || slot >= static_cast<int>(results_.size()) ||
      !std::holds_alternative<Bytes>(results_[slot])) {
    throw IndexError("[Sequence.result] no read result " + std::to_string(slot) +
                     (completed_ ? "" : " (no completed run)"));
  }
  return std::get<Bytes>(results_[slot]);
}

Array Sequence::eval_result(int slot) const {
  if (!completed_ || slot < 0 || slot >= static_cast<int>(results_.size()) ||
      !std::holds_alternative<Array>(results_[slot])) {
    throw IndexError("[Sequence.result] no evaluation result " + std::to_string(slot) +
                     (completed_ ? "" : " (no completed run)"));
  }
  return std::get<Array>(results_[slot]);
}

}  // namespace vka
