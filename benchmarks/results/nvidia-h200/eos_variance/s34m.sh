#!/usr/bin/env bash
set -uo pipefail
source benchmarks/gpu/common.sh
gpu_setup > /dev/null 2>&1
install_python311 > /dev/null 2>&1
W=/tmp/w; mkdir -p $W; export VKA_CACHE_DIR=$W/vka-cache
E=(--programs seawater_eos --sizes medium,large --refs $W/refs --no-progress)
[ -d $W/refs ] || timeout 150 python3 benchmarks/run.py --libs numpy "${E[@]}" --runs 1 --warmup 0 --json $W/numpy.json > /dev/null 2>&1
for i in 1 2 3 4 5 6 7 8; do PY_TIMEOUT=60 py311 .gpu/scripts/eos_diag6.py p$i $W/refs 2>&1 | grep -v "^\[run\]"; done
