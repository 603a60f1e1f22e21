"""Buffer misuse: each error's Python class, that its message names the op and the values,
and that a failed write leaves every replica's old contents intact."""

import numpy as np
import pytest

import vkarray as vk
from conftest import assert_same_bits


@pytest.mark.parametrize("shape, text", [
    ((3, -1), "negative dimension -1 in shape (3, -1)"),
    (-2, "negative dimension -2 in shape (-2,)"),
    ((3, 2.5), "dimension 2.5 in shape (3, 2.5) is not an integer"),
    (2.0, "dimension 2.0 in shape (2.0,) is not an integer"),
    ((True, 3), "dimension True in shape (True, 3) is not an integer"),
    ((np.bool_(True),), "dimension True in shape (True,) is not an integer"),
    ((2, "3"), "dimension '3' in shape (2, '3') is not an integer"),
    ((2**70,), "too large a dimension 1180591620717411303424"),
    ("3", "shape must be an int or a tuple of ints, got '3'"),
    (None, "shape must be an int or a tuple of ints, got None"),
])
def test_bad_shapes_raise_value_error(shape, text, ctx1):
    with pytest.raises(ValueError) as e:
        vk.Buffer(shape, vk.float32, context=ctx1)
    assert "[Buffer]" in str(e.value) and text in str(e.value)


def test_shape_too_large_raises_memory_error_and_past_int64_value_error(ctx1):
    # As numpy: MemoryError for what cannot be allocated, ValueError where the bytes overflow.
    with pytest.raises(MemoryError, match=r"cannot allocate 4.00 TiB \(4398046511104 bytes\)"):
        vk.Buffer((2**20, 2**20), vk.float32, context=ctx1)
    with pytest.raises(ValueError, match=r"\[Buffer\] shape \(4611686018427387904, 8\)"):
        vk.Buffer((2**62, 8), vk.float64, context=ctx1)


@pytest.mark.parametrize("dtype, text", [
    (object, "dtype object is not supported"),
    ("U3", "dtype <U3 is not supported"),
    ("M8[ns]", "dtype datetime64[ns] is not supported"),
    (np.longdouble, "dtype float128 is not supported"),
    ("V8", "dtype |V8 is not supported"),
    ([("a", "f4")], "is not supported"),
    (">f4", "dtype >f4 is big-endian"),
    ("floot", "dtype 'floot' is not understood"),
])
def test_unsupported_dtypes_raise_type_error(dtype, text, ctx1):
    with pytest.raises(TypeError) as e:
        vk.Buffer(4, dtype, context=ctx1)
    assert str(e.value).startswith("[Buffer] ") and text in str(e.value)


@pytest.fixture
def filled(ctx3):
    """A 3-replica int16 buffer with different contents per replica, and those contents."""
    buf = vk.Buffer((2, 3), vk.int16, context=ctx3)
    want = [np.arange(6, dtype=np.int16).reshape(2, 3) * (r + 1) for r in range(3)]
    for r, w in enumerate(want):
        buf.write(w, r)
    return buf, want


# (data, index, exception, text that the message must contain)
BAD_WRITES = [
    (np.zeros((3, 2), np.int16), None, ValueError,
     "data of shape (3, 2) (6 elements) does not match buffer shape (2, 3) (6 elements)"),
    (np.zeros(5, np.int16), None, ValueError, "data of shape (5,) (5 elements)"),
    (np.int16(4), None, ValueError, "data of shape () (1 elements)"),
    (b"\0" * 11, None, ValueError, "data of 11 bytes does not match buffer (2, 3) int16 of 12"),
    (np.zeros(6, np.float32), None, TypeError,
     "cannot write float32 data into a buffer of int16 (fractions would be cut)"),
    (np.zeros(6, np.complex64), None, TypeError, "cannot write complex64 data into a buffer"),
    ([[1, 2, 3], [4, 5, 40000]], None, ValueError,
     "value 40000 at data index (1, 2) does not fit int16 (range -32768 to 32767)"),
    (np.array([1, 2, 3, 4, 5, -2**40]), None, ValueError, "value -1099511627776 at data index "
     "(5,) does not fit int16"),
    (np.full(6, 2**15, np.uint16), None, ValueError, "value 32768 at data index (0,)"),
    (np.array(["a"] * 6), None, TypeError, "data of dtype <U1 is not supported"),
    ([[1, 2], [3]], None, ValueError, "data is not a rectangular array"),
    (np.zeros((2, 3), np.int16), 3, IndexError,
     "[write] replica index 3 is out of range for a context with 3 replica(s)"),
    (np.zeros((2, 3), np.int16), -1, IndexError,
     "replica index -1 is out of range (negative indices are not accepted)"),
    (np.zeros((2, 3), np.int16), 1.0, TypeError, "replica index must be an int or None, got 1.0"),
]


