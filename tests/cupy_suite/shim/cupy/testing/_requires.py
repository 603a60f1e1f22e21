"""with_requires, numpy_satisfies and installed: tests gated on installed package versions."""

import importlib.metadata
import re

import pytest

_SPEC = re.compile(r"^\s*([A-Za-z0-9_.\-]+)\s*(.*)$")
_CLAUSE = re.compile(r"^\s*(==|!=|>=|<=|>|<|~=)\s*([0-9][0-9A-Za-z.*+\-]*)\s*$")


def _version_key(text):
    """(release numbers, pre-release flag) of a version string: '2.0.0rc1' -> ((2, 0, 0), 0),
    '1.24.2' -> ((1, 24, 2), 1): a pre-release sorts before its release."""
    m = re.match(r"^(\d+(?:\.\d+)*)(.*)$", text)
    nums = tuple(int(x) for x in m.group(1).split(".")) if m else (0,)
    while len(nums) > 1 and nums[-1] == 0:
        nums = nums[:-1]
    rest = m.group(2) if m else text
    return nums, 0 if re.match(r"^(a|b|rc|\.dev|dev)", rest) else 1


def _clause_holds(version, op, wanted):
    if wanted.endswith(".*"):
        prefix = wanted[:-2]
        same = version == prefix or version.startswith(prefix + ".")
        return same if op == "==" else not same
    v, w = _version_key(version), _version_key(wanted)
    return {"==": v == w, "!=": v != w, ">=": v >= w, "<=": v <= w, ">": v > w, "<": v < w,
            "~=": v >= w and v[0][:len(w[0]) - 1] == w[0][:len(w[0]) - 1]}[op]


def _satisfied(requirement):
    m = _SPEC.match(requirement)
    name, clauses = m.group(1), m.group(2)
    try:
        version = importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return False
    for clause in filter(None, (c.strip() for c in clauses.split(","))):
        c = _CLAUSE.match(clause)
        if not c or not _clause_holds(version, c.group(1), c.group(2)):
            return False
    return True


def installed(*specs):
    """Whether every requirement ('numpy>=1.25', 'scipy') is installed."""
    return all(_satisfied(s) for s in specs)


def numpy_satisfies(version_range):
    """Whether the installed numpy is in the range ('>=1.25', '<2.0')."""
    return _satisfied("numpy" + version_range)


def with_requires(*requirements):
    """Runs the test only when every requirement is installed (a skip otherwise)."""
    return pytest.mark.skipif(not installed(*requirements),
                              reason=f"requires {', '.join(requirements)}")
