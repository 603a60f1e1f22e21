"""vk.Kernel: GLSL and SPIR-V user kernels with specialization and push constants, applied
to vkarray arrays, against numpy."""

import numpy as np
import pytest

import vkarray as vk

AXPB = """#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const float scale = 1.0;
layout(push_constant) uniform Push { float bias; uint n; } pc;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Out { float o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < pc.n) o[i] = a[i] * scale + pc.bias;
}
"""

# out = a * k + pc.c in a given GLSL type; every dtype the shader can name.
TYPED = """#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 64) in;
layout(constant_id = 0) const {T} k = {T}(1);
layout(push_constant) uniform Push {{ {T} c; }} pc;
layout(binding = 0) readonly buffer A {{ {T} a[]; }};
layout(binding = 1) writeonly buffer B {{ {T} b[]; }};
void main() {{
  uint i = gl_GlobalInvocationID.x;
  if (i < b.length()) b[i] = a[i] * k + pc.c;
}}
"""


@pytest.mark.parametrize("n", [1, 7, 1000, 1000003])
def test_spec_and_push_constants_both_affect_the_result(n):
    a = (np.arange(n) % 97 - 40).astype(np.float32)
    x = vk.asarray(a)
    out = vk.zeros(n, vk.float32)
    for scale, bias in [(2.0, 3.0), (-0.5, 1.25)]:
        k = vk.Kernel(AXPB, local_size=(64, 1, 1), spec_consts={1: scale}, name="axpb")
        assert k.local_size == (64, 1, 1) and k.workgroup is None and k.readonly == (True, False)
        assert k.push_constant_bytes == 8 and k.num_bindings == 2
        got = k(x, out, push_consts=[bias, np.uint32(n)])
        assert got is out
        np.testing.assert_array_equal(out.read(0), a * np.float32(scale) + np.float32(bias))


@pytest.mark.parametrize("glsl_type,dtype", [("float", np.float32), ("double", np.float64),
                                             ("int", np.int32), ("uint", np.uint32),
                                             ("int64_t", np.int64)])
def test_dtypes(glsl_type, dtype):
    k = vk.Kernel(TYPED.format(T=glsl_type), spec_consts=[3])
    a = (np.arange(130) - 20).astype(dtype) if np.dtype(dtype).kind != "u" else \
        np.arange(130, dtype=dtype)
    out = vk.empty(130, dtype)
    k(a, out, push_consts=[dtype(5)])
    np.testing.assert_array_equal(out.read(0), a * dtype(3) + dtype(5))


def test_spirv_bytes_and_a_structured_push_constant_block():
    glsl = vk.Kernel(AXPB, local_size=(32, 1, 1), spec_consts={1: 2.0})
    k = vk.Kernel(glsl.spirv, local_size=[16], spec_consts={1: 3})
    push = np.array((0.5, 5), dtype=[("bias", np.float32), ("n", np.uint32)])
    x = vk.asarray(np.arange(5, dtype=np.float32))
    out = vk.zeros(5, vk.float32)
    k(x, out, push_consts=push)
    np.testing.assert_array_equal(out.read(0), np.arange(5, dtype=np.float32) * 3 + 0.5)


def test_default_push_constants_and_explicit_groups():
    k = vk.Kernel(AXPB, local_size=(4, 1, 1), push_consts=[1.0, np.uint32(100)])
    x = vk.asarray(np.ones(100, np.float32))
    out = vk.zeros(100, vk.float32)
    k(x, out, groups=(2, 1, 1))  # 8 invocations only
    expect = np.zeros(100, np.float32)
    expect[:8] = 2.0
    np.testing.assert_array_equal(out.read(0), expect)


def test_lazy_numpy_and_strided_arguments():
    k = vk.Kernel(AXPB, local_size=(64, 1, 1), spec_consts={1: 1.0})
    base = np.arange(40, dtype=np.float32)
    b = vk.asarray(base)
    view = b[1::3]                       # written: a strided view, through a copy
    src = vk.asarray(np.arange(26, dtype=np.float32))[::2] * 2  # lazy and strided
    k(src, view, push_consts=[0.25, np.uint32(view.size)])
    expect = base.copy()
    expect[1::3] = np.arange(26, dtype=np.float32)[::2][:13] * 2 + 0.25
    np.testing.assert_array_equal(b.read(0), expect)
    out = vk.zeros(3, vk.float32)
    k(np.array([1, 2, 3], np.float32), out, push_consts=[0.0, np.uint32(3)])  # numpy input
    np.testing.assert_array_equal(out.read(0), [1, 2, 3])


