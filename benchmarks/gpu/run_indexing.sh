#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root, with .gpu/ (from prepare.sh) carried along:
# the views/indexing benchmarks of issue 4 (benchmarks/indexing.cc with GPU timestamps, and
# benchmarks/indexing_peers.py for vkarray, CuPy, PyTorch and numpy in one run) and the array
# device tests. Writes $OUT/indexing.md and the raw JSON lines.
set -uo pipefail
source benchmarks/gpu/common.sh
gpu_setup
status=0
run_device_tests "$WORK/tests.txt" .gpu/bin/views_test .gpu/bin/array_test || status=1
export VKA_CACHE_DIR=/tmp/vka-cache
.gpu/bin/indexing --runs 20 --markdown "$WORK/indexing_cpp.md" || status=1
install_python311
: > "$WORK/indexing_peers.jsonl"
py311 benchmarks/indexing_peers.py vkarray >> "$WORK/indexing_peers.jsonl" || status=1
python3 benchmarks/indexing_peers.py cupy torch numpy >> "$WORK/indexing_peers.jsonl" || status=1
cp "$WORK/indexing_peers.jsonl" "$OUT/"
{
  echo "# Views, writes and gathers on the $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
  echo
  echo 'Staged with `bash benchmarks/gpu/prepare.sh`, run with `bash benchmarks/gpu/run_indexing.sh`.'
  echo
  echo '```'
  cat "$WORK/gpu.txt"
  echo '```'
  echo
  grep -E '^(PASS|FAIL)' "$WORK/tests.txt" | sed 's/^/- device test: /'
  echo
  cat "$WORK/indexing_cpp.md"
  echo
  echo "## The same operations in CuPy, PyTorch, numpy and vkarray from Python (one run)"
  echo
  echo '`python3 benchmarks/indexing_peers.py cupy torch numpy` and, under Python 3.11,'
  echo '`benchmarks/indexing_peers.py vkarray`; medians of 20 runs (numpy: 5).'
  echo
  echo "| library | operation | median (ms) | kernels |"
  echo "|---|---|---|---|"
  python3 - "$WORK/indexing_peers.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if "error" in r:
        print(f"| {r['lib']} | {r.get('name', '')} | error: {r['error'][:120]} | |")
    else:
        print(f"| {r['lib']} | {r['name']} | {r['median']:.3f} | {r.get('kernels', '')} |")
PY
} > "$OUT/indexing.md"
cat "$OUT/indexing.md"
exit $status
