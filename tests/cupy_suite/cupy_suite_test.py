"""The CuPy suite's part of `make test`: the shim's self-tests (selftest/shim_selftest.py,
named so that only this test collects it, with the shim on the path; no CuPy needed) and
a pinned subset of CuPy's own tests (PINNED, about 25 seconds on 2 cores), each run in a
subprocess with the `cupy` shim on the path, as `make conformance-cupy` runs the whole suite.

CuPy's tests are never part of this repository: the pinned subset runs from the checkout at
CUPY_TESTS_DIR (default /work/cupy-tests, `make conformance-cupy` says how to fetch it). Where
there is none, that one test is skipped with a reason starting "not run:", which the summary
of `make test` prints under its counts (tests/summarize.py)."""

import os
import pathlib
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import vkarray

SUITE = pathlib.Path(__file__).resolve().parent
CUPY_TESTS_DIR = pathlib.Path(os.environ.get("CUPY_TESTS_DIR", "/work/cupy-tests"))

# Node ids (relative to CuPy's tests/ directory) whose every test passes on vkarray: numpy
# routines spread over the suite's modules, about 300 tests that run in about 25 seconds on
# lavapipe with 2 cores, kernel cache cold or warm. A failure here is a regression against
# numpy's answers.
PINNED = [
    "cupy_tests/binary_tests/test_elementwise.py",
    "cupy_tests/creation_tests/test_matrix.py",
    "cupy_tests/logic_tests/test_content.py",
    "cupy_tests/logic_tests/test_ops.py",
    "cupy_tests/manipulation_tests/test_rearrange.py",
    "cupy_tests/manipulation_tests/test_split.py",
    "cupy_tests/manipulation_tests/test_transpose.py",
    "cupy_tests/math_tests/test_hyperbolic.py",
    "cupy_tests/math_tests/test_rational.py",
    "cupy_tests/math_tests/test_window.py",
    "cupy_tests/test_ndim.py",
]


def _env():
    paths = [str(SUITE / "shim"), str(SUITE), str(pathlib.Path(vkarray.__file__).parents[1])]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(paths + [env.get("PYTHONPATH", "")])
    return env


def _counts(xml):
    counts = {"passed": 0, "failed": 0, "skipped": 0}
    failed = []
    for case in ET.parse(xml).getroot().iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            counts["failed"] += 1
            failed.append(f"{case.get('classname')}::{case.get('name')}")
        elif case.find("skipped") is not None:
            counts["skipped"] += 1
        else:
            counts["passed"] += 1
    return counts, failed


def test_shim_selftest(tmp_path):
    """The shim's cupy.testing passes what numpy and vkarray agree on, fails what they do
    not, and its CUDA stubs skip."""
    xml = tmp_path / "selftest.xml"
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p",
         "cupy_suite_plugin", f"--junitxml={xml}", str(SUITE / "selftest" / "shim_selftest.py")],
        cwd=SUITE, env=_env(), capture_output=True, text=True, timeout=600)
    counts, failed = _counts(xml)
    assert run.returncode == 0 and not failed, run.stdout[-4000:] + run.stderr[-2000:]
    assert counts["passed"] >= 20, counts


def test_pinned_cupy_subset(tmp_path):
    tests = CUPY_TESTS_DIR / "tests"
    if not (tests / "cupy_tests").is_dir():
        pytest.skip(f"not run: no CuPy tests at CUPY_TESTS_DIR={CUPY_TESTS_DIR} (the pinned "
                    f"subset of CuPy's suite; `make conformance-cupy` says how to fetch them)")
    xml = tmp_path / "pinned.xml"
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(SUITE / "suite.ini"), f"--rootdir={tests}",
         "-q", "--tb=short", "--vka-timeout=120", f"--junitxml={xml}", *PINNED],
        cwd=tests, env=_env(), capture_output=True, text=True, timeout=900)
    counts, failed = _counts(xml)
    assert not failed and run.returncode == 0, (
        f"{counts}; failed: {failed[:20]}\n" + run.stdout[-6000:] + run.stderr[-2000:])
    assert counts["passed"] >= 300, counts  # the subset ran, not just its collection
