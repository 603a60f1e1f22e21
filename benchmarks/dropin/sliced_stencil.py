"""One tracer step of a z-level ocean model, written as sliced stencil arithmetic on 3-d arrays
(float64): masks of cell faces, gradients as differences of neighbouring slices
(``T[1:, :, :] - T[:-1, :, :]``), a quadratic equation of state, isoneutral slopes on the
vertical faces with Danabasoglu-McWilliams tapering and clipping, harmonic means of
diffusivities, second-order advection with the superbee flux limiter (np.where, np.minimum,
np.maximum) in x and y and upwind in z, and the flux divergences, for temperature and salinity.

Standard finite-volume formulas: gradients and fluxes live on cell faces (a face between cells
i and i+1 has index i), averages of two neighbours move a quantity between centres and faces,
and the tendency of a cell is minus the divergence of the fluxes through its faces. The arrays
are (nx, ny, nz) with k increasing downward; the layer thicknesses dz are one (1, 1, nz) profile
broadcast across the horizontal axes. The step updates the interior cells (2..nx-3, 2..ny-3,
1..nz-2), which have every neighbour the limiter needs. 123 statements per call (69 in the
source; ~280 numpy operations), each a numpy expression on slices: no Python loops over elements, no in-place writes (jax.jit and
torch.compile can trace it).
"""

# (nx, ny, nz). medium: 2^20 cells; large: 2^23.
SIZES = {"small": (12, 11, 9), "medium": (128, 128, 64), "large": (256, 256, 128)}
# float64: ~200 operations per cell, differences of neighbours of O(10) values and divisions by
# stratification floored at EPS; last-bit differences of the order of operations (fused
# multiply-adds) stay far below 1e-9 of the results.
RTOL = 1e-9
ATOL = 1e-12
JIT = True

DX = DY = 1.0e4          # m
DT = 600.0               # s
A0 = 0.1655              # kg/m^3/K: thermal expansion at the reference (typical seawater)
B0 = 0.7655              # kg/m^3/(g/kg): haline contraction
LAMBDA = 0.0595          # 1/K: growth of thermal expansion with temperature (cabbeling)
MU = 0.0005              # kg/g
NU = 0.0024              # kg/m^3/(K g/kg): the temperature-salinity cross term
K_V = 1.0e-5             # m^2/s: vertical (diapycnal) diffusivity
SLOPE_MAX = 0.01         # the steepest isoneutral slope kept
SLOPE_WIDTH = 0.001      # the width of the taper around SLOPE_MAX
EPS = 1.0e-10            # kg/m^4: the weakest stratification used in the slopes
TINY = 1.0e-30


def superbee_flux(np, before, up_left, up_right, after, vel, mask, spacing):
    """The advective flux through faces between up_left and up_right, the upwind value plus a
    superbee-limited share of the jump to the downwind value (second order where smooth);
    before/after are the cells beyond each side."""
    positive = vel > 0.0
    upwind = np.where(positive, up_left, up_right)
    downwind = np.where(positive, up_right, up_left)
    far = np.where(positive, before, after)
    jump = downwind - upwind
    ratio = (upwind - far) * jump / (jump * jump + TINY)
    limiter = np.maximum(np.minimum(2.0 * ratio, 1.0), np.minimum(ratio, 2.0))
    limiter = np.maximum(limiter, 0.0)
    courant = np.abs(vel) * (DT / spacing)
    return vel * (upwind + 0.5 * limiter * (1.0 - courant) * jump) * mask


def tracer_step(np, q, dqdx, dqdy, dqdz, u, v, w, kx, ky, sx, sy, mx, my, mz, dz, mask_c):
    """The tracer q after one step of advection and isoneutral diffusion, at the interior
    cells."""
    # x: faces 1..nx-3 of the interior rows and levels
    qx = q[:, 2:-2, 1:-1]
    adv_x = superbee_flux(np, qx[:-3], qx[1:-2], qx[2:-1], qx[3:], u[1:-2, 2:-2, 1:-1],
                          mx[1:-1, 2:-2, 1:-1], DX)
    dif_x = -kx[1:-1, 2:-2, 1:-1] * dqdx[1:-1, 2:-2, 1:-1]
    flux_x = adv_x + dif_x
    div_x = (flux_x[1:] - flux_x[:-1]) / DX
    # y
    qy = q[2:-2, :, 1:-1]
    adv_y = superbee_flux(np, qy[:, :-3], qy[:, 1:-2], qy[:, 2:-1], qy[:, 3:],
                          v[2:-2, 1:-2, 1:-1], my[2:-2, 1:-1, 1:-1], DY)
    dif_y = -ky[2:-2, 1:-1, 1:-1] * dqdy[2:-2, 1:-1, 1:-1]
    flux_y = adv_y + dif_y
    div_y = (flux_y[:, 1:] - flux_y[:, :-1]) / DY
    # z: every w-face of the interior columns; upwind advection (w > 0 is downward)
    qz = q[2:-2, 2:-2, :]
    wf = w[2:-2, 2:-2, :-1]
    adv_z = wf * np.where(wf > 0.0, qz[:, :, :-1], qz[:, :, 1:])
    # horizontal gradients at the w-faces: face -> centre -> w-face averages
    gx_c = 0.5 * (dqdx[2:-1, 2:-2, :] + dqdx[1:-2, 2:-2, :])
    gy_c = 0.5 * (dqdy[2:-2, 2:-1, :] + dqdy[2:-2, 1:-2, :])
    gx_w = 0.5 * (gx_c[:, :, 1:] + gx_c[:, :, :-1])
    gy_w = 0.5 * (gy_c[:, :, 1:] + gy_c[:, :, :-1])
    k_w = 0.25 * (kx[2:-1, 2:-2, 1:] + kx[1:-2, 2:-2, 1:] + kx[2:-1, 2:-2, :-1]
                  + kx[1:-2, 2:-2, :-1])
    # the isoneutral tensor's vertical row (Redi): K (sx dq/dx + sy dq/dy + s^2 dq/dz)
    slope2 = sx * sx + sy * sy
    dif_z = -(K_V + k_w * slope2) * dqdz[2:-2, 2:-2, :] - k_w * (sx * gx_w + sy * gy_w)
    flux_z = (adv_z + dif_z) * mz[2:-2, 2:-2, :]
    div_z = (flux_z[:, :, 1:] - flux_z[:, :, :-1]) / dz[:, :, 1:-1]
    tendency = -(div_x + div_y + div_z)
    return (q[2:-2, 2:-2, 1:-1] + DT * tendency) * mask_c


