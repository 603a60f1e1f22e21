"""Black-Scholes prices of European call and put options (float32).

The normal CDF is the Abramowitz-Stegun polynomial (numpy has no erf), as in the classic numpy
Black-Scholes benchmark. The whole program is one elementwise chain of ~50 operations.
"""

# demo: 40 MB arrays, far beyond a CPU core's L2 cache, where numpy's ~60 passes over memory
# cost more than one fused kernel's single pass: fusion pays on lavapipe (a CPU) too.
SIZES = {"small": 1001, "medium": 1_000_000, "large": 10_000_000, "demo": 10_000_000}
# float32: each of the ~50 operations (exp, log, sqrt among them) rounds to a few ulps; prices
# run from 0 to ~40, and the call price is a difference of two such terms, so small prices are
# compared with an absolute tolerance of a few float32 ulps of the strike (~40 * 6e-8 * 40).
RTOL = 1e-4
ATOL = 1e-4

RATE = 0.02
VOLATILITY = 0.30


def initialize(size, np):
    rng = np.random.default_rng(1)
    price = rng.uniform(10.0, 50.0, size).astype(np.float32)
    strike = rng.uniform(10.0, 50.0, size).astype(np.float32)
    years = rng.uniform(0.1, 2.0, size).astype(np.float32)
    return price, strike, years


def normal_cdf(np, d):
    k = 1.0 / (1.0 + 0.2316419 * np.abs(d))
    poly = k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978
                                                                       + k * 1.330274429))))
    w = 1.0 - 0.3989422804014327 * np.exp(-0.5 * d * d) * poly
    return np.where(d < 0, 1.0 - w, w)


def kernel(np, price, strike, years):
    sqrt_t = np.sqrt(years)
    d1 = (np.log(price / strike) + (RATE + 0.5 * VOLATILITY * VOLATILITY) * years) / (
        VOLATILITY * sqrt_t)
    d2 = d1 - VOLATILITY * sqrt_t
    discounted = strike * np.exp(-RATE * years)
    call = price * normal_cdf(np, d1) - discounted * normal_cdf(np, d2)
    put = call - price + discounted  # put-call parity
    return call, put
