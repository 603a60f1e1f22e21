"""The recipe "Adding an elementwise op" (docs/DESIGN.md) is true: every elementwise row of
ir/ops.def reaches each surface generated from the table (the extension's rows, the Python ufuncs
under every spelling with the row's identity, the parity cases, the numpy 2 promotion data), the
emitters' hand-written cases are exactly the rows the table marks kCustom, and no hand list in
the tests or the package repeats the table."""

import ast
import pathlib
import re
import sys

import vkarray as vk
from vkarray import _math, _vkarray

from parity import ROOT, op_table

sys.path.insert(0, str(ROOT / "tests" / "ir"))
ROW = re.compile(r'^VKA_OP\((\w+), (\w+), (\d), k(\w+), "(\w*)", \w+, (\w+), (\w+), ', re.M)
ROWS = [dict(zip(("enum", "name", "arity", "kind", "kinds", "real", "complex"), m))
        for m in ROW.findall((ROOT / "ir" / "ops.def").read_text(encoding="utf-8"))]
ELEMENTWISE = [r for r in ROWS if r["real"] != "kNone"]
BINDING = {r["name"]: r for r in _vkarray._elementwise}


def test_the_table_parses_and_has_every_kind_of_row():
    assert len(ROWS) > 80 and len(ELEMENTWISE) > 60
    assert {r["real"] for r in ELEMENTWISE} == {"kTemplate", "kMath", "kCustom"}


def test_the_extension_exposes_every_elementwise_row():
    assert sorted(BINDING) == sorted(r["name"] for r in ELEMENTWISE)


def test_every_public_row_is_a_ufunc_under_each_spelling():
    functions = {"round", "real", "imag", "where", "ldexp"}  # _math.py says why
    for row in _vkarray._elementwise:
        if not row["public"] or row["name"] in functions:
            assert row["name"] not in _math._UFUNCS or not row["public"], row["name"]
            continue
        f = getattr(vk, row["name"])
        assert isinstance(f, vk.ufunc) and f.__name__ == row["numpy"], row["name"]
        assert f.nin == row["nin"] and f.identity == row["identity"], row["name"]
        for spelling in (row["numpy"], *row["aliases"]):
            assert getattr(vk, spelling) is f, (row["name"], spelling)
    assert vk.add.identity == 0 and vk.logical_and.identity is True  # the identity column


def test_every_public_row_has_parity_cases_under_each_spelling():
    import parity_cases_elementwise  # noqa: F401
    from parity_registry import CASES
    for row in parity_cases_elementwise.ROWS:
        for spelling in (row["name"], row["numpy"], *row["aliases"]):
            assert spelling in CASES, spelling


def test_the_promotion_data_covers_the_table():
    import gen_promotion_table as gen  # noqa: E402 — reads the table only
    expected = {(n, int(a)) for n, a, _, _ in [(r[3], r[1], 0, 0) for r in op_table()]
                if n not in ("ldexp", "round", "where")}
    assert set(gen.table_rows()) == expected
    path = ROOT / "tests" / "ir" / "testdata" / "promotion_table.txt"
    data = path.read_text(encoding="utf-8").split("\n")
    have = {(line.split()[1], 1 if line.startswith("unary") else 2) for line in data
            if line.startswith(("unary ", "binary "))}
    assert have == expected, "regenerate tests/ir/testdata/promotion_table.txt (numpy 2)"


def _cases(path):
    return set(re.findall(r"^\s*case Op::(\w+):", path.read_text(encoding="utf-8"), re.M))


def test_the_emitters_write_exactly_the_custom_rows():
    glsl = ROOT / "kernels" / "glsl"
    assert _cases(glsl / "ops.cc") == {r["enum"] for r in ROWS if r["real"] == "kCustom"}
    assert _cases(glsl / "complex.cc") == {r["enum"] for r in ROWS if r["complex"] == "kCustom"}


def test_the_cpp_functions_come_from_the_table():
    text = (ROOT / "array" / "functions.h").read_text(encoding="utf-8")
    assert '#include "ir/ops.def"' in text
    hand = re.findall(r"apply\(Op::(k\w+)", text)
    assert not hand, f"functions.h writes rows by hand: {hand}"


def _string_lists(path):
    """Every list, set or tuple literal of strings in a Python file, and space-separated names
    split from a string (as `"sin cos tan".split()`)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.List, ast.Set, ast.Tuple)):
            names = [e.value for e in node.elts
                     if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            if names:
                yield node.lineno, set(names)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and " " in node.value:
            yield node.lineno, set(node.value.split())


def _repeats_table(names):
    """True when `names` name most (3/4) of the table's unary or of its binary rows, under
    vkarray's or numpy's spelling."""
    for arity in ("1", "2"):
        rows = [r["name"] for r in ELEMENTWISE if r["arity"] == arity]
        named = [n for n in rows if n in names or BINDING[n]["numpy"] in names]
        if len(named) >= 0.75 * len(rows):
            return True
    return False


def test_no_hand_list_repeats_the_table():
    """A literal naming most of the table's unary or binary rows is a second table to keep."""
    folders = [ROOT / "tests" / "python", ROOT / "tests" / "ir", ROOT / "bindings" / "vkarray",
               ROOT / "bindings" / "tools"]
    found = [f"{path.relative_to(ROOT)}:{line}" for folder in folders
             for path in sorted(folder.glob("*.py"))
             for line, names in _string_lists(path) if _repeats_table(names)]
    assert not found, f"hand lists of the op table's rows: {sorted(set(found))}"


def test_the_check_finds_a_hand_list(tmp_path):
    unary = [BINDING[r["name"]]["numpy"] for r in ELEMENTWISE if r["arity"] == "1"][2:]
    path = tmp_path / "hand.py"
    path.write_text(f"UNARY = {unary!r}\nBINARY = 'add subtract multiply'.split()\n")
    assert [_repeats_table(names) for _, names in _string_lists(path)] == [True, False]
