"""PolyBench jacobi-2d: two 5-point Jacobi sweeps per time step, written into slices (float64)."""

SIZES = {"small": (33, 4), "medium": (1000, 10), "large": (4000, 3), "demo": (500, 10)}
# float64: adds and one multiply per point, evaluated in the same order everywhere; values stay
# O(1), so only the last bits of contracted multiply-adds may differ.
RTOL = 1e-10
ATOL = 1e-12
IN_PLACE = True  # writes into slices of its arrays: not for JAX (immutable arrays)


def initialize(size, np):
    n, tsteps = size
    i = np.arange(n, dtype=np.float64)[:, None]
    j = np.arange(n, dtype=np.float64)[None, :]
    a = (i * (j + 2) + 2) / n
    b = (i * (j + 3) + 3) / n
    return a, b, tsteps


def kernel(np, a, b, tsteps):
    a = np.copy(a)
    b = np.copy(b)
    for _ in range(tsteps):
        b[1:-1, 1:-1] = 0.2 * (a[1:-1, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:] + a[2:, 1:-1]
                               + a[:-2, 1:-1])
        a[1:-1, 1:-1] = 0.2 * (b[1:-1, 1:-1] + b[1:-1, :-2] + b[1:-1, 2:] + b[2:, 1:-1]
                               + b[:-2, 1:-1])
    return a
