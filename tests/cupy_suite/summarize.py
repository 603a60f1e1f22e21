"""Counts of a run of CuPy's suite on vkarray, from pytest's JUnit XML files.

usage: summarize.py JUNIT_XML... [--markdown] [--skips] [--failures [N]] [--reasons]

Prints passed/failed/skipped per test file and per CuPy module (cupy_tests/<module>/), the
totals and the share of non-skipped tests that pass; --markdown prints the per-module table
docs/conformance.md records; --skips counts the skips per reason; --failures groups the
failures by their error (numbers and names in quotes folded, so that one cause is one group)
and prints the N largest groups (default 40) with two example test ids each and the reason
reasons.py gives the first; --reasons counts the failures per kind and reason of reasons.py
(difference, device, defect; unclassified ones by group). Exits 0 whatever the
counts: the counts are the result."""

import collections
import re
import sys
import xml.etree.ElementTree as ET

import reasons as _reasons


def outcome(case):
    """('failed' | 'skipped' | 'passed', message) for one <testcase>."""
    for tag in ("failure", "error"):
        e = case.find(tag)
        if e is not None:
            return "failed", e.get("message") or (e.text or "").strip().splitlines()[-1:]
    e = case.find("skipped")
    if e is not None:
        return "skipped", e.get("message") or ""
    return "passed", ""


def where(case):
    """(module, file) of a <testcase>: classname 'cupy_tests.math_tests.test_misc.TestX'
    -> ('math_tests', 'math_tests/test_misc.py')."""
    parts = case.get("classname", "").split(".")
    if parts and parts[0] == "cupy_tests":
        parts = parts[1:]
    files = [i for i, p in enumerate(parts) if p.startswith("test_")]
    if not files:
        return "(other)", ".".join(parts) or "(unknown)"
    i = files[0]
    return parts[0], "/".join(parts[:i + 1]) + ".py"


def node_id(case):
    module, file = where(case)
    cls = case.get("classname", "").split(".")
    inner = [p for p in cls[cls.index(file.split("/")[-1][:-3]) + 1:]] if file.endswith(
        ".py") and file.split("/")[-1][:-3] in cls else []
    return "::".join([f"cupy_tests/{file}"] + inner + [case.get("name", "")])


def signature(message):
    """A failure message folded to its cause: the first line, quoted names and numbers
    replaced, so that e.g. every 'vkarray has no attribute X' is one group per X but every
    dtype or shape in a mismatch is one group."""
    if isinstance(message, list):
        message = message[0] if message else ""
    line = message.strip().splitlines()[0] if message.strip() else "(no message)"
    line = re.sub(r"\b(result(\[\d+\])*): ", "", line)
    if "has no attribute" in line or "unexpected keyword" in line or "not supported" in line:
        return line[:160]
    line = re.sub(r"0x[0-9a-f]+", "0x_", line)
    line = re.sub(r"\(([-\d, ]+)\)", "(…)", line)
    line = re.sub(r"\b\d+(\.\d+)?(e[-+]?\d+)?\b", "N", line)
    line = re.sub(r"\b(u?int(8|16|32|64)|float(16|32|64)|complex(64|128)|bool)\b", "DTYPE",
                  line)
    return line[:160]


def load(paths):
    cases = []
    for p in paths:
        for case in ET.parse(p).getroot().iter("testcase"):
            module, file = where(case)
            result, message = outcome(case)
            cases.append((module, file, node_id(case), result, message))
    return cases


def table(cases, key):
    rows = collections.defaultdict(collections.Counter)
    for c in cases:
        rows[key(c)][c[3]] += 1
    return rows


def pct(c):
    ran = c["passed"] + c["failed"]
    return f"{100.0 * c['passed'] / ran:.1f}%" if ran else "-"


