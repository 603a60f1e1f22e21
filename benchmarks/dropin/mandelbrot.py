"""Escape-time Mandelbrot set on a complex64 grid: a Python loop of elementwise steps.

Escaped points are clamped to 4 so that they never overflow; ``count`` is the number of
iterations each point stayed inside the radius-2 disc.
"""

# demo: 7.7 MB complex64 arrays, beyond a CPU core's L2 cache, where the fused steps pay on
# lavapipe (a CPU) too.
SIZES = {"small": (37, 50, 20), "medium": (400, 600, 50), "large": (1200, 1600, 50),
         "demo": (800, 1200, 50)}


def check(got, want, size):
    """Iteration counts are integers, but a point on the set's boundary follows a chaotic orbit:
    one float32 rounding difference (an FMA contracted on one device and not on the other) can
    change its count. At most 0.5% of the points may differ."""
    (got,), (want,) = got, want
    if got.shape != want.shape:
        return False, f"shape {got.shape} != {want.shape}"
    frac = float((got != want).mean()) if want.size else 0.0
    return frac <= 0.005, f"{frac:.2e} of the points differ"


def initialize(size, np):
    height, width, maxiter = size
    x = np.linspace(-2.2, 0.8, width, dtype=np.float32)
    y = np.linspace(-1.3, 1.3, height, dtype=np.float32)
    c = (x[None, :] + 1j * y[:, None]).astype(np.complex64)
    return c, maxiter


def kernel(np, c, maxiter):
    z = np.zeros_like(c)
    count = np.zeros(c.shape, dtype=np.int32)
    for _ in range(maxiter):
        z = z * z + c
        inside = z.real * z.real + z.imag * z.imag <= 4.0
        count = count + inside
        z = np.where(inside, z, 4.0)
    return count
