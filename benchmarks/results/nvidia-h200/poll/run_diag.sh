#!/usr/bin/env bash
set -uo pipefail
source benchmarks/gpu/common.sh
gpu_setup > /dev/null 2>&1
install_python311 > /dev/null 2>&1
export VKA_CACHE_DIR=/tmp/w/vka-cache; mkdir -p /tmp/w
for p in 200 3000; do for mode in check nocheck check nocheck; do
  echo -n "poll $p "; VKA_POLL_US=$p PY_TIMEOUT=100 py311 .gpu/scripts/eos_diag.py $mode
done; done
