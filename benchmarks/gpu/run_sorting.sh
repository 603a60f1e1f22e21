#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root, with .gpu/ (from prepare.sh) carried along:
# the sort device tests, then stable sort and argsort of 2^26 float32 keys in vkarray
# (benchmarks/sorting.cc, and sorting_peers.py from Python) beside CuPy and PyTorch in the same
# run. Writes $OUT/sorting.md and the raw JSON lines.
set -uo pipefail
source benchmarks/gpu/common.sh
gpu_setup
status=0
run_device_tests "$WORK/tests.txt" .gpu/bin/sort_test || status=1
export VKA_CACHE_DIR=/tmp/vka-cache
timeout 300 .gpu/bin/sorting --markdown "$WORK/sorting_cpp.md" > "$WORK/sorting.log" 2>&1 || {
  status=1; tail -20 "$WORK/sorting.log"; }
install_python311
: > "$WORK/peers.jsonl"
timeout 300 python3 benchmarks/sorting_peers.py cupy torch >> "$WORK/peers.jsonl" || status=1
PY_TIMEOUT=300 py311 benchmarks/sorting_peers.py vkarray >> "$WORK/peers.jsonl" || status=1
cp "$WORK/peers.jsonl" "$OUT/sorting_peers.jsonl"
{
  echo "# Sorting on the $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
  echo
  echo 'Staged with `bash benchmarks/gpu/prepare.sh`, run with `bash benchmarks/gpu/run_sorting.sh`.'
  echo
  echo '```'
  cat "$WORK/gpu.txt"
  echo '```'
  echo
  grep -E '^(PASS|FAIL)' "$WORK/tests.txt" | sed 's/^/- device test: /'
  echo
  echo '## `.gpu/bin/sorting`'
  echo
  cat "$WORK/sorting_cpp.md" 2>/dev/null || { echo '```'; tail -20 "$WORK/sorting.log"; echo '```'; }
  echo
  echo '## The same operations in CuPy, PyTorch and vkarray from Python (one run)'
  echo
  echo '`python3 benchmarks/sorting_peers.py cupy torch` and, under Python 3.11, `... vkarray`;'
  echo 'medians of 10 runs (CUDA events; vkarray: wall clock with a sync).'
  echo
  python3 benchmarks/gpu/peers_table.py "$WORK/peers.jsonl" 2>/dev/null || cat "$WORK/peers.jsonl"
} > "$OUT/sorting.md"
cat "$OUT/sorting.md"
exit $status
