"""Device memory mapped into the host (vk.mapped_empty): the numpy view and the device array
are one memory; coherence, flush/invalidate with their alignment rules, and the forced
non-coherent mode that makes a missing flush or invalidate visible on lavapipe (whose
host-visible memory is coherent)."""

import numpy as np
import pytest

import vkarray as vk

DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
          np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128]


def test_mapped_array_is_the_device_array(ctx1):
    m = vk.mapped_empty((10, 100), np.float32, context=ctx1)
    assert isinstance(m, np.ndarray) and isinstance(m, vk.MappedArray)
    assert m.is_coherent and m.non_coherent_atom_size == 1
    m[...] = np.arange(1000, dtype=np.float32).reshape(10, 100)
    m.flush()
    d = vk.asarray(m)
    assert d is m.device_array  # no copy: the same memory
    np.testing.assert_array_equal((d * 2).get(), np.arange(1000).reshape(10, 100) * 2)
    d += 1  # a kernel writes the mapped memory in place
    m.invalidate()
    np.testing.assert_array_equal(m, np.arange(1000).reshape(10, 100) + 1)
    # Host writes after a flush are seen by expressions made afterwards, never by values
    # computed before.
    s0 = float(vk.sum(d))
    m[0, 0] += 1000
    m.flush()
    assert float(vk.sum(d)) == s0 + 1000


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_dtype(ctx1, dtype):
    m = vk.mapped_empty(37, dtype, context=ctx1)
    want = (np.arange(37) % 5).astype(dtype)
    m[...] = want
    m.flush()
    np.testing.assert_array_equal(m.device_array.get(), want)
    m.device_array[::3] = 0
    m.invalidate()
    want[::3] = 0
    np.testing.assert_array_equal(m, want)


def test_shapes_and_views(ctx1):
    z = vk.mapped_empty((), np.float64, context=ctx1)
    z[...] = 2.5
    z.flush()
    assert float(z.device_array) == 2.5
    e = vk.mapped_empty((0, 3), np.int32, context=ctx1)
    assert e.device_array.shape == (0, 3)
    e.flush()
    e.invalidate()
    m = vk.mapped_empty(1000003, np.uint8, context=ctx1)
    m[...] = 7
    m[500:].flush(0)  # a view keeps the mapping: offsets are bytes of the whole memory
    assert int(vk.sum(m.device_array.astype(np.int64))) == 7 * 1000003
    with pytest.raises(ValueError, match="only the array mapped_empty returned"):
        m[1:].device_array
    r = m + 1  # new memory
    with pytest.raises(ValueError, match=r"\[flush\] this array does not view mapped memory"):
        r.flush()


def test_coherence_options(ctx1):
    assert vk.mapped_empty(8, np.float32, require_coherent=True, context=ctx1).is_coherent
    with pytest.raises(ValueError, match="exclude each other"):
        vk.mapped_empty(8, require_coherent=True, force_non_coherent=True, context=ctx1)
    with pytest.raises(ValueError, match="invalid shape"):
        vk.mapped_empty((2, -1), context=ctx1)


def test_forced_non_coherent_needs_flush_and_invalidate(ctx1):
    m = vk.mapped_empty(100, np.int32, force_non_coherent=True, context=ctx1)
    assert not m.is_coherent
    atom = m.non_coherent_atom_size
    assert atom > 1
    m[...] = np.arange(100)
    m.flush()
    d = m.device_array
    np.testing.assert_array_equal(d.get(), np.arange(100))
    m[0] = -1  # not flushed: the device keeps the old value
    np.testing.assert_array_equal(d.get(), np.arange(100))
    m.flush(0, atom)
    assert int(d[0]) == -1
    d += 1
    ctx1.synchronize()
    assert m[50] == 50  # not invalidated: the host keeps its own view
    m.invalidate(atom)  # from the second atom to the (unaligned) end
    assert m[50] == 51 and m[0] == -1
    m.invalidate()
    assert m[0] == 0


def test_forced_by_environment(ctx1, monkeypatch):
    monkeypatch.setenv("VKA_FORCE_NON_COHERENT", "1")
    assert not vk.mapped_empty(4, context=ctx1).is_coherent
    monkeypatch.setenv("VKA_FORCE_NON_COHERENT", "0")
    assert vk.mapped_empty(4, context=ctx1).is_coherent


def test_alignment_and_range_errors(ctx1):
    m = vk.mapped_empty(100, np.int32, force_non_coherent=True, context=ctx1)  # 400 bytes
    atom = m.non_coherent_atom_size
    with pytest.raises(ValueError, match=r"\[flush\] offset 1 and end 65 must be multiples of "
                                         rf"non_coherent_atom_size {atom}"):
        m.flush(1, atom)
    with pytest.raises(ValueError, match=r"\[invalidate\] offset 0 and end 68"):
        m.invalidate(0, atom + 4)
    with pytest.raises(ValueError, match=r"outside the mapped memory of 400 bytes"):
        m.flush(0, 404)
    with pytest.raises(ValueError, match=r"outside the mapped memory"):
        m.invalidate(448)
    m.flush(384, 16)  # ends at the end of the memory: need not be aligned
    m.flush(400)  # an empty range at the end
    c = vk.mapped_empty(100, np.int32, context=ctx1)
    c.flush(3, 5)  # coherent: the atom is 1
    with pytest.raises(ValueError, match="outside the mapped memory"):
        c.flush(3, 400)


def test_replicas(ctx2):
    m = vk.mapped_empty(64, np.float64, index=1, context=ctx2)
    assert m.replica == 1
    m[...] = np.arange(64)
    m.flush()
    np.testing.assert_array_equal(m.device_array.read(1), np.arange(64))
    m.device_array.write(np.zeros(64), 0)  # replica 0 is its own memory
    m.invalidate()
    np.testing.assert_array_equal(m, np.arange(64))
    with pytest.raises(IndexError):
        vk.mapped_empty(4, index=2, context=ctx2)
