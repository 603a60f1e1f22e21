"""The public Python API of vkarray, read from the imported package: every public name of the
top-level namespace (its ``__all__`` and submodules) and of vkarray.linalg, vkarray.fft and
vkarray.random, with signatures and first docstring lines. gen_stubs.py and gen_api_docs.py
both read it, so the stubs and the API reference describe the same names.

Signatures come from pybind11's docstrings (``name(a: object, axis: object = None) -> object``,
overloads numbered) for compiled functions and from inspect.signature for Python ones.
"""

import dataclasses
import inspect
import re
import types
from typing import List, Optional

import numpy

import vkarray

PUBLIC_MODULES = ("vkarray", "vkarray.linalg", "vkarray.fft", "vkarray.random")
# Module-level names outside __all__ that belong to the public namespace.
MODULE_DUNDERS = ("__version__", "__array_api_version__")
# Class members left out: Python's object machinery, not vkarray's API.
SKIPPED_MEMBERS = {"__doc__", "__module__", "__dict__", "__weakref__", "__hash__",
                   "_pybind11_conduit_v1_"}


@dataclasses.dataclass
class Param:
    name: str
    kind: str  # "pos_only", "pos", "var_pos", "kw_only", "var_kw"
    annotation: Optional[str]  # pybind11's type text, or None (Python functions)
    default: Optional[str]  # the default as text, None when there is none


@dataclasses.dataclass
class Signature:
    params: List[Param]
    returns: Optional[str]  # pybind11's return type text, or None


@dataclasses.dataclass
class Entry:
    """One public name: kind is "function", "ufunc" (a vkarray.ufunc object: its call
    signature), "class", "dtype", "constant", "module" or "alias" (a class defined elsewhere,
    e.g. numpy's LinAlgError)."""
    module: str
    name: str
    kind: str
    obj: object
    signatures: List[Signature]
    summary: str
    members: List["Entry"] = dataclasses.field(default_factory=list)
    is_property: bool = False


def _split_top_level(text, sep=","):
    """Splits at sep outside brackets and quotes."""
    parts, depth, quote, cur = [], 0, None, ""
    for ch in text:
        if quote:
            cur += ch
            if ch == quote:
                quote = None
            continue
        if ch in "'\"":
            quote = ch
        elif ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def _clean_default(text):
    """A default as a stub or reader can show it: object reprs with addresses become ``...``."""
    return "..." if re.search(r"<.* at 0x[0-9a-f]+>", text) else text


def _parse_pybind_signature(line):
    """``name(params) -> ret`` as a Signature, or None when line is not one."""
    m = re.match(r"^\s*(?:\d+\.\s*)?[\w.]+\((.*)\)\s*->\s*(.+?)\s*$", line)
    if not m:
        return None
    params, kind = [], "pos"
    for piece in _split_top_level(m.group(1)):
        if piece == "/":
            for p in params:
                p.kind = "pos_only"
            continue
        if piece == "*":
            kind = "kw_only"
            continue
        if piece.startswith("**"):
            params.append(Param(piece[2:], "var_kw", None, None))
            continue
        if piece.startswith("*"):
            params.append(Param(piece[1:], "var_pos", None, None))
            kind = "kw_only"
            continue
        default = None
        if "=" in piece:
            piece, default = (s.strip() for s in piece.split("=", 1))
            default = _clean_default(default)
        name, _, annotation = (s.strip() for s in piece.partition(":"))
        params.append(Param(name, kind, annotation or None, default))
    return Signature(params, m.group(2))


def _pybind_signatures(doc):
    """The signatures at the head of a pybind11 docstring (one, or every numbered overload),
    and the text that follows the first one."""
    lines = doc.splitlines()
    if len(lines) > 1 and lines[1].strip() == "Overloaded function.":
        sigs = [s for s in (_parse_pybind_signature(l) for l in lines
                            if re.match(r"^\d+\. ", l)) if s]
        first = next(i for i, l in enumerate(lines) if re.match(r"^1\. ", l))
        return sigs, "\n".join(lines[first + 1:])
    sig = _parse_pybind_signature(lines[0]) if lines else None
    return ([sig], "\n".join(lines[1:])) if sig else ([], doc)


_KINDS = {
    inspect.Parameter.POSITIONAL_ONLY: "pos_only",
    inspect.Parameter.POSITIONAL_OR_KEYWORD: "pos",
    inspect.Parameter.VAR_POSITIONAL: "var_pos",
    inspect.Parameter.KEYWORD_ONLY: "kw_only",
    inspect.Parameter.VAR_KEYWORD: "var_kw",
}


