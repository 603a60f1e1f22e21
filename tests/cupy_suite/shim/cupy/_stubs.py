"""Stand-ins for CuPy's CUDA-only and private names: importable and usable in decorators at
import time, but a test that uses one while it runs is skipped with skips.py's reason."""

import importlib.abc
import importlib.machinery
import sys
import types

import skips

# Set by cupy_suite_plugin while a test (its setup, call or teardown) runs: a stub used then
# skips the test; used at import time (decorators, class bodies) it answers with another stub.
IN_TEST = False


def _use(path):
    if IN_TEST:
        skips.skip(skips.feature_of_path(path))


class Stub:
    """Any use of a stub while a test runs skips it; at import time attributes and calls give
    further stubs and truth tests give False."""

    def __init__(self, path):
        object.__setattr__(self, "_path", path)

    def __repr__(self):
        return f"<stub {self._path}>"

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return Stub(f"{self._path}.{name}")

    def __setattr__(self, name, value):
        _use(self._path)

    def __call__(self, *args, **kwargs):
        _use(self._path)
        return Stub(self._path)

    def __bool__(self):
        _use(self._path)
        return False

    def __enter__(self):
        _use(self._path)
        return self

    def __exit__(self, *exc):
        return False

    def __iter__(self):
        _use(self._path)
        return iter(())

    def __eq__(self, other):
        _use(self._path)
        return self is other

    def __hash__(self):
        return id(self)

    def __lt__(self, other):
        _use(self._path)
        return False

    __le__ = __gt__ = __ge__ = __lt__

    def __int__(self):
        _use(self._path)
        return 0


class StubModule(types.ModuleType):
    """A module of stubs: every attribute not set on it is a Stub of its dotted path."""

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return Stub(f"{self.__name__}.{name}")


def stub_module(name):
    mod = StubModule(name)
    mod.__path__ = []  # a package: its submodules are stubs too
    mod.__file__ = f"<stub {name}>"
    return mod


def stubbed(name):
    """Whether a module name is one the shim stubs: CUDA's and CUDA libraries' modules, cupyx
    and cupy_backends, and CuPy's private modules (a part starting with '_'). Other `cupy.*`
    modules are vkarray's or missing: a missing one is a failure, not a skip."""
    parts = name.split(".")
    if parts[0] in ("cupyx", "cupy_backends"):
        return True
    if parts[0] != "cupy" or len(parts) < 2:
        return False
    return (parts[1] in ("cuda", "cublas", "cutensor", "cusparse", "cusolver")
            or any(p.startswith("_") for p in parts[1:]))


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports any module under the stubbed roots that no shim file provides as a
    StubModule (it comes after the path finders on sys.meta_path, so real files win)."""

    def find_spec(self, fullname, path, target=None):
        if stubbed(fullname):
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        return stub_module(spec.name)

    def exec_module(self, module):
        pass


def install():
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.append(_Finder())
