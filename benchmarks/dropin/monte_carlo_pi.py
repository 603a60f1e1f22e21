"""Monte-Carlo estimate of pi from uniform points in the unit square, drawn with
``np.random.default_rng(seed)`` (float32 coordinates).

Each library has its own random stream (vkarray: Philox-4x32-10, see vkarray.random; numpy:
PCG64), so results are compared statistically, not bitwise: see check()."""

SIZES = {"small": (100_003, 1), "medium": (2_000_000, 2), "large": (50_000_000, 3),
         "demo": (2_000_000, 2)}


def check(got, want, size):
    """Both estimates must lie within 6 standard errors of pi (the estimate's standard error is
    4 sqrt(p (1 - p) / n) with p = pi / 4), and within 6 standard errors of the difference of
    two independent estimates of each other."""
    import math
    (got,), (want,) = got, want
    n = size[0]
    p = math.pi / 4
    se = 4 * math.sqrt(p * (1 - p) / n)
    g, w = float(got), float(want)
    ok = abs(g - math.pi) <= 6 * se and abs(g - w) <= 6 * math.sqrt(2) * se
    return ok, f"estimate {g:.6f}, numpy {w:.6f}, standard error {se:.1e}"


def initialize(size, np):
    n, seed = size
    return n, seed


def kernel(np, n, seed):
    rng = np.random.default_rng(seed)
    x = rng.random(n, dtype=np.float32)
    y = rng.random(n, dtype=np.float32)
    return 4.0 * np.mean(x * x + y * y <= 1.0)