def _python_signature(fn):
    sig = inspect.signature(fn)
    params = []
    for p in sig.parameters.values():
        if p.name.startswith("_") and p.default is not inspect.Parameter.empty:
            continue  # private keywords (`_core=`) are not API
        default = None
        if p.default is not inspect.Parameter.empty:
            d = p.default
            default = d.__name__ if isinstance(d, type) else _clean_default(repr(d))
        params.append(Param(p.name, _KINDS[p.kind], None, default))
    return Signature(params, None)


def summary_of(doc):
    """The first sentence of the docstring's text, skipping a repeated ``name(...)`` line (an
    alias repeats its target's)."""
    for para in re.split(r"\n\s*\n", doc or ""):
        text = " ".join(para.split())
        if not text or re.match(r"^(\w+\.)*\w+\([^()]*\)$", text):  # a repeated signature
            continue
        first = re.split(r"(?<=[^.]\.)\s", text, maxsplit=1)[0]  # not after "..."
        return first
    return ""


def _drop_self(sigs):
    for s in sigs:
        if s.params and s.params[0].name in ("self", "arg0", "cls"):
            s.params = s.params[1:]
    return sigs


def _callable_entry(module, name, obj, method=False):
    doc = inspect.getdoc(obj) if not isinstance(obj, types.BuiltinFunctionType) else obj.__doc__
    if isinstance(obj, (types.BuiltinFunctionType, types.BuiltinMethodType)) or \
            type(obj).__name__ == "instancemethod":
        sigs, rest = _pybind_signatures(obj.__doc__ or "")
    else:
        try:
            sigs, rest = [_python_signature(obj)], doc
        except (TypeError, ValueError):
            sigs, rest = [], doc
    if method:
        sigs = _drop_self(sigs)
    return Entry(module, name, "function", obj, sigs, summary_of(rest))


def _property_entry(module, name, prop):
    doc, sigs = inspect.getdoc(prop) or "", []
    fget_doc = getattr(prop.fget, "__doc__", None) or ""
    if fget_doc.startswith("("):  # pybind11's getter: "(arg0: ndarray) -> tuple" and its text
        sigs, rest = _pybind_signatures(name + fget_doc)
        doc = doc if doc.strip() else rest
    e = Entry(module, name, "function", prop, _drop_self(sigs), summary_of(doc))
    e.is_property = True
    return e


def _class_entry(module, name, cls):
    if not cls.__module__.startswith("vkarray"):
        return Entry(module, name, "alias", cls, [], summary_of(inspect.getdoc(cls)))
    members = []
    for key, value in cls.__dict__.items():
        if key in SKIPPED_MEMBERS or (key.startswith("_") and not key.startswith("__")):
            continue
        if key == "__init__" and getattr(value, "__doc__", None) == object.__init__.__doc__:
            continue  # pybind11's stand-in for a class Python code cannot construct
        if isinstance(value, property):
            members.append(_property_entry(module, key, value))
        elif callable(value) or isinstance(value, (staticmethod, classmethod)):
            fn = value.__func__ if isinstance(value, (staticmethod, classmethod)) else value
            members.append(_callable_entry(module, key, fn,
                                           method=not isinstance(value, staticmethod)))
    doc = cls.__doc__ or ""
    return Entry(module, name, "class", cls, [], summary_of(doc), members)


def public_names(module):
    """The names a module exports: its __all__, then public submodules and metadata dunders."""
    names = list(module.__all__)
    if module is vkarray:
        # vkarray.dask is imported on demand (it needs dask) and documented in docs/dask.md.
        names += sorted(n for n in dir(module) if not n.startswith("_") and n not in names
                        and n != "dask" and isinstance(getattr(module, n), types.ModuleType))
    names += [n for n in MODULE_DUNDERS if hasattr(module, n)]
    return names


def entry(module, name):
    obj = getattr(module, name)
    mod = module.__name__
    if isinstance(obj, types.ModuleType):
        return Entry(mod, name, "module", obj, [], summary_of(obj.__doc__))
    if isinstance(obj, type) and (issubclass(obj, numpy.generic) or obj is numpy.dtype):
        return Entry(mod, name, "dtype", obj, [], summary_of(obj.__doc__))
    if isinstance(obj, type):
        return _class_entry(mod, name, obj)
    if isinstance(obj, vkarray.ufunc):
        e = _callable_entry(mod, name, obj)
        e.kind = "ufunc"
        return e
    if callable(obj):
        return _callable_entry(mod, name, obj)
    return Entry(mod, name, "constant", obj, [], "")


def module_entries(module):
    return [entry(module, n) for n in public_names(module)]


def all_modules():
    import importlib
    return [importlib.import_module(m) for m in PUBLIC_MODULES]
