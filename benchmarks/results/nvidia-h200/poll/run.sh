#!/usr/bin/env bash
# The equation of state through vk.jit with the wait's poll window at 200 us (the default), 1 ms
# and 3 ms, against JAX's jit, each in a process of its own, twice.
set -uo pipefail
source benchmarks/gpu/common.sh
gpu_setup > /dev/null 2>&1
install_python311 > /dev/null 2>&1
W=/tmp/w; mkdir -p $W $OUT; export VKA_CACHE_DIR=$W/vka-cache
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
E=(--programs seawater_eos --sizes medium,large --refs $W/refs --no-progress)
timeout 150 python3 benchmarks/run.py --libs numpy "${E[@]}" --runs 1 --warmup 0 --json $W/eos-numpy.json > /dev/null 2>&1
for pass in 1 2; do
  timeout 120 python3 benchmarks/run.py --libs jax "${E[@]}" --runs 15 --json $W/jax-$pass.json > $OUT/jax-$pass.txt 2>&1
  for p in 200 1000 3000; do
    VKA_POLL_US=$p PY_TIMEOUT=150 py311 benchmarks/run.py --libs vkarray-jit "${E[@]}" --runs 15 --json $W/vk-$p-$pass.json > $OUT/vk-poll$p-$pass.txt 2>&1
  done
done
for p in 200 3000; do echo "== VKA_POLL_US=$p"; VKA_POLL_US=$p PY_TIMEOUT=100 py311 benchmarks/jit_call_times.py seawater_eos:medium seawater_eos:large --calls 20 2>&1; done > $OUT/call_times.txt
grep -h "seawater" $OUT/jax-*.txt $OUT/vk-*.txt | grep "|"
for f in $OUT/vk-*.txt; do echo "$f: $(grep -c seawater $f)"; done
cat $OUT/call_times.txt
