"""parameterize, product and product_dict: one generated test class per parameter set."""

import itertools
import sys

import numpy


def product(parameter):
    """The dicts of every combination of a dict of lists: {'a': [1, 2], 'b': [3]} ->
    [{'a': 1, 'b': 3}, {'a': 2, 'b': 3}]."""
    keys = sorted(parameter)
    return [dict(zip(keys, values))
            for values in itertools.product(*(parameter[k] for k in keys))]


def product_dict(*parameters):
    """The merged dicts of every combination of lists of dicts."""
    return [{k: v for d in dicts for k, v in d.items()}
            for dicts in itertools.product(*parameters)]


def _value_id(v):
    if isinstance(v, type):
        return v.__name__
    if isinstance(v, numpy.dtype):
        return str(v)
    if callable(v) and hasattr(v, "__name__"):
        return v.__name__
    s = repr(v)
    return s if len(s) <= 40 else s[:37] + "..."


def _class_name(base, i, param, ids):
    if not ids:
        return f"{base}_param_{i}"
    text = ",".join(f"{k}={_value_id(v)}" for k, v in param.items())
    text = "".join(text.split())  # node ids without spaces: easy to pass on a command line
    if len(text) > 100:
        text = text[:97] + "..."
    return f"{base}_param_{i}_{{{text}}}"


def parameterize(*params, _ids=True):
    """A class decorator: the class becomes one class per parameter dict, each with the dict's
    items as class attributes, named <Class>_param_<i>_{...} and put in the class' module
    (where pytest collects them); the class itself is no longer collected. Stacked
    decorators multiply: the classes an inner one made are replaced by the product."""
    def decorator(cls):
        module = sys.modules[cls.__module__].__dict__
        inner = cls.__dict__.get("_vka_params")
        sets = list(params)
        if inner is not None:
            for name in cls.__dict__.get("_vka_generated", ()):
                module.pop(name, None)
            sets = [{**p, **q} for q in sets for p in inner]
        generated = []
        for i, p in enumerate(sets):
            name = _class_name(cls.__name__, i, p, _ids)
            attrs = dict(p)
            attrs["__test__"] = True
            attrs["__module__"] = cls.__module__
            attrs["__qualname__"] = name
            attrs["_vka_param"] = p
            sub = type(name, (cls,), attrs)
            module[name] = sub
            generated.append(name)
        cls._vka_params = sets
        cls._vka_generated = generated
        cls.__test__ = False
        return cls
    return decorator
