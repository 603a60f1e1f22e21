"""Every drop-in benchmark program (benchmarks/dropin/) at its small size on vkarray, checked
against numpy with the program's own tolerance; and the suite's own machinery: the counting
proxy, the comparison, the runner's table and JSON, its progress output, and the demo's reading
of the committed GPU results."""

import io
import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))

from benchmarks.dropin import PROGRAMS, libs, load, report, suite  # noqa: E402
from benchmarks.dropin.counting import count_ops  # noqa: E402


@pytest.fixture(scope="module")
def vk_lib():
    lib, why = libs.load("vkarray")
    assert lib is not None, why
    return lib


@pytest.mark.parametrize("name", PROGRAMS)
def test_program_matches_numpy(name, vk_lib):
    module = load(name)
    size = module.SIZES["small"]
    host = module.initialize(size, np)
    before = [np.copy(d) if isinstance(d, np.ndarray) else d for d in host]
    want = libs.Library().to_numpy(module.kernel(np, *host))
    rec = suite.run_one(vk_lib, module, name, "small", host, want, runs=1, warm_s=0.0,
                        time_it=False)
    assert rec["ok"], rec.get("traceback") or rec["detail"]
    assert rec["kernels"] >= 1
    for b, h in zip(before, host):  # programs never modify their inputs
        if isinstance(b, np.ndarray):
            np.testing.assert_array_equal(b, h)


def test_every_program_has_sizes_and_a_tolerance():
    assert len(PROGRAMS) >= 20
    for name in PROGRAMS:
        m = load(name)
        assert list(m.SIZES)[:3] == ["small", "medium", "large"], name
        assert set(m.SIZES) <= {"small", "medium", "large", "demo"}, name  # demo: make demo's
        assert hasattr(m, "check") or (hasattr(m, "RTOL") and hasattr(m, "ATOL")), name


def test_counting_proxy_counts_numpy_level_operations():
    class Prog:
        @staticmethod
        def kernel(np, a, b):
            c = a * b + 1.0          # multiply, add
            c[1:] = c[:-1]           # one assignment (the slices are views)
            s = np.sum(c, axis=0)    # a function
            t = c.sum()              # a method (add.reduce)
            u = c[np.argsort(a)]     # argsort, and a gather with an index array
            return s * c + t, u.astype(np.float32)  # multiply, add, astype

    a = np.arange(5.0)
    assert count_ops(Prog, [a, a]) == 10


def test_compare_uses_the_tolerance_and_kinds():
    class M:
        RTOL, ATOL = 1e-6, 0.0

    w = [np.array([1.0, 2.0])]
    assert libs.compare(M, None, [np.array([1.0, 2.0000001])], w)[0]
    assert not libs.compare(M, None, [np.array([1.0, 2.001])], w)[0]
    assert not libs.compare(M, None, [np.array([1, 2])], w)[0]          # int where float
    assert not libs.compare(M, None, [np.array([1.0, 2.0, 3.0])], w)[0]  # shape

    class Exact:
        RTOL, ATOL = 0.0, 0.0

    assert libs.compare(Exact, None, [np.array([3], np.int32)], [np.array([3])])[0]
    assert not libs.compare(Exact, None, [np.array([4], np.int32)], [np.array([3])])[0]


def test_runner_table_json_and_merge(tmp_path, vk_lib):
    records, notes = suite.run(["softmax", "lorenz96"], ["small"], ["numpy", "vkarray", "nolib"],
                               runs=2, warm_s=0.0, progress=False)
    assert [r["lib"] for r in records] == ["numpy", "vkarray"] * 2
    assert all(r["ok"] and r["median_ms"] > 0 and len(r["times_ms"]) == 2 for r in records)
    assert notes and "nolib skipped" in notes[0]
    vk_rec = records[1]
    assert vk_rec["kernels"] >= 1 and vk_rec["numpy_ops"] == 5  # max, subtract, exp, sum, divide
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps({"records": records[:2], "notes": notes, "meta": {}}))
    b.write_text(json.dumps({"records": records[2:], "notes": [], "meta": {}}))
    text = report.write(report.merge(json.loads(p.read_text()) for p in (a, b)), tmp_path / "o")
    assert "| softmax | small | vkarray | yes |" in text and "lorenz96" in text
    out = json.loads((tmp_path / "o" / "results.json").read_text())
    assert out["records"][0]["speedup"] == pytest.approx(1.0)
    assert (tmp_path / "o" / "speedup.png").stat().st_size > 0
    assert (tmp_path / "o" / "kernels.png").stat().st_size > 0


