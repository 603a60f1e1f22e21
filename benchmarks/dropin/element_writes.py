"""A recurrence written element by element, ``v[i] = v[i - 1] * 0.5 + 1.0``: each iteration
reads the element just written, so nothing can be batched; a multiply, an add and a one-element
write per iteration (float64)."""

# n; large: a few hundred elements.
SIZES = {"small": 50, "medium": 200, "large": 500, "demo": 200}
# float64: the recurrence halves earlier rounding errors at each step.
RTOL = 1e-13
ATOL = 1e-13
IN_PLACE = True  # writes into slices of its arrays: not for JAX (immutable arrays)


def iterations(size):
    return size - 1


def kernel(np, v):
    v = np.copy(v)
    for i in range(1, v.shape[0]):
        v[i] = v[i - 1] * 0.5 + 1.0
    return v


def initialize(size, np):
    return (np.random.default_rng(14).uniform(-1.0, 1.0, size),)
