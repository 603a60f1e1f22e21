#!/usr/bin/env bash
set -uo pipefail
source benchmarks/gpu/common.sh
gpu_setup > /dev/null 2>&1
install_python311 > /dev/null 2>&1
export VKA_CACHE_DIR=/tmp/w/vka-cache; mkdir -p /tmp/w
for i in 1 2 3 4; do PY_TIMEOUT=100 py311 .gpu/scripts/eos_diag4.py p$i medium,large; done
for i in 5 6 7; do PY_TIMEOUT=100 py311 .gpu/scripts/eos_diag4.py p$i large; done
