/* A C interface to VkFFT's Vulkan backend. vkFFT.h (1.2.26) is C: its glslang resource table
   is positional and compiles as C (not as C++) against Debian's glslang 12, whose table has
   more fields; so VkFFT is compiled in vkfft_glue.c alone and C++ calls these. Results are
   VkFFTResult codes (0: success). */
#pragma once

#include <stdint.h>

#include <vulkan/vulkan.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VkaFftPlan VkaFftPlan;

/* One-dimensional transforms of `batch` contiguous rows of length n. `buffer` is the complex
   side (rows of n, or n/2+1 when `real`), `input` the other side (rows of n): the forward plan
   reads input into buffer, the inverse one buffer into input. `buffer` and `input` may be
   null (named at the first append); the pointed-to values must outlive the plan, which is
   usable only in the direction it was made for. */
typedef struct VkaFftParams {
  VkPhysicalDevice* physical_device;
  VkDevice* device;
  VkQueue* queue;
  VkCommandPool* command_pool;
  VkFence* fence;
  VkBuffer* buffer;
  uint64_t* buffer_bytes;
  VkBuffer* input;
  uint64_t* input_bytes;
  uint64_t n;
  uint64_t batch;
  /* 0: rows. Otherwise (complex, batch 1): the columns of one (n, columns) matrix. */
  uint64_t columns;
  int real;
  int double_precision;
  int inverse;
  /* Inverse transforms: divide by n in the last pass (numpy's backward norm). */
  int normalize;
} VkaFftParams;

int vka_fft_plan_create(const VkaFftParams* params, VkaFftPlan** plan);
/* Records the transform into `command_buffer`. VkFFT rewrites its descriptor sets when `buffer`
   or `input` are other pointers than the last call's. */
int vka_fft_plan_append(VkaFftPlan* plan, VkCommandBuffer command_buffer, VkBuffer* buffer,
                        VkBuffer* input);
/* VkFFT's own work buffer, VK_NULL_HANDLE when the plan has none. */
VkBuffer vka_fft_plan_temp_buffer(const VkaFftPlan* plan);
/* Destroys the plan; the device must be idle (see array/fft/plan.cc). */
void vka_fft_plan_destroy(VkaFftPlan* plan);

#ifdef __cplusplus
}
#endif
