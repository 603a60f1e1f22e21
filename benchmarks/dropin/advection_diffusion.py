"""Explicit time steps of the 1-d advection-diffusion equation u_t + c u_x = nu u_xx on a
periodic grid with one ghost cell at each end: first-order upwind advection and centred
diffusion on the interior slice, ``u[1:-1] = u[1:-1] - C (u[1:-1] - u[:-2]) + D (u[2:] - 2 u[1:-1]
+ u[:-2])``, then the two ghost cells written from the other end (``u[0] = u[-2]``,
``u[-1] = u[1]``). A small array and many dependent steps (float64)."""

# (cells, steps); large: 512 cells, 2000 steps.
SIZES = {"small": (64, 40), "medium": (256, 400), "large": (512, 2000),
         "demo": (256, 400)}
# float64: the scheme is stable (C + 2 D <= 1) and contracting, so rounding does not grow.
RTOL = 1e-10
ATOL = 1e-12
IN_PLACE = True  # writes into slices of its arrays: not for JAX (immutable arrays)
COURANT = 0.4    # c dt / dx
DIFFUSION = 0.2  # nu dt / dx^2


def iterations(size):
    return size[1]


def kernel(np, u, steps):
    u = np.copy(u)
    for _ in range(steps):
        mid = u[1:-1]
        u[1:-1] = mid - COURANT * (mid - u[:-2]) + DIFFUSION * (u[2:] - 2.0 * mid + u[:-2])
        u[0] = u[-2]
        u[-1] = u[1]
    return u


def initialize(size, np):
    n, steps = size
    x = np.linspace(0.0, 1.0, n + 2)
    u = np.exp(-200.0 * (x - 0.3) ** 2) + 0.5 * (np.abs(x - 0.7) < 0.1)
    u[0], u[-1] = u[-2], u[1]
    return u, steps
