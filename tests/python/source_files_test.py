"""Every C++ source file of the library (the layer folders and the bindings) stays small and
says what it is for: at most 400 lines (docs/DESIGN.md, principle 14: split by role, not by
accident), and a first line that is a comment stating its role (principle 15)."""

import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
FOLDERS = ["base", "device", "ir", "schedule", "kernels", "runtime", "array", "bindings"]
MAX_LINES = 400


def _sources():
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in (".cc", ".h") and path.is_file():
                yield path


def test_there_are_sources_to_check():
    assert sum(1 for _ in _sources()) > 150


def test_no_source_file_is_over_400_lines():
    long = [f"{p.relative_to(ROOT)} ({n} lines)" for p in _sources()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES]
    assert not long, f"split these by role: {long}"


def test_every_source_file_opens_with_its_role():
    silent = [str(p.relative_to(ROOT)) for p in _sources()
              if not p.read_text(encoding="utf-8").startswith(("// ", "/* "))]  # C: vkfft_glue.h
    assert not silent, f"first line should state the file's role: {silent}"
