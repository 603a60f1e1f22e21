"""Direct-summation gravitational n-body: all-pairs accelerations (softened) and a leapfrog
(kick-drift) step, with positions and velocities as per-axis arrays (float64)."""

SIZES = {"small": (37, 2), "medium": (1000, 2), "large": (4096, 1), "demo": (500, 2)}
# float64: each acceleration sums n terms of both signs, so components near zero are compared
# absolutely at 1e-12 of the O(1) accelerations; the rest within 1e-10 relative.
RTOL = 1e-10
ATOL = 1e-12

SOFTENING = 0.1
DT = 0.01


def initialize(size, np):
    n, steps = size
    rng = np.random.default_rng(15)
    pos = rng.standard_normal((3, n))
    vel = rng.standard_normal((3, n)) * 0.1
    mass = rng.uniform(0.5, 1.5, n) / n
    return pos[0], pos[1], pos[2], vel[0], vel[1], vel[2], mass, steps


def accelerations(np, x, y, z, mass):
    dx = x[None, :] - x[:, None]
    dy = y[None, :] - y[:, None]
    dz = z[None, :] - z[:, None]
    r2 = dx * dx + dy * dy + dz * dz + SOFTENING * SOFTENING
    weight = mass[None, :] / (r2 * np.sqrt(r2))
    return (np.sum(dx * weight, axis=1), np.sum(dy * weight, axis=1),
            np.sum(dz * weight, axis=1))


def kernel(np, x, y, z, vx, vy, vz, mass, steps):
    for _ in range(steps):
        ax, ay, az = accelerations(np, x, y, z, mass)
        vx, vy, vz = vx + DT * ax, vy + DT * ay, vz + DT * az
        x, y, z = x + DT * vx, y + DT * vy, z + DT * vz
    return x, y, z, vx, vy, vz
