"""Lloyd's k-means: assignment by squared distances (one GEMM), new centroids by weighted
bincounts, a few iterations (float32 points, float64 centroid sums as numpy's bincount gives)."""

SIZES = {"small": (1000, 4, 5, 2), "medium": (200_000, 8, 16, 3), "large": (2_000_000, 8, 16, 3),
         "demo": (20_000, 8, 16, 3)}


def check(got, want, size):
    """Labels come from an argmin over float32 distances: a point almost equidistant from two
    centroids (within float32 rounding of the GEMM) may be assigned differently by a different
    summation order. At most 0.1% of the labels may differ, and the centroids must agree to
    1e-3 relative to the data's scale (a few moved points shift a centroid by ~1e-5)."""
    import numpy
    (gc, gl), (wc, wl) = got, want
    if gc.shape != wc.shape or gl.shape != wl.shape:
        return False, f"shapes {gc.shape}, {gl.shape} != {wc.shape}, {wl.shape}"
    frac = float((gl != wl).mean())
    err = float(numpy.max(numpy.abs(gc - wc)))
    return frac <= 1e-3 and err <= 1e-3, f"{frac:.1e} of labels differ, centroids {err:.1e}"


def initialize(size, np):
    n, d, k, iters = size
    rng = np.random.default_rng(6)
    centers = rng.uniform(-10, 10, (k, d))
    points = centers[rng.integers(0, k, n)] + rng.standard_normal((n, d))
    return points.astype(np.float32), points[:k].astype(np.float32), iters


def kernel(np, points, centroids, iters):
    k, d = centroids.shape
    for _ in range(iters):
        dist = (np.sum(points * points, axis=1)[:, None] - 2.0 * (points @ centroids.T)
                + np.sum(centroids * centroids, axis=1)[None, :])
        labels = np.argmin(dist, axis=1)
        counts = np.bincount(labels, minlength=k)
        sums = np.stack([np.bincount(labels, weights=points[:, j], minlength=k)
                         for j in range(d)], axis=1)
        centroids = (sums / np.maximum(counts, 1)[:, None]).astype(np.float32)
    return centroids, labels
