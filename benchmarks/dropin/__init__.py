"""The drop-in suite: realistic numpy programs, one module each, that run unchanged with any
numpy-like module passed as ``np`` (numpy, vkarray, CuPy, PyTorch through ``torch_shim``,
jax.numpy).

Each module has ``SIZES`` ({"small", "medium", "large"} -> a size), ``initialize(size, np)``
(host data from numpy's seeded generator: numpy arrays, which the runner moves to the device
with ``xp.asarray``, and plain Python values, passed unchanged), ``kernel(np, *data)`` (the
program; it uses only the module passed as ``np``), and the tolerance it is checked with:
``RTOL``/``ATOL`` (each with a comment saying why), or a ``check(got, want)`` of its own where
results are compared statistically. Optional: ``JIT = True`` (the program is a pure function of
its array inputs: jax.jit and torch.compile may trace it), ``IN_PLACE = True`` (it writes into
slices of arrays, which JAX cannot run) and ``iterations(size)`` (the Python-loop iterations of
one call, for the time per iteration of the loop programs).
"""

import importlib

PROGRAMS = [
    # elementwise chains
    "black_scholes", "mandelbrot", "haversine", "softmax",
    # stencils
    "jacobi_2d", "heat_3d", "shallow_water", "game_of_life",
    # reductions and statistics
    "kmeans", "correlation", "covariance", "histogram", "rolling_mean",
    # linear algebra
    "mlp_forward", "conjugate_gradient", "power_iteration", "logistic_regression",
    # physics, spectral, random
    "nbody", "fft_convolution", "monte_carlo_pi",
    # many small ops from Python loops
    "small_updates", "lorenz96",
    # fusion goals (issue 20): a long elementwise chain with broadcasting, ~100 statements of
    # sliced stencils, and micro programs of long or tiny chains
    "seawater_eos", "sliced_stencil", "horner60", "small_op_chain", "zero_d_accumulate",
    # loops of small operations as numpy users write them (issue 21)
    "lu", "lu_inner", "cholesky", "gram_schmidt", "gauss_seidel", "floyd_warshall", "nussinov",
    "durbin", "advection_diffusion", "element_writes",
]

# Groups, which benchmarks/run.py --programs also takes by name: the 22 realistic programs
# (benchmarks/gpu/run_dropin.sh), and those of run_fusion.sh and run_loops.sh.
FUSION_PROGRAMS = ["seawater_eos", "sliced_stencil", "horner60", "small_op_chain",
                   "zero_d_accumulate"]
LOOP_PROGRAMS = ["lu", "lu_inner", "cholesky", "gram_schmidt", "gauss_seidel", "floyd_warshall",
                 "nussinov", "durbin", "advection_diffusion", "element_writes"]
GROUPS = {"suite": [p for p in PROGRAMS if p not in FUSION_PROGRAMS + LOOP_PROGRAMS],
          "fusion": FUSION_PROGRAMS, "loops": LOOP_PROGRAMS, "all": PROGRAMS}


def expand(names):
    """Program names from a comma-separated list of names and group names."""
    out = []
    for name in names.split(","):
        out += [p for p in GROUPS.get(name, [name]) if p not in out]
    return out


def load(name):
    """The program module benchmarks.dropin.<name>."""
    return importlib.import_module(f"{__name__}.{name}")
