"""Cholesky factorization A = L L^T, column by column (Cholesky-Crout): for each column j,
``L[j, j] = np.sqrt(A[j, j] - L[j, :j] @ L[j, :j])`` and
``L[j+1:, j] = (A[j+1:, j] - L[j+1:, :j] @ L[j, :j]) / L[j, j]``: n iterations of a dot
product, a matrix-vector product and a few small elementwise operations, float64."""

# n; large: a few hundred rows.
SIZES = {"small": 24, "medium": 120, "large": 400}
# float64: Cholesky is backward stable; the factor of a well-conditioned matrix (eigenvalues in
# [1, ~5]) agrees to ~n * 1e-16.
RTOL = 1e-10
ATOL = 1e-12
IN_PLACE = True  # writes into slices of its arrays: not for JAX (immutable arrays)


def iterations(size):
    return size


def kernel(np, a):
    n = a.shape[0]
    l = np.zeros((n, n))  # noqa: E741  (the factor's usual name)
    for j in range(n):
        l[j, j] = np.sqrt(a[j, j] - l[j, :j] @ l[j, :j])
        l[j + 1:, j] = (a[j + 1:, j] - l[j + 1:, :j] @ l[j, :j]) / l[j, j]
    return l


def initialize(size, np):
    m = np.random.default_rng(9).uniform(-1.0, 1.0, (size, size))
    return (m @ m.T / size + np.eye(size),)
