"""The TEOS-10 equation of state of seawater as the 55-term polynomial of Roquet, Madec,
McDougall and Barker (2015), "Accurate polynomial expressions for the density and specific volume
of seawater using the TEOS-10 standard", Ocean Modelling 90, 29-43 (its Boussinesq form,
polyTEOS10-bsq): in-situ density, the thermal expansion and haline contraction coefficients and
the specific volume anomaly of a 3-d ocean (float64), as an ocean model evaluates them each step.

In the paper's reduced variables s = sqrt((SA + 32) / SAu), t = CT / 40, z = p / 10^4 (SA
Absolute Salinity in g/kg, CT Conservative Temperature in deg C, p sea pressure in dbar), density
is rho = r0(z) + r(s, t, z): a reference profile r0(z) = sum_k R0k z^(k+1) (6 coefficients) and
an anomaly r = sum R_ijk s^i t^j z^k (52 coefficients: degree 6 in (s, t) at z^0, 4 at z^1, 2 at
z^2, 1 at z^3). Each sum is evaluated by nested Horner schemes in s, then t, then z. The
Boussinesq expansion coefficients are the anomaly's derivatives, a = -dr/dCT and b = dr/dSA,
whose coefficients follow from R_ijk by the chain rule (dt/dCT = 1/40, ds/dSA = 1/(2 SAu s));
alpha = a / rho and beta = b / rho. The specific volume anomaly is 1/rho(SA, CT, p) -
1/rho(SSO, 0, p), SSO = 35.16504 g/kg. sigma0 and sigma2 (potential density anomalies at 0 and
2000 dbar) reuse the anomaly's four z-coefficients.

Salinity and temperature are (n, n, m) fields; pressure is one profile of shape (1, 1, m),
broadcast across the horizontal axes. One call is 277 numpy operations with 128 distinct float64
coefficients (58 published, 70 derived for a and b), reusing the intermediates s, t, z and the
anomaly's z-coefficients many times (tests/python/dropin_test.py checks the counts).
"""

# (n, m): SA and CT of shape (n, n, m), p of shape (1, 1, m). demo: 2^20 elements (lavapipe),
# medium and large: 4M and 16M elements (the GPU sizes).
SIZES = {"small": (8, 16), "medium": (128, 256), "large": (256, 256), "demo": (64, 256)}
# float64: each result is a sum of terms up to ~2000 kg/m^3 that cancel to ~1000 (rho) or ~1
# (a, b): a few ulps of 2000 relative to the result; the specific volume anomaly (~1e-5 m^3/kg)
# is a difference of two ~1e-3 values, so it loses ~2 more digits. 1e-10 leaves room for
# fused multiply-adds and another order of operations.
RTOL = 1e-10
ATOL = 1e-15
# jax.jit / torch.compile may trace the program: a pure function of its array inputs.
JIT = True

SAU = 40.0 * 35.16504 / 35.0  # g/kg: the reduced salinity's unit
CTU = 40.0                    # deg C
ZU = 1e4                      # dbar
DELTA_S = 32.0                # g/kg: the offset that keeps s real for SA > -32
SSO = 35.16504                # g/kg: the Standard Ocean Reference Salinity

# The vertical reference profile r0(z) = sum_k R0[k] z^(k+1), kg/m^3.
R0 = [4.6494977072e+01, -5.2099962525e+00, 2.2601900708e-01, 6.4326772569e-02,
      1.5616995503e-02, -1.7243708991e-03]

# The anomaly's coefficients R_ijk (of s^i t^j z^k), kg/m^3, as published.
R = {
    (0, 0, 0): 8.0189615746e+02, (1, 0, 0): 8.6672408165e+02, (2, 0, 0): -1.7864682637e+03,
    (3, 0, 0): 2.0375295546e+03, (4, 0, 0): -1.2849161071e+03, (5, 0, 0): 4.3227585684e+02,
    (6, 0, 0): -6.0579916612e+01, (0, 1, 0): 2.6010145068e+01, (1, 1, 0): -6.5281885265e+01,
    (2, 1, 0): 8.1770425108e+01, (3, 1, 0): -5.6888046321e+01, (4, 1, 0): 1.7681814114e+01,
    (5, 1, 0): -1.9193502195e+00, (0, 2, 0): -3.7074170417e+01, (1, 2, 0): 6.1548258127e+01,
    (2, 2, 0): -6.0362551501e+01, (3, 2, 0): 2.9130021253e+01, (4, 2, 0): -5.4723692739e+00,
    (0, 3, 0): 2.1661789529e+01, (1, 3, 0): -3.3449108469e+01, (2, 3, 0): 1.9717078466e+01,
    (3, 3, 0): -3.1742946532e+00, (0, 4, 0): -8.3627885467e+00, (1, 4, 0): 1.1311538584e+01,
    (2, 4, 0): -5.3563304045e+00, (0, 5, 0): 5.4048723791e-01, (1, 5, 0): 4.8169980163e-01,
    (0, 6, 0): -1.9083568888e-01,
    (0, 0, 1): 1.9681925209e+01, (1, 0, 1): -4.2549998214e+01, (2, 0, 1): 5.0774768218e+01,
    (3, 0, 1): -3.0938076334e+01, (4, 0, 1): 6.6051753097e+00, (0, 1, 1): -1.3336301113e+01,
    (1, 1, 1): -4.4870114575e+00, (2, 1, 1): 5.0042598061e+00, (3, 1, 1): -6.5399043664e-01,
    (0, 2, 1): 6.7080479603e+00, (1, 2, 1): 3.5063081279e+00, (2, 2, 1): -1.8795372996e+00,
    (0, 3, 1): -2.4649669534e+00, (1, 3, 1): -5.5077101279e-01, (0, 4, 1): 5.5927935970e-01,
    (0, 0, 2): 2.0660924175e+00, (1, 0, 2): -4.9527603989e+00, (2, 0, 2): 2.5019633244e+00,
    (0, 1, 2): 2.0564311499e+00, (1, 1, 2): -2.1311365518e-01, (0, 2, 2): -1.2419983026e+00,
    (0, 0, 3): -2.3342758797e-02, (1, 0, 3): -1.8507636718e-02, (0, 1, 3): 3.7969820455e-01,
}

