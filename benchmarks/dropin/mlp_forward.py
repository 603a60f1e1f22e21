"""Forward pass of a 3-layer perceptron: GEMM + bias + ReLU twice, then logits and a softmax
(float32)."""

SIZES = {"small": (7, 33, 65, 10), "medium": (256, 1024, 1024, 100),
         "large": (1024, 2048, 4096, 1000), "demo": (64, 1024, 1024, 100)}
# float32: each output sums up to 4096 products (rounding ~sqrt(k) ulps in any order, and the
# devices' orders differ); the softmax's small probabilities are compared absolutely.
RTOL = 1e-3
ATOL = 1e-6


def initialize(size, np):
    batch, n_in, hidden, n_out = size
    rng = np.random.default_rng(11)

    def layer(fan_in, fan_out):
        w = (rng.standard_normal((fan_in, fan_out)) / np.sqrt(fan_in)).astype(np.float32)
        return w, (rng.standard_normal(fan_out) * 0.1).astype(np.float32)

    w1, b1 = layer(n_in, hidden)
    w2, b2 = layer(hidden, hidden)
    w3, b3 = layer(hidden, n_out)
    x = rng.standard_normal((batch, n_in)).astype(np.float32)
    return x, w1, b1, w2, b2, w3, b3


def kernel(np, x, w1, b1, w2, b2, w3, b3):
    h = np.maximum(x @ w1 + b1, 0.0)
    h = np.maximum(h @ w2 + b2, 0.0)
    logits = h @ w3 + b3
    e = np.exp(logits - np.max(logits, axis=1, keepdims=True))
    return e / np.sum(e, axis=1, keepdims=True)
