// Stream and Pipeline: dispatches, hazard barriers (and their absence), windows over large
// buffers, timestamps, and compile/limit errors.
#include "device/stream.h"

#include <numeric>
#include <vector>

#include <gtest/gtest.h>

#include "base/errors.h"
#include "device/buffer.h"
#include "device/pipeline.h"
#include "kernels/compile.h"

namespace vka {
namespace {

// dst[i] = src[i] * 2 + 1 for i < n.
constexpr const char* kAffine = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1) writeonly buffer Dst { uint dst[]; };
layout(push_constant) uniform Params { uint n; } p;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < p.n) dst[i] = src[i] * 2u + 1u;
}
)";

// a[i] += 1 for i < n, grid-stride.
constexpr const char* kIncrement = R"(#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(push_constant) uniform Params { uint n; } p;
void main() {
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < p.n; i += stride) a[i] += 1u;
}
)";

struct Fixture {
  std::shared_ptr<Context> ctx = Context::create();
  Device& device = ctx->device(0);
  Stream& stream = *ctx->replica(0).stream;
};

std::vector<uint32_t> read_all(ReplicatedBuffer& b) {
  std::vector<uint32_t> out(b.nbytes() / 4);
  b.read(out.data(), 0, b.nbytes(), 0);
  return out;
}

TEST(StreamTest, DependentDispatchesGetBarriersAndGiveTheRightAnswer) {
  Fixture f;
  Pipeline affine(f.device, compile_glsl(kAffine, "affine"), 2, 4, "affine");
  const uint32_t n = 1000;
  std::vector<uint32_t> init(n);
  std::iota(init.begin(), init.end(), 0u);
  ReplicatedBuffer a(f.ctx, n * 4), b(f.ctx, n * 4), c(f.ctx, n * 4);
  a.write(init.data(), 0, n * 4, std::nullopt);
  const uint64_t barriers = f.stream.stats().barriers;
  f.stream.dispatch(affine, {{a.vk_buffer(0)}, {b.vk_buffer(0)}}, {false, true}, &n, 16);
  f.stream.dispatch(affine, {{b.vk_buffer(0)}, {c.vk_buffer(0)}}, {false, true}, &n, 16);  // RAW
  f.stream.dispatch(affine, {{c.vk_buffer(0)}, {a.vk_buffer(0)}}, {false, true}, &n, 16);  // RAW
  EXPECT_EQ(f.stream.stats().barriers - barriers, 2u);
  auto out = read_all(a);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(out[i], ((i * 2 + 1) * 2 + 1) * 2 + 1) << i;
}

TEST(StreamTest, IndependentDispatchesShareNoBarrier) {
  Fixture f;
  Pipeline affine(f.device, compile_glsl(kAffine, "affine"), 2, 4, "affine");
  const uint32_t n = 100;
  ReplicatedBuffer src(f.ctx, n * 4), x(f.ctx, n * 4), y(f.ctx, n * 4);
  std::vector<uint32_t> init(n, 5);
  src.write(init.data(), 0, n * 4, std::nullopt);
  f.ctx->synchronize();
  f.stream.dispatch(affine, {{src.vk_buffer(0)}, {x.vk_buffer(0)}}, {false, true}, &n, 2);
  const uint64_t barriers = f.stream.stats().barriers;
  f.stream.dispatch(affine, {{src.vk_buffer(0)}, {y.vk_buffer(0)}}, {false, true}, &n, 2);
  EXPECT_EQ(f.stream.stats().barriers, barriers);  // read-after-read only
  // Write-after-read: overwriting the source needs a barrier.
  f.stream.dispatch(affine, {{x.vk_buffer(0)}, {src.vk_buffer(0)}}, {false, true}, &n, 2);
  EXPECT_EQ(f.stream.stats().barriers, barriers + 1);
  EXPECT_EQ(read_all(y), std::vector<uint32_t>(n, 11));
  EXPECT_EQ(read_all(src), std::vector<uint32_t>(n, 23));
}

// A kernel binds windows of at most maxStorageBufferRange; together they cover a buffer larger
// than one binding can address.
TEST(StreamTest, WindowsCoverBuffersLargerThanOneBinding) {
  Fixture f;
  Pipeline inc(f.device, compile_glsl(kIncrement, "increment"), 1, 4, "increment");
  const uint64_t range = f.device.caps().max_storage_buffer_range;
  const uint64_t bytes = range + range / 2 + 256;
  std::vector<uint32_t> init(bytes / 4);
  std::iota(init.begin(), init.end(), 0u);
  ReplicatedBuffer buf(f.ctx, bytes);
  buf.write(init.data(), 0, bytes, std::nullopt);
  const uint64_t window = range - range % f.device.caps().min_storage_buffer_offset_alignment;
  for (uint64_t off = 0; off < bytes; off += window) {
    const uint64_t len = std::min(window, bytes - off);
    const uint32_t n = static_cast<uint32_t>(len / 4);
    f.stream.dispatch(inc, {{buf.vk_buffer(0), off, len}}, {true}, &n, 1024);
  }
  auto out = read_all(buf);
  for (size_t i = 0; i < out.size(); i += 4099) ASSERT_EQ(out[i], init[i] + 1) << i;
  EXPECT_EQ(out.back(), init.back() + 1);
}

TEST(StreamTest, TimestampsMeasureWork) {
  Fixture f;
  if (f.device.caps().timestamp_period_ns == 0) GTEST_SKIP() << "no timestamps on this queue";
  Pipeline inc(f.device, compile_glsl(kIncrement, "increment"), 1, 4, "increment");
  const uint32_t n = 1 << 20;
  ReplicatedBuffer buf(f.ctx, n * 4);
  f.stream.fill(buf.vk_buffer(0), 0, n * 4, 0);
  f.stream.reset_timestamps();
  uint32_t t0 = f.stream.timestamp();
  f.stream.dispatch(inc, {{buf.vk_buffer(0)}}, {true}, &n, 256);
  uint32_t t1 = f.stream.timestamp();
  f.stream.finish();
  EXPECT_GT(f.stream.elapsed_ns(t0, t1), 0.0);
  EXPECT_EQ(read_all(buf), std::vector<uint32_t>(n, 1));
}

TEST(StreamTest, CompileErrorsCarryTheNameAndNumberedSource) {
  try {
    compile_glsl("#version 450\nlayout(local_size_x = 1) in;\nvoid main() { oops; }\n", "broken");
    FAIL() << "no exception";
  } catch (const CompileError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("kernel broken"), std::string::npos) << m;
    EXPECT_NE(m.find("   3| void main() { oops; }"), std::string::npos) << m;
    EXPECT_NE(m.find("oops"), std::string::npos) << m;
  }
}

TEST(StreamTest, LimitsAreCheckedWithTheNumbers) {
  Fixture f;
  auto spirv = compile_glsl(kIncrement, "increment");
  const uint32_t too_many = f.device.caps().max_push_constants_size + 4;
  try {
    Pipeline p(f.device, spirv, 1, too_many, "increment");
    FAIL() << "no exception";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find(std::to_string(too_many)), std::string::npos);
  }
  Pipeline inc(f.device, spirv, 1, 4, "increment");
  ReplicatedBuffer buf(f.ctx, 16);
  const uint32_t n = 4;
  EXPECT_THROW(f.stream.dispatch(inc, {{buf.vk_buffer(0)}}, {true}, &n,
                                 f.device.caps().max_compute_work_group_count[0] + 1u),
               DeviceError);
}

}  // namespace
}  // namespace vka