def test_writes_inferred_or_given_and_multiple_outputs():
    src = """#version 450
layout(local_size_x = 8) in;
layout(binding = 0) buffer A { int a[]; };
layout(binding = 1) buffer B { int b[]; };
void main() { uint i = gl_GlobalInvocationID.x; if (i < a.length()) { b[i] = a[i] + 1; a[i] = 0; } }
"""
    k = vk.Kernel(src)
    assert k.readonly == (False, False)
    a, b = vk.asarray(np.arange(10, dtype=np.int32)), vk.zeros(10, vk.int32)
    ra, rb = k(a, b)
    assert ra is a and rb is b
    np.testing.assert_array_equal(a.read(0), np.zeros(10))
    np.testing.assert_array_equal(b.read(0), np.arange(10) + 1)
    with pytest.raises(ValueError, match="read-only view"):
        k(vk.broadcast_to(vk.asarray(np.int32(1)), (10,)), b)
    assert k(a, b, writes=[1]) is b  # a written by the shader but declared read: user's call


def test_empty_arrays_dispatch_nothing():
    k = vk.Kernel(AXPB, local_size=(64, 1, 1))
    out = vk.zeros(0, vk.float32)
    assert k(vk.zeros(0, vk.float32), out, push_consts=[1.0, np.uint32(0)]) is out
    assert out.read(0).shape == (0,)


def test_compile_errors_show_the_numbered_source():
    bad = "#version 450\nlayout(local_size_x = 1) in;\nvoid main() { undefined_thing; }\n"
    with pytest.raises(RuntimeError) as e:
        vk.Kernel(bad, name="broken")
    msg = str(e.value)
    assert "broken" in msg and "undefined_thing" in msg
    assert "   3| void main() { undefined_thing; }" in msg


