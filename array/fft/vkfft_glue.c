/* VkFFT's Vulkan backend behind the C interface of vkfft_glue.h (the one file that includes
   vkFFT.h). */
#include "array/fft/vkfft_glue.h"

#include <stdlib.h>

#define VKFFT_BACKEND 0
#include "array/fft/vkfft_c.h"  /* /usr/include/vkFFT.h, see array/fft/BUILD */

struct VkaFftPlan {
  VkFFTApplication app;
  int inverse;
};

int vka_fft_plan_create(const VkaFftParams* p, VkaFftPlan** plan) {
  *plan = NULL;
  /* glslang's process state: initialized once and kept (shaderc shares it), rather than
     VkFFT's initialize/finalize around every plan. */
  static int glslang_ready = 0;
  if (!glslang_ready) {
    if (!glslang_initialize_process()) return VKFFT_ERROR_FAILED_TO_INITIALIZE;
    glslang_ready = 1;
  }
  VkaFftPlan* out = (VkaFftPlan*)calloc(1, sizeof(VkaFftPlan));
  if (!out) return VKFFT_ERROR_MALLOC_FAILED;
  const uint64_t complex_row = p->real ? p->n / 2 + 1 : p->n;
  VkFFTConfiguration c;
  memset(&c, 0, sizeof(c));
  c.FFTdim = 1;
  c.size[0] = p->n;
  c.size[1] = p->batch;
  c.size[2] = 1;
  c.physicalDevice = p->physical_device;
  c.device = p->device;
  c.queue = p->queue;
  c.commandPool = p->command_pool;
  c.fence = p->fence;
  c.isCompilerInitialized = 1;
  c.buffer = p->buffer;
  c.bufferSize = p->buffer_bytes;
  c.inputBuffer = p->input;
  c.inputBufferSize = p->input_bytes;
  c.isInputFormatted = 1;
  c.inverseReturnToInputBuffer = 1;
  c.bufferStride[0] = complex_row;
  c.bufferStride[1] = complex_row * p->batch;
  c.bufferStride[2] = complex_row * p->batch;
  c.inputBufferStride[0] = p->n;
  c.inputBufferStride[1] = p->n * p->batch;
  c.inputBufferStride[2] = p->n * p->batch;
  if (p->columns) {
    /* Dimension 0 (along rows) left out: transforms along dimension 1, stride `columns`. */
    c.FFTdim = 2;
    c.size[0] = p->columns;
    c.size[1] = p->n;
    c.omitDimension[0] = 1;
    c.bufferStride[0] = p->columns;
    c.bufferStride[1] = p->columns * p->n;
    c.bufferStride[2] = p->columns * p->n;
    c.inputBufferStride[0] = p->columns;
    c.inputBufferStride[1] = p->columns * p->n;
    c.inputBufferStride[2] = p->columns * p->n;
  }
  c.performR2C = p->real ? 1 : 0;
  c.doublePrecision = p->double_precision ? 1 : 0;
  c.useLUT = 1; /* twiddles from tables computed on the host: accurate on every driver */
  c.normalize = p->normalize ? 1 : 0;
  c.makeForwardPlanOnly = p->inverse ? 0 : 1;
  c.makeInversePlanOnly = p->inverse ? 1 : 0;
  VkFFTResult r = initializeVkFFT(&out->app, c);
  if (r != VKFFT_SUCCESS) {
    free(out);
    return (int)r;
  }
  out->inverse = p->inverse;
  *plan = out;
  return VKFFT_SUCCESS;
}

int vka_fft_plan_append(VkaFftPlan* plan, VkCommandBuffer command_buffer, VkBuffer* buffer,
                        VkBuffer* input) {
  VkFFTLaunchParams lp;
  memset(&lp, 0, sizeof(lp));
  lp.commandBuffer = &command_buffer;
  lp.buffer = buffer;
  lp.inputBuffer = input;
  return (int)VkFFTAppend(&plan->app, plan->inverse ? 1 : -1, &lp);
}

VkBuffer vka_fft_plan_temp_buffer(const VkaFftPlan* plan) {
  if (!plan->app.configuration.allocateTempBuffer || !plan->app.configuration.tempBuffer) {
    return VK_NULL_HANDLE;
  }
  return plan->app.configuration.tempBuffer[0];
}

void vka_fft_plan_destroy(VkaFftPlan* plan) {
  if (!plan) return;
  deleteVkFFT(&plan->app);
  free(plan);
}
