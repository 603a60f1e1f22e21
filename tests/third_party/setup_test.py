"""third_party/setup.sh installs everything the build and the tests use: every system header the
sources include, every library the BUILD files link, every /usr path the build files and scripts
name, and every Python module the package, tests and benchmark runner import must belong (by
`dpkg -S`) to a package that setup.sh lists or that one of them depends on."""

import ast
import os
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOURCE_DIRS = ["array", "base", "bindings", "device", "ir", "kernels", "runtime", "schedule",
               "tests", "benchmarks"]
BUILD_NAMES = {"BUILD", "WORKSPACE", "Makefile", ".bazelrc"}
# The peers the benchmarks compare with on the GPU machine, imported there only.
GPU_PEERS = {"cupy", "cupyx", "torch", "jax", "jaxlib"}
USR_PATH = re.compile(r"/usr/(?:include|lib|share|bin)/[A-Za-z0-9_.+/-]+")


def tracked_files():
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if out.returncode:
        pytest.skip("not a git checkout")
    return [ROOT / f for f in out.stdout.split()]


def setup_packages():
    """The package names of setup.sh's `packages=( ... )` array."""
    text = (ROOT / "third_party/setup.sh").read_text(encoding="utf-8")
    body = re.search(r"packages=\((.*?)\n\)", text, re.S).group(1)
    names = []
    for line in body.splitlines():
        names += line.split("#", 1)[0].split()
    assert names, "setup.sh lists no packages"
    return names


def installed_closure(roots):
    """The installed packages reachable from `roots` and Debian's essential packages through
    Depends and Pre-Depends (every installed alternative, virtual packages through Provides)."""
    fmt = "${Package}\t${Status}\t${Depends}, ${Pre-Depends}\t${Provides}\t${Essential}\n"
    out = subprocess.run(["dpkg-query", "-W", "-f", fmt], capture_output=True, text=True).stdout
    deps, provided_by, essential = {}, {}, []
    for line in out.splitlines():
        name, status, depends, provides, ess = (line.split("\t") + ["", "", "", ""])[:5]
        if "install ok installed" not in status:
            continue
        if ess == "yes":
            essential.append(name)
        deps[name] = [re.sub(r"[\s(:].*", "", alt.strip()) for group in depends.split(",")
                      for alt in group.split("|") if alt.strip()]
        for p in provides.split(","):
            if p.strip():
                provided_by.setdefault(re.sub(r"[\s(].*", "", p.strip()), []).append(name)
    missing = [r for r in roots if r not in deps]
    assert not missing, f"setup.sh's packages are not installed: {missing} (run make setup)"
    # Essential packages are on every Debian system.
    seen, todo = set(), list(roots) + essential
    while todo:
        p = todo.pop()
        for name in [p] + provided_by.get(p, []):
            if name in deps and name not in seen:
                seen.add(name)
                todo += deps[name]
    return seen


def owners(paths):
    """{path: package} for each path dpkg knows (also through /lib for usrmerge and through the
    link's target); paths no package owns are left out. One dpkg call for all of them."""
    forms = {}
    for path in set(paths):
        cands = [path, os.path.realpath(path)]
        forms[path] = cands + [c.replace("/usr/lib/", "/lib/", 1) for c in cands]
    queried = sorted({c for cands in forms.values() for c in cands})
    out = subprocess.run(["dpkg", "-S", *queried], capture_output=True, text=True).stdout
    owner_of = {}
    for line in out.splitlines():
        pkgs, _, path = line.partition(": ")
        owner_of[path] = pkgs.split(",")[0].split(":")[0].strip()
    return {p: next(owner_of[c] for c in cands if c in owner_of)
            for p, cands in forms.items() if any(c in owner_of for c in cands)}


def include_dirs():
    r = subprocess.run(["g++", "-std=c++17", "-xc++", "-E", "-v", "-"], input="",
                       capture_output=True, text=True)
    lines = r.stderr.splitlines()
    start = lines.index("#include <...> search starts here:") + 1
    return [l.strip() for l in lines[start:lines.index("End of search list.")]]


def system_headers(files):
    names = set()
    for f in files:
        if f.suffix in (".cc", ".h", ".c") and f.exists():
            text = f.read_text(encoding="utf-8", errors="replace")
            names |= set(re.findall(r"#include <([^>]+)>", text))
    dirs = include_dirs()
    found = []
    for n in sorted(names):
        hit = next((os.path.join(d, n) for d in dirs if os.path.exists(os.path.join(d, n))), None)
        assert hit, f"#include <{n}> is in no system include directory"
        found.append(hit)
    return found


