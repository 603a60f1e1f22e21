#!/usr/bin/env bash
# bincount and histogram (with and without float64 weights) in CuPy and PyTorch, then vkarray, each in
# a process of its own, twice; then the kernels of one profiled weighted bincount.
source benchmarks/gpu/common.sh; gpu_setup >/dev/null 2>&1; install_python311 >/dev/null 2>&1
export VKA_CACHE_DIR=/tmp/w/vka-cache
mkdir -p $OUT/counting
cp $WORK/gpu.txt $OUT/counting/gpu.txt
: > $OUT/counting/peers.jsonl
for i in 1 2; do timeout 100 python3 benchmarks/counting_peers.py cupy torch >> $OUT/counting/peers.jsonl; PY_TIMEOUT=120 py311 benchmarks/counting_peers.py vkarray >> $OUT/counting/peers.jsonl; done
PY_TIMEOUT=120 py311 benchmarks/profile_kernels.py bincount_weights > $OUT/counting/profile.txt 2>&1
python3 benchmarks/gpu/peers_table.py $OUT/counting/peers.jsonl
grep -E "^##" $OUT/counting/profile.txt
