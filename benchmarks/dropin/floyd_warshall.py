"""All-pairs shortest paths by Floyd-Warshall, one vectorized relaxation per intermediate
vertex: ``D = np.minimum(D, D[:, k:k+1] + D[k:k+1, :])``. n dependent iterations of two
O(n^2) operations. Integer edge weights in float64 (inf where there is no edge), so the sums
are exact and the result is compared exactly."""

# n vertices; large: a few hundred.
SIZES = {"small": 24, "medium": 120, "large": 400}
# exact: sums of small integers in float64.
RTOL = 0.0
ATOL = 0.0


def iterations(size):
    return size


def kernel(np, d):
    for k in range(d.shape[0]):
        d = np.minimum(d, d[:, k:k + 1] + d[k:k + 1, :])
    return d


def initialize(size, np):
    rng = np.random.default_rng(12)
    d = np.where(rng.random((size, size)) < 0.2, rng.integers(1, 100, (size, size)), np.inf)
    np.fill_diagonal(d, 0.0)
    return (d.astype(np.float64),)
