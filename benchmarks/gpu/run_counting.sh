#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root, with .gpu/ (from prepare.sh) carried along:
# bincount (with and without weights) and histogram in vkarray beside CuPy and PyTorch in the
# same run (benchmarks/counting_peers.py), and vkarray's kernels of each (profile_kernels.py).
# Writes $OUT/counting_peers.md and the raw JSON lines.
set -uo pipefail
source benchmarks/gpu/common.sh
gpu_setup
install_python311
export VKA_CACHE_DIR=/tmp/vka-cache
status=0
: > "$WORK/peers.jsonl"
timeout 300 python3 benchmarks/counting_peers.py cupy torch >> "$WORK/peers.jsonl" || status=1
PY_TIMEOUT=300 py311 benchmarks/counting_peers.py vkarray >> "$WORK/peers.jsonl" || status=1
PY_TIMEOUT=120 py311 benchmarks/profile_kernels.py bincount bincount_weights > "$WORK/profile.txt" 2>&1
cp "$WORK/peers.jsonl" "$OUT/counting_peers.jsonl"
{
  echo "# Counting on the $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
  echo
  echo 'Staged with `bash benchmarks/gpu/prepare.sh`, run with `bash benchmarks/gpu/run_counting.sh`:'
  echo '`python3 benchmarks/counting_peers.py cupy torch` and, under Python 3.11, `... vkarray`;'
  echo 'medians of 10 runs (CUDA events; vkarray: wall clock with a sync).'
  echo
  echo '```'
  cat "$WORK/gpu.txt"
  echo '```'
  echo
  python3 benchmarks/gpu/peers_table.py "$WORK/peers.jsonl" 2>/dev/null || cat "$WORK/peers.jsonl"
  echo
  echo '## vkarray kernels (`py311 benchmarks/profile_kernels.py bincount bincount_weights`)'
  echo
  echo '```'
  cat "$WORK/profile.txt"
  echo '```'
} > "$OUT/counting_peers.md"
cat "$OUT/counting_peers.md"
exit $status