def linked_libraries(files):
    libs = set()
    for f in files:
        if f.name == "BUILD" or f.suffix == ".bzl":
            libs |= set(re.findall(r'"-l([A-Za-z0-9_+-]+)"', f.read_text(encoding="utf-8")))
    found = []
    for lib in sorted(libs - {"pthread", "dl", "m"}):
        cands = [f"/usr/lib/x86_64-linux-gnu/lib{lib}.{ext}" for ext in ("a", "so")]
        hit = next((c for c in cands if os.path.exists(c)), None)
        assert hit, f"-l{lib}: no /usr/lib/x86_64-linux-gnu/lib{lib}.a or .so"
        found.append(hit)
    return found


def named_usr_paths(files):
    paths = set()
    for f in files:
        if f.name in BUILD_NAMES or f.suffix in (".bzl", ".sh", ".py") or f.parent.name == ".ci":
            for p in USR_PATH.findall(f.read_text(encoding="utf-8", errors="replace")):
                if os.path.exists(p):  # templates and GPU-machine paths do not exist here
                    paths.add(p)
    return sorted(paths)


def imported_modules(files):
    """{module: optional} of the top-level modules that the package, the tests and the benchmark
    runner import; optional ones are imported inside a try block (the GPU peers)."""
    mods = {}
    for f in files:
        if f.suffix != ".py" or not f.exists():
            continue
        try:
            tree = ast.parse(f.read_text(encoding="utf-8"))
        except SyntaxError:
            continue
        optional = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Try):
                for sub in ast.walk(node):
                    if isinstance(sub, (ast.Import, ast.ImportFrom)):
                        optional.add(id(sub))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for n in names:
                top = n.split(".")[0]
                mods[top] = mods.get(top, True) and id(node) in optional
    return mods


def python_module_paths(files):
    local = {p.stem for p in files if p.suffix == ".py"} | {p.name for p in files if p.is_dir()}
    local |= {"vkarray", "benchmarks", "tests", "conftest"}
    mods = {m: opt for m, opt in imported_modules(files).items()
            if m not in sys.stdlib_module_names and m not in local and m not in GPU_PEERS}
    code = ("import importlib.util, sys\n"
            "for m in sys.argv[1:]:\n"
            "    s = importlib.util.find_spec(m)\n"
            "    print(m, s.origin if s and s.origin else (list(s.submodule_search_locations)[0]"
            " if s else '-'))\n")
    out = subprocess.run(["/usr/bin/python3", "-c", code, *sorted(mods)], capture_output=True,
                         text=True, env={"PATH": "/usr/bin:/bin"}).stdout
    paths = []
    for line in out.splitlines():
        m, origin = line.split(" ", 1)
        if origin == "-":
            assert mods[m], f"module {m} is imported outside a try block but not installed"
            continue
        if origin.startswith("/usr/"):
            paths.append(origin)
    return paths


def test_setup_installs_everything_the_build_and_tests_use():
    files = [f for f in tracked_files()
             if f.parts[len(ROOT.parts)] in SOURCE_DIRS or f.parent == ROOT or
             f.parts[len(ROOT.parts)] in ("third_party", ".ci")]
    closure = installed_closure(setup_packages())
    paths = (system_headers(files) + linked_libraries(files) + named_usr_paths(files) +
             python_module_paths(files))
    owned = owners(paths)
    unowned = sorted(set(paths) - set(owned))
    assert not unowned, f"no Debian package owns these paths the build uses: {unowned}"
    outside = sorted(f"{p} ({pkg})" for p, pkg in owned.items() if pkg not in closure)
    assert not outside, ("third_party/setup.sh does not install the packages of: " +
                         ", ".join(outside))


def test_the_check_sees_a_missing_package():
    """The closure check is not vacuous: a header of a package setup.sh does not pull in (or the
    headers it does, against an empty list) are reported."""
    closure = installed_closure(setup_packages())
    vk = owners(["/usr/include/vulkan/vulkan.h"])
    assert vk.get("/usr/include/vulkan/vulkan.h") in closure
    assert "libvulkan-dev" not in installed_closure(["g++"])
