"""Per-file pass/fail/skip counts of an array-api-tests run, from pytest's JUnit XML.

usage: summarize.py JUNIT_XML [--markdown]

Prints one row per test file (array_api_tests/test_*.py) and a total row; with --markdown,
the rows form the table that docs/conformance.md records. Exits 0 whatever the counts: the
counts are the result, `make conformance` reports them."""

import collections
import sys
import xml.etree.ElementTree as ET


def outcome(case):
    """'failed', 'skipped' or 'passed' for one <testcase>."""
    if case.find("failure") is not None or case.find("error") is not None:
        return "failed"
    if case.find("skipped") is not None:
        return "skipped"
    return "passed"


def test_file(case):
    """The test file of a <testcase>: its module from the classname
    ('array_api_tests.test_linalg.TestX' or 'array_api_tests.test_linalg')."""
    parts = case.get("classname", "").split(".")
    for p in parts:
        if p.startswith("test_"):
            return p + ".py"
    return case.get("file") or ".".join(parts) or "(unknown)"


def counts(path):
    """{file: Counter(passed=, failed=, skipped=)} for one JUnit XML file."""
    per_file = collections.defaultdict(collections.Counter)
    for case in ET.parse(path).getroot().iter("testcase"):
        per_file[test_file(case)][outcome(case)] += 1
    return per_file


def main(argv):
    if not argv or argv[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    markdown = "--markdown" in argv[1:]
    per_file = counts(argv[0])
    total = collections.Counter()
    rows = []
    for name in sorted(per_file):
        c = per_file[name]
        total.update(c)
        rows.append((name, c["passed"], c["failed"], c["skipped"]))
    rows.append(("total", total["passed"], total["failed"], total["skipped"]))
    if markdown:
        print("| file | passed | failed | skipped |")
        print("|---|---:|---:|---:|")
        for name, p, f, s in rows:
            bold = "**" if name == "total" else ""
            print(f"| {bold}{name}{bold} | {p} | {f} | {s} |")
    else:
        width = max(len(r[0]) for r in rows)
        print(f"{'file':<{width}}  {'passed':>6}  {'failed':>6}  {'skipped':>7}")
        for name, p, f, s in rows:
            print(f"{name:<{width}}  {p:>6}  {f:>6}  {s:>7}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
