"""Histogram of normally distributed float32 samples into 100 uniform bins."""

SIZES = {"small": 1000, "medium": 1_000_003, "large": 30_000_000, "demo": 200_000}
# Counts are integers and the edges are computed from the same range: exact.
RTOL = 0.0
ATOL = 0.0


def initialize(size, np):
    rng = np.random.default_rng(9)
    return (rng.standard_normal(size, dtype=np.float32),)


def kernel(np, samples):
    counts, edges = np.histogram(samples, bins=100, range=(-4.0, 4.0))
    return counts, edges
