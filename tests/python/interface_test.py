"""Every kernel family through each launch interface (runtime/launch.h: choose_interface):
VKA_INTERFACE forces addressed operands and an argument buffer (uniform or storage) where the
device would not need them, in a fresh process, and each result must equal numpy's."""

import os
import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent("""
    import numpy as np
    import vkarray as vk

    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (37, 41))
    b = rng.uniform(-1, 1, (41, 13))
    av, bv = vk.asarray(a), vk.asarray(b)
    checks = {
        "elementwise": (np.asarray(vk.sin(av[:-1:2, 1:]) * 3 + av[1::2, :-1] ** 2),
                        np.sin(a[:-1:2, 1:]) * 3 + a[1::2, :-1] ** 2),
        "reduce": (np.asarray(vk.sum(av * 2, axis=0)), (a * 2).sum(axis=0)),
        "argmax": (np.asarray(vk.argmax(av, axis=1)), a.argmax(axis=1)),
        "matmul": (np.asarray(vk.maximum(av @ bv + 1, 0)), np.maximum(a @ b + 1, 0)),
        "cumsum": (np.asarray(vk.cumsum(av.ravel())), np.cumsum(a.ravel())),
        "sort": (np.asarray(vk.sort(av, axis=1)), np.sort(a, axis=1)),
        "nonzero": (np.asarray(vk.nonzero(av.ravel() > 0.5)[0]), np.nonzero(a.ravel() > 0.5)[0]),
        "gather": (np.asarray(av[[3, 1, 3], 2:9]), a[[3, 1, 3], 2:9]),
        "searchsorted": (np.asarray(vk.searchsorted(vk.sort(av.ravel()), bv.ravel())),
                         np.searchsorted(np.sort(a.ravel()), b.ravel())),
    }
    for name, (got, want) in checks.items():
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12, err_msg=name)
    print("ok", len(checks))
""")


@pytest.mark.parametrize("interface", ["addresses,storage", "uniform"])
def test_every_family_through_a_forced_interface(interface, tmp_path):
    env = dict(os.environ, VKA_INTERFACE=interface, VKA_DEBUG="")
    result = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.split() == ["ok", "9"]