def test_reference_files_carry_inputs_and_results(tmp_path, vk_lib):
    first, _ = suite.run(["covariance"], ["small"], ["vkarray"], runs=1, warm_s=0.0,
                         ref_dir=str(tmp_path), progress=False)
    with np.load(tmp_path / "covariance-small.npz") as z:
        saved = {k: z[k] for k in z.files}
    assert sorted(saved) == ["in0", "r0"]
    np.testing.assert_array_equal(saved["in0"], load("covariance").initialize(
        load("covariance").SIZES["small"], np)[0])
    np.savez(tmp_path / "covariance-small.npz", in0=saved["in0"] * 2, r0=saved["r0"] * 4)
    second, _ = suite.run(["covariance"], ["small"], ["vkarray"], runs=1, warm_s=0.0,
                          ref_dir=str(tmp_path), progress=False)  # the saved data are used
    assert first[0]["ok"] and second[0]["ok"]
    np.savez(tmp_path / "covariance-small.npz", in0=saved["in0"], r0=saved["r0"] * 4)
    third, _ = suite.run(["covariance"], ["small"], ["vkarray"], runs=1, warm_s=0.0,
                         ref_dir=str(tmp_path), progress=False)
    assert not third[0]["ok"]


def test_command_line_json_and_merge(tmp_path, capsys):
    from benchmarks import run as cli
    a = str(tmp_path / "a.json")
    assert cli.main(["--programs", "softmax,histogram", "--sizes", "small", "--runs", "1",
                     "--warmup", "0", "--no-progress", "--json", a]) == 0
    assert len(json.loads(open(a).read())["records"]) == 4
    out = tmp_path / "out"
    assert cli.main(["--merge", a, str(tmp_path / "none.json"), "--out", str(out)]) == 0
    table = (out / "table.md").read_text()
    assert "none.json missing" in table and "| histogram | small | vkarray | yes |" in table
    with pytest.raises(SystemExit):
        cli.main(["--programs", "no_such_program"])
    capsys.readouterr()


