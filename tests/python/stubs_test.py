"""The type stubs (bindings/vkarray/*.pyi) against the package: the same public names as each
module's __all__, a definition for every one, and exactly the text gen_stubs.py writes today
(a function added to vkarray fails here until `make generate` adds its stub)."""

import ast
import importlib
import pathlib
import sys

import pytest

import vkarray

ROOT = pathlib.Path(__file__).resolve().parents[2]
STUB_DIR = ROOT / "bindings" / "vkarray"
sys.path.insert(0, str(ROOT / "bindings" / "tools"))

import api_surface  # noqa: E402
import gen_stubs  # noqa: E402

MODULES = {"vkarray": "__init__.pyi", "vkarray.linalg": "linalg.pyi", "vkarray.fft": "fft.pyi",
           "vkarray.random": "random.pyi"}


def _stub_tree(file_name):
    return ast.parse((STUB_DIR / file_name).read_text(encoding="utf-8"), filename=file_name)


def _stub_all(tree):
    for node in tree.body:
        if isinstance(node, ast.Assign) and [t.id for t in node.targets] == ["__all__"]:
            return [e.value for e in node.value.elts]
    raise AssertionError("the stub has no __all__")


def _stub_defined(tree):
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
        elif isinstance(node, ast.ImportFrom):
            names.update(a.asname or a.name for a in node.names)
    return names


@pytest.mark.parametrize("module_name", sorted(MODULES))
def test_stub_all_matches_the_module(module_name):
    module = importlib.import_module(module_name)
    tree = _stub_tree(MODULES[module_name])
    stub_all, runtime_all = set(_stub_all(tree)), set(module.__all__)
    assert not runtime_all - stub_all, \
        f"{module_name}: no stub for {sorted(runtime_all - stub_all)}: run `make generate`"
    assert not stub_all - runtime_all, \
        f"{module_name}: stubs for names it lacks {sorted(stub_all - runtime_all)}"


@pytest.mark.parametrize("module_name", sorted(MODULES))
def test_every_public_name_is_defined(module_name):
    module = importlib.import_module(module_name)
    defined = _stub_defined(_stub_tree(MODULES[module_name]))
    missing = [n for n in api_surface.public_names(module) if n not in defined]
    assert not missing, f"{module_name}: the stub does not define {missing}"


def test_ndarray_members_match():
    tree = _stub_tree("__init__.pyi")
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ndarray")
    stubbed = {n.name for n in cls.body if isinstance(n, ast.FunctionDef)}
    for name in stubbed:
        assert hasattr(vkarray.ndarray, name), f"stub of ndarray.{name}, which does not exist"
    for name in ("shape", "dtype", "reshape", "sum", "__add__", "__getitem__", "__array__"):
        assert name in stubbed


def test_stubs_are_current():
    for file_name, text in gen_stubs.stubs().items():
        assert (STUB_DIR / file_name).read_text(encoding="utf-8") == text, \
            f"bindings/vkarray/{file_name} is stale: run `make generate`"
    assert (STUB_DIR / "py.typed").exists()


def test_stubs_compile_and_shadowing_is_safe():
    # `bool` is a vkarray name (numpy.bool_), so the stubs must spell Python's as builtins.bool.
    for file_name in MODULES.values():
        text = (STUB_DIR / file_name).read_text(encoding="utf-8")
        compile(text, file_name, "exec")
        tree = ast.parse(text)
        for node in ast.walk(tree):
            if isinstance(node, ast.arg) and node.annotation is not None:
                assert ast.unparse(node.annotation) != "bool", (file_name, node.arg)


def test_parameter_types_follow_the_tables():
    text = (STUB_DIR / "__init__.pyi").read_text(encoding="utf-8")
    assert "def zeros(shape: _ShapeLike, dtype: Optional[DTypeLike] = ..., order: str = ..., *, " \
           "device: Any = ..., context: Optional[Context] = ...) -> ndarray: ..." in text
    assert "def kernel_count() -> int: ..." in text
    assert "def nonzero(a: ArrayLike) -> tuple[ndarray, ...]: ..." in text
    assert "    def eval(self, index: Optional[int] = ...) -> ndarray: ..." in text


@pytest.mark.parametrize("file_name", sorted(MODULES.values()))
def test_every_annotation_name_is_defined(file_name):
    # What a type checker would report as an undefined name (a class a table names, say, that
    # this stub neither defines nor imports).
    import builtins
    tree = _stub_tree(file_name)
    defined = _stub_defined(tree) | {a.asname or a.name for n in tree.body
                                     if isinstance(n, ast.Import) for a in n.names}
    annotations = []
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and node.annotation is not None:
            annotations.append(node.annotation)
        elif isinstance(node, ast.FunctionDef) and node.returns is not None:
            annotations.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            annotations.append(node.annotation)
    used = {n.id for a in annotations for n in ast.walk(a) if isinstance(n, ast.Name)}
    undefined = sorted(u for u in used if u not in defined and not hasattr(builtins, u))
    assert not undefined, f"{file_name} uses undefined names {undefined}"
