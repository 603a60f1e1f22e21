// KernelCache: memory hits keyed on structure only, disk hits, corrupt and foreign files
// survived and rewritten, concurrent lookups, and the cached pipelines computing right answers.
#include "kernels/cache.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include "base/errors.h"
#include "kernels/cache_file.h"
#include "kernels/compile.h"
#include "tests/kernels/cache_kernels.h"

namespace vka {
namespace {

namespace fs = std::filesystem;
using cache_kernels::Expr;
using cache_kernels::kernel;
using cache_kernels::mismatches;

std::string slurp(const fs::path& p) { return read_whole_file(p.string()).value_or("<missing>"); }
void spit(const fs::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
}

// Files in `dir` whose names end with `ext`, sorted.
std::vector<fs::path> files(const std::string& dir, const std::string& ext) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.size() >= ext.size() && name.compare(name.size() - ext.size(), ext.size(), ext) == 0)
      out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

class CacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TEST_TMPDIR");
    std::string templ = std::string(tmp ? tmp : "/tmp") + "/kernel_cache_XXXXXX";
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir = templ;
  }
  void TearDown() override { fs::remove_all(dir); }

  Device& device() { return ctx->device(0); }

  std::shared_ptr<Context> ctx = Context::create();
  std::string dir;
};

TEST(CacheFileTest, Fnv128MatchesTheReferenceVectors) {
  EXPECT_EQ(digest128("").hex(), "6c62272e07bb014262b821756295c58d");
  EXPECT_EQ(digest128("a").hex(), "d228cb696f1a8caf78912b704e4a8964");
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cull);
}

TEST_F(CacheTest, SameSpecAnySizeIsOneCompileAndOnePipeline) {
  KernelCache cache("");  // memory only
  const uint64_t compiled = compile_count();
  auto small = kernel(Expr::kMulAdd, 77, 2.0), big = kernel(Expr::kMulAdd, 5000, -3.5);
  ASSERT_EQ(small.spec, big.spec);
  auto p1 = cache.get(device(), small.spec);
  auto p2 = cache.get(device(), big.spec);
  EXPECT_EQ(p1.get(), p2.get());
  EXPECT_EQ(compile_count() - compiled, 1u);
  EXPECT_EQ(cache.stats().compiles, 1u);
  EXPECT_EQ(cache.stats().memory_hits, 1u);
  EXPECT_EQ(cache.stats().disk_hits, 0u);
  EXPECT_EQ(p1->name(), "ew_f32_2in_1out_contig");
  EXPECT_EQ(p1->num_bindings(), 3u);
  EXPECT_EQ(p1->push_constant_bytes(), push_layout(small.spec).size);
  // One pipeline, two sizes, two scalar values: both right.
  EXPECT_EQ(mismatches(ctx, *p1, small, Expr::kMulAdd, 2.0), 0);
  EXPECT_EQ(mismatches(ctx, *p2, big, Expr::kMulAdd, -3.5), 0);

  auto add = kernel(Expr::kAdd, 1000);
  ASSERT_NE(add.spec, small.spec);
  auto p3 = cache.get(device(), add.spec);
  EXPECT_NE(p3.get(), p1.get());
  EXPECT_EQ(compile_count() - compiled, 2u);
  EXPECT_EQ(mismatches(ctx, *p3, add, Expr::kAdd), 0);
}

