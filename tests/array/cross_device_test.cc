// Copies between replicas on different logical devices (device/cross_device.h): both paths
// (one host allocation imported into both devices, or pinned memory of each and a host copy),
// chunked over several staging slots, at odd offsets and sizes, through broadcast / gather /
// all_reduce and plain reads; the counters show the path taken.
//
// Contexts are two logical devices: physical devices 0 and 1 where the machine has two (or
// VKA_TEST_DEVICES=0,1 names them), else physical device 0 twice (lavapipe).
#include <gtest/gtest.h>

#include <cstdlib>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "array/array.h"
#include "array/replicas.h"
#include "base/errors.h"
#include "device/buffer.h"
#include "device/cross_device.h"

namespace vka {
namespace {

std::shared_ptr<Context> two_devices() {
  std::vector<int> physical;
  if (const char* env = std::getenv("VKA_TEST_DEVICES")) {
    std::stringstream s(env);
    std::string item;
    while (std::getline(s, item, ',')) physical.push_back(std::stoi(item));
  } else {
    for (const PhysicalDeviceInfo& d : list_physical_devices()) physical.push_back(d.index);
  }
  if (physical.empty()) physical.push_back(0);
  ContextOptions o;
  o.devices = {physical[0], physical[1 % physical.size()]};
  return Context::create(o);
}

bool both_import(const std::shared_ptr<Context>& ctx) {
  return ctx->device(0).caps().external_memory_host && ctx->device(1).caps().external_memory_host;
}

// Sets the options for one test and restores the defaults after it.
class CrossDeviceTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    CrossDeviceOptions o;
    o.chunk_bytes = 64 << 10;  // a few hundred KiB span several chunks and every slot
    o.slots = 3;
    o.shared_host = GetParam();
    set_cross_device_options(o);
  }
  void TearDown() override { set_cross_device_options(CrossDeviceOptions()); }

  // The path copies take with this test's options.
  ReplicaPath expected(const std::shared_ptr<Context>& ctx) const {
    return GetParam() && both_import(ctx) ? ReplicaPath::kSharedHost : ReplicaPath::kStagedHost;
  }
  uint64_t path_count(const ReplicaCopyStats& s, ReplicaPath p) const {
    return p == ReplicaPath::kSharedHost ? s.shared_host : s.staged_host;
  }
};

std::vector<uint8_t> pattern(size_t n, uint8_t seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(i * 131 + seed + i / 251);
  return v;
}

TEST_P(CrossDeviceTest, RangesAtOddOffsetsAndSizes) {
  auto ctx = two_devices();
  const ReplicaPath path = expected(ctx);
  constexpr uint64_t kBytes = 400000;  // 6.1 chunks of 64 KiB
  ReplicatedBuffer src(ctx, kBytes), dst(ctx, kBytes);
  const std::vector<uint8_t> s1 = pattern(kBytes, 1), d0 = pattern(kBytes, 2);
  src.write(s1.data(), 0, kBytes, 1);
  dst.write(d0.data(), 0, kBytes, 0);
  // (src offset, dst offset, size): empty, one byte, one chunk less and more one byte, a size
  // that is not a multiple of the chunk and spans every slot twice, at unaligned offsets.
  const uint64_t cases[][3] = {{0, 0, 0},
                               {3, 5, 1},
                               {7, 1, 7},
                               {1, 2, 1000},
                               {9, 0, 65535},
                               {0, 11, 65537},
                               {13, 3, 393216 + 777},
                               {0, 0, kBytes}};
  std::vector<uint8_t> want = d0;
  for (const auto& c : cases) {
    const ReplicaCopyStats c0 = replica_copy_stats();
    EXPECT_EQ(copy_between_replicas(src, 1, c[0], dst, 0, c[1], c[2]), path);
    const ReplicaCopyStats c1 = replica_copy_stats();
    const uint64_t chunks = (c[2] + (64 << 10) - 1) / (64 << 10);
    EXPECT_EQ(path_count(c1, path) - path_count(c0, path), c[2] ? 1u : 0u) << c[2];
    EXPECT_EQ(c1.host - c0.host, c[2] ? 1u : 0u);
    EXPECT_EQ(c1.host_chunks - c0.host_chunks, chunks) << c[2];
    std::copy(s1.begin() + c[0], s1.begin() + c[0] + c[2], want.begin() + c[1]);
    std::vector<uint8_t> got(kBytes);
    dst.read(got.data(), 0, kBytes, 0);
    ASSERT_EQ(got, want) << "src offset " << c[0] << ", dst offset " << c[1] << ", size " << c[2];
  }
  // The other direction, into replica 1, from a source made just before on replica 0.
  const std::vector<uint8_t> s0 = pattern(kBytes, 9);
  src.write(s0.data(), 0, kBytes, 0);
  EXPECT_EQ(copy_between_replicas(src, 0, 5, dst, 1, 0, kBytes - 5), path);
  std::vector<uint8_t> got(kBytes - 5);
  dst.read(got.data(), 0, kBytes - 5, 1);
  EXPECT_TRUE(std::equal(got.begin(), got.end(), s0.begin() + 5));
}

