"""Buffer round trips: every dtype with edge values on every replica, every rank, both
transfer paths, per-replica writes, stacked reads, and a buffer past maxStorageBufferRange."""

import numpy as np
import pytest

import vkarray as vk
from conftest import assert_same_bits

ALL_DTYPES = [vk.bool_, vk.int8, vk.uint8, vk.int16, vk.uint16, vk.int32, vk.uint32, vk.int64,
              vk.uint64, vk.float16, vk.float32, vk.float64, vk.complex64, vk.complex128]


def sample(dtype, n, seed=0):
    """n random values of dtype, beginning with that dtype's edge values."""
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        edges = np.array([False, True])
        rand = rng.integers(0, 2, n).astype(bool)
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        edges = np.array([info.min, info.max, 0, 1, info.max - 1], dtype=dt)
        if dt.kind == "i":
            edges = np.concatenate([edges, np.array([-1, info.min + 1], dtype=dt)])
        rand = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
    else:
        real = np.finfo(dt).dtype
        info = np.finfo(real)
        edge_vals = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, info.max, info.min,
                              info.tiny, info.smallest_subnormal, -info.eps], dtype=real)
        rand = (rng.standard_normal(n) * 1e3).astype(real)
        if dt.kind == "c":
            edges = np.empty((len(edge_vals), len(edge_vals)), dt)  # every (re, im) pair
            edges.real, edges.imag = edge_vals[:, None], edge_vals[None, :]
            edges = edges.ravel()
            rand = (rand + 1j * rand[::-1]).astype(dt)
        else:
            edges = edge_vals
    assert n >= len(edges)
    return np.concatenate([edges, rand[: n - len(edges)]]).astype(dt)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: np.dtype(d).name)
def test_every_dtype_round_trips_on_every_replica(dtype, any_ctx):
    data = sample(dtype, 300).reshape(3, 100)
    buf = vk.Buffer(data.shape, dtype, context=any_ctx)
    buf.write(data)
    assert buf.dtype == np.dtype(dtype)
    for r in range(any_ctx.num_replicas):
        assert_same_bits(buf.read(r), data)
    stacked = buf.read()
    assert stacked.shape == (any_ctx.num_replicas, 3, 100)
    for r in range(any_ctx.num_replicas):
        assert_same_bits(stacked[r], data)


@pytest.mark.parametrize("shape", [(), (0,), (3, 0, 2), (7,), (2, 3), (2, 1, 3), (1, 2, 3, 2),
                                   (2, 1, 2, 1, 3), (1, 2, 1, 2, 1, 2)], ids=str)
def test_shapes_of_any_rank(shape, ctx3):
    data = np.arange(np.prod(shape, dtype=int), dtype=np.float32).reshape(shape) - np.float32(3.5)
    buf = vk.Buffer(shape, vk.float32, context=ctx3)
    assert (buf.shape, buf.ndim, buf.size, buf.nbytes) == (shape, len(shape), data.size,
                                                            data.nbytes)
    buf.write(data)
    assert_same_bits(buf.read(2), data)
    assert buf.read().shape == (3,) + shape


def test_asbuffer_takes_shape_and_dtype_from_the_data(any_ctx):
    floats = vk.asbuffer([[1.5, -2.0], [0.1, 3.0]], context=any_ctx)
    assert floats.dtype == np.float64 and floats.shape == (2, 2)
    assert_same_bits(floats.read(0), np.array([[1.5, -2.0], [0.1, 3.0]]))
    ints = vk.asbuffer(range(5), context=any_ctx)
    assert ints.dtype == np.int64
    assert_same_bits(ints.read(any_ctx.num_replicas - 1), np.arange(5))
    scalar = vk.asbuffer(np.float16(2.5), context=any_ctx)
    assert scalar.shape == () and scalar.read(0) == np.float16(2.5)
    swapped = vk.asbuffer(np.arange(4, dtype=">i4"), context=any_ctx)
    assert swapped.dtype == np.int32
    assert_same_bits(swapped.read(0), np.arange(4, dtype=np.int32))


def test_write_one_replica_changes_only_that_replica(ctx3):
    buf = vk.Buffer((4, 5), vk.int32, context=ctx3)
    base = np.arange(20, dtype=np.int32).reshape(4, 5)
    buf.write(base)
    buf.write(-base, 1)
    got = buf.read()
    assert_same_bits(got[0], base)
    assert_same_bits(got[1], -base)
    assert_same_bits(got[2], base)
    buf.write(base * 7, index=np.int64(2))
    assert_same_bits(buf.read(2), base * 7)
    assert_same_bits(buf.read(1), -base)


def test_staging_and_mapped_paths_agree(ctx1, ctx_staging):
    data = sample(vk.complex128, 5000, seed=3)
    mapped = vk.asbuffer(data, context=ctx1)
    staged = vk.asbuffer(data, context=ctx_staging)
    assert_same_bits(mapped.read(0), staged.read(1))


def test_write_accepts_raw_bytes(ctx2):
    data = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)
    buf = vk.Buffer((3, 4), vk.float32, context=ctx2)
    buf.write(data.tobytes())
    assert_same_bits(buf.read(1), data)
    buf.write(bytearray((data * 2).tobytes()), 0)
    assert_same_bits(buf.read(0), data * 2)
    assert_same_bits(buf.read(1), data)
    strided = memoryview(np.repeat((data * 3).ravel(), 2))[::2]  # not contiguous
    buf.write(strided)
    assert_same_bits(buf.read(0), data * 3)