def test_progress_in_a_log_is_plain_lines(tmp_path):
    """With stderr a pipe (make demo > log 2>&1, CI), progress is one plain line per program
    finished: no carriage-return frames of a redrawn bar."""
    root = os.path.join(os.path.dirname(__file__), "..", "..")
    p = subprocess.run([sys.executable, os.path.join(root, "benchmarks", "run.py"),
                        "--programs", "softmax,covariance", "--sizes", "small", "--runs", "1",
                        "--warmup", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=300, env=dict(os.environ))
    assert p.returncode == 0, p.stderr
    assert "\r" not in p.stderr
    lines = [ln for ln in p.stderr.splitlines() if ln.startswith("[")]
    assert [ln.split()[:2] for ln in lines] == [["[1/2]", "softmax"], ["[2/2]", "covariance"]]
    assert "small: numpy" in lines[0] and "vkarray" in lines[0]


def test_progress_on_a_terminal_is_a_tqdm_bar():
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    out = Terminal()
    bar = suite.Progress(3, stream=out)
    bar.show("softmax small numpy")
    bar.step("softmax small vkarray")
    bar.program_done("softmax  small: numpy 1 ms", 1)
    bar.close()
    assert "\r" in out.getvalue() and "[1/1] softmax  small: numpy 1 ms\n" in out.getvalue()


def test_demo_size_is_the_medium_one_unless_named():
    class Named:
        SIZES = {"small": 1, "medium": 2, "large": 3, "demo": 4}

    class Unnamed:  # a program added without a demo size still runs in make demo
        SIZES = {"small": 1, "medium": 2, "large": 3}

    assert suite.size_value(Named, "demo") == 4 and suite.size_value(Unnamed, "demo") == 2
    assert suite.size_value(Unnamed, "large") == 3


def test_time_budget_keeps_at_least_three_calls(monkeypatch):
    clock = [0.0]  # a fake clock: each call of the program takes exactly 20 ms
    monkeypatch.setattr(suite.time, "perf_counter", lambda: clock[0])

    class Lib(libs.Library):  # calls the program eagerly; nothing to wait for
        pass

    class Program:
        @staticmethod
        def kernel(xp):
            clock[0] += 0.02

    assert len(suite._time(Lib(), Program, [], runs=5, warm_s=0.0, budget_s=0.01)) == 3
    assert len(suite._time(Lib(), Program, [], runs=5, warm_s=0.0, budget_s=0.07)) == 4
    assert len(suite._time(Lib(), Program, [], runs=5, warm_s=0.0)) == 5


def test_demo_reads_the_committed_gpu_results():
    """The demo's GPU section against the committed results file itself: every program's
    numpy and vkarray times at large size, and geometric means recomputed here."""
    from benchmarks import demo
    path = os.path.join(os.path.dirname(__file__), "..", "..", demo.GPU_RESULTS)
    with open(path) as f:
        raw = json.load(f)
    text, _ = demo.gpu_section(path)
    heading = text.splitlines()[0]
    assert heading.startswith("## On an NVIDIA H200 (committed results, " + demo.GPU_RESULTS)
    for m in raw["meta"]:
        assert m["date"].split()[0] in heading and m["command"] in text
    rows = {ln.split("|")[1].strip(): [c.strip() for c in ln.split("|")[2:-1]]
            for ln in text.splitlines() if ln.startswith("| ")}
    recs = {(r["program"], r["size"], r["lib"]): r for r in raw["records"]}
    large = [p for (p, s, lib) in recs if s == "large" and lib == "numpy"]
    assert len(large) >= 20
    for p in large:
        base, vk = recs[(p, "large", "numpy")], recs[(p, "large", "vkarray")]
        assert rows[p][0] == demo.ms(base["median_ms"]), p
        assert rows[p][1].startswith(demo.ms(vk["median_ms"]) + " ("), p
        speedup = base["median_ms"] / vk["median_ms"]
        assert rows[p][1].endswith(f"({demo.times(speedup)})"), p
        assert rows[p][-1] == f"{vk['kernels']} ({base['numpy_ops']})", p
        for lib, col in (("cupy", 2), ("torch", 3)):
            if not recs[(p, "large", lib)]["ok"]:
                assert rows[p][col] == "differs", p
    # the large-size geometric means over the programs all three libraries ran correctly
    common = [p for p in large if all(recs[(p, "large", lib)]["ok"]
                                      for lib in ("vkarray", "cupy", "torch"))]
    for lib, col in (("vkarray", 1), ("cupy", 2), ("torch", 3)):
        logs = [math.log(recs[(p, "large", "numpy")]["median_ms"] /
                         recs[(p, "large", lib)]["median_ms"]) for p in common]
        g = math.exp(sum(logs) / len(logs))
        assert rows["large"][col] == demo.times(g), lib
    assert rows["large"][0] == str(len(common))


def test_seawater_eos_matches_the_published_check_values(vk_lib):
    """Roquet et al. (2015)'s check values of the 55-term polynomial (polyTEOS10-bsq) at
    SA = 30 g/kg, CT = 10 deg C, p = 1000 dbar, on numpy and on vkarray, to the printed digits.
    b is published as 0.765555368, from its own table of coefficients rounded to 11 digits
    (terms of ~60 cancel to 0.77, so the rounding moves the 9th digit); the exact derivative of
    the density polynomial used here gives 0.7655553708."""
    eos = load("seawater_eos")
    for xp in (np, vk_lib.xp):
        sa, ct, p = (xp.asarray(np.full((1, 1, 1), v)) for v in (30.0, 10.0, 1000.0))
        rho, alpha, beta, delta, sigma0, sigma2 = (float(np.asarray(r).reshape(()))
                                                   for r in eos.kernel(xp, sa, ct, p))
        r0 = eos.reference_profile(1000.0 / eos.ZU)
        # to half a unit of the last printed digit
        assert rho == pytest.approx(1027.45140, abs=5e-6)
        assert r0 == pytest.approx(4.59763035, abs=5e-9)
        assert rho - r0 == pytest.approx(1022.85377, abs=5e-6)
        assert alpha * rho == pytest.approx(0.179646281, abs=5e-10)  # a = -drho/dCT
        assert beta * rho == pytest.approx(0.765555368, abs=5e-9)    # b = drho/dSA: 3e-9 off
        assert 0 < delta < 1e-4 and 20 < sigma0 < sigma2 < 35


def test_seawater_eos_is_a_long_broadcast_chain():
    """One evaluation: at least 250 numpy operations, at least 40 distinct float64 constants,
    salinity and temperature of shape (n, n, m) and pressure (1, 1, m)."""
    eos = load("seawater_eos")
    sa, ct, p = eos.initialize(eos.SIZES["small"], np)
    n, m = eos.SIZES["small"]
    assert sa.shape == ct.shape == (n, n, m) and p.shape == (1, 1, m)
    assert count_ops(eos, [sa, ct, p]) >= 250
    constants = set(eos.R.values()) | set(eos.R0) | set(eos.A.values()) | set(eos.B.values())
    assert len(constants) >= 40
    assert all(r.shape == (n, n, m) for r in eos.kernel(np, sa, ct, p))
    for name, elements in (("demo", 2**20), ("medium", 2**22), ("large", 2**24)):
        n, m = eos.SIZES[name]
        assert n * n * m == elements, name


def test_sliced_stencil_is_about_a_hundred_statements():
    import ast
    import inspect
    stencil = load("sliced_stencil")
    counts = {}
    for fn in (stencil.kernel, stencil.tracer_step, stencil.superbee_flux):
        tree = ast.parse(inspect.getsource(fn))
        counts[fn.__name__] = sum(isinstance(node, (ast.Assign, ast.Return))
                                  for node in ast.walk(tree))
    # per call: the kernel once, the tracer step twice, the flux limiter four times
    per_call = counts["kernel"] + 2 * counts["tracer_step"] + 4 * counts["superbee_flux"]
    assert 80 <= per_call <= 160, counts
    host = stencil.initialize(stencil.SIZES["small"], np)
    assert count_ops(stencil, host) >= 200


def test_compiled_libraries_trace_pure_programs_and_say_so(monkeypatch):
    """The JAX / torch.compile plumbing, with a stand-in compiler: programs with JIT = True are
    compiled once per set of plain-Python arguments, others run eagerly; a program the compiler
    cannot trace runs eagerly and its mode says why; IN_PLACE programs are not run on JAX."""
    compiled = []

    class Fake(libs._Compiled, libs.Library):
        name, compiler = "fake", "fake-jit"

        def __init__(self):
            super().__init__()
            self._compiled, self._failed = {}, {}

        def _is_array(self, d):
            return isinstance(d, np.ndarray)

        def _compile(self, fn):
            compiled.append(fn)

            def run(*arrays):
                if any(a.size == 0 for a in arrays):
                    raise TypeError("cannot trace this")
                return fn(*arrays)
            return run

    class Pure:
        __name__ = "pure"
        JIT = True

        @staticmethod
        def kernel(xp, x, k):
            return x * k

    class Eager(Pure):
        __name__ = "eager"
        JIT = False

    lib = Fake()
    x = np.arange(3.0)
    assert lib.call(Pure, [x, 2]).tolist() == [0.0, 2.0, 4.0]
    assert lib.call(Pure, [x + 1, 2]).tolist() == [2.0, 4.0, 6.0] and len(compiled) == 1
    assert lib.call(Pure, [x, 3]).tolist() == [0.0, 3.0, 6.0] and len(compiled) == 2
    assert lib.mode(Pure) == "fake-jit"
    assert lib.call(Eager, [x, 2]).tolist() == [0.0, 2.0, 4.0] and len(compiled) == 2
    assert lib.mode(Eager) == "eager"
    assert lib.call(Pure, [np.zeros(0), 2]).shape == (0,)  # the compiled call failed
    assert lib.mode(Pure).startswith("eager (fake-jit failed: TypeError: cannot trace this")

    monkeypatch.setitem(libs.LIBRARIES, "jax", libs.Jax)
    monkeypatch.setattr(libs.Jax, "__init__", lambda self: libs.Library.__init__(self))
    records, notes = suite.run(["element_writes", "small_op_chain"], ["small"], ["numpy", "jax"],
                               runs=1, warm_s=0.0, progress=False)
    assert [(r["program"], r["lib"]) for r in records] == [
        ("element_writes", "numpy"), ("small_op_chain", "numpy"), ("small_op_chain", "jax")]
    assert any("jax: element_writes not run: it writes into slices" in n for n in notes)
    assert records[-1]["iterations"] == load("small_op_chain").SIZES["small"][1]


def test_jax_beside_other_gpu_libraries_does_not_preallocate(monkeypatch):
    monkeypatch.delenv("XLA_PYTHON_CLIENT_PREALLOCATE", raising=False)
    libs.share_the_device(["numpy", "jax"])
    assert "XLA_PYTHON_CLIENT_PREALLOCATE" not in os.environ
    libs.share_the_device(["jax", "cupy"])
    assert os.environ["XLA_PYTHON_CLIENT_PREALLOCATE"] == "false"


def test_per_op_table_divides_by_operations_and_iterations():
    recs = [{"program": "element_writes", "size": "small", "lib": "vkarray", "ok": True,
             "median_ms": 2.0, "numpy_ops": 100, "iterations": 50, "kernels": 50,
             "mode": "eager"},
            {"program": "small_op_chain", "size": "small", "lib": "jax", "ok": True,
             "median_ms": 1.0, "numpy_ops": 100, "iterations": 50, "mode": "jit"}]
    text = "\n".join(report.per_op_markdown({"records": recs}))
    assert "| element_writes | small | vkarray | yes | 2 | 100 | 20 | 50 | 40 | 50 |" in text
    assert "| small_op_chain | small | jax (jit) | yes | 1 | 100 | 10 | 50 | 20 | - |" in text


@pytest.mark.parametrize("script,programs", [("run_fusion.sh", "horner60,zero_d_accumulate"),
                                             ("run_loops.sh", "element_writes,durbin")])
def test_gpu_group_scripts_run_locally(tmp_path, script, programs):
    """The Python parts of benchmarks/gpu/run_fusion.sh and run_loops.sh, run here (LOCAL=1:
    no GPU setup, this Python for both sides) at small sizes: numpy and vkarray measured, the
    libraries missing here skipped and noted, the table and JSON written."""
    root = os.path.join(os.path.dirname(__file__), "..", "..")
    env = dict(os.environ, LOCAL="1", SIZES="small", RUNS="1", NUMPY_RUNS="1",
               PROGRAMS=programs, PEER_LIBS="no_such_library", WORK=str(tmp_path / "work"),
               POLICY_PROGRAMS="element_writes")
    p = subprocess.run(["bash", os.path.join("benchmarks", "gpu", script), str(tmp_path / "out")],
                       cwd=root, env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    table = (tmp_path / "out" / "table.md").read_text()
    for name in programs.split(","):
        assert f"| {name} | small | numpy | yes |" in table
        assert f"| {name} | small | vkarray | yes |" in table
    assert "no_such_library skipped: unknown library" in table
    assert "us/iteration" in table
    out = json.loads((tmp_path / "out" / "results.json").read_text())
    assert {r["lib"] for r in out["records"]} == {"numpy", "vkarray"}
    # run_loops.sh also runs vkarray alone under each submission policy (VKA_SUBMIT_EVERY).
    policy = ["submit-every-0.txt", "submit-every-policy.txt"] if script == "run_loops.sh" else []
    assert sorted(os.listdir(tmp_path / "out")) == sorted(
        ["table.md", "results.json", script[4:-3] + ".log"] + policy)
    for name in policy:
        assert "| element_writes | small | vkarray | yes |" in (tmp_path / "out" / name).read_text()


def test_groups_and_the_demo_programs():
    from benchmarks import demo
    from benchmarks.dropin import GROUPS, expand
    assert len(GROUPS["suite"]) == 22 and sorted(
        GROUPS["suite"] + GROUPS["fusion"] + GROUPS["loops"]) == sorted(PROGRAMS)
    assert expand("fusion,lu,seawater_eos") == GROUPS["fusion"] + ["lu"]
    shown = demo.demo_programs()
    assert "seawater_eos" in shown and "sliced_stencil" not in shown
    assert all("demo" in load(p).SIZES for p in shown)
    assert load("seawater_eos").SIZES["demo"] == (64, 256)  # 2^20 elements
