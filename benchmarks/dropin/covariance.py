"""PolyBench covariance: the sample covariance matrix of m variables over n samples (float32)."""

SIZES = {"small": (50, 17), "medium": (2000, 500), "large": (8192, 2048), "demo": (1000, 250)}
# float32: a GEMM summing n products of O(1) centred values; off-diagonal covariances are
# ~1/sqrt(n) with an error of ~n * 6e-8 / (n - 1) in the worst order, so an absolute 1e-5 too.
RTOL = 1e-3
ATOL = 1e-5


def initialize(size, np):
    n, m = size
    rng = np.random.default_rng(8)
    return ((rng.standard_normal((n, m)) * 2.0 + 3.0).astype(np.float32),)


def kernel(np, data):
    centred = data - np.mean(data, axis=0)
    return (centred.T @ centred) / (data.shape[0] - 1)
