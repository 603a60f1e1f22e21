"""Durbin's recursion (Levinson-Durbin, PolyBench's durbin): the solution of the Yule-Walker
system of a Toeplitz matrix built from autocorrelations r, one order at a time. Each of n - 1
iterations is a dot product with a reversed slice, a handful of 0-d operations on alpha and
beta, and two slice writes (float64):
    beta = (1 - alpha^2) beta; alpha = -(r[k] + flip(r[:k]) @ y[:k]) / beta
    y[:k] = y[:k] + alpha * flip(y[:k]); y[k] = alpha"""

# n; large: a few hundred.
SIZES = {"small": 24, "medium": 120, "large": 400}
# float64: r is a valid autocorrelation (positive definite Toeplitz matrix), so |alpha| < 1 and
# beta stays away from 0; the recursion loses a few digits over n steps at most.
RTOL = 1e-9
ATOL = 1e-12
IN_PLACE = True  # writes into slices of its arrays: not for JAX (immutable arrays)


def iterations(size):
    return size - 1


def kernel(np, r):
    y = np.zeros_like(r)
    y[0] = -r[0]
    beta = 1.0
    alpha = -r[0]
    for k in range(1, r.shape[0]):
        beta = (1.0 - alpha * alpha) * beta
        alpha = -(r[k] + np.flip(r[:k]) @ y[:k]) / beta
        y[:k] = y[:k] + alpha * np.flip(y[:k])
        y[k] = alpha
    return y


def initialize(size, np):
    lag = np.arange(1, size + 1)
    # the autocorrelation of a sum of two AR(1) processes: positive definite at every order
    return (0.6 * 0.9 ** lag + 0.4 * (-0.5) ** lag,)