TEST_F(CacheTest, DiskHitAfterClearMemoryAndInANewCache) {
  auto k = kernel(Expr::kChain, 3000, 0.25);
  {
    KernelCache cache(dir);
    ASSERT_EQ(cache.dir(), dir);
    cache.get(device(), k.spec);
    EXPECT_EQ(cache.stats().compiles, 1u);
    EXPECT_EQ(files(dir, ".spv").size(), 1u);
    EXPECT_EQ(files(dir, ".bin").size(), 1u);  // the VkPipelineCache
    EXPECT_EQ(cache.stats().disk_writes, 2u);

    cache.clear_memory();
    const uint64_t compiled = compile_count();
    auto p = cache.get(device(), k.spec);
    EXPECT_EQ(compile_count(), compiled);
    EXPECT_EQ(cache.stats().disk_hits, 1u);
    EXPECT_EQ(cache.stats().corrupt_files, 0u);
    EXPECT_EQ(mismatches(ctx, *p, k, Expr::kChain, 0.25), 0);
  }
  KernelCache fresh(dir);
  const uint64_t compiled = compile_count();
  auto p = fresh.get(device(), k.spec);
  EXPECT_EQ(compile_count(), compiled);
  EXPECT_EQ(fresh.stats().disk_hits, 1u);
  EXPECT_EQ(fresh.stats().pipeline_cache_loads, 1u);
  EXPECT_EQ(fresh.stats().corrupt_files, 0u);
  EXPECT_EQ(fresh.stats().disk_writes, 0u);  // nothing new to save
  EXPECT_EQ(mismatches(ctx, *p, k, Expr::kChain, 0.25), 0);
}

// One way of damaging a cache file: the original bytes → what is left on disk.
struct Damage {
  const char* name;
  std::function<std::string(const std::string&)> apply;
};

std::string flip(std::string s, std::size_t at) {
  s.at(at) ^= 0x20;
  return s;
}

std::vector<Damage> damages() {
  std::vector<Damage> d = {
      {"empty", [](const std::string&) { return std::string(); }},
      {"truncated", [](const std::string& s) { return s.substr(0, s.size() / 2); }},
      {"one byte short", [](const std::string& s) { return s.substr(0, s.size() - 1); }},
      {"one byte long", [](const std::string& s) { return s + "x"; }},
      {"garbage", [](const std::string& s) { return std::string(s.size(), '\x5a'); }},
  };
  for (double where : {0.0, 0.01, 0.05, 0.1, 0.3, 0.5, 0.9, 0.999}) {
    d.push_back({"flipped byte", [where](const std::string& s) {
                   return flip(s, static_cast<std::size_t>(where * (s.size() - 1)));
                 }});
  }
  return d;
}

TEST_F(CacheTest, CorruptSpirvFilesAreRecompiledAndRewritten) {
  auto k = kernel(Expr::kAdd, 1000);
  std::string original;
  fs::path file;
  {
    KernelCache cache(dir);
    cache.get(device(), k.spec);
    ASSERT_EQ(files(dir, ".spv").size(), 1u);
    file = files(dir, ".spv")[0];
    original = slurp(file);
  }
  for (const Damage& d : damages()) {
    SCOPED_TRACE(d.name);
    spit(file, d.apply(original));
    KernelCache cache(dir);
    const uint64_t compiled = compile_count();
    auto p = cache.get(device(), k.spec);
    EXPECT_EQ(compile_count() - compiled, 1u);
    EXPECT_EQ(cache.stats().corrupt_files, 1u);
    EXPECT_EQ(cache.stats().disk_hits, 0u);
    EXPECT_TRUE(slurp(file) == original) << "not rewritten (shaderc output is deterministic)";
    EXPECT_EQ(mismatches(ctx, *p, k, Expr::kAdd), 0);
  }
}

TEST_F(CacheTest, AForeignFileUnderTheRightNameIsNotTrusted) {
  auto add = kernel(Expr::kAdd, 100), chain = kernel(Expr::kChain, 100, 1.0);
  fs::path add_file, chain_file;
  std::string chain_bytes;
  {
    KernelCache cache(dir);
    cache.get(device(), add.spec);
    add_file = files(dir, ".spv").at(0);
    cache.get(device(), chain.spec);
    for (const fs::path& f : files(dir, ".spv")) {
      if (f != add_file) chain_file = f;
    }
    ASSERT_FALSE(chain_file.empty());
    chain_bytes = slurp(chain_file);
  }
  // A simulated digest collision: the add kernel's name holds a valid file for another key.
  const std::string add_bytes = slurp(add_file);
  spit(add_file, chain_bytes);
  KernelCache cache(dir);
  const uint64_t compiled = compile_count();
  auto p = cache.get(device(), add.spec);
  EXPECT_EQ(compile_count() - compiled, 1u);
  EXPECT_EQ(cache.stats().corrupt_files, 1u);
  EXPECT_TRUE(slurp(add_file) == add_bytes) << "not rewritten";
  EXPECT_EQ(mismatches(ctx, *p, add, Expr::kAdd), 0);
  // The chain kernel's own file was never touched and still hits.
  cache.get(device(), chain.spec);
  EXPECT_EQ(cache.stats().disk_hits, 1u);
  EXPECT_EQ(compile_count() - compiled, 1u);
}

