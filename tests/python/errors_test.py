"""The one exception map: each vkarray error type reaches Python as exactly one builtin, with
its message unchanged."""

import pytest

from vkarray import _vkarray

CASES = [
    ("ShapeError", ValueError),
    ("DTypeError", TypeError),
    ("IndexError", IndexError),
    ("OverflowError", OverflowError),
    ("OutOfMemory", MemoryError),
    ("DeviceError", RuntimeError),
    ("CompileError", RuntimeError),
    ("InternalError", RuntimeError),
]


@pytest.mark.parametrize("kind,builtin", CASES)
def test_each_error_maps_to_its_builtin(kind, builtin):
    message = f"[op] {kind} with values (3, 4) and (5,)"
    with pytest.raises(builtin) as info:
        _vkarray._raise_error(kind, message)
    assert str(info.value) == message
    assert type(info.value) is builtin  # not a subclass standing in for it
