"""Builds the installable wheel of the vkarray package from Bazel's assembled package directory.

usage: build_wheel.py PACKAGE_DIR DIST_DIR [SOURCE_DIR]
  PACKAGE_DIR: Bazel's package, .bazel/bin/bindings/python/vkarray
  SOURCE_DIR:  bindings/vkarray; when given, the wheel holds exactly its files (as Bazel copied
               them) plus the extension, so an output Bazel left behind from an older build
               (a file since deleted) is not shipped

The wheel is written with the standard library alone (zipfile, METADATA, WHEEL, RECORD with
sha256 hashes); nothing is compiled here. Entries are sorted and carry a fixed timestamp, so the
same build gives a byte-identical wheel.

Platform tag: ``linux_<machine>``, not ``manylinux_*``. A manylinux tag promises that the
extension needs no shared library beyond the policy's short list (libc, libm, libstdc++,
libgcc_s, ...). _vkarray.so also needs the system Vulkan loader, libvulkan.so.1, which must stay
the system's own (it finds the installed drivers through their ICD files), so it can be neither
vendored nor declared; auditwheel would refuse the wheel. A ``linux_*`` wheel installs with pip
on any Linux of that machine; its requirements (the loader, glibc and libstdc++ symbol
versions, read from the extension itself) are stated in METADATA.
"""

import base64
import hashlib
import pathlib
import re
import struct
import sys
import sysconfig
import zipfile

NAME = "vkarray"
SUMMARY = "Lazy GPU arrays on Vulkan compute, with numpy's API"
# numpy 1.x: the extension is built against pybind11 2.10, whose numpy interop reads numpy 1's
# C structures (numpy 2 changed PyArray_Descr).
REQUIRES_DIST = ["numpy>=1.23,<2"]
# Fixed entry time (1980-01-01, zip's epoch): the wheel is reproducible.
ZIP_TIME = (1980, 1, 1, 0, 0, 0)
# Files of the package directory that go into the wheel; Bazel's directory holds nothing else,
# but an import from it may leave __pycache__ behind.
SHIPPED_SUFFIXES = (".py", ".pyi", ".so")
SHIPPED_NAMES = ("py.typed",)


def version_of(package_dir):
    """__version__ from the package's __init__.py, read as text (importing needs a device)."""
    text = (package_dir / "__init__.py").read_text(encoding="utf-8")
    m = re.search(r'^__version__\s*=\s*"([^"]+)"', text, re.M)
    if not m:
        sys.exit(f"[build_wheel] no __version__ = \"...\" line in {package_dir / '__init__.py'}")
    return m.group(1)


def elf_needs(path):
    """(DT_NEEDED libraries, highest GLIBC_ version, highest GLIBCXX_ version) of a 64-bit
    little-endian ELF shared object."""
    data = path.read_bytes()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        sys.exit(f"[build_wheel] {path} is not a 64-bit little-endian ELF file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
                for i in range(shnum)]
    dynamic = [s for s in sections if s[1] == 6]  # SHT_DYNAMIC
    if len(dynamic) != 1:
        sys.exit(f"[build_wheel] {path} has {len(dynamic)} dynamic sections, expected 1")
    _, _, _, _, dyn_off, dyn_size, dynstr_index, _, _, _ = dynamic[0]
    strtab_off = sections[dynstr_index][4]
    needed = []
    for off in range(dyn_off, dyn_off + dyn_size, 16):
        tag, val = struct.unpack_from("<qQ", data, off)
        if tag == 0:  # DT_NULL
            break
        if tag == 1:  # DT_NEEDED
            end = data.index(b"\0", strtab_off + val)
            needed.append(data[strtab_off + val:end].decode())

    def highest(pattern):
        found = {tuple(int(p) for p in v.split(b".")) for v in re.findall(pattern, data)}
        return ".".join(map(str, max(found))) if found else None

    return needed, highest(rb"GLIBC_(2\.\d+)\0"), highest(rb"GLIBCXX_(3\.4\.\d+)\0")


def platform_tag():
    return "linux_" + sysconfig.get_platform().split("-", 1)[1].replace("-", "_").replace(".", "_")


def python_tag():
    return f"cp{sys.version_info.major}{sys.version_info.minor}"


