"""cupy.cuda.compiler: CUDA 12.0's nvcc for the version query CuPy's raw-kernel tests make at
import time; any use while a test runs skips it (skips.py: compiler)."""

from cupy import _stubs


class CompileException(Exception):
    pass


class JitifyException(Exception):
    pass


def _run_cc(cmd, cwd, backend, log_stream=None):
    _stubs.Stub("cupy.cuda.compiler._run_cc")()
    return "Cuda compilation tools, release 12.0, V12.0.76"


def __getattr__(name):
    return _stubs.Stub(f"cupy.cuda.compiler.{name}")
