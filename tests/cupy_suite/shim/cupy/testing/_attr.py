"""The slow and multi_gpu marks (cupy_suite_plugin applies skips.py's rule to multi_gpu)."""

import pytest

slow = pytest.mark.slow


def multi_gpu(gpu_num):
    return pytest.mark.multi_gpu(gpu_num)
