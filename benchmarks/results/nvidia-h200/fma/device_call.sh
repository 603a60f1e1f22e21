#!/usr/bin/env bash
# The device call of fma.md: sort experiments with VKA_SORT_PARTS (a switch of an experiment
# build, not kept), then benchmarks/gpu/run_fma.sh.
source benchmarks/gpu/common.sh; gpu_setup >/dev/null 2>&1; install_python311 >/dev/null 2>&1
export VKA_CACHE_DIR=/tmp/w/vka-cache
mkdir -p $OUT/sortexp
for p in 2048 512 8192 16384 65536; do echo "== parts $p"; VKA_SORT_PARTS=$p PY_TIMEOUT=100 py311 benchmarks/profile_kernels.py sort argsort > $OUT/sortexp/prof_$p.txt 2>&1; grep -E "^##|scatter|total" $OUT/sortexp/prof_$p.txt; done
for p in 2048 16384; do VKA_SORT_PARTS=$p PY_TIMEOUT=100 py311 benchmarks/sorting_peers.py vkarray | sed "s/^/parts=$p /"; done
timeout 100 python3 benchmarks/sorting_peers.py cupy torch
RUNS=7 timeout 330 bash benchmarks/gpu/run_fma.sh $OUT/fma
