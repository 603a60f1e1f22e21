"""A Python loop accumulating 0-d values, ``t += np.tanh(A[i, i])``: each iteration indexes one
element (a 0-d array), applies a function to it and adds it to a running 0-d total. Nothing
here is worth a kernel; the time per iteration is what a library charges for a scalar-sized
step that stays on the device."""

# n: A is n x n float64, and the loop runs n iterations.
SIZES = {"small": 50, "medium": 500, "large": 2000, "demo": 500}
# float64: n tanh values of order 1 summed: a few ulps of the total each.
RTOL = 1e-12
ATOL = 1e-12


def iterations(size):
    return size


def kernel(np, a):
    t = 0.0
    for i in range(a.shape[0]):
        t += np.tanh(a[i, i])
    return t


def initialize(size, np):
    return (np.random.default_rng(0).normal(0.0, 1.0, (size, size)),)
