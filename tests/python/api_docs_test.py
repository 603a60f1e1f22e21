"""docs/api.md and the generated list of docs/differences_from_numpy.md against the package:
exactly what gen_api_docs.py writes today, naming every public name."""

import pathlib
import sys

import numpy as np

import vkarray

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
sys.path.insert(0, str(ROOT / "bindings" / "tools"))

import api_surface  # noqa: E402
import gen_api_docs  # noqa: E402


def test_api_reference_is_current():
    assert (DOCS / "api.md").read_text(encoding="utf-8") == gen_api_docs.api_markdown(), \
        "docs/api.md is stale: run `make generate`"


def test_api_reference_names_every_public_name():
    text = (DOCS / "api.md").read_text(encoding="utf-8")
    for module in api_surface.all_modules():
        for name in api_surface.public_names(module):
            assert f"`{name}" in text or f".{name}`" in text, (module.__name__, name)


def test_missing_numpy_names_are_current():
    text = (DOCS / "differences_from_numpy.md").read_text(encoding="utf-8")
    assert gen_api_docs.differences_text(text) == text, \
        "docs/differences_from_numpy.md's generated list is stale: run `make generate`"


def test_missing_list_is_right():
    block = gen_api_docs.missing_markdown()
    # Something numpy has and vkarray lacks is listed; something both have is not.
    lacking = next(n for n in ("genfromtxt", "loadtxt", "busday_count") if not hasattr(vkarray, n))
    assert f"`{lacking}`" in block
    assert "`sum`" not in block and "`concatenate`" not in block
    assert f"numpy {np.__version__}" in block


def test_signatures_and_summaries():
    text = (DOCS / "api.md").read_text(encoding="utf-8")
    assert ("| `add(x1, x2, /, out=None, *, where=True, casting='same_kind', order='K', "
            "dtype=None, subok=True, signature=None)` | numpy.add on vkarray arrays") in text
    # An alias's docstring repeats its target's signature: the summary skips it.
    row = next(line for line in text.splitlines() if line.startswith("| `absolute("))
    assert "abs(x" not in row.split("|")[2]


def test_missing_docstrings_point_to_existing_numpy_names():
    import re
    refs = re.findall(r"\(no docstring\) see `(numpy[\w.]*)`", (DOCS / "api.md").read_text(
        encoding="utf-8"))
    assert refs
    for ref in refs:
        obj = np
        for part in ref.split(".")[1:]:
            obj = getattr(obj, part)  # AttributeError: a reference to nothing
