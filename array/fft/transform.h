// The pieces of numpy.fft's one-dimensional transforms shared by array/fft/: the transform along
// an axis (fft.cc), VkFFT over rows in calls whose operands fit one binding (rows.cc), and
// transforms whose single row does not (four_step.cc). Include array/array.h first.
#pragma once

#include <cstdint>
#include <memory>

#include "array/array.h"
#include "array/fft/plan.h"
#include "device/buffer.h"

namespace vka {

// The unnormalized transform of `a` along `axis`: c2c (either way), r2c (forward real) or c2r
// (inverse to real, `n` real outputs). `in_dtype`: what the transform reads. `scale`, when
// given, is the factor the caller multiplies the result by: an inverse transform of rows
// applies a factor of exactly 1/n itself (in VkFFT's last pass) and sets *scale to 1.
Array transform(const char* op, const Array& a, int64_t n, int64_t axis, FftKind kind, bool inverse,
                DType in_dtype, double* scale = nullptr);

// `a` with axis `axis` last, cropped or zero-padded to `m` there, as `dtype`, in a
// C-contiguous buffer: `a`'s own when it already is one and `writable` is false, else a new
// one of at least `min_elements` written by one kernel (plus a fill when padding). `shape`
// receives its shape.
std::shared_ptr<ReplicatedBuffer> prepared(const Array& a, int axis, int64_t m, DType dtype,
                                           bool writable, int64_t min_elements, Shape* shape);

// The most bytes one VkFFT operand may span: every device's maxStorageBufferRange (VkFFT binds
// each operand whole).
uint64_t fft_binding_limit(const Context& ctx);

// At least the bytes one row of `key`'s transform takes in any buffer VkFFT binds: its operands
// (it sizes a real one as if its rows were padded to n/2+1 complex numbers) and its own work
// buffers (rows padded for Bluestein's algorithm where n has a prime factor over 13).
uint64_t fft_row_bytes(const FftPlanKey& key);

// Records on every replica the transform of `key.batch` contiguous rows of `in` into `out`
// (real rows of n, complex rows of n or n/2+1, packed). Where the rows together exceed
// fft_binding_limit, chunks of rows go through two staging buffers of at most that size, one
// VkFFT call each. `in` is left undefined for inverse transforms (VkFFT's work space) unless
// chunked. Needs fft_row_bytes(key) <= fft_binding_limit.
void record_rows(const std::shared_ptr<Context>& ctx, const FftPlanKey& key, ReplicatedBuffer& in,
                 ReplicatedBuffer& out);

// Records on every replica the transforms of length key.n down the columns of `matrices`
// contiguous (key.n, width) complex matrices of `in` into `out` (key: c2c, batch 1; `in` left
// as it was), read in place by VkFFT's strided transforms: whole where one matrix fits
// fft_binding_limit, else in blocks of columns copied row by row through staging matrices of at
// most that size.
void record_columns(const std::shared_ptr<Context>& ctx, const FftPlanKey& key, int64_t matrices,
                    int64_t width, ReplicatedBuffer& in, ReplicatedBuffer& out);

// The unnormalized transform of `x` along its last axis, for rows longer than fit one binding:
// `x` complex (c2c), real (r2c) or the first n/2+1 of a Hermitian spectrum (c2r, the zero and
// Nyquist frequencies' imaginary parts already dropped), cropped or zero-padded to its length
// here. The transform is n = n1 * n2 (n1, n2 > 1): transforms of length n1 down the columns of
// the (n1, n2) view (record_columns), a twiddle multiply (tables computed on the host),
// transforms of length n2 along the rows, and a lazy transpose. A length with no such factors
// (a prime) is a Bluestein convolution of power-of-two length. `complex`: the precision's
// complex dtype.
Array long_transform(const char* op, const Array& x, int64_t n, FftKind kind, bool inverse,
                     DType complex);

}  // namespace vka
