#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root, with .gpu/ (from prepare.sh) carried along:
# the benchmarks of issue 5 (reductions, scans and sorting: benchmarks/reduce.cc,
# cumulative.cc and sorting.cc with GPU timestamps, and the *_peers.py scripts for vkarray,
# CuPy and PyTorch in the same run) after the reduction, scan and sort device tests. Writes
# $OUT/reductions.md and the raw JSON lines.
set -uo pipefail
source benchmarks/gpu/common.sh
gpu_setup
status=0
run_device_tests "$WORK/tests.txt" .gpu/bin/reduce_test .gpu/bin/sort_test \
  .gpu/bin/cumulative_test || status=1
export VKA_CACHE_DIR=/tmp/vka-cache
for b in reduce cumulative sorting; do
  timeout 300 .gpu/bin/$b --markdown "$WORK/${b}_cpp.md" > "$WORK/${b}.log" 2>&1 || {
    status=1; tail -20 "$WORK/${b}.log"; }
done
install_python311
: > "$WORK/peers.jsonl"
for p in reduce cumulative sorting; do
  timeout 300 python3 benchmarks/${p}_peers.py cupy torch >> "$WORK/peers.jsonl" || status=1
  py311 benchmarks/${p}_peers.py vkarray >> "$WORK/peers.jsonl" || status=1  # a shell function: no timeout
done
cp "$WORK/peers.jsonl" "$OUT/reductions_peers.jsonl"
{
  echo "# Reductions, scans and sorting on the $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
  echo
  echo 'Staged with `bash benchmarks/gpu/prepare.sh`, run with `bash benchmarks/gpu/run_reduce.sh`.'
  echo
  echo '```'
  cat "$WORK/gpu.txt"
  echo '```'
  echo
  grep -E '^(PASS|FAIL)' "$WORK/tests.txt" | sed 's/^/- device test: /'
  for b in reduce cumulative sorting; do
    echo
    echo "## \`.gpu/bin/$b\`"
    echo
    cat "$WORK/${b}_cpp.md" 2>/dev/null || { echo '```'; tail -20 "$WORK/${b}.log"; echo '```'; }
  done
  echo
  echo "## The same operations in CuPy, PyTorch and vkarray from Python (one run)"
  echo
  echo '`python3 benchmarks/{reduce,cumulative,sorting}_peers.py cupy torch` and, under Python'
  echo '3.11, `... vkarray`; medians of 20 runs (CUDA events; vkarray: wall clock with a sync).'
  echo
  echo "| library | operation | median (ms) | kernels |"
  echo "|---|---|---|---|"
  python3 - "$WORK/peers.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    try:
        r = json.loads(line)
    except ValueError:
        continue
    if "error" in r:
        print(f"| {r['lib']} | {r.get('name', '')} | error: {r['error'][:120]} | |")
    else:
        print(f"| {r['lib']} | {r['name']} | {r['median']:.3f} | {r.get('kernels', '')} |")
PY
} > "$OUT/reductions.md"
cat "$OUT/reductions.md"
exit $status
