"""QR factorization by modified Gram-Schmidt: for each column k, normalize it, then remove its
component from every later column at once (``R[k, k+1:] = Q[:, k] @ Q[:, k+1:]`` and
``Q[:, k+1:] -= np.outer(Q[:, k], R[k, k+1:])``). n iterations of a norm, a vector-matrix
product, an outer-product update and slice writes, float64."""

# (m, n): an m x n matrix, m >= n; large: a few hundred rows.
SIZES = {"small": (30, 20), "medium": (150, 100), "large": (512, 256)}
# float64: modified Gram-Schmidt on a well-conditioned random matrix (condition number ~10)
# loses orthogonality only in proportion to it; Q and R agree to ~1e-13.
RTOL = 1e-9
ATOL = 1e-11
IN_PLACE = True  # writes into slices of its arrays: not for JAX (immutable arrays)


def iterations(size):
    return size[1]


def kernel(np, a):
    q = np.copy(a)
    n = a.shape[1]
    r = np.zeros((n, n))
    for k in range(n):
        r[k, k] = np.sqrt(q[:, k] @ q[:, k])
        q[:, k] = q[:, k] / r[k, k]
        r[k, k + 1:] = q[:, k] @ q[:, k + 1:]
        q[:, k + 1:] -= np.outer(q[:, k], r[k, k + 1:])
    return q, r


def initialize(size, np):
    return (np.random.default_rng(10).normal(0.0, 1.0, size),)
