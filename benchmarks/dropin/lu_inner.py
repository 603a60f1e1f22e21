"""LU factorization without pivoting, element by element (Doolittle, PolyBench's lu): for each
row i, each entry left of the diagonal is ``B[i, j] -= B[i, :j] @ B[:j, j]`` then divided by the
pivot, and each entry from the diagonal on is ``B[i, j] -= B[i, :i] @ B[:i, j]``. n^2 tiny
steps (a dot product of at most n elements, a subtraction, one element written), float64; the
time per step is the library's cost of a scalar-sized operation."""

# n (an n x n matrix); large: 200 rows, 40,000 inner steps.
SIZES = {"small": 10, "medium": 40, "large": 200}
# float64: as lu.py's (the same factors, by another order of operations).
RTOL = 1e-10
ATOL = 1e-12
IN_PLACE = True  # writes into slices of its arrays: not for JAX (immutable arrays)


def iterations(size):
    return size * size


def kernel(np, a):
    b = np.copy(a)
    n = b.shape[0]
    for i in range(n):
        for j in range(i):
            b[i, j] -= b[i, :j] @ b[:j, j]
            b[i, j] /= b[j, j]
        for j in range(i, n):
            b[i, j] -= b[i, :i] @ b[:i, j]
    return b


def initialize(size, np):
    rng = np.random.default_rng(8)
    return (rng.uniform(-1.0, 1.0, (size, size)) + size * np.eye(size),)
