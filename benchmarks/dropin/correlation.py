"""PolyBench correlation: the Pearson correlation matrix of m variables over n samples
(float64)."""

SIZES = {"small": (50, 17), "medium": (2000, 500), "large": (4000, 2000), "demo": (1000, 250)}
# float64: column means and standard deviations, then one GEMM over n samples; off-diagonal
# correlations are ~1/sqrt(n), so they are also compared absolutely at 1e-12.
RTOL = 1e-10
ATOL = 1e-12


def initialize(size, np):
    n, m = size
    rng = np.random.default_rng(7)
    data = rng.standard_normal((n, m))
    data[:, 1:] += 0.5 * data[:, :-1]  # neighbouring variables correlate
    return (data + 5.0,)


def kernel(np, data):
    n = data.shape[0]
    mean = np.mean(data, axis=0)
    stddev = np.std(data, axis=0)
    stddev = np.where(stddev <= 0.1, 1.0, stddev)
    centred = (data - mean) / (np.sqrt(n) * stddev)
    return centred.T @ centred
