"""A Python loop of small updates: damped particles pulled to the origin and clipped to a box,
100 steps of 4 operations on arrays of a thousand elements (float32). Dominated by the cost of
issuing each operation, not by arithmetic."""

SIZES = {"small": (1000, 20), "medium": (1000, 100), "large": (100_000, 100), "demo": (1000, 100)}
# float32: 4 operations per step on O(1) values; 100 steps compound a few ulps.
RTOL = 1e-4
ATOL = 1e-6


def initialize(size, np):
    n, steps = size
    rng = np.random.default_rng(17)
    return (rng.uniform(-1, 1, n).astype(np.float32),
            rng.uniform(-0.1, 0.1, n).astype(np.float32), steps)


def kernel(np, x, v, steps):
    for _ in range(steps):
        v = 0.99 * v - 0.01 * x
        x = np.clip(x + 0.1 * v, -0.9, 0.9)
    return x, v
