#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root, with .gpu/ (from prepare.sh) carried along:
# the FFT device test (tests/array/fft/fft_test) and benchmarks/fft_peers.py for vkarray (VkFFT),
# CuPy and PyTorch (cuFFT) in the same run. Writes $OUT/fft.md and the raw JSON lines.
set -uo pipefail
source benchmarks/gpu/common.sh
gpu_setup
status=0
run_device_tests "$WORK/fft_tests.txt" .gpu/bin/fft_test || status=1
export VKA_CACHE_DIR=/tmp/vka-cache
install_python311
: > "$WORK/fft_peers.jsonl"
timeout 300 python3 benchmarks/fft_peers.py cupy torch >> "$WORK/fft_peers.jsonl" || status=1
py311 benchmarks/fft_peers.py vkarray >> "$WORK/fft_peers.jsonl" || status=1  # no timeout
cp "$WORK/fft_peers.jsonl" "$OUT/fft_peers.jsonl"
{
  echo "# FFT on the $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
  echo
  echo 'Staged with `bash benchmarks/gpu/prepare.sh`, run with `bash benchmarks/gpu/run_fft.sh`.'
  echo
  echo '```'
  cat "$WORK/gpu.txt"
  echo '```'
  echo
  grep -E '^(PASS|FAIL)' "$WORK/fft_tests.txt" | sed 's/^/- device test: /'
  echo
  echo '`python3 benchmarks/fft_peers.py cupy torch` and, under Python 3.11, `... vkarray`;'
  echo 'medians of 20 runs (CUDA events; vkarray: wall clock with a sync).'
  echo
  python3 benchmarks/gpu/peers_table.py "$WORK/fft_peers.jsonl"
} > "$OUT/fft.md"
cat "$OUT/fft.md"
exit $status
