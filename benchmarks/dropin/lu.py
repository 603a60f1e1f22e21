"""LU factorization without pivoting, right-looking, as a numpy user writes it: for each column
k, scale the column below the pivot, ``A[k+1:, k] /= A[k, k]``, and update the trailing
submatrix by an outer product, ``A[k+1:, k+1:] -= np.outer(A[k+1:, k], A[k, k+1:])``. n - 1
iterations of two in-place slice updates whose work shrinks from O(n^2) to O(1) (float64). The
matrix is diagonally dominant, so no pivoting is needed. Returns L and U packed in one matrix
(L's unit diagonal implied)."""

# n (an n x n matrix); large: a few hundred rows.
SIZES = {"small": 24, "medium": 120, "large": 400, "demo": 120}
# float64: LU of a diagonally dominant matrix has growth factor < 2; n-step rounding errors
# stay near n * 1e-16 relative.
RTOL = 1e-10
ATOL = 1e-12
IN_PLACE = True  # writes into slices of its arrays: not for JAX (immutable arrays)


def iterations(size):
    return size - 1


def kernel(np, a):
    a = np.copy(a)
    n = a.shape[0]
    for k in range(n - 1):
        a[k + 1:, k] /= a[k, k]
        a[k + 1:, k + 1:] -= np.outer(a[k + 1:, k], a[k, k + 1:])
    return a


def initialize(size, np):
    rng = np.random.default_rng(7)
    return (rng.uniform(-1.0, 1.0, (size, size)) + size * np.eye(size),)