TEST_F(CacheTest, CorruptOrForeignPipelineCacheFilesAreIgnoredAndRewritten) {
  auto k = kernel(Expr::kMulAdd, 500, 4.0);
  fs::path file;
  std::string original;
  {
    KernelCache cache(dir);
    cache.get(device(), k.spec);
    ASSERT_EQ(files(dir, ".bin").size(), 1u);
    file = files(dir, ".bin")[0];
    original = slurp(file);
  }
  ASSERT_GE(original.size(), 24u + 32u) << "our envelope + a VkPipelineCacheHeaderVersionOne";
  std::vector<Damage> ds = damages();
  // A well-formed file from another device: envelope and checksum right, UUID different.
  ds.push_back({"other device", [](const std::string& s) {
                  std::vector<uint8_t> data(s.begin() + 24, s.end());
                  data[16] ^= 1;  // first byte of pipelineCacheUUID
                  return encode_pipeline_cache_file(data);
                }});
  ds.push_back({"header only claims", [](const std::string& s) {
                  std::vector<uint8_t> data(s.begin() + 24, s.begin() + 24 + 16);
                  return encode_pipeline_cache_file(data);
                }});
  for (const Damage& d : ds) {
    SCOPED_TRACE(d.name);
    spit(file, d.apply(original));
    {
      KernelCache cache(dir);
      const uint64_t compiled = compile_count();
      auto p = cache.get(device(), k.spec);
      EXPECT_EQ(compile_count(), compiled);  // the SPIR-V file is fine
      EXPECT_EQ(cache.stats().corrupt_files, 1u);
      EXPECT_EQ(cache.stats().pipeline_cache_loads, 0u);
      EXPECT_EQ(mismatches(ctx, *p, k, Expr::kMulAdd, 4.0), 0);
    }
    KernelCache after(dir);
    after.get(device(), k.spec);
    EXPECT_EQ(after.stats().pipeline_cache_loads, 1u) << "the file was not rewritten";
    EXPECT_EQ(after.stats().corrupt_files, 0u);
  }
}

TEST_F(CacheTest, ForgetDeviceSavesAndReloadsThePipelineCache) {
  KernelCache cache(dir);
  auto k = kernel(Expr::kAdd, 10);
  auto first = cache.get(device(), k.spec);
  first.reset();
  cache.forget_device(&device());
  auto p = cache.get(device(), k.spec);  // state rebuilt: a disk hit, cache file loaded
  EXPECT_EQ(cache.stats().disk_hits, 1u);
  EXPECT_EQ(cache.stats().pipeline_cache_loads, 1u);
  EXPECT_EQ(mismatches(ctx, *p, k, Expr::kAdd), 0);
  cache.forget_device(&device());
  cache.forget_device(&device());  // unknown device: nothing to do
}

TEST_F(CacheTest, EachDeviceGetsItsOwnPipeline) {
  ContextOptions two;
  two.devices = {0, 0};  // two logical devices on one physical device
  auto ctx2 = Context::create(two);
  ASSERT_EQ(ctx2->num_replicas(), 2);
  {
    KernelCache cache(dir);
    auto k = kernel(Expr::kMulAdd, 333, 0.5);
    auto p0 = cache.get(ctx2->device(0), k.spec);
    auto p1 = cache.get(ctx2->device(1), k.spec);
    EXPECT_NE(p0.get(), p1.get());
    EXPECT_EQ(&p0->device(), &ctx2->device(0));
    EXPECT_EQ(&p1->device(), &ctx2->device(1));
    EXPECT_EQ(cache.stats().compiles, 1u);  // same caps: the second device reads the file
    EXPECT_EQ(cache.stats().disk_hits, 1u);
    EXPECT_EQ(cache.get(ctx2->device(1), k.spec).get(), p1.get());
    EXPECT_EQ(mismatches(ctx2, *p0, k, Expr::kMulAdd, 0.5, 0), 0);
    EXPECT_EQ(mismatches(ctx2, *p1, k, Expr::kMulAdd, 0.5, 1), 0);
  }  // the cache goes before the devices it holds pipelines of
}

