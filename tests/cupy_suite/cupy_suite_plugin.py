"""The pytest plugin of CuPy's suite on vkarray (what a conftest.py would be; a plugin because
the tests live in a checkout outside the repository): applies skips.py's rules, lets the shim's
stubs know when a test runs, and bounds each test's run time."""

import signal

import pytest

import skips


def pytest_configure(config):
    # The shim installs the import hook of its stand-ins (cupy/_stubs.py) when imported: some
    # test modules import cupy_backends before cupy.
    import cupy  # noqa: F401


def pytest_addoption(parser):
    parser.addoption("--vka-timeout", type=float, default=600.0,
                     help="seconds a test may run before it fails as timed out (0: no limit)")


def pytest_report_header(config):
    import vkarray
    try:
        d = vkarray.context().devices[0]
        device = f"{d['name']}, {d['driver']}"
    except Exception as e:  # the report still runs when the device does not
        device = f"unavailable ({e})"
    return f"vkarray {vkarray.__version__} on {device}; CuPy's tests from {config.rootpath}"


def pytest_collection_modifyitems(config, items):
    for item in items:
        key = skips.node_rule(item.nodeid, {m.name for m in item.iter_markers()})
        if key:
            item.add_marker(pytest.mark.skip(reason=skips.reason(key)))


def _stubs():
    from cupy import _stubs
    return _stubs


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    _stubs().IN_TEST = True
    try:
        yield
    finally:
        _stubs().IN_TEST = False


def _on_alarm(signum, frame):
    pytest.fail("timed out (--vka-timeout)", pytrace=False)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    limit = item.config.getoption("--vka-timeout")
    _stubs().IN_TEST = True
    if limit:
        previous = signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        yield
    finally:
        if limit:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        _stubs().IN_TEST = False


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item):
    _stubs().IN_TEST = True
    try:
        yield
    finally:
        _stubs().IN_TEST = False
