#!/usr/bin/env bash
# Chunked cumsum (two kernels) against the committed reduce-then-scan, PyTorch and CuPy.
set -uo pipefail
source benchmarks/gpu/common.sh
gpu_setup > /dev/null 2>&1
export VKA_CACHE_DIR=/tmp/vka-cache
install_python311 > /dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
PY_TIMEOUT=200 py311 -m pytest -q -p no:cacheprovider tests/python/cumulative_test.py 2>&1 | tail -1
for b in cumulative_old cumulative cumulative_old cumulative; do
  .gpu/bin/$b --markdown $OUT/$b.md > /dev/null 2>&1; echo "$b: $(grep 'cumsum\|copy' $OUT/$b.md | tr '\n' ' ')"
done
for i in 1 2; do timeout 100 python3 benchmarks/cumulative_peers.py cupy torch 2>/dev/null; done > $OUT/cumulative_peers.jsonl
PY_TIMEOUT=100 py311 benchmarks/cumulative_peers.py vkarray >> $OUT/cumulative_peers.jsonl 2>&1
cat $OUT/cumulative_peers.jsonl
PY_TIMEOUT=100 py311 benchmarks/profile_kernels.py cumsum > $OUT/cumsum_profile.txt 2>&1; cat $OUT/cumsum_profile.txt
