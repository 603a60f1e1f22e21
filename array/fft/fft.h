// numpy.fft on the device: one-dimensional transforms along any axis (VkFFT, array/fft/plan.h)
// and the n-dimensional ones composed from them, with numpy's n=/s= cropping and zero padding,
// norm= scaling (a lazy multiply that fuses into the consumer) and numpy 2's dtypes: float32,
// float16 and complex64 compute in single precision (complex64 results), everything else in
// double (complex128; integers and bool included). Included by array/array.h users; include
// array/array.h first.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "array/array.h"

namespace vka {

// norm: "backward" (the default: 1/n on the inverse), "ortho" (1/sqrt(n) both ways) or
// "forward" (1/n on the forward transform). Anything else: ShapeError (numpy's ValueError).
Array fft(const Array& a, std::optional<int64_t> n = std::nullopt, int64_t axis = -1,
          const std::string& norm = "backward");
Array ifft(const Array& a, std::optional<int64_t> n = std::nullopt, int64_t axis = -1,
           const std::string& norm = "backward");
// Real input (DTypeError for complex, as numpy 2); n/2+1 complex outputs along `axis`.
Array rfft(const Array& a, std::optional<int64_t> n = std::nullopt, int64_t axis = -1,
           const std::string& norm = "backward");
// n real outputs (default 2*(m-1)) from the first n/2+1 complex inputs along `axis`.
Array irfft(const Array& a, std::optional<int64_t> n = std::nullopt, int64_t axis = -1,
            const std::string& norm = "backward");
// Hermitian-symmetric input to real output (irfft of the conjugate, norm swapped), and back.
Array hfft(const Array& a, std::optional<int64_t> n = std::nullopt, int64_t axis = -1,
           const std::string& norm = "backward");
Array ihfft(const Array& a, std::optional<int64_t> n = std::nullopt, int64_t axis = -1,
            const std::string& norm = "backward");

// n-dimensional: over `axes` (default: the last len(s) axes, or all), lengths `s` (default:
// the input's). numpy's fft2/ifft2/rfft2/irfft2 are these with axes (-2, -1).
using FftShape = std::optional<std::vector<int64_t>>;
using FftAxes = std::optional<std::vector<int64_t>>;
Array fftn(const Array& a, const FftShape& s = std::nullopt, const FftAxes& axes = std::nullopt,
           const std::string& norm = "backward");
Array ifftn(const Array& a, const FftShape& s = std::nullopt, const FftAxes& axes = std::nullopt,
            const std::string& norm = "backward");
Array rfftn(const Array& a, const FftShape& s = std::nullopt, const FftAxes& axes = std::nullopt,
            const std::string& norm = "backward");
Array irfftn(const Array& a, const FftShape& s = std::nullopt,
             const FftAxes& axes = std::nullopt, const std::string& norm = "backward");

// The sample frequencies (numpy.fft.fftfreq / rfftfreq), float64, computed on the device.
Array fftfreq(int64_t n, double d = 1.0,
              std::shared_ptr<Context> context = Context::default_context());
Array rfftfreq(int64_t n, double d = 1.0,
               std::shared_ptr<Context> context = Context::default_context());

}  // namespace vka
