"""The vkdispatch seed example (shared/seeds/000), verbatim but for its import line, must run
and print exactly the output its documentation promises."""

import os
import subprocess
import sys

SEED_EXAMPLE = '''\
import vkarray as vd
import numpy as np

# Create a simple numpy array
cpu_data = np.arange(16, dtype=np.int32)
print(f"Original CPU data: {cpu_data}")

# Create a GPU buffer
gpu_buffer = vd.asbuffer(cpu_data)

# Read data back from GPU to CPU to verify
downloaded_data = gpu_buffer.read(0)
print(f"Data downloaded from GPU: {downloaded_data.flatten()}")
'''

EXPECTED = ("Original CPU data: [ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15]\n"
            "Data downloaded from GPU: [ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15]\n")


def test_seed_example_prints_the_documented_output():
    # A fresh interpreter, so the example also proves the default context is created lazily.
    done = subprocess.run([sys.executable, "-c", SEED_EXAMPLE], capture_output=True, text=True,
                          env=dict(os.environ), timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == EXPECTED