TEST_P(CrossDeviceTest, BroadcastGatherAllReduceAcrossChunks) {
  auto ctx = two_devices();
  const ReplicaPath path = expected(ctx);
  for (int64_t n : {int64_t{1}, int64_t{7}, int64_t{1000}, int64_t{100003}}) {
    std::vector<float> v0(n), v1(n);
    for (int64_t i = 0; i < n; ++i) {
      v0[i] = static_cast<float>(i % 97) - 40;
      v1[i] = static_cast<float>((i * 7) % 89) * 0.5f;
    }
    Array x = Array::from_host(v0.data(), {n}, DType::kFloat32, ctx);
    x.write(v1.data(), n * sizeof(float), 1);
    const ReplicaCopyStats c0 = replica_copy_stats();
    Array b = replicas_broadcast(x * 2, 1);
    std::vector<float> want_b(n), want_s(n), want_max(n);
    for (int64_t i = 0; i < n; ++i) {
      want_b[i] = v1[i] * 2;
      want_s[i] = v0[i] + v1[i];
      want_max[i] = std::max(v0[i], v1[i]);
    }
    EXPECT_EQ(b.to_vector<float>(0), want_b) << n;  // the plain read copies it there
    EXPECT_EQ(b.to_vector<float>(1), want_b) << n;
    Array g = replicas_gather(x);
    std::vector<float> want_g = v0;
    want_g.insert(want_g.end(), v1.begin(), v1.end());
    EXPECT_EQ(g.to_vector<float>(1), want_g) << n;
    EXPECT_EQ(replicas_all_reduce(x, "sum").to_vector<float>(1), want_s) << n;
    EXPECT_EQ(replicas_all_reduce(x, "max").to_vector<float>(1), want_max) << n;
    const ReplicaCopyStats c1 = replica_copy_stats();
    // broadcast 1, gather 1 + 1 to read it on replica 1, each all_reduce 2 (gather, result)
    EXPECT_EQ(path_count(c1, path) - path_count(c0, path), 7u) << n;
    EXPECT_EQ(c1.host - c0.host, 7u) << n;
    if (n == 100003) {
      EXPECT_GT(c1.host_chunks - c0.host_chunks, 7u * 6);
    }
  }
}

TEST_P(CrossDeviceTest, EmptyArraysCopyNothing) {
  auto ctx = two_devices();
  Array x = Array::from_host(nullptr, {0, 3}, DType::kInt32, ctx);
  const ReplicaCopyStats c0 = replica_copy_stats();
  Array b = replicas_broadcast(x, 1);
  EXPECT_EQ(b.shape(), (Shape{0, 3}));
  EXPECT_TRUE(b.to_vector<int32_t>(0).empty());
  Array s = replicas_all_reduce(x, "prod");
  EXPECT_EQ(s.shape(), (Shape{0, 3}));
  EXPECT_TRUE(s.to_vector<int32_t>(1).empty());
  EXPECT_EQ(replica_copy_stats().host, c0.host);
}

