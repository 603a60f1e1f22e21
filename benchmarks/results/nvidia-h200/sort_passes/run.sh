#!/usr/bin/env bash
# Sort and argsort of 2^26 float32 keys: vkarray, then CuPy and PyTorch, each in a process of its own,
# three rounds; then the kernels of one profiled sort and argsort (sorting.md).
source benchmarks/gpu/common.sh; gpu_setup >/dev/null 2>&1; install_python311 >/dev/null 2>&1
export VKA_CACHE_DIR=/tmp/w/vka-cache
mkdir -p $OUT/sort
cp $WORK/gpu.txt $OUT/sort/gpu.txt
: > $OUT/sort/peers.jsonl
for i in 1 2 3; do PY_TIMEOUT=100 py311 benchmarks/sorting_peers.py vkarray >> $OUT/sort/peers.jsonl; timeout 100 python3 benchmarks/sorting_peers.py cupy torch >> $OUT/sort/peers.jsonl; done
PY_TIMEOUT=100 py311 benchmarks/profile_kernels.py sort argsort > $OUT/sort/profile.txt 2>&1
python3 benchmarks/gpu/peers_table.py $OUT/sort/peers.jsonl
grep -E "^##" $OUT/sort/profile.txt
