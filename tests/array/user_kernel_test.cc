// User kernels, sequences and the profiler (array/user_kernel.h, sequence.h, profile.h).
#include "array/user_kernel.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <gtest/gtest.h>

#include "array/sequence.h"
#include "base/errors.h"
#include "kernels/compile.h"
#include "runtime/profile.h"
#include "tests/array/array_testing.h"

namespace vka {
namespace {

using testing::upload;

// out[i] = a[i] * scale + bias for i < n; scale a specialization constant, bias and n push
// constants; the workgroup's x from specialization constant 0.
constexpr const char* kAxpb = R"(#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const float scale = 1.0;
layout(push_constant) uniform Push { float bias; uint n; } pc;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Out { float o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < pc.n) o[i] = a[i] * scale + pc.bias;
}
)";

std::vector<uint8_t> push(float bias, uint32_t n) {
  std::vector<uint8_t> b(8);
  std::memcpy(b.data(), &bias, 4);
  std::memcpy(b.data() + 4, &n, 4);
  return b;
}

UserKernel axpb(float scale, uint32_t wg = 64) {
  UserKernelOptions o;
  o.local_size = std::array<uint32_t, 3>{wg, 1, 1};
  o.spec_consts[1] = SpecValue::of_float(scale);
  o.name = "axpb";
  return UserKernel::from_glsl(kAxpb, o);
}

TEST(UserKernel, SpecAndPushConstantsBothAffectTheResult) {
  for (int64_t n : {1, 7, 1000, 1000003}) {
    std::vector<float> a(n);
    for (int64_t i = 0; i < n; ++i) a[i] = static_cast<float>(i % 97) - 40.0f;
    Array x = upload(a);
    Array out = upload(std::vector<float>(n, -1.0f));
    for (float scale : {2.0f, -0.5f}) {
      const UserKernel k = axpb(scale);
      EXPECT_EQ(k.num_bindings(), 2);
      EXPECT_EQ(k.readonly(), (std::vector<bool>{true, false}));
      EXPECT_EQ(k.push_constant_bytes(), 8u);
      EXPECT_EQ(k.local_size()[0], 64u);
      std::vector<Array> args{x, out};
      UserCall call;
      call.push_consts = push(3.0f, static_cast<uint32_t>(n));
      EXPECT_EQ(k(args, call), std::vector<int>{1});
      std::vector<float> got = out.to_vector<float>();
      for (int64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], a[i] * scale + 3.0f) << n << " " << i;
    }
  }
}

TEST(UserKernel, SpirvInputGivesTheSameKernel) {
  const UserKernel k = axpb(2.0f);
  UserKernelOptions o;
  o.local_size = std::array<uint32_t, 3>{32, 1, 1};
  o.spec_consts[1] = SpecValue::of_int(3);  // converted to the shader's float
  o.push_consts = push(1.0f, 5);
  const UserKernel s = UserKernel::from_spirv(k.spirv(), o);
  Array x = upload(std::vector<float>{1, 2, 3, 4, 5});
  Array out = upload(std::vector<float>(5, 0));
  std::vector<Array> args{x, out};
  s(args);
  EXPECT_EQ(out.to_vector<float>(), (std::vector<float>{4, 7, 10, 13, 16}));
}

TEST(UserKernel, TheSameSourceCompilesOnce) {
  const std::string src = std::string(kAxpb) + "// TheSameSourceCompilesOnce\n";
  UserKernelOptions o;
  o.local_size = std::array<uint32_t, 3>{64, 1, 1};
  UserKernel::from_glsl(src, o);
  const uint64_t before = compile_count();
  o.spec_consts[1] = SpecValue::of_float(4.0);  // other constants: the same SPIR-V
  const UserKernel k = UserKernel::from_glsl(src, o);
  EXPECT_EQ(compile_count(), before);
  Array x = upload(std::vector<float>{1, 2});
  Array out = upload(std::vector<float>{0, 0});
  std::vector<Array> args{x, out};
  UserCall call;
  call.push_consts = push(0.0f, 2);
  k(args, call);
  EXPECT_EQ(out.to_vector<float>(), (std::vector<float>{4, 8}));
}

