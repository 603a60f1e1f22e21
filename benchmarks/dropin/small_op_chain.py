"""A chain of small dependent operations, ``y = y * 1.0001 + 0.5``, on a thousand float64
values: each operation is a few microseconds of arithmetic, so the time per operation is the
library's cost of issuing one (dispatch, or recording it in a lazy graph and running the fused
result). Report: time per operation = time per call / (2 * steps)."""

# (elements, steps); large: 2000 steps of two operations.
# demo: 500 steps, as medium.
SIZES = {"small": (1000, 50), "medium": (1000, 500), "large": (1000, 2000),
         "demo": (1000, 500)}
# float64: each step rounds twice; after 2000 steps the values (~1e3) differ by a few thousand
# ulps at most.
RTOL = 1e-11
ATOL = 1e-11


def iterations(size):
    """Python-loop iterations per call (for the time per iteration)."""
    return size[1]


def kernel(np, y, steps):
    for _ in range(steps):
        y = y * 1.0001 + 0.5
    return y


def initialize(size, np):
    n, steps = size
    return np.random.default_rng(2000).uniform(0.0, 1.0, n), steps