TEST_P(CrossDeviceTest, StagingGrowsAndFollowsTheOptions) {
  auto ctx = two_devices();
  ReplicatedBuffer src(ctx, 1 << 20), dst(ctx, 1 << 20);
  const std::vector<uint8_t> s1 = pattern(1 << 20, 5);
  src.write(s1.data(), 0, 1 << 20, 1);
  CrossDeviceOptions o = cross_device_options();
  // Small, then large (slots grow), then other chunk sizes and slot counts (slots remade).
  for (auto [chunk, slots, size] : {std::tuple<uint64_t, int, uint64_t>{64 << 10, 3, 10},
                                    {64 << 10, 3, 1 << 20},
                                    {100000, 2, 1000001},
                                    {1 << 20, 4, 1 << 20},
                                    {4096, 16, 300001}}) {
    o.chunk_bytes = chunk;
    o.slots = slots;
    set_cross_device_options(o);
    const ReplicaCopyStats c0 = replica_copy_stats();
    copy_between_replicas(src, 1, 0, dst, 0, 0, size);
    EXPECT_EQ(replica_copy_stats().host_chunks - c0.host_chunks, (size + chunk - 1) / chunk);
    std::vector<uint8_t> got(size);
    dst.read(got.data(), 0, size, 0);
    ASSERT_TRUE(std::equal(got.begin(), got.end(), s1.begin())) << chunk << " " << size;
  }
}

TEST_P(CrossDeviceTest, PeerInfoAndOptionErrors) {
  auto ctx = two_devices();
  const PeerInfo p = peer_info(*ctx, 0, 1);
  EXPECT_EQ(p.external_memory_host, both_import(ctx));
  EXPECT_EQ(p.path, expected(ctx) == ReplicaPath::kSharedHost ? CrossDevicePath::kSharedHost
                                                              : CrossDevicePath::kStagedHost);
  if (ctx->device(0).physical() == ctx->device(1).physical()) {
    EXPECT_TRUE(p.same_uuid);
  }
  const CrossDeviceOptions before = cross_device_options();
  CrossDeviceOptions bad = before;
  bad.slots = 1;
  try {
    set_cross_device_options(bad);
    FAIL();
  } catch (const ShapeError& e) {
    EXPECT_NE(std::string(e.what()).find("slots in [2, 16], got chunk_bytes=65536 and slots=1"),
              std::string::npos)
        << e.what();
  }
  bad = before;
  bad.chunk_bytes = 0;
  EXPECT_THROW(set_cross_device_options(bad), ShapeError);
  EXPECT_EQ(cross_device_options().slots, before.slots);
  EXPECT_EQ(cross_device_options().chunk_bytes, before.chunk_bytes);
}

// Staging is cached per device pair on the context and destroyed with it (the validation
// layer reports objects left behind); a new context makes its own.
TEST_P(CrossDeviceTest, StagingLivesWithTheContext) {
  for (int round = 0; round < 2; ++round) {
    auto ctx = two_devices();
    std::vector<int64_t> v(50000);
    std::iota(v.begin(), v.end(), round);
    Array x = Array::from_host(v.data(), {50000}, DType::kInt64, ctx);
    Array b = replicas_broadcast(x + 1, 0);
    for (int64_t& e : v) ++e;
    EXPECT_EQ(b.to_vector<int64_t>(1), v);
  }
}

INSTANTIATE_TEST_SUITE_P(Paths, CrossDeviceTest, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "SharedHost" : "StagedHost";
                         });

}  // namespace
}  // namespace vka
