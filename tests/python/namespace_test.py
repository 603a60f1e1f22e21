"""Each public name of vkarray is bound exactly once: defined in one module of the package (a
def, class or assignment in one Python module, or a function of the compiled extension), imported
into __init__.py once and by name (no star imports, no other statements than imports and
literals there), and the object vkarray exports is that module's. ndarray's Python members are
installed by one module only. Read from the package's sources with ast, so a second binding
fails here even where import order would hide it."""

import ast
import pathlib
import types
from collections import Counter, defaultdict

import pytest

import vkarray
from vkarray import _vkarray

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "bindings" / "vkarray"
# Public submodules are namespaces of their own (vkarray.linalg.outer is not vkarray.outer).
SUBMODULES = {"linalg", "fft", "random", "dask"}
# Modules exported as a namespace of their own (vkarray.replicas is _replicas): only the names
# __init__.py imports from them are top-level (vkarray.replicas.broadcast is not
# vkarray.broadcast).
NAMESPACE_MODULES = {"_replicas"}


def _trees():
    return {p.stem: ast.parse(p.read_text(encoding="utf-8"), filename=p.name)
            for p in sorted(PACKAGE.glob("*.py"))}


def _bound_names(node):
    """The names a module-level statement binds (imports excluded), recursing into if/try."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.Assign):
        return [n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
    if isinstance(node, (ast.AnnAssign, ast.AugAssign)) and isinstance(node.target, ast.Name):
        return [node.target.id]
    if isinstance(node, (ast.If, ast.Try, ast.For, ast.While, ast.With)):
        inner = []
        for field in ("body", "orelse", "finalbody", "handlers"):
            for child in getattr(node, field, []):
                inner += _bound_names(child)
        return inner
    return []


def _definitions():
    """{name: [module, ...]}: one entry per binding statement of a public name."""
    defs = defaultdict(list)
    trees = _trees()
    imported = defaultdict(set)
    for n in trees["__init__"].body:
        if isinstance(n, ast.ImportFrom) and n.module and n.level == 1:
            imported[n.module] |= {a.name for a in n.names}
    for module, tree in trees.items():
        if module in SUBMODULES:
            continue
        for node in tree.body:
            for name in _bound_names(node):
                if module in NAMESPACE_MODULES and name not in imported[module]:
                    continue
                if not name.startswith("_"):
                    defs[name].append(module)
    for name in dir(_vkarray):
        if not name.startswith("_"):
            defs[name].append("_vkarray")
    # _math binds the op table's ufuncs from the table (every spelling of a public row).
    from vkarray import _math
    for name in _math._UFUNCS:
        defs[name].append("_math")
    return defs


def _public():
    return [n for n in vkarray.__all__ if not isinstance(getattr(vkarray, n), types.ModuleType)]


def test_each_public_name_is_defined_in_exactly_one_module():
    defs = _definitions()
    twice = {n: defs[n] for n in _public() if len(defs[n]) > 1}
    assert not twice, f"public names bound more than once (name: modules): {twice}"
    missing = [n for n in _public() if not defs[n]]
    assert not missing, f"public names no module defines: {missing}"


def test_each_public_name_is_imported_into_init_once_by_name():
    tree = _trees()["__init__"]
    stars = [n.module for n in ast.walk(tree)
             if isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names)]
    assert not stars, f"star imports in __init__.py: {stars}"
    imported = Counter(a.asname or a.name for n in tree.body if isinstance(n, ast.ImportFrom)
                       for a in n.names)
    twice = sorted(n for n, c in imported.items() if c > 1)
    assert not twice, f"names __init__.py imports more than once: {twice}"
    not_imported = sorted(n for n in _public() if n not in imported)
    assert not not_imported, f"public names __init__.py does not import: {not_imported}"


def test_init_has_imports_and_literals_only():
    for node in _trees()["__init__"].body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the docstring
        if isinstance(node, ast.Assign) and [t.id for t in node.targets] == ["__version__"]:
            assert isinstance(node.value, ast.Constant)
            continue
        if isinstance(node, ast.Assign) and [t.id for t in node.targets] == ["__all__"]:
            # the sections' lists, joined: starred module attributes and string literals
            for e in node.value.elts:
                assert isinstance(e, (ast.Starred, ast.Constant)), ast.dump(e)
            continue
        pytest.fail(f"__init__.py line {node.lineno}: {ast.unparse(node)[:60]!r} is neither an "
                    f"import nor a literal")


def test_exported_objects_are_their_modules():
    """vkarray.X is the object its defining module binds (no later rebinding elsewhere)."""
    defs = _definitions()
    for name in _public():
        (module,) = defs[name]
        home = _vkarray if module == "_vkarray" else getattr(vkarray, module, None)
        if home is None:
            home = __import__(f"vkarray.{module}", fromlist=["_"])
        assert getattr(vkarray, name) is getattr(home, name), (name, module)


def test_all_lists_each_name_once_and_every_section_name():
    assert len(vkarray.__all__) == len(set(vkarray.__all__)), \
        [n for n, c in Counter(vkarray.__all__).items() if c > 1]
    sections = {n.module for n in _trees()["__init__"].body
                if isinstance(n, ast.ImportFrom) and n.module and n.level == 1}
    for module in sections:
        mod = __import__(f"vkarray.{module}", fromlist=["_"])
        for name in getattr(mod, "__all__", []):
            if not name.startswith("__") and module not in ("_replicas", "_info"):
                assert name in vkarray.__all__, (module, name)


def test_no_module_reaches_the_namespace_late():
    """Modules import what they use from the module that defines it: none binds the vkarray
    package itself to look names up at call time (a late-lookup proxy hides import order)."""
    allowed = {"_protocols", "dask", "_dask_distributed"}  # numpy's and dask's name lookups
    modules = set(_trees()) | {"_vkarray"}
    for module, tree in _trees().items():
        if module in allowed:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert all(a.name != "vkarray" for a in node.names), module
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                assert node.module != "vkarray", module
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module is None:
                names = [a.name for a in node.names if a.name not in modules]
                assert not names, f"{module}.py line {node.lineno} imports {names} from the " \
                                  f"package namespace instead of their modules"


def test_ndarray_python_members_are_installed_in_one_place():
    """Only _ndarray.py assigns attributes of ndarray; it refuses to replace a member the
    extension defines (checked when vkarray is imported)."""
    for module, tree in _trees().items():
        if module == "_ndarray":
            continue
        for node in ast.walk(tree):
            targets = node.targets if isinstance(node, ast.Assign) else []
            for t in targets:
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name):
                    assert "ndarray" not in t.value.id and t.value.id != "_cls", \
                        f"{module}.py line {node.lineno} sets {ast.unparse(t)}"
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "setattr":
                target = ast.unparse(node.args[0]) if node.args else ""
                assert "ndarray" not in target and target != "_cls", \
                    f"{module}.py line {node.lineno} calls setattr({target}, ...)"


def test_the_check_finds_a_second_binding():
    """The checker itself: a name bound twice in one module, and in two modules."""
    tree = ast.parse("def where(c, x, y):\n    pass\n\n\nwhere = 1\n")
    assert [n for node in tree.body for n in _bound_names(node)] == ["where", "where"]
    defs = _definitions()
    assert defs["add"] == ["_math"] and defs["concatenate"] == ["_joining"]
