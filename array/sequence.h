// Sequence: a recorded list of operations on one replica's queue (user kernels, host writes
// and reads, lazy evaluations), run with eval() or eval_async()/eval_await(), with a GPU
// timestamp after each operation.
//
// Recording captures values: a kernel's push constants and a write's data are taken from
// their sources when recorded, and again on rerecord(). Reads and evaluations happen at their
// place in the order; their results are available once the run completes (result()).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "array/array.h"
#include "array/user_kernel.h"

namespace vka {

class Sequence {
 public:
  using Bytes = std::vector<uint8_t>;
  using BytesSource = std::function<Bytes()>;

  // On replica `replica` of `context` (IndexError when out of range).
  explicit Sequence(std::shared_ptr<Context> context = Context::default_context(),
                    int replica = 0);
  ~Sequence();  // waits for a run in flight
  Sequence(const Sequence&) = delete;
  Sequence& operator=(const Sequence&) = delete;

  int replica() const { return replica_; }
  int size() const { return static_cast<int>(ops_.size()); }

  // Operations. `push` (null: the kernel's defaults) and `data` are called when recorded and
  // on rerecord(). record_read and record_eval return the slot of their result().
  void record_kernel(std::shared_ptr<const UserKernel> kernel, std::vector<Array> args,
                     UserCall call, BytesSource push = nullptr);
  void record_write(Array x, BytesSource data);
  int record_read(Array x);
  // Evaluates `expr()` at this point of the run (called on every run: a fresh expression reads
  // the buffers as the earlier operations left them), into `out` when given.
  int record_eval(std::function<Array()> expr, std::optional<Array> out = std::nullopt);

  // Runs every operation, then waits: eval_async() + eval_await().
  void eval();
  // Records and submits the run; the host returns at once (operations that must wait for the
  // device, such as host writes into buffers in use, wait inside). ShapeError when running.
  void eval_async();
  // Waits up to `timeout_s` seconds (unset: no limit). True when the run completed (results
  // and timestamps are then available); false on timeout, the run still going.
  bool eval_await(std::optional<double> timeout_s = std::nullopt);
  // Whether a submitted run has not completed on the device yet.
  bool is_running();
  // Forgets every operation (ShapeError when running).
  void clear();
  // Takes the recorded push constants and write data again from their sources.
  void rerecord();

  // After a completed run: the device time of each operation in ns (size() values), and the
  // raw timestamps (size() + 1, ns from the first, monotonic). ShapeError before a completed
  // run; DeviceError when the queue cannot write timestamps or the run had over 1023 ops.
  std::vector<double> durations_ns() const;
  std::vector<double> timestamps_ns() const;
  // A read's bytes (C order) or an evaluation's array, by slot.
  const Bytes& read_result(int slot) const;
  Array eval_result(int slot) const;

 private:
  struct Op;
  void check_idle(const char* what);
  void collect();

  std::shared_ptr<Context> ctx_;
  int replica_;
  std::vector<std::shared_ptr<Op>> ops_;
  int slots_ = 0;
  bool running_ = false;
  bool completed_ = false;
  uint64_t value_ = 0;
  std::vector<uint32_t> queries_;
  std::vector<double> stamps_;
  std::vector<std::variant<std::monostate, Bytes, Array>> results_;
};

}  // namespace vka