def kernel(np, t, s, u, v, w, kappa, mask, dz):
    # masks of the faces: open where both cells are ocean
    mx = mask[1:, :, :] * mask[:-1, :, :]
    my = mask[:, 1:, :] * mask[:, :-1, :]
    mz = mask[:, :, 1:] * mask[:, :, :-1]
    mask_c = mask[2:-2, 2:-2, 1:-1]
    dzw = 0.5 * (dz[:, :, 1:] + dz[:, :, :-1])
    # the equation of state's derivatives at the centres
    ta = t - 10.0
    sa = s - 35.0
    drdt = -A0 * (1.0 + LAMBDA * ta) - NU * sa
    drds = B0 * (1.0 - MU * sa) - NU * ta
    # tracer gradients on the faces, zero through closed faces
    dtdx = (t[1:, :, :] - t[:-1, :, :]) * mx / DX
    dsdx = (s[1:, :, :] - s[:-1, :, :]) * mx / DX
    dtdy = (t[:, 1:, :] - t[:, :-1, :]) * my / DY
    dsdy = (s[:, 1:, :] - s[:, :-1, :]) * my / DY
    dtdz = (t[:, :, 1:] - t[:, :, :-1]) * mz / dzw
    dsdz = (s[:, :, 1:] - s[:, :, :-1]) * mz / dzw
    # density gradients on the faces, with the derivatives averaged to each face
    drdx = 0.5 * ((drdt[1:] + drdt[:-1]) * dtdx + (drds[1:] + drds[:-1]) * dsdx)
    drdy = 0.5 * ((drdt[:, 1:] + drdt[:, :-1]) * dtdy + (drds[:, 1:] + drds[:, :-1]) * dsdy)
    drdz = 0.5 * ((drdt[:, :, 1:] + drdt[:, :, :-1]) * dtdz
                  + (drds[:, :, 1:] + drds[:, :, :-1]) * dsdz)
    # isoneutral slopes on the w-faces of the interior columns
    gx = 0.5 * (drdx[2:-1, 2:-2, :] + drdx[1:-2, 2:-2, :])
    gy = 0.5 * (drdy[2:-2, 2:-1, :] + drdy[2:-2, 1:-2, :])
    gx = 0.5 * (gx[:, :, 1:] + gx[:, :, :-1])
    gy = 0.5 * (gy[:, :, 1:] + gy[:, :, :-1])
    gz = np.maximum(drdz[2:-2, 2:-2, :], EPS)  # stable stratification, density grows downward
    sx = -gx / gz
    sy = -gy / gz
    magnitude = np.sqrt(sx * sx + sy * sy)
    taper = 0.5 * (1.0 + np.tanh((SLOPE_MAX - magnitude) / SLOPE_WIDTH))
    sx = np.clip(sx, -SLOPE_MAX, SLOPE_MAX) * taper
    sy = np.clip(sy, -SLOPE_MAX, SLOPE_MAX) * taper
    # diffusivities on the faces: harmonic means of the neighbouring cells'
    kx = 2.0 * kappa[1:] * kappa[:-1] / (kappa[1:] + kappa[:-1] + TINY) * mx
    ky = 2.0 * kappa[:, 1:] * kappa[:, :-1] / (kappa[:, 1:] + kappa[:, :-1] + TINY) * my
    args = (u, v, w, kx, ky, sx, sy, mx, my, mz, dz, mask_c)
    t_new = tracer_step(np, t, dtdx, dtdy, dtdz, *args)
    s_new = tracer_step(np, s, dsdx, dsdy, dsdz, *args)
    return t_new, s_new, sx, sy


def initialize(size, np):
    nx, ny, nz = size
    rng = np.random.default_rng(21)
    dz = (10.0 * 1.06 ** np.arange(nz)).reshape(1, 1, nz)
    depth = np.cumsum(dz, axis=2) - 0.5 * dz
    t = 2.0 + 20.0 * np.exp(-depth / 800.0) + rng.normal(0.0, 0.3, (nx, ny, nz))
    s = 34.5 + 0.5 * np.tanh(depth / 500.0) + rng.normal(0.0, 0.05, (nx, ny, nz))
    u = rng.normal(0.0, 0.2, (nx, ny, nz))
    v = rng.normal(0.0, 0.2, (nx, ny, nz))
    w = rng.normal(0.0, 1e-4, (nx, ny, nz))
    kappa = 1000.0 * rng.uniform(0.5, 1.5, (nx, ny, nz))
    # a bathymetry: each column is ocean down to its floor level
    floor = rng.integers(nz // 2, nz + 1, (nx, ny, 1))
    mask = (np.arange(nz).reshape(1, 1, nz) < floor).astype(np.float64)
    return t, s, u, v, w, kappa, mask, dz
