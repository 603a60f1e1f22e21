// Helper of cache_second_process_test: gets three kernels through the process-wide cache
// (VKA_CACHE_DIR), runs them, and prints what it compiled and what it found on disk.
#include <cstdio>
#include <exception>

#include "device/context.h"
#include "kernels/cache.h"
#include "kernels/compile.h"
#include "tests/kernels/cache_kernels.h"

int main() {
  using vka::cache_kernels::Expr;
  try {
    auto ctx = vka::Context::create();
    vka::Device& device = ctx->device(0);
    vka::KernelCache& cache = vka::KernelCache::instance();
    long long bad = 0;
    for (Expr e : {Expr::kAdd, Expr::kMulAdd, Expr::kChain}) {
      vka::ScheduledKernel k = vka::cache_kernels::kernel(e, 1000, 1.5);
      bad += vka::cache_kernels::mismatches(ctx, *cache.get(device, k.spec), k, e, 1.5);
    }
    const vka::KernelCache::Stats s = cache.stats();
    std::printf(
        "shaderc=%llu compiles=%llu disk_hits=%llu memory_hits=%llu corrupt=%llu "
        "pipeline_cache_loads=%llu mismatches=%lld\n",
        static_cast<unsigned long long>(vka::compile_count()),
        static_cast<unsigned long long>(s.compiles), static_cast<unsigned long long>(s.disk_hits),
        static_cast<unsigned long long>(s.memory_hits),
        static_cast<unsigned long long>(s.corrupt_files),
        static_cast<unsigned long long>(s.pipeline_cache_loads), bad);
    cache.forget_device(&device);  // before the context destroys the device
    return bad == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::printf("error: %s\n", e.what());
    return 2;
  }
}