@pytest.mark.parametrize("data, index, exc, text", BAD_WRITES,
                         ids=[f"{i}-{e.__name__}" for i, (_, _, e, _) in enumerate(BAD_WRITES)])
def test_failed_write_names_the_problem_and_changes_nothing(filled, data, index, exc, text):
    buf, want = filled
    with pytest.raises(exc) as e:
        buf.write(data, index)
    assert str(e.value).startswith("[write] ") and text in str(e.value), str(e.value)
    for r in range(3):
        assert_same_bits(buf.read(r), want[r])


def test_conversion_errors_for_other_dtypes(ctx1):
    flag = vk.Buffer(2, vk.bool_, context=ctx1)
    with pytest.raises(TypeError, match=r"\[write\] cannot write int64 data into a buffer of "
                                        r"bool \(values other than 0 and 1 would change\)"):
        flag.write([0, 1])
    f32 = vk.Buffer(3, vk.float32, context=ctx1)
    f32.write([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match=r"value 1e\+300 at data index \(1,\) overflows float32"):
        f32.write([0.0, 1e300, 2.0])
    with pytest.raises(TypeError, match="cannot write complex128 data into a buffer of float32"):
        f32.write([1j, 2, 3])
    half = vk.Buffer(2, vk.float16, context=ctx1)
    with pytest.raises(ValueError, match=r"value 70000 at data index \(0,\) overflows float16"):
        half.write([70000, 1])
    u8 = vk.Buffer(2, vk.uint8, context=ctx1)
    with pytest.raises(ValueError, match=r"value -1 at data index \(1,\) does not fit uint8 "
                                         r"\(range 0 to 255\)"):
        u8.write([3, -1])
    # numpy infers float64 for a list mixing int64 and uint64-only values; refused, not rounded.
    u64 = vk.Buffer(2, vk.uint64, context=ctx1)
    with pytest.raises(TypeError, match="cannot write float64 data into a buffer of uint64"):
        u64.write([0, 2**63 + 5])
    assert_same_bits(f32.read(0), np.array([1, 2, 3], np.float32))


def test_read_index_errors(ctx2):
    buf = vk.Buffer(3, vk.float32, context=ctx2)
    with pytest.raises(IndexError, match=r"\[read\] replica index 2 is out of range for a "
                                         r"context with 2 replica\(s\)"):
        buf.read(2)
    with pytest.raises(IndexError, match=r"\[read\] replica index -1 .*negative"):
        buf.read(-1)
    with pytest.raises(TypeError, match=r"\[read\] replica index must be an int or None"):
        buf.read("0")


def test_destroyed_buffer_raises_runtime_error(ctx2):
    buf = vk.asbuffer(np.arange(3), context=ctx2)
    buf._destroy()
    buf._destroy()  # idempotent
    with pytest.raises(RuntimeError, match=r"\[write\] buffer of shape \(3,\) and dtype int64 "
                                           r"was destroyed by _destroy\(\)"):
        buf.write(np.arange(3))
    with pytest.raises(RuntimeError, match=r"\[read\] buffer of shape \(3,\)"):
        buf.read(0)
    assert buf.shape == (3,) and buf.nbytes == 24  # metadata survives


def test_len_of_0d_buffer_raises_type_error(ctx1):
    with pytest.raises(TypeError, match="0-d"):
        len(vk.Buffer((), context=ctx1))


def test_asbuffer_rejects_unsupported_data(ctx1):
    with pytest.raises(TypeError, match=r"\[asbuffer\] data of dtype object is not supported"):
        vk.asbuffer([1, None], context=ctx1)
    with pytest.raises(TypeError, match=r"\[asbuffer\] data of dtype float128"):
        vk.asbuffer(np.zeros(2, np.longdouble), context=ctx1)
