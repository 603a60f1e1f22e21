"""Prints the one summary line CI reads ("N passed, N failed, N skipped in M min S s"), last,
from the GoogleTest XML files of the Bazel test targets listed in a file (one label a line, as
`bazel query` prints them) and from pytest's JUnit XML files; above it, one line per skipped
test whose reason starts with "not run:" (a part of the suite that needs something this machine
lacks, e.g. CuPy's fetched tests), so that it cannot go unnoticed.

usage: [VKA_TEST_SECONDS=wall time] summarize.py TESTLOGS TARGETS_FILE [JUNIT_XML ...]"""

import os
import pathlib
import sys
import xml.etree.ElementTree as ET


def count(path, not_run=None):
    """(tests, failures, skipped) in one JUnit-style XML file; appends "test: reason" to
    `not_run` for each skip whose reason starts with "not run:"."""
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == "testsuite" else root.iter("testsuite")
    tests = failures = skipped = 0
    for s in suites:
        for case in s.iter("testcase"):
            tests += 1
            if case.find("failure") is not None or case.find("error") is not None:
                failures += 1
            elif case.find("skipped") is not None or case.get("status") == "notrun" or \
                    case.get("result") == "skipped":
                skipped += 1
                mark = case.find("skipped")
                reason = mark.get("message", "") if mark is not None else ""
                if not_run is not None and reason.startswith("not run:"):
                    not_run.append(f"{case.get('classname')}::{case.get('name')}: {reason}")
    return tests, failures, skipped


def main(testlogs, targets_file, *junit_files):
    total = [0, 0, 0]
    not_run = []
    labels = [l.strip() for l in open(targets_file) if l.strip().startswith("//")]
    files = [pathlib.Path(testlogs) / l[2:].replace(":", "/") / "test.xml" for l in labels]
    files += [pathlib.Path(f) for f in junit_files]
    for f in files:
        if not f.exists():
            print(f"summarize: missing {f}: counting it as one failure", file=sys.stderr)
            total[0] += 1
            total[1] += 1
            continue
        t, fl, sk = count(f, not_run)
        if t == 0:  # a test binary that crashed before writing cases
            t, fl = 1, 1
        total = [total[0] + t, total[1] + fl, total[2] + sk]
    tests, failed, skipped = total
    for text in not_run:
        print(f"  skipped, {text}")
    line = f"{tests - failed - skipped} passed, {failed} failed, {skipped} skipped"
    # The suite's wall time, which `make test` measures (CI's budget is 20 minutes).
    seconds = os.environ.get("VKA_TEST_SECONDS")
    if seconds:
        line += f" in {int(seconds) // 60} min {int(seconds) % 60} s"
    print(line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