def print_rows(rows, title, markdown):
    total = collections.Counter()
    if markdown:
        print(f"| {title} | passed | failed | skipped | pass rate of those run |")
        print("|---|---:|---:|---:|---:|")
    else:
        width = max([len(title)] + [len(k) for k in rows])
        print(f"{title:<{width}}  {'passed':>7}  {'failed':>7}  {'skipped':>7}  {'pass%':>6}")
    for name in sorted(rows):
        c = rows[name]
        total.update(c)
        if markdown:
            print(f"| {name} | {c['passed']} | {c['failed']} | {c['skipped']} | {pct(c)} |")
        else:
            print(f"{name:<{width}}  {c['passed']:>7}  {c['failed']:>7}  {c['skipped']:>7}"
                  f"  {pct(total.__class__(c)):>6}")
    if markdown:
        print(f"| **total** | {total['passed']} | {total['failed']} | {total['skipped']} | "
              f"**{pct(total)}** |")
    else:
        print(f"{'total':<{width}}  {total['passed']:>7}  {total['failed']:>7}  "
              f"{total['skipped']:>7}  {pct(total):>6}")
    return total


def _text(message):
    return message[0] if isinstance(message, list) and message else str(message)


def _test_name(nid):
    """file.py::Class::test of a node id, without its parameters."""
    parts = nid.split("::")
    parts[0] = parts[0].split("/")[-1]
    return "::".join(re.sub(r"_param_\d+.*", "", p).split("[")[0] for p in parts)


def print_reasons(cases, markdown):
    """Failures per kind and reason (reasons.py); the unclassified ones by group."""
    by_reason = collections.Counter()
    unclassified = collections.Counter()
    for c in cases:
        if c[3] != "failed":
            continue
        kind, why = _reasons.classify(_text(c[4]), c[2])
        by_reason[(kind, why)] += 1
        if kind == "unclassified":
            sig = signature(c[4])
            if sig.startswith(("AssertionError: ", "assert ")) and len(sig) < 60:
                sig = f"{sig.strip()} in {_test_name(c[2])}"
            unclassified[sig] += 1
    kinds = collections.Counter()
    for (kind, _), n in by_reason.items():
        kinds[kind] += n
    print()
    if markdown:
        print("| failures | kind | reason |")
        print("|---:|---|---|")
        for (kind, why), n in sorted(by_reason.items(), key=lambda kv: (kv[0][0], -kv[1])):
            if kind != "unclassified":
                print(f"| {n} | {kind} | {why.replace('|', chr(92) + '|')} |")
    else:
        for kind, n in kinds.most_common():
            print(f"{n:>7}  {kind}")
        print()
        for (kind, why), n in sorted(by_reason.items(), key=lambda kv: (kv[0][0], -kv[1])):
            if kind != "unclassified":
                print(f"{n:>7}  [{kind}] {why}")
    if not markdown:
        print()
    # No rule: each group is a defect of its own, named by its error.
    for sig, n in unclassified.most_common():
        sig = sig.replace("|", "\\|")
        print(f"| {n} | defect | {sig} |" if markdown else f"{n:>7}  [unclassified] {sig}")


def main(argv):
    paths = [a for a in argv if not a.startswith("--") and not a.isdigit()]
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    markdown = "--markdown" in argv
    cases = load(paths)
    if not markdown:
        print_rows(table(cases, lambda c: c[1]), "file", False)
        print()
    print_rows(table(cases, lambda c: c[0]), "module", markdown)
    if "--skips" in argv:
        print()
        reasons = collections.Counter(c[4] for c in cases if c[3] == "skipped")
        for r, n in reasons.most_common():
            print(f"{n:>7}  {r}")
    if "--failures" in argv:
        i = argv.index("--failures")
        top = int(argv[i + 1]) if i + 1 < len(argv) and argv[i + 1].isdigit() else 40
        groups = collections.defaultdict(list)
        for c in cases:
            if c[3] == "failed":
                groups[signature(c[4])].append(c)
        print()
        for sig, members in sorted(groups.items(), key=lambda kv: -len(kv[1]))[:top]:
            kind, why = _reasons.classify(_text(members[0][4]), members[0][2])
            print(f"{len(members):>6}  {sig}")
            print(f"          [{kind}] {why}")
            for c in members[:2]:
                print(f"          {c[2]}")
    if "--reasons" in argv:
        print_reasons(cases, markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