def metadata(version, needed, glibc, glibcxx):
    py = f"{sys.version_info.major}.{sys.version_info.minor}"
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {NAME}",
        f"Version: {version}",
        f"Summary: {SUMMARY}",
        f"Requires-Python: =={py}.*",
        *[f"Requires-Dist: {r}" for r in REQUIRES_DIST],
        "Classifier: Programming Language :: Python :: 3",
        "Classifier: Programming Language :: C++",
        "Classifier: Operating System :: POSIX :: Linux",
        "Description-Content-Type: text/markdown",
        "",
        f"# {NAME}",
        "",
        SUMMARY + ": `import vkarray as vk`. Expressions build a lazy graph that runs as generated",
        "compute shaders on any Vulkan 1.2 device (GPUs, or Mesa's lavapipe on a CPU).",
        "",
        "Runtime requirements of the compiled module `vkarray/_vkarray.so` (shaderc is linked",
        "in statically):",
        "",
        "- the system Vulkan loader `libvulkan.so.1` and a Vulkan driver (Debian/Ubuntu:",
        "  `libvulkan1`, plus `mesa-vulkan-drivers` for the CPU driver lavapipe);",
        f"- glibc {glibc} or newer and a libstdc++ with GLIBCXX_{glibcxx};",
        f"- the shared libraries it links: {', '.join(needed)}.",
        "",
    ]
    return "\n".join(lines)


def wheel_file(tag):
    return "\n".join([
        "Wheel-Version: 1.0",
        "Generator: vkarray bindings/tools/build_wheel.py",
        "Root-Is-Purelib: false",
        f"Tag: {tag}",
        "",
    ])


def record_hash(data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={digest}"


def _listed(directory):
    """The files of directory that a wheel ships, as relative paths."""
    rels = []
    for p in sorted(directory.rglob("*")):
        rel = p.relative_to(directory)
        if p.is_dir() or "__pycache__" in rel.parts:
            continue
        if p.suffix in SHIPPED_SUFFIXES or p.name in SHIPPED_NAMES:
            rels.append(rel)
    return rels


def shipped_files(package_dir, source_dir=None):
    if source_dir is None:
        return [package_dir / rel for rel in _listed(package_dir)]
    rels = sorted(set(_listed(source_dir)) | {pathlib.Path("_vkarray.so")})
    missing = [str(rel) for rel in rels if not (package_dir / rel).is_file()]
    if missing:
        sys.exit(f"[build_wheel] {package_dir} lacks {', '.join(missing)}: rebuild "
                 "//bindings:python_package")
    return [package_dir / rel for rel in rels]


def build(package_dir, dist_dir, source_dir=None):
    package_dir = pathlib.Path(package_dir).resolve()
    source_dir = pathlib.Path(source_dir).resolve() if source_dir else None
    dist_dir = pathlib.Path(dist_dir)
    module = package_dir / "_vkarray.so"
    if not module.is_file():
        sys.exit(f"[build_wheel] {module} is missing: build //bindings:python_package first")
    files = shipped_files(package_dir, source_dir)
    version = version_of(package_dir)
    needed, glibc, glibcxx = elf_needs(module)
    tag = f"{python_tag()}-{python_tag()}-{platform_tag()}"
    dist_info = f"{NAME}-{version}.dist-info"
    entries = [(f"{NAME}/{p.relative_to(package_dir).as_posix()}", p.read_bytes(),
                0o755 if p.suffix == ".so" else 0o644) for p in files]
    entries += [
        (f"{dist_info}/METADATA", metadata(version, needed, glibc, glibcxx).encode(), 0o644),
        (f"{dist_info}/WHEEL", wheel_file(tag).encode(), 0o644),
        (f"{dist_info}/top_level.txt", f"{NAME}\n".encode(), 0o644),
    ]
    record_path = f"{dist_info}/RECORD"
    record = "".join(f"{name},{record_hash(data)},{len(data)}\n" for name, data, _ in entries)
    record += f"{record_path},,\n"
    entries.append((record_path, record.encode(), 0o644))

    dist_dir.mkdir(parents=True, exist_ok=True)
    out = dist_dir / f"{NAME}-{version}-{tag}.whl"
    tmp = out.with_suffix(".whl.tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data, mode in entries:
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    tmp.replace(out)
    return out


def main(argv):
    if len(argv) not in (3, 4):
        sys.exit(__doc__.split("\n\n")[1])
    print(build(*argv[1:]))


if __name__ == "__main__":
    main(sys.argv)