TEST(UserKernel, TheKernelsGridServesCallsThatNameNone) {
  // Kompute's meaning of `workgroup`: the dispatch grid, here 2 groups of the shader's 32.
  const std::string src =
      "#version 450\nlayout(local_size_x = 32) in;\n"
      "layout(binding = 0) buffer B { int b[]; };\n"
      "void main() { uint i = gl_GlobalInvocationID.x; if (i < b.length()) b[i] = 7; }\n";
  UserKernelOptions o;
  o.groups = std::array<uint32_t, 3>{2, 1, 1};
  const UserKernel k = UserKernel::from_glsl(src, o);
  EXPECT_EQ(k.local_size()[0], 32u);
  Array b = upload(std::vector<int32_t>(100, 0));
  std::vector<Array> args{b};
  k(args);
  std::vector<int32_t> want(100, 0);
  std::fill(want.begin(), want.begin() + 64, 7);
  EXPECT_EQ(b.to_vector<int32_t>(), want);
  UserCall call;
  call.groups = std::array<uint32_t, 3>{4, 1, 1};  // a call's grid wins
  k(args, call);
  EXPECT_EQ(b.to_vector<int32_t>(), std::vector<int32_t>(100, 7));
}

TEST(UserKernel, CompileErrorsShowTheNumberedSource) {
  const std::string bad = "#version 450\nlayout(local_size_x = 1) in;\nvoid main() { oops; }\n";
  try {
    UserKernelOptions o;
    o.name = "broken";
    UserKernel::from_glsl(bad, o);
    FAIL() << "no error";
  } catch (const CompileError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("broken"), std::string::npos) << what;
    EXPECT_NE(what.find("   3| void main() { oops; }"), std::string::npos) << what;
    EXPECT_NE(what.find("oops"), std::string::npos) << what;
  }
}

TEST(UserKernel, BadArgumentsRaiseNamedErrors) {
  const UserKernel k = axpb(1.0f);
  Array x = upload(std::vector<float>{1, 2});
  Array out = upload(std::vector<float>{0, 0});
  std::vector<Array> one{x};
  EXPECT_THROW(k(one), ShapeError);  // two bindings
  std::vector<Array> args{x, out};
  UserCall call;
  call.push_consts = std::vector<uint8_t>(12, 0);  // the block has 8 bytes
  EXPECT_THROW(k(args, call), ShapeError);
  UserKernelOptions o;
  o.spec_consts[7] = SpecValue::of_int(1);  // not declared
  EXPECT_THROW(UserKernel::from_glsl(kAxpb, o), ShapeError);
  const std::string literal =
      "#version 450\nlayout(local_size_x = 32) in;\n"
      "layout(constant_id = 0) const int k = 1;\n"
      "layout(binding = 0) buffer B { int b[]; };\n"
      "void main() { uint i = gl_GlobalInvocationID.x; if (i < b.length()) b[i] = k; }\n";
  UserKernelOptions w;
  w.local_size = std::array<uint32_t, 3>{64, 1, 1};  // the shader says 32
  EXPECT_THROW(UserKernel::from_glsl(literal, w), ShapeError);
  UserKernelOptions f;
  f.spec_consts[0] = SpecValue::of_float(1.5);  // an int constant
  EXPECT_THROW(UserKernel::from_glsl(literal, f), DTypeError);
  UserKernelOptions big;
  big.spec_consts[0] = SpecValue::of_int(int64_t{1} << 40);
  EXPECT_THROW(UserKernel::from_glsl(literal, big), OverflowError);
  UserKernelOptions ok;
  ok.spec_consts[0] = SpecValue::of_int(-9);
  const UserKernel lk = UserKernel::from_glsl(literal, ok);
  EXPECT_EQ(lk.local_size()[0], 32u);
  Array ints = upload(std::vector<int32_t>(70, 0));
  std::vector<Array> iargs{ints};
  lk(iargs);  // ceil(70 / 32) = 3 groups; the binding's range bounds b.length() to 70
  EXPECT_EQ(ints.to_vector<int32_t>(), std::vector<int32_t>(70, -9));
}

