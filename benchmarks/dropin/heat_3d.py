"""PolyBench heat-3d: explicit 7-point heat equation steps on a cube, into slices (float64)."""

SIZES = {"small": (10, 3), "medium": (100, 5), "large": (200, 2), "demo": (50, 5)}
# float64: a fixed 7-point expression per point; values stay O(n), only last bits may differ.
RTOL = 1e-10
ATOL = 1e-12
IN_PLACE = True  # writes into slices of its arrays: not for JAX (immutable arrays)


def initialize(size, np):
    n, tsteps = size
    i, j, k = np.meshgrid(np.arange(n), np.arange(n), np.arange(n), indexing="ij")
    a = ((i + j + (n - k)) * 10 / n).astype(np.float64)
    return a, np.copy(a), tsteps


def step(np, src, dst):
    c = src[1:-1, 1:-1, 1:-1]
    dst[1:-1, 1:-1, 1:-1] = (0.125 * (src[2:, 1:-1, 1:-1] - 2.0 * c + src[:-2, 1:-1, 1:-1])
                             + 0.125 * (src[1:-1, 2:, 1:-1] - 2.0 * c + src[1:-1, :-2, 1:-1])
                             + 0.125 * (src[1:-1, 1:-1, 2:] - 2.0 * c + src[1:-1, 1:-1, :-2])
                             + c)


def kernel(np, a, b, tsteps):
    a = np.copy(a)
    b = np.copy(b)
    for _ in range(tsteps):
        step(np, a, b)
        step(np, b, a)
    return a
