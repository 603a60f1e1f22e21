"""Gauss-Seidel sweeps for A x = b, row by row as a numpy user writes them:
``x[i] = (b[i] - A[i, :i] @ x[:i] - A[i, i+1:] @ x[i+1:]) / A[i, i]``. Each row uses the rows
already updated in this sweep, so the rows run in order: n * sweeps iterations of two dot
products, a few scalar operations and one element written, float64."""

# (n, sweeps); large: a few hundred rows.
SIZES = {"small": (20, 2), "medium": (100, 3), "large": (400, 3)}
# float64: each row is a short dot product; A is diagonally dominant, so errors are damped.
RTOL = 1e-10
ATOL = 1e-12
IN_PLACE = True  # writes into slices of its arrays: not for JAX (immutable arrays)


def iterations(size):
    return size[0] * size[1]


def kernel(np, a, b, sweeps):
    x = np.zeros_like(b)
    n = b.shape[0]
    for _ in range(sweeps):
        for i in range(n):
            x[i] = (b[i] - a[i, :i] @ x[:i] - a[i, i + 1:] @ x[i + 1:]) / a[i, i]
    return x


def initialize(size, np):
    n, sweeps = size
    rng = np.random.default_rng(11)
    a = rng.uniform(-1.0, 1.0, (n, n)) + n * np.eye(n)
    return a, rng.uniform(-1.0, 1.0, n), sweeps
