"""A 60-term polynomial by Horner's rule, ``r = r * x + c_k``: 118 dependent elementwise
operations with 60 distinct float64 constants on one array. An eager library makes 118 passes
over memory; a fusing one can make one. The coefficients are the first 60 terms of the series
log(1 + x) / x = sum_k (-1)^k x^k / (k + 1), and |x| <= 0.9."""

# elements; large: 2^24 float64 (128 MiB), demo: 2^22 (32 MiB, beyond a CPU core's caches).
SIZES = {"small": 1000, "medium": 1 << 20, "large": 1 << 24, "demo": 1 << 22}
# float64: 118 roundings of values of order 1, each within half an ulp; fused multiply-adds
# differ from separate ones in the last bits.
RTOL = 1e-12
ATOL = 1e-13
JIT = True

COEFFICIENTS = [(-1.0) ** k / (k + 1) for k in range(60)]  # c_0 .. c_59


def kernel(np, x):
    r = x * COEFFICIENTS[59] + COEFFICIENTS[58]
    for c in reversed(COEFFICIENTS[:58]):
        r = r * x + c
    return r


def initialize(size, np):
    return (np.random.default_rng(60).uniform(-0.9, 0.9, size),)