def test_write_converts_only_when_values_survive(ctx1):
    f32 = vk.Buffer(4, vk.float32, context=ctx1)
    f32.write([1, 2, 3, 4])  # int64 list
    assert_same_bits(f32.read(0), np.array([1, 2, 3, 4], np.float32))
    f32.write([0.1, 0.2, -1e30, np.inf])  # float64 rounds to nearest float32
    assert_same_bits(f32.read(0), np.array([0.1, 0.2, -1e30, np.inf], np.float32))
    i8 = vk.Buffer(3, vk.int8, context=ctx1)
    i8.write(np.array([-128, 0, 127], np.int64))
    assert_same_bits(i8.read(0), np.array([-128, 0, 127], np.int8))
    i8.write(np.array([True, False, True]))
    assert_same_bits(i8.read(0), np.array([1, 0, 1], np.int8))
    u64 = vk.Buffer(2, vk.uint64, context=ctx1)
    u64.write([2**63 + 5, 2**64 - 1])  # numpy infers uint64
    assert_same_bits(u64.read(0), np.array([2**63 + 5, 2**64 - 1], np.uint64))
    c64 = vk.Buffer(2, vk.complex64, context=ctx1)
    c64.write(np.array([1.5, -np.inf], np.float16))
    assert_same_bits(c64.read(0), np.array([1.5, -np.inf], np.complex64))


def test_write_flat_data_and_non_contiguous_arrays(ctx2):
    base = np.arange(24, dtype=np.int16).reshape(4, 6)
    buf = vk.Buffer((6, 4), vk.int16, context=ctx2)
    buf.write(base.T)  # transposed view: copied in C order
    assert_same_bits(buf.read(0), np.ascontiguousarray(base.T))
    buf.write(np.arange(48, dtype=np.int16)[::2])  # 1-d strided, right element count
    assert_same_bits(buf.read(1), np.arange(0, 48, 2, dtype=np.int16).reshape(6, 4))
    buf.write(np.asfortranarray(base.T))
    assert_same_bits(buf.read(1), np.ascontiguousarray(base.T))


def test_buffer_larger_than_max_storage_buffer_range(ctx1, ctx_staging):
    limit = ctx1.devices[0]["max_storage_buffer_range"]
    n = limit // 4 + 1024  # just past what one binding can address, on any device
    data = np.arange(n, dtype=np.float32)
    data[-1] = -7.25
    for ctx in (ctx1, ctx_staging):
        buf = vk.Buffer(n, vk.float32, context=ctx)
        buf.write(data, 0)
        got = buf.read(0)
        assert np.array_equal(got, data)
        buf._destroy()


def test_dtype_objects_are_numpys():
    for dtype in ALL_DTYPES:
        assert getattr(np, np.dtype(dtype).name if dtype is not vk.bool_ else "bool_") is dtype
    assert vk.float32 is np.float32 and vk.complex128 is np.complex128
    assert vk.bool is np.bool_ and vk.bool_ is np.bool_
    assert np.dtype(vk.uint16) == np.dtype("uint16")


@pytest.mark.parametrize("spelling, expected", [
    ("f4", np.float32), (np.dtype("int32"), np.int32), (float, np.float64), (int, np.int64),
    (bool, np.bool_), (complex, np.complex128), ("<u2", np.uint16), ("e", np.float16),
    ("float64", np.float64), ("c8", np.complex64), (None, np.float32)])
def test_dtype_like_arguments(spelling, expected, ctx1):
    buf = vk.Buffer(2, spelling, context=ctx1)
    assert buf.dtype == np.dtype(expected) and isinstance(buf.dtype, np.dtype)
    assert buf.itemsize == np.dtype(expected).itemsize


def test_shape_accepts_numpy_integers_and_sequences(ctx1):
    assert vk.Buffer(np.int64(5), context=ctx1).shape == (5,)
    assert vk.Buffer((np.uint8(2), np.int32(3)), context=ctx1).shape == (2, 3)
    assert vk.Buffer([4, 1], context=ctx1).shape == (4, 1)
    assert vk.Buffer((), context=ctx1).shape == ()
    assert len(vk.Buffer((4, 1), context=ctx1)) == 4
    assert len(vk.Buffer(0, context=ctx1)) == 0


def test_repr_and_attributes(ctx3):
    buf = vk.Buffer((2, 3), vk.uint8, context=ctx3)
    assert repr(buf) == "vkarray.Buffer(shape=(2, 3), dtype=uint8, replicas=3)"
    assert buf.num_replicas == 3 and buf.context is ctx3 and buf.itemsize == 1
    buf._destroy()
    assert repr(buf) == "vkarray.Buffer(shape=(2, 3), dtype=uint8, destroyed)"


def test_more_than_two_to_the_thirty_elements():
    """The seed API capped buffers at 2^30 elements; vkarray holds more where memory allows."""
    n = 2**30 + 24
    data = np.resize(np.arange(256, dtype=np.uint8), n)  # 0..255 repeating
    data[-24:] = np.arange(24, 0, -1, dtype=np.uint8)         # a distinct tail
    buf = vk.asbuffer(data)
    assert buf.size == n
    back = buf.read(0)
    assert back.shape == (n,)
    assert np.array_equal(back[-24:], data[-24:])
    assert np.array_equal(back, data)
