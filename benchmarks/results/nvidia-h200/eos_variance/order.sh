#!/usr/bin/env bash
# The equation of state through vk.jit before JAX runs, after JAX with a pause, and right after
# JAX (whose process preallocates most of the GPU's memory and frees it at exit), each library
# in a process of its own; JAX twice.
set -uo pipefail
source benchmarks/gpu/common.sh
gpu_setup > /dev/null 2>&1
install_python311 > /dev/null 2>&1
W=/tmp/w; mkdir -p $W $OUT; export VKA_CACHE_DIR=$W/vka-cache
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
E=(--programs seawater_eos --sizes medium,large --refs $W/refs --no-progress)
timeout 150 python3 benchmarks/run.py --libs numpy "${E[@]}" --runs 1 --warmup 0 --json $W/numpy.json > /dev/null 2>&1
PY_TIMEOUT=150 py311 benchmarks/run.py --libs vkarray-jit "${E[@]}" --runs 15 --json $W/vk-first.json > /dev/null 2>&1
sleep 5
PY_TIMEOUT=150 py311 benchmarks/run.py --libs vkarray-jit "${E[@]}" --runs 15 --json $W/vk-second.json > /dev/null 2>&1
timeout 120 python3 benchmarks/run.py --libs jax "${E[@]}" --runs 15 --json $W/jax-1.json > /dev/null 2>&1
sleep 20
PY_TIMEOUT=150 py311 benchmarks/run.py --libs vkarray-jit "${E[@]}" --runs 15 --json $W/vk-after-pause.json > /dev/null 2>&1
timeout 120 python3 benchmarks/run.py --libs jax "${E[@]}" --runs 15 --json $W/jax-2.json > /dev/null 2>&1
PY_TIMEOUT=150 py311 benchmarks/run.py --libs vkarray-jit "${E[@]}" --runs 15 --json $W/vk-right-after.json > /dev/null 2>&1
python3 - <<'PY' | tee $OUT/summary.txt
import json, statistics
for name in ["vk-first", "vk-second", "jax-1", "vk-after-pause", "jax-2", "vk-right-after"]:
    d = json.load(open(f"/tmp/w/{name}.json"))
    for r in d["records"]:
        if r["lib"] == "numpy": continue
        t = r["times_ms"]
        print(f"{name:15s} {r['size']:6s} median {statistics.median(t):.3f} ms  calls " + " ".join(f"{x:.2f}" for x in t))
PY
for n in vk-first vk-second jax-1 vk-after-pause jax-2 vk-right-after; do cp $W/$n.json $OUT/; done
