"""Great-circle (haversine) distances in km from many points to one reference point (float64).

Degrees become radians by ``* (np.pi / 180)`` (what numpy's radians computes): vkarray has no
``np.radians`` yet on this branch (it comes with the numpy-math functions of another branch).
"""

SIZES = {"small": 1000, "medium": 1_000_000, "large": 10_000_000, "demo": 200_000}
# float64: ~15 operations, each within 2 ulps (sin, cos, arcsin included, docs/accuracy.md), on
# points within a few thousand km of the reference, where arcsin is well conditioned.
RTOL = 1e-10
ATOL = 0.0

EARTH_RADIUS_KM = 6371.0


def initialize(size, np):
    rng = np.random.default_rng(3)
    lat = rng.uniform(30.0, 60.0, size)
    lon = rng.uniform(-20.0, 40.0, size)
    return lat, lon, 48.85, 2.35


def kernel(np, lat, lon, lat0, lon0):
    to_radians = np.pi / 180.0
    lat1 = lat * to_radians
    lat2 = lat0 * to_radians
    dlat = lat1 - lat2
    dlon = (lon - lon0) * to_radians
    a = np.sin(dlat / 2) ** 2 + np.cos(lat1) * np.cos(lat2) * np.sin(dlon / 2) ** 2
    return 2 * EARTH_RADIUS_KM * np.arcsin(np.sqrt(a))
