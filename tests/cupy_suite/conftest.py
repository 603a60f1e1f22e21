"""`make test` collects only cupy_suite_test.py here: the shim and its self-tests import the
`cupy` shim, which is on the path only in the subprocesses that test runs."""

collect_ignore = ["shim", "selftest", "cupy_suite_plugin.py", "skips.py", "summarize.py"]