def test_errors_name_the_values():
    k = vk.Kernel(AXPB, local_size=(64, 1, 1))
    x, out = vk.zeros(4, vk.float32), vk.zeros(4, vk.float32)
    with pytest.raises(ValueError, match=r"takes 2 arrays .* got 1"):
        k(x)
    with pytest.raises(ValueError, match="push constants of 12 bytes .* block of 8 bytes"):
        k(x, out, push_consts=[1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="constant 5 is not declared .* declares 0, 1"):
        vk.Kernel(AXPB, spec_consts={5: 1})
    lit = "#version 450\nlayout(local_size_x = 32) in;\nlayout(constant_id = 0) const int c = 1;\n" \
          "layout(binding = 0) buffer B { int b[]; };\nvoid main() { b[0] = c; }\n"
    with pytest.raises(ValueError, match=r"local_size \(64, 1, 1\) does not match .*\(32, 1, 1\)"):
        vk.Kernel(lit, local_size=(64, 1, 1))
    with pytest.raises(TypeError, match="integer in the shader"):
        vk.Kernel(lit, spec_consts=[1.5])
    with pytest.raises(OverflowError):
        vk.Kernel(lit, spec_consts=[2**40])
    with pytest.raises(ValueError, match="invalid SPIR-V"):
        vk.Kernel(b"\x03\x02\x23\x07" + b"\0" * 16)
    uniform = "#version 450\nlayout(local_size_x = 1) in;\n" \
              "layout(binding = 0) uniform U { float u; };\n" \
              "layout(binding = 1) buffer B { float b[]; };\nvoid main() { b[0] = u; }\n"
    with pytest.raises(ValueError, match="uniform buffer"):
        vk.Kernel(uniform)
    with pytest.raises(TypeError, match="GLSL .* or SPIR-V"):
        vk.Kernel(42)
    huge = vk.Kernel(AXPB, local_size=(1 << 20, 1, 1))
    with pytest.raises(ValueError, match="exceeds the device limits"):
        huge(x, out, push_consts=[1.0, np.uint32(4)])


def test_one_replica_with_index(ctx3):
    k = vk.Kernel(AXPB, local_size=(64, 1, 1), spec_consts={1: 2.0})
    x = vk.asarray(np.arange(10, dtype=np.float32), context=ctx3)
    out = vk.asarray(np.zeros(10, np.float32), context=ctx3)
    k(x, out, push_consts=[1.0, np.uint32(10)], index=1)
    np.testing.assert_array_equal(out.read(1), np.arange(10) * 2 + 1)
    np.testing.assert_array_equal(out.read(0), np.zeros(10))
    np.testing.assert_array_equal(out.read(2), np.zeros(10))
    with pytest.raises(IndexError):
        k(x, out, push_consts=[1.0, np.uint32(10)], index=3)
    k(x, out, push_consts=[1.0, np.uint32(10)])
    np.testing.assert_array_equal(out.read(), np.tile(np.arange(10) * 2 + 1, (3, 1)))


def test_any_shape_and_layout_is_bound_in_c_order():
    src = """#version 450
layout(local_size_x = 16) in;
layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) writeonly buffer B { float b[]; };
void main() { uint i = gl_GlobalInvocationID.x; if (i < b.length()) b[i] = a[i] + 1.0; }
"""
    k = vk.Kernel(src)
    ref = np.arange(35, dtype=np.float32).reshape(5, 7)
    out = vk.zeros((7, 5), vk.float32)
    k(vk.asarray(ref).T, out)  # a transposed view: bound as its C-order copy
    np.testing.assert_array_equal(out.read(0), ref.T + 1)
    out0 = vk.zeros((), vk.float32)
    k(vk.asarray(np.float32(41)), out0)
    assert float(np.asarray(out0)) == 42.0
    big = vk.zeros((4, 6), vk.float32)
    k(vk.asarray(ref[:4, :6].copy()), big.T)  # written: a transposed view of storage
    np.testing.assert_array_equal(big.read(0).T.ravel(), ref[:4, :6].ravel() + 1)


def test_complex_and_bool_arrays():
    conj = vk.Kernel("""#version 450
layout(local_size_x = 32) in;
layout(binding = 0) buffer A { vec2 a[]; };
void main() { uint i = gl_GlobalInvocationID.x; if (i < a.length()) a[i].y = -a[i].y; }
""")
    z = (np.arange(100) + 1j * np.arange(100, 200)).astype(np.complex64)
    x = vk.asarray(z)
    conj(x)
    np.testing.assert_array_equal(x.read(0), np.conj(z))
    negate = vk.Kernel("""#version 450
#extension GL_EXT_shader_8bit_storage : require
layout(local_size_x = 32) in;
layout(binding = 0) buffer A { uint8_t a[]; };
void main() { uint i = gl_GlobalInvocationID.x; if (i < a.length()) a[i] = uint8_t(1u - uint(a[i])); }
""")
    flags = np.arange(77) % 3 == 0
    f = vk.asarray(flags)
    negate(f)
    np.testing.assert_array_equal(f.read(0), ~flags)


# Kompute's own example shader: one invocation per element (local size 1).
KOMPUTE_MULTIPLY = """#version 450
layout (local_size_x = 1) in;
layout(set = 0, binding = 0) buffer buf_in_a { float in_a[]; };
layout(set = 0, binding = 1) buffer buf_in_b { float in_b[]; };
layout(set = 0, binding = 2) buffer buf_out_a { float out_a[]; };
void main() {
    uint index = gl_GlobalInvocationID.x;
    out_a[index] = in_a[index] * in_b[index];
}
"""

FILL64 = """#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer B { int b[]; };
void main() { uint i = gl_GlobalInvocationID.x; if (i < b.length()) b[i] = int(i) + 1; }
"""


def test_workgroup_is_komputes_dispatch_grid():
    # A Kompute user's workgroup=(2, 1, 1) against a shader declaring local_size_x = 64:
    # two workgroups of 64 invocations.
    k = vk.Kernel(FILL64, workgroup=(2, 1, 1))
    assert k.workgroup == (2, 1, 1) and k.local_size == (64, 1, 1)
    b = vk.zeros(200, vk.int32)
    k(b, writes=[0])
    want = np.zeros(200, np.int32)
    want[:128] = np.arange(1, 129)
    np.testing.assert_array_equal(b.read(0), want)
    k(b, groups=(4, 1, 1))  # a call's grid wins over the kernel's
    np.testing.assert_array_equal(b.read(0), np.arange(1, 201))
    seq = vk.Sequence()  # a recorded dispatch uses the kernel's grid too
    c = vk.zeros(200, vk.int32)
    seq.record(k, c)
    seq.eval()
    np.testing.assert_array_equal(c.read(0), want)


def test_komputes_defaults_and_spirv():
    spirv = vk.Kernel(KOMPUTE_MULTIPLY).spirv
    a = np.array([2.0, 4.0, 6.0], np.float32)
    b = np.array([0.0, 1.0, 2.0], np.float32)
    for workgroup in ([0, 0, 0], None, (3, 1, 1)):  # Kompute's default argument is [0, 0, 0]
        k = vk.Kernel(spirv, workgroup, [], [])
        out = vk.zeros(3, vk.float32)
        k(vk.asarray(a), vk.asarray(b), out, writes=[2])
        np.testing.assert_array_equal(out.read(0), a * b)
    assert vk.Kernel(spirv, [0, 0, 0]).workgroup is None


def test_local_size_from_spec_constants_or_local_size():
    # Kompute sets a local_size_x_id dimension through spec_consts; vkarray also through
    # local_size (one of them, or both agreeing).
    for kwargs in [dict(spec_consts={0: 16, 1: 2.0}), dict(local_size=(16, 1, 1),
                   spec_consts={1: 2.0}), dict(local_size=16, spec_consts={0: 16, 1: 2.0})]:
        k = vk.Kernel(AXPB, workgroup=(2, 1, 1), **kwargs)
        assert k.local_size == (16, 1, 1)
        out = vk.zeros(40, vk.float32)
        k(vk.ones(40, vk.float32), out, push_consts=[1.0, np.uint32(40)])
        np.testing.assert_array_equal(out.read(0), np.where(np.arange(40) < 32, 3.0, 0.0))
    with pytest.raises(ValueError, match="local_size .* disagrees with specialization constant 0"):
        vk.Kernel(AXPB, local_size=16, spec_consts={0: 8})
