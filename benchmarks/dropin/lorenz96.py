"""The Lorenz-96 model integrated by classic Runge-Kutta 4: a time-stepping ODE on a tiny state
vector (float64), four right-hand sides of np.roll and arithmetic per step."""

SIZES = {"small": (40, 20), "medium": (40, 200), "large": (1000, 500), "demo": (40, 200)}
# float64: the system is chaotic (largest Lyapunov exponent ~1.7 at F = 8), so rounding
# differences grow by ~e^(1.7 t): over t = steps * DT <= 5 by <= 5e3, which leaves the 1e-16
# differences of one step's order of operations at ~1e-12, inside 1e-10.
RTOL = 1e-10
ATOL = 1e-10

FORCING = 8.0
DT = 0.01


def initialize(size, np):
    n, steps = size
    state = np.full(n, FORCING)
    state[0] += 0.01
    state += np.sin(np.arange(n)) * 0.1
    return state, steps


def rhs(np, x):
    return (np.roll(x, -1) - np.roll(x, 2)) * np.roll(x, 1) - x + FORCING


def kernel(np, x, steps):
    for _ in range(steps):
        k1 = rhs(np, x)
        k2 = rhs(np, x + 0.5 * DT * k1)
        k3 = rhs(np, x + 0.5 * DT * k2)
        k4 = rhs(np, x + DT * k3)
        x = x + (DT / 6.0) * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
    return x