# a = -dr/dCT = -(1/CTU) dr/dt: the coefficients of s^i t^(j-1) z^k.
A = {(i, j - 1, k): -j * c / CTU for (i, j, k), c in R.items() if j > 0}
# b = dr/dSA = dr/ds / (2 SAU s): the coefficients of s^(i-1) t^j z^k, divided by s afterwards.
B = {(i - 1, j, k): i * c / (2.0 * SAU) for (i, j, k), c in R.items() if i > 0}


def horner(x, coefficients):
    """c0 + x (c1 + x (c2 + ...)): coefficients lowest first; each may be an array (a
    polynomial in another variable) or a number."""
    acc = coefficients[-1]
    for c in reversed(coefficients[:-1]):
        acc = acc * x + c
    return acc


def z_coefficients(s, t, table):
    """[sum_ij C_ijk s^i t^j for k = 0, 1, ...]: for each power of z, a polynomial in t whose
    coefficients are polynomials in s."""
    out = []
    for k in range(1 + max(k for (_, _, k) in table)):
        by_t = []
        for j in range(1 + max(j for (_, j, kk) in table if kk == k)):
            degree = max(i for (i, jj, kk) in table if (jj, kk) == (j, k))
            by_t.append(horner(s, [table.get((i, j, k), 0.0) for i in range(degree + 1)]))
        out.append(horner(t, by_t))
    return out


def reduced(np, sa, ct, p):
    return np.sqrt((sa + DELTA_S) * (1.0 / SAU)), ct * (1.0 / CTU), p * (1.0 / ZU)


def reference_profile(z):
    """r0(z), kg/m^3."""
    return horner(z, R0) * z


def kernel(np, sa, ct, p):
    s, t, z = reduced(np, sa, ct, p)
    rz = z_coefficients(s, t, R)             # rz[k]: the anomaly's coefficient of z^k
    r0 = reference_profile(z)                # (1, 1, m)
    rho = horner(z, rz) + r0                 # in-situ density, kg/m^3
    a = horner(z, z_coefficients(s, t, A))   # -drho/dCT, kg/m^3/K
    b = horner(z, z_coefficients(s, t, B)) / s  # drho/dSA, kg/m^3/(g/kg)
    alpha = a / rho                          # thermal expansion coefficient, 1/K
    beta = b / rho                           # haline contraction coefficient, kg/g
    # The standard ocean (SSO, 0 deg C) at the same pressures: the s- and t-sums are numbers,
    # so only the z-polynomial runs on the (1, 1, m) profile.
    s_ref = ((SSO + DELTA_S) / SAU) ** 0.5
    rho_ref = horner(z, z_coefficients(s_ref, 0.0, R)) + r0
    delta = 1.0 / rho - 1.0 / rho_ref        # specific volume anomaly, m^3/kg
    sigma0 = rz[0] - 1000.0                  # potential density anomalies (z = 0 and 0.2)
    sigma2 = horner(0.2, rz) + reference_profile(0.2) - 1000.0
    return rho, alpha, beta, delta, sigma0, sigma2


def initialize(size, np):
    n, m = size
    rng = np.random.default_rng(55)
    sa = rng.uniform(33.0, 37.5, (n, n, m))
    # warm at the surface, cold at depth, with noise
    ct = rng.uniform(-1.5, 4.0, (n, n, m)) + 25.0 * np.exp(-np.arange(m) / (0.2 * m))
    p = np.linspace(0.0, 6000.0, m).reshape(1, 1, m)
    return sa, ct, p
