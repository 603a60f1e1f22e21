// VkFFT plans: one VkFFT application per (queue, transform), kept in a bounded per-device cache,
// recorded into the replica's stream like any other kernel.
#pragma once

#include <cstdint>
#include <string>

#include <vulkan/vulkan.h>

#include "device/context.h"

namespace vka {

enum class FftKind {
  kComplex,  // complex -> complex, both directions
  kReal,     // forward: real n -> complex n/2+1; inverse: complex n/2+1 -> real n
};

// What a plan is compiled for: VkFFT bakes lengths and strides into its shaders.
struct FftPlanKey {
  FftKind kind = FftKind::kComplex;
  bool double_precision = false;
  bool inverse = false;
  int64_t n = 1;      // transform length (the real length for kReal)
  int64_t batch = 1;  // contiguous rows of the transform
  // 0: rows. Otherwise (c2c, batch 1): the transforms down the columns of one contiguous
  // (n, columns) matrix, strided in place (no transposing pass).
  int64_t columns = 0;
  // Inverse transforms: the result divided by n, in VkFFT's last pass (no kernel of its own).
  bool normalize = false;
  bool operator==(const FftPlanKey& o) const {
    return kind == o.kind && double_precision == o.double_precision && inverse == o.inverse &&
           n == o.n && batch == o.batch && columns == o.columns && normalize == o.normalize;
  }
  std::string describe() const;  // "c2c inverse n=1000 batch=3 double normalized"
};

// Records on `replica`'s stream the unnormalized transform of `key.batch` contiguous rows:
// `in` holds the input rows (read only for forward transforms; an inverse transform uses it as
// its work space and leaves it undefined), `out` receives the result rows. Sizes in bytes.
// Plans are compiled on first use (DeviceError naming the transform and VkFFT's error code if
// VkFFT refuses) and cached per device; the cache keeps the kFftPlanCacheSize latest (older
// plans are destroyed once the work that uses them has completed).
void record_fft(Replica& replica, const FftPlanKey& key, VkBuffer in, uint64_t in_bytes,
                VkBuffer out, uint64_t out_bytes);

constexpr int kFftPlanCacheSize = 32;

// Plans `device`'s cache looks up, and evicted plans not destroyed yet because work that uses
// them may still run (for tests).
int cached_fft_plans(Device& device);
int retired_fft_plans(Device& device);

}  // namespace vka
