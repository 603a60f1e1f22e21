#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root, with .gpu/ (from prepare.sh) carried along:
# the matrix-product benchmarks (benchmarks/gemm.cc: float32 4096³ and 8192³, float16 8192³,
# relu(A @ B + bias) fused and not, few-tile long-K products with and without split-K, then a
# sweep of GEMM tilings; benchmarks/gemm_peers.py for vkarray, CuPy and PyTorch in the same
# run) after the matmul device test. Writes $OUT/gemm.md and the raw
# JSON lines. The best tiling of the sweep is the one to record for the device.
set -uo pipefail
source benchmarks/gpu/common.sh
gpu_setup
status=0
run_device_tests "$WORK/gemm_tests.txt" .gpu/bin/matmul_test .gpu/bin/epilogue_test \
  .gpu/bin/gemm_split_test || status=1
export VKA_CACHE_DIR=/tmp/vka-cache
timeout 400 .gpu/bin/gemm --markdown "$WORK/gemm_cpp.md" > "$WORK/gemm.log" 2>&1 || {
  status=1; tail -20 "$WORK/gemm.log"; }
if [ -z "${SKIP_SWEEP:-}" ]; then  # SKIP_SWEEP=1: the tiling sweep is left out
  timeout 400 .gpu/bin/gemm --sweep default --markdown "$WORK/gemm_sweep.md" \
    > "$WORK/gemm_sweep.log" 2>&1 || { status=1; tail -20 "$WORK/gemm_sweep.log"; }
fi
install_python311
: > "$WORK/gemm_peers.jsonl"
timeout 300 python3 benchmarks/gemm_peers.py cupy torch >> "$WORK/gemm_peers.jsonl" || status=1
py311 benchmarks/gemm_peers.py vkarray >> "$WORK/gemm_peers.jsonl" || status=1
cp "$WORK/gemm_peers.jsonl" "$OUT/gemm_peers.jsonl"
{
  echo "# Matrix products on the $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
  echo
  echo 'Staged with `bash benchmarks/gpu/prepare.sh`, run with `bash benchmarks/gpu/run_gemm.sh`.'
  echo
  echo '```'
  cat "$WORK/gpu.txt"
  echo '```'
  echo
  grep -E '^(PASS|FAIL)' "$WORK/gemm_tests.txt" | sed 's/^/- device test: /'
  for b in gemm gemm_sweep; do
    echo
    echo "## \`.gpu/bin/gemm\` ($b)"
    echo
    cat "$WORK/${b}_cpp.md" 2>/dev/null || cat "$WORK/${b}.md" 2>/dev/null || {
      echo '```'; tail -20 "$WORK/${b}.log"; echo '```'; }
  done
  echo
  echo "## The same products in CuPy, PyTorch and vkarray from Python (one run)"
  echo
  python3 benchmarks/gpu/peers_table.py "$WORK/gemm_peers.jsonl" tflops
} > "$OUT/gemm.md"
cat "$OUT/gemm.md"
exit $status