TEST(UserKernel, WritesIntoStridedViewsAndForcesLazyInputs) {
  std::vector<float> base(20);
  for (int i = 0; i < 20; ++i) base[i] = static_cast<float>(i);
  Array b = upload(base);
  Array view = b[{range(0, 20, 2)}];  // 10 elements, stride 2
  Array x = upload(std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}) * 2.0f;  // lazy
  const UserKernel k = axpb(1.0f);
  std::vector<Array> args{x, view};
  UserCall call;
  call.push_consts = push(0.5f, 10);
  k(args, call);
  std::vector<float> got = b.to_vector<float>();
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(got[i], i % 2 ? static_cast<float>(i) : 2.0f * (i / 2 + 1) + 0.5f) << i;
  }
}

TEST(Sequence, RecordsTransfersKernelsAndReadsWithTimestamps) {
  const auto k = std::make_shared<const UserKernel>(axpb(2.0f));
  const int64_t n = 1000;
  Array x = upload(std::vector<float>(n, 0));
  Array out = upload(std::vector<float>(n, 0));
  std::vector<float> data(n, 1.0f);
  float bias = 1.0f;
  Sequence seq;
  seq.record_write(x, [&] {
    std::vector<uint8_t> b(n * 4);
    std::memcpy(b.data(), data.data(), b.size());
    return b;
  });
  seq.record_kernel(k, {x, out}, {}, [&] { return push(bias, n); });
  const int r = seq.record_read(out);
  seq.eval();
  std::vector<float> got(n);
  std::memcpy(got.data(), seq.read_result(r).data(), n * 4);
  EXPECT_EQ(got, std::vector<float>(n, 3.0f));  // 1 * 2 + 1
  const std::vector<double> t = seq.timestamps_ns();
  ASSERT_EQ(t.size(), 4u);
  for (size_t i = 1; i < t.size(); ++i) EXPECT_GE(t[i], t[i - 1]);
  EXPECT_GT(t.back(), 0.0);
  EXPECT_EQ(seq.durations_ns().size(), 3u);
  // Recording captured the values: a change is seen after rerecord() only.
  data.assign(n, 5.0f);
  bias = -1.0f;
  seq.eval();
  std::memcpy(got.data(), seq.read_result(r).data(), n * 4);
  EXPECT_EQ(got, std::vector<float>(n, 3.0f));
  seq.rerecord();
  seq.eval_async();
  EXPECT_TRUE(seq.eval_await(60.0));
  std::memcpy(got.data(), seq.read_result(r).data(), n * 4);
  EXPECT_EQ(got, std::vector<float>(n, 9.0f));  // 5 * 2 - 1
  seq.clear();
  EXPECT_EQ(seq.size(), 0);
  EXPECT_THROW(seq.read_result(r), IndexError);
}

TEST(Profile, RecordsFusedAndUnfusedKernelsAndUserKernels) {
  Array a = upload(std::vector<float>(1000, 1.0f));
  Array b = upload(std::vector<float>(1000, 2.0f));
  Profile prof;
  prof.start();
  Array fused = a * b + a;
  fused.eval();
  Array t = a * b;
  t.eval();
  Array u = t + a;
  u.eval();
  const UserKernel k = axpb(1.0f);
  std::vector<Array> args{a, b};
  UserCall call;
  call.push_consts = push(0.0f, 1000);
  k(args, call);
  prof.stop();
  const std::vector<ProfileRecord> r = prof.records();
  ASSERT_EQ(r.size(), 4u);  // one fused kernel, two unfused, one user kernel
  EXPECT_EQ(r[3].name, "axpb");
  for (const ProfileRecord& rec : r) {
    EXPECT_EQ(rec.replica, 0);
    EXPECT_GE(rec.gpu_ns, 0.0);
  }
  EXPECT_EQ(r[3].bytes, 8000u);
  EXPECT_GE(r[0].bytes, 12000u);  // two inputs and an output of 4000 bytes
  // Off: nothing more is recorded.
  Array later = a + b;
  later.eval();
  EXPECT_EQ(prof.records().size(), 4u);
}

}  // namespace
}  // namespace vka
