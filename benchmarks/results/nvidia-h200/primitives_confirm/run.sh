#!/usr/bin/env bash
# #24 on this card: cumsum, weighted bincount and histograms, sort, next to CuPy and PyTorch.
set -uo pipefail
mkdir -p $OUT
source benchmarks/gpu/common.sh
gpu_setup > /dev/null 2>&1 || true
install_python311 > /dev/null 2>&1
export VKA_CACHE_DIR=/tmp/vka-cache
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for pass in a b; do
  (cd benchmarks && python3 cumulative_peers.py cupy torch) > $OUT/cum-peers-$pass.jsonl 2>&1
  PY_TIMEOUT=200 py311 benchmarks/cumulative_peers.py vkarray > $OUT/cum-vk-$pass.jsonl 2>&1
done
(cd benchmarks && python3 counting_peers.py cupy torch) > $OUT/count-peers.jsonl 2>&1
PY_TIMEOUT=300 py311 benchmarks/counting_peers.py vkarray > $OUT/count-vk.jsonl 2>&1
(cd benchmarks && python3 sorting_peers.py cupy torch) > $OUT/sort-peers.jsonl 2>&1
PY_TIMEOUT=300 py311 benchmarks/sorting_peers.py vkarray > $OUT/sort-vk.jsonl 2>&1
cat $OUT/*.jsonl | grep -v "^\s*$" | python3 -c "
import sys, json
for line in sys.stdin:
    try: r = json.loads(line)
    except Exception: print('?', line.strip()[:150]); continue
    print(r.get('library'), '|', r.get('name'), '|', r.get('median'), r.get('unit'))
"
