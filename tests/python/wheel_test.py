"""`make wheel`'s builder (bindings/tools/build_wheel.py) on the package under test: a valid,
reproducible wheel whose RECORD matches its files, with the honest platform tag, that pip
installs offline into a fresh virtual environment where `import vkarray` works without the
source tree."""

import base64
import hashlib
import importlib.util
import os
import pathlib
import shutil
import subprocess
import sys
import zipfile

import pytest

import vkarray

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGE_DIR = pathlib.Path(vkarray.__file__).resolve().parent
SOURCE_DIR = ROOT / "bindings" / "vkarray"
# Linux libraries every Python extension may assume, plus the system Vulkan loader.
ALLOWED_NEEDED = {"libvulkan.so.1", "libstdc++.so.6", "libm.so.6", "libgcc_s.so.1", "libc.so.6",
                  "ld-linux-x86-64.so.2"}


def _builder():
    spec = importlib.util.spec_from_file_location(
        "build_wheel", ROOT / "bindings" / "tools" / "build_wheel.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    return _builder().build(PACKAGE_DIR, tmp_path_factory.mktemp("dist"), SOURCE_DIR)


def test_name_and_tags(wheel):
    py = f"cp{sys.version_info.major}{sys.version_info.minor}"
    assert wheel.name == f"vkarray-{vkarray.__version__}-{py}-{py}-linux_x86_64.whl"
    with zipfile.ZipFile(wheel) as z:
        info = z.read(f"vkarray-{vkarray.__version__}.dist-info/WHEEL").decode()
        meta = z.read(f"vkarray-{vkarray.__version__}.dist-info/METADATA").decode()
    assert f"Tag: {py}-{py}-linux_x86_64\n" in info
    assert "Root-Is-Purelib: false\n" in info
    assert "Name: vkarray\n" in meta and f"Version: {vkarray.__version__}\n" in meta
    assert "Requires-Dist: numpy>=1.23,<2\n" in meta
    assert "libvulkan.so.1" in meta


def test_record_lists_every_file_with_its_hash(wheel):
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        record_name = f"vkarray-{vkarray.__version__}.dist-info/RECORD"
        rows = [line.split(",") for line in z.read(record_name).decode().splitlines()]
        assert {r[0] for r in rows} == names
        for name, digest, size in rows:
            if name == record_name:
                assert digest == size == ""
                continue
            data = z.read(name)
            expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            assert digest == "sha256=" + expected.decode(), name
            assert int(size) == len(data), name


def test_ships_the_whole_package_and_nothing_else(wheel):
    shipped = {p.relative_to(SOURCE_DIR).as_posix() for p in SOURCE_DIR.rglob("*")
               if p.is_file() and "__pycache__" not in p.parts} | {"_vkarray.so"}
    with zipfile.ZipFile(wheel) as z:
        in_wheel = {n[len("vkarray/"):] for n in z.namelist() if n.startswith("vkarray/")}
        assert (z.getinfo("vkarray/_vkarray.so").external_attr >> 16) & 0o111
    assert in_wheel == shipped
    for required in ("__init__.py", "_vkarray.so", "__init__.pyi", "linalg.pyi", "fft.pyi",
                     "random.pyi", "py.typed"):
        assert required in in_wheel


def test_reproducible(wheel, tmp_path):
    again = _builder().build(PACKAGE_DIR, tmp_path, SOURCE_DIR)
    assert again.read_bytes() == wheel.read_bytes()


def test_outputs_left_from_older_builds_are_not_shipped(tmp_path):
    # Bazel keeps outputs that no rule declares any more (a file deleted from the package).
    package = tmp_path / "vkarray"
    shutil.copytree(PACKAGE_DIR, package, ignore=shutil.ignore_patterns("__pycache__"))
    (package / "_deleted_since.py").write_text("", encoding="utf-8")
    built = _builder().build(package, tmp_path / "dist", SOURCE_DIR)
    with zipfile.ZipFile(built) as z:
        assert "vkarray/_deleted_since.py" not in z.namelist()
        assert "vkarray/__init__.py" in z.namelist()
    (package / "__init__.py").unlink()
    with pytest.raises(SystemExit, match="lacks __init__.py"):
        _builder().build(package, tmp_path / "dist", SOURCE_DIR)


def test_extension_needs_only_the_loader_and_base_libraries():
    needed, glibc, glibcxx = _builder().elf_needs(PACKAGE_DIR / "_vkarray.so")
    assert "libvulkan.so.1" in needed
    assert set(needed) <= ALLOWED_NEEDED, set(needed) - ALLOWED_NEEDED
    assert glibc.startswith("2.") and glibcxx.startswith("3.4.")
    if shutil.which("readelf"):  # the builder's own ELF reader against binutils'
        out = subprocess.run(["readelf", "-d", str(PACKAGE_DIR / "_vkarray.so")],
                             capture_output=True, text=True, check=True).stdout
        listed = [line.split("[", 1)[1].rstrip("]") for line in out.splitlines()
                  if "(NEEDED)" in line]
        assert listed == needed


def test_pip_installs_it_into_a_fresh_venv(wheel, tmp_path):
    # Offline: the venv sees the system's numpy (--system-site-packages), and pip installs the
    # wheel alone (--no-index --no-deps). The check runs from an empty directory with no
    # PYTHONPATH, so only the installed copy can be imported.
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
                   check=True, capture_output=True)
    py = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-index", "--no-deps",
                    "--disable-pip-version-check", str(wheel)],
                   check=True, capture_output=True, env=env)
    empty = tmp_path / "elsewhere"
    empty.mkdir()
    done = subprocess.run(
        [str(py), "-c", "import pathlib, vkarray; print(vkarray.zeros(3) + 1); "
         "d = pathlib.Path(vkarray.__file__).parent; print(d); "
         "print((d / 'py.typed').exists(), (d / '__init__.pyi').exists())"],
        capture_output=True, text=True, cwd=empty, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "[1. 1. 1.]"
    assert pathlib.Path(lines[1]).is_relative_to(venv)
    assert lines[2] == "True True"
