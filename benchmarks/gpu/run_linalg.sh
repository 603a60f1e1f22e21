#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root, with .gpu/ (from prepare.sh) carried along:
# the linear-algebra device test (tests/array/linalg/linalg_test) and benchmarks/linalg_peers.py for
# vkarray, CuPy, PyTorch (cuSOLVER) and numpy in the same run. Writes $OUT/linalg.md and the raw
# JSON lines, and $OUT/linalg_profile.txt (benchmarks/profile_kernels.py's per-kernel GPU time).
set -uo pipefail
source benchmarks/gpu/common.sh
gpu_setup
status=0
run_device_tests "$WORK/linalg_tests.txt" .gpu/bin/linalg_test || status=1
export VKA_CACHE_DIR=/tmp/vka-cache
install_python311
: > "$WORK/linalg_peers.jsonl"
timeout 300 python3 benchmarks/linalg_peers.py cupy torch numpy >> "$WORK/linalg_peers.jsonl" || status=1
PY_TIMEOUT=300 py311 benchmarks/linalg_peers.py vkarray >> "$WORK/linalg_peers.jsonl" || status=1
# Where the factorizations' time goes: GPU time by kernel at 4096² float32.
PY_TIMEOUT=300 py311 benchmarks/profile_kernels.py solve cholesky qr > "$OUT/linalg_profile.txt" 2>&1 \
  || status=1
cp "$WORK/linalg_peers.jsonl" "$OUT/linalg_peers.jsonl"
{
  echo "# Linear algebra on the $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
  echo
  echo 'Staged with `bash benchmarks/gpu/prepare.sh`, run with `bash benchmarks/gpu/run_linalg.sh`.'
  echo
  echo '```'
  cat "$WORK/gpu.txt"
  echo '```'
  echo
  grep -E '^(PASS|FAIL)' "$WORK/linalg_tests.txt" | sed 's/^/- device test: /'
  echo
  echo '`python3 benchmarks/linalg_peers.py cupy torch` and, under Python 3.11, `... vkarray`;'
  echo 'medians of 5 runs (CUDA events; vkarray: wall clock with a sync).'
  echo
  python3 benchmarks/gpu/peers_table.py "$WORK/linalg_peers.jsonl"
} > "$OUT/linalg.md"
cat "$OUT/linalg.md"
exit $status
