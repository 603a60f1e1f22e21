"""Moving average of a time series through a cumulative sum (float64): the classic
``c = cumsum(x); (c[w:] - c[:-w]) / w``, plus the series' overall mean and standard deviation."""

SIZES = {"small": (1000, 10), "medium": (1_000_003, 100), "large": (20_000_000, 1000),
         "demo": (1_000_000, 100)}
# float64: the result is a difference of two prefix sums. A scan's error bound is
# ~log2(n) * 2^-53 * sum|x| in a tree order and n * 2^-53 * sum|x| sequentially (numpy); with
# |x| ~ 1 and n <= 2e7 that is < 3e-3 absolute in the worst case, ~1e-10 in practice (random
# signs), divided by the window: absolute 1e-10, relative 1e-10.
RTOL = 1e-10
ATOL = 1e-10


def initialize(size, np):
    n, window = size
    rng = np.random.default_rng(10)
    return rng.standard_normal(n), window


def kernel(np, series, window):
    c = np.cumsum(series)
    moving = (c[window:] - c[:-window]) / window
    return moving, np.mean(series), np.std(series)