TEST_F(CacheTest, UnwritableDirectoryTurnsTheDiskCacheOff) {
  spit(dir + "/not_a_dir", "x");
  KernelCache cache(dir + "/not_a_dir/cache");
  EXPECT_EQ(cache.dir(), "");
  auto k = kernel(Expr::kAdd, 64);
  auto p = cache.get(device(), k.spec);
  cache.clear_memory();
  cache.get(device(), k.spec);
  EXPECT_EQ(cache.stats().compiles, 2u);
  EXPECT_EQ(cache.stats().disk_writes, 0u);
  EXPECT_EQ(mismatches(ctx, *p, k, Expr::kAdd), 0);
}

TEST_F(CacheTest, ConcurrentGetsOfOneSpecCompileOnce) {
  KernelCache cache(dir);
  auto k = kernel(Expr::kChain, 256, 3.0);
  std::vector<std::shared_ptr<const Pipeline>> got(8);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < got.size(); ++i) {
    threads.emplace_back([&, i] { got[i] = cache.get(device(), k.spec); });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(cache.stats().compiles, 1u);
  EXPECT_EQ(cache.stats().memory_hits, got.size() - 1);
  for (const auto& p : got) EXPECT_EQ(p.get(), got[0].get());
  EXPECT_EQ(mismatches(ctx, *got[3], k, Expr::kChain, 3.0), 0);
}

TEST_F(CacheTest, CompileErrorsNameTheKernelAndAreNotCached) {
  KernelCache cache(dir);
  auto k = kernel(Expr::kAdd, 8);
  try {
    cache.get(device(), k.spec, [] { return std::string("#version 450\nvoid main() { x; }\n"); });
    ADD_FAILURE() << "no CompileError";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("ew_f32_2in_1out_contig"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("   2| void main()"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(files(dir, ".spv").empty());
  auto p = cache.get(device(), k.spec);
  EXPECT_EQ(cache.stats().compiles, 1u);
  EXPECT_EQ(cache.stats().memory_hits, 0u);
  EXPECT_EQ(mismatches(ctx, *p, k, Expr::kAdd), 0);
}

TEST_F(CacheTest, TheGlslIsPartOfTheDiskKey) {
  // A changed emitter (same spec, different GLSL) must not load the older SPIR-V.
  auto k = kernel(Expr::kAdd, 8);
  {
    KernelCache cache(dir);
    cache.get(device(), k.spec);
  }
  KernelCache cache(dir);
  cache.get(device(), k.spec, [&] { return emit_elementwise(k.spec) + "// v2\n"; });
  EXPECT_EQ(cache.stats().disk_hits, 0u);
  EXPECT_EQ(cache.stats().compiles, 1u);
  EXPECT_EQ(files(dir, ".spv").size(), 2u);
}

}  // namespace
}  // namespace vka

namespace vka {
namespace {

// A context destroyed while a cache still holds its pipelines: the device's token makes the
// cache save and drop them first (the validation layer reports any pipeline left behind).
TEST(CacheLifetimeTest, DevicesDestroyedBeforeTheCacheReleaseTheirPipelines) {
  KernelCache cache("");
  auto k = kernel(Expr::kAdd, 10);
  {
    auto ctx = Context::create();
    auto p = cache.get(ctx->device(0), k.spec);
    EXPECT_EQ(mismatches(ctx, *p, k, Expr::kAdd), 0);
  }  // p, then the context: the device drops the cache's pipelines before it goes
  auto ctx = Context::create();  // may reuse the old Device's address: must start afresh
  auto p = cache.get(ctx->device(0), k.spec);
  EXPECT_EQ(cache.stats().memory_hits, 0u);
  EXPECT_EQ(mismatches(ctx, *p, k, Expr::kAdd), 0);
}

}  // namespace
}  // namespace vka
