"""cupy.lib: its stride_tricks submodule (stride_tricks.py); numpy.lib's other names are not
part of CuPy's public API."""

from . import stride_tricks  # noqa: F401
