// Replicas: per-replica evaluation and validity, writes to one replica, scopes, the
// cross-replica operations and their copy paths, concurrency of the replicas' queues.
//
// Contexts use 2 and 3 logical devices: distinct physical devices where the machine has them
// (two GPUs), else one physical device listed several times (lavapipe). VKA_TEST_DEVICES=0,1
// names the physical devices to cycle through instead.
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "array/array.h"
#include "array/reduce.h"
#include "array/replicas.h"
#include "base/errors.h"
#include "device/stream.h"
#include "runtime/realize.h"

namespace vka {
namespace {

std::vector<int> physical_indices() {
  std::vector<int> out;
  if (const char* env = std::getenv("VKA_TEST_DEVICES")) {
    std::stringstream s(env);
    std::string item;
    while (std::getline(s, item, ',')) out.push_back(std::stoi(item));
  } else {
    for (const PhysicalDeviceInfo& d : list_physical_devices()) out.push_back(d.index);
  }
  if (out.empty()) out.push_back(0);
  return out;
}

// `n` logical devices cycling through the physical ones; `host_access` kStaging makes every
// upload a counted stream copy.
std::shared_ptr<Context> make_context(int n, HostAccess host_access = HostAccess::kAuto,
                                      int queues = 1) {
  static const std::vector<int> physical = physical_indices();
  ContextOptions o;
  for (int i = 0; i < n; ++i) o.devices.push_back(physical[i % physical.size()]);
  o.host_access = host_access;
  o.queues_per_device = queues;
  return Context::create(o);
}

StreamStats stats(const std::shared_ptr<Context>& ctx, int r) {
  return ctx->replica(r).stream->stats();
}

std::vector<uint64_t> dispatches(const std::shared_ptr<Context>& ctx) {
  std::vector<uint64_t> out;
  for (int r = 0; r < ctx->num_replicas(); ++r) out.push_back(stats(ctx, r).dispatches);
  return out;
}

// Per-replica data: replica r holds base + 100 r.
Array per_replica(const std::shared_ptr<Context>& ctx, std::vector<float> base) {
  Array a = Array::from_host(base.data(), {static_cast<int64_t>(base.size())}, DType::kFloat32,
                             ctx);
  for (int r = 1; r < ctx->num_replicas(); ++r) {
    std::vector<float> v = base;
    for (float& x : v) x += 100.0f * r;
    a.write(v.data(), v.size() * sizeof(float), r);
  }
  return a;
}

std::vector<float> plus(std::vector<float> v, float d, float scale = 1) {
  for (float& x : v) x = x * scale + d;
  return v;
}

TEST(ReplicasTest, ExpressionsRunOnEveryReplicaOnItsOwnData) {
  auto ctx = make_context(3);
  Array a = per_replica(ctx, {1, 2, 3});
  Array y = a * 2 + 1;
  for (int r = 0; r < 3; ++r) {
    EXPECT_EQ(y.to_vector<float>(r), plus({1, 2, 3}, 1 + 200.0f * r, 2)) << "replica " << r;
  }
}

TEST(ReplicasTest, EvalOnOneReplicaComputesTheOthersWhenRead) {
  auto ctx = make_context(3);
  Array a = per_replica(ctx, {1, 2, 3, 4, 5});
  Array y = a * 2 + 1;
  const std::vector<uint64_t> d0 = dispatches(ctx);
  y.eval(1);
  EXPECT_FALSE(y.is_lazy());
  std::vector<uint64_t> d1 = dispatches(ctx);
  EXPECT_EQ(d1[0], d0[0]);
  EXPECT_EQ(d1[1], d0[1] + 1);
  EXPECT_EQ(d1[2], d0[2]);
  EXPECT_EQ(y.to_vector<float>(1), plus({1, 2, 3, 4, 5}, 201, 2));
  EXPECT_EQ(dispatches(ctx), d1);  // replica 1 holds the value: nothing runs
  // Replica 0 was never computed: the read computes it there, and only there.
  EXPECT_EQ(y.to_vector<float>(0), plus({1, 2, 3, 4, 5}, 1, 2));
  std::vector<uint64_t> d2 = dispatches(ctx);
  EXPECT_EQ(d2[0], d1[0] + 1);
  EXPECT_EQ(d2[1], d1[1]);
  EXPECT_EQ(d2[2], d1[2]);
  EXPECT_EQ(y.to_vector<float>(0), plus({1, 2, 3, 4, 5}, 1, 2));
  EXPECT_EQ(dispatches(ctx), d2);
  // An expression over y run everywhere computes y's missing replica first.
  Array z = y - 1;
  EXPECT_EQ(z.to_vector<float>(2), plus({1, 2, 3, 4, 5}, 400, 2));
  std::vector<uint64_t> d3 = dispatches(ctx);
  EXPECT_EQ(d3[2], d2[2] + 2);  // y there, then z
  EXPECT_EQ(d3[0], d2[0] + 1);  // z only
  EXPECT_EQ(y.to_vector<float>(2), plus({1, 2, 3, 4, 5}, 401, 2));
  EXPECT_EQ(dispatches(ctx), d3);
}

TEST(ReplicasTest, ReductionsAndChainsEvaluatedOnOneReplica) {
  auto ctx = make_context(2);
  std::vector<float> base(1000);
  for (size_t i = 0; i < base.size(); ++i) base[i] = static_cast<float>(i % 7);
  Array a = per_replica(ctx, base);
  Array s = sum(a * 2);
  s.eval(0);
  Array t = s + 1;  // reads s, whose replica 1 is still to be computed
  t.eval(1);
  EXPECT_EQ(t.to_vector<float>(1), (std::vector<float>{2.0f * (2997 + 100 * 1000) + 1}));
  EXPECT_EQ(s.to_vector<float>(0), (std::vector<float>{2.0f * 2997}));
  EXPECT_EQ(s.to_vector<float>(1), (std::vector<float>{2.0f * (2997 + 100 * 1000)}));
}

TEST(ReplicasTest, ScopeEvaluatesOnItsReplicaOnly) {
  auto ctx = make_context(3);
  Array a = per_replica(ctx, {1, 2});
  Array y = a + 5;
  const std::vector<uint64_t> d0 = dispatches(ctx);
  {
    ReplicaScope scope(2);
    EXPECT_EQ(current_replica(), 2);
    {
      ReplicaScope inner(0);
      EXPECT_EQ(current_replica(), 0);
    }
    EXPECT_EQ(current_replica(), 2);
    y.eval();
  }
  EXPECT_FALSE(current_replica().has_value());
  std::vector<uint64_t> d1 = dispatches(ctx);
  EXPECT_EQ(d1[2], d0[2] + 1);
  EXPECT_EQ(d1[0], d0[0]);
  EXPECT_EQ(d1[1], d0[1]);
  EXPECT_EQ(y.to_vector<float>(2), (std::vector<float>{206, 207}));
  EXPECT_EQ(y.to_vector<float>(1), (std::vector<float>{106, 107}));
  EXPECT_THROW(ReplicaScope(-1), IndexError);
  ReplicaScope out_of_range(7);
  EXPECT_THROW((a + 1).eval(), IndexError);
}

TEST(ReplicasTest, WritingOneReplicaNeverUploadsOrComputesNeedlessly) {
  auto ctx = make_context(3, HostAccess::kStaging);
  std::vector<float> v = {1, 2, 3, 4};
  Array x = Array::from_host(v.data(), {4}, DType::kFloat32, ctx);
  const StreamStats s0 = stats(ctx, 0), s1 = stats(ctx, 1), s2 = stats(ctx, 2);
  // x alone holds its buffer: the write goes there, on replica 1 only.
  std::vector<float> w = {9, 8, 7, 6};
  x.write(w.data(), 16, 1);
  EXPECT_EQ(stats(ctx, 0).copies, s0.copies);
  EXPECT_EQ(stats(ctx, 1).copies, s1.copies + 1);  // one staged upload
  EXPECT_EQ(stats(ctx, 2).copies, s2.copies);
  EXPECT_EQ(x.to_vector<float>(0), v);
  EXPECT_EQ(x.to_vector<float>(1), w);
  EXPECT_EQ(x.to_vector<float>(2), v);
  EXPECT_EQ(stats(ctx, 0).dispatches, s0.dispatches);
  EXPECT_EQ(stats(ctx, 1).dispatches, s1.dispatches);
  // A lazy value: writing replica 0 computes nothing; the others are computed when read.
  Array y = x * 10;
  const std::vector<uint64_t> d0 = dispatches(ctx);
  y.write(v.data(), 16, 0);
  EXPECT_EQ(dispatches(ctx), d0);
  EXPECT_EQ(y.to_vector<float>(0), v);
  EXPECT_EQ(dispatches(ctx), d0);
  EXPECT_EQ(y.to_vector<float>(1), plus(w, 0, 10));
  std::vector<uint64_t> d1 = dispatches(ctx);
  EXPECT_EQ(d1[1], d0[1] + 1);
  EXPECT_EQ(d1[2], d0[2]);
  EXPECT_EQ(y.to_vector<float>(2), plus(v, 0, 10));
  // Writing the same replica again goes in place: y's buffer is its own now.
  const uint64_t c0 = stats(ctx, 0).copies;
  y.write(w.data(), 16, 0);
  EXPECT_EQ(stats(ctx, 0).copies, c0 + 1);
  EXPECT_EQ(y.to_vector<float>(0), w);
  EXPECT_EQ(y.to_vector<float>(1), plus(w, 0, 10));
}

TEST(ReplicasTest, ExpressionsMadeBeforeAWriteKeepTheirValue) {
  auto ctx = make_context(2);
  Array x = per_replica(ctx, {1, 2, 3});
  Array y = x + 1;  // reads x's buffer
  std::vector<float> w = {0, 0, 0};
  x.write(w.data(), 12, 1);  // in place: y is computed first
  EXPECT_EQ(y.to_vector<float>(1), (std::vector<float>{102, 103, 104}));
  EXPECT_EQ(x.to_vector<float>(1), w);
  // A value made on one replica over storage that is then written keeps the old value on the
  // other replica too.
  Array s = per_replica(ctx, {1, 2, 3});
  Array view = s[{range(0, 3)}];  // s becomes storage
  Array z = s * 3;
  z.eval(0);
  s.fill(0.5);
  EXPECT_EQ(z.to_vector<float>(1), (std::vector<float>{303, 306, 309}));
  EXPECT_EQ(z.to_vector<float>(0), (std::vector<float>{3, 6, 9}));
  EXPECT_EQ(view.to_vector<float>(1), (std::vector<float>{0.5, 0.5, 0.5}));
}

TEST(ReplicasTest, ValueMadeOnOneReplicaBecomesStorageOnEvery) {
  auto ctx = make_context(2);
  Array a = per_replica(ctx, {1, 2, 3, 4});
  Array y = a * 2;
  y.eval(1);
  Array v = y[{range(1, 3)}];  // y becomes storage: computed on replica 0 too
  EXPECT_EQ(v.to_vector<float>(0), (std::vector<float>{4, 6}));
  EXPECT_EQ(v.to_vector<float>(1), (std::vector<float>{204, 206}));
  v.fill(0.0);
  EXPECT_EQ(y.to_vector<float>(0), (std::vector<float>{2, 0, 0, 8}));
}

TEST(ReplicasTest, BroadcastFromOneReplica) {
  auto ctx = make_context(3);
  Array a = per_replica(ctx, {1, 2, 3});
  const ReplicaCopyStats c0 = replica_copy_stats();
  Array b = replicas_broadcast(a + 1, 1);
  for (int r = 0; r < 3; ++r) EXPECT_EQ(b.to_vector<float>(r), plus({1, 2, 3}, 101)) << r;
  const ReplicaCopyStats c1 = replica_copy_stats();
  // One copy on replica 1, one to each other replica, whatever the path.
  EXPECT_EQ(c1.same_queue - c0.same_queue, 1u);
  EXPECT_EQ((c1.queue_to_queue + c1.host) - (c0.queue_to_queue + c0.host), 2u);
  EXPECT_EQ(a.to_vector<float>(2), plus({1, 2, 3}, 200));  // a is unchanged
  // Copies to the other replicas happen once, when first needed.
  EXPECT_EQ(b.to_vector<float>(2), plus({1, 2, 3}, 101));
  EXPECT_EQ(replica_copy_stats().host + replica_copy_stats().queue_to_queue,
            c1.host + c1.queue_to_queue);
  try {
    replicas_broadcast(a, 3);
    FAIL();
  } catch (const IndexError& e) {
    EXPECT_NE(std::string(e.what()).find("[replicas.broadcast] src replica 3 is out of range"),
              std::string::npos)
        << e.what();
  }
}

TEST(ReplicasTest, GatherStacksTheReplicas) {
  auto ctx = make_context(3);
  Array a = per_replica(ctx, {1, 2});
  Array g = replicas_gather(reshape(a, {2, 1}) * 1);
  EXPECT_EQ(g.shape(), (Shape{3, 2, 1}));
  const std::vector<float> want = {1, 2, 101, 102, 201, 202};
  EXPECT_EQ(g.to_vector<float>(0), want);
  EXPECT_EQ(g.to_vector<float>(2), want);
  Array strided = replicas_gather(per_replica(ctx, {1, 2, 3, 4})[{range(0, 4, 2)}]);
  EXPECT_EQ(strided.to_vector<float>(1), (std::vector<float>{1, 3, 101, 103, 201, 203}));
}

template <typename T>
void check_all_reduce(const std::shared_ptr<Context>& ctx, const std::string& op,
                      const std::vector<std::vector<T>>& values) {
  const int n = ctx->num_replicas();
  Array x = Array::from_host(values[0].data(), {static_cast<int64_t>(values[0].size())},
                             dtype_of_v<T>, ctx);
  for (int r = 1; r < n; ++r) x.write(values[r].data(), values[r].size() * sizeof(T), r);
  std::vector<T> want = values[0];
  for (int r = 1; r < n; ++r) {
    for (size_t i = 0; i < want.size(); ++i) {
      const T v = values[r][i];
      // Integers wrap around in T, as the device's and numpy's arithmetic in T do.
      using Wide = std::conditional_t<std::is_integral_v<T>, int64_t, T>;
      if (op == "sum") want[i] = static_cast<T>(static_cast<Wide>(want[i]) + v);
      if (op == "prod") want[i] = static_cast<T>(static_cast<Wide>(want[i]) * v);
      if (op == "max") want[i] = std::max(want[i], v);
      if (op == "min") want[i] = std::min(want[i], v);
    }
  }
  Array y = replicas_all_reduce(x, op);
  EXPECT_EQ(y.dtype(), x.dtype());
  for (int r = n - 1; r >= 0; --r) EXPECT_EQ(y.to_vector<T>(r), want) << op << " replica " << r;
}

TEST(ReplicasTest, AllReduce) {
  for (int n : {2, 3}) {
    auto ctx = make_context(n);
    std::vector<std::vector<int32_t>> ints;
    std::vector<std::vector<float>> floats;
    std::vector<std::vector<int8_t>> small;
    for (int r = 0; r < n; ++r) {
      ints.push_back({r, -3 * r, 7, 1000000 * (r + 1), 5 - r});
      floats.push_back({0.5f * r, -1.25f, 3.0f - r, 1e-3f * (r + 1), -2.0f * r});
      small.push_back({static_cast<int8_t>(100 + r), static_cast<int8_t>(-100 - r), 3});
    }
    for (const char* op : {"sum", "prod", "max", "min"}) {
      check_all_reduce(ctx, op, ints);
      check_all_reduce(ctx, op, floats);
      check_all_reduce(ctx, op, small);  // wraps around in int8, as numpy's dtype=int8
    }
  }
  auto ctx = make_context(2);
  Array x = zeros({3}, DType::kFloat32, ctx);
  try {
    replicas_all_reduce(x, "mean");
    FAIL();
  } catch (const ShapeError& e) {
    EXPECT_NE(std::string(e.what()).find("'sum', 'prod', 'max' or 'min', got 'mean'"),
              std::string::npos);
  }
  Array empty = zeros({0, 4}, DType::kInt64, ctx);
  EXPECT_EQ(replicas_all_reduce(empty, "sum").shape(), (Shape{0, 4}));
  Array scalar = reshape(per_replica(ctx, {2}), Shape{});
  EXPECT_EQ(replicas_all_reduce(scalar, "sum").to_vector<float>(1), (std::vector<float>{104}));
}

TEST(ReplicasTest, QueuesRunWhileTheHostWaitsForOne) {
  auto ctx = make_context(3);
  Array a = per_replica(ctx, std::vector<float>(1000, 1.0f));
  Array y = sum(a * 3);
  y.eval();
  std::vector<uint64_t> before;
  for (int r = 0; r < 3; ++r) before.push_back(stats(ctx, r).submits);
  // Nothing waited yet: the work is recorded on each replica's queue.
  EXPECT_EQ(y.to_vector<float>(0), (std::vector<float>{3000}));
  // Reading replica 0 submitted every replica's work, without waiting for replicas 1 and 2.
  for (int r = 0; r < 3; ++r) EXPECT_GT(stats(ctx, r).submits, before[r]) << r;
  ctx->synchronize();
  for (int r = 0; r < 3; ++r) {
    Stream& s = *ctx->replica(r).stream;
    EXPECT_EQ(s.completed_value(), s.pending_value()) << r;
  }
  EXPECT_EQ(y.to_vector<float>(2), (std::vector<float>{3000 + 3 * 200 * 1000}));
}

TEST(ReplicasTest, QueueToQueueCopiesOnOneDevice) {
  std::shared_ptr<Context> ctx;
  try {
    ctx = make_context(1, HostAccess::kAuto, 2);
  } catch (const DeviceError& e) {
    GTEST_SKIP() << "the device has one compute queue: " << e.what();
  }
  Array a = per_replica(ctx, {1, 2, 3});
  const ReplicaCopyStats c0 = replica_copy_stats();
  const uint64_t waits = stats(ctx, 0).queue_waits + stats(ctx, 1).queue_waits;
  Array s = replicas_all_reduce(a * 2, "sum");
  EXPECT_EQ(s.to_vector<float>(1), (std::vector<float>{204, 208, 212}));
  EXPECT_EQ(s.to_vector<float>(0), (std::vector<float>{204, 208, 212}));
  EXPECT_GT(replica_copy_stats().queue_to_queue, c0.queue_to_queue);
  EXPECT_EQ(replica_copy_stats().host, c0.host);
  EXPECT_GT(stats(ctx, 0).queue_waits + stats(ctx, 1).queue_waits, waits);
}

}  // namespace
}  // namespace vka
