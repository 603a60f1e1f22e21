#!/usr/bin/env bash
# Runs on the GPU machine with .gpu/ (from prepare.sh) carried: the matrix-product, FFT,
# random-number and linear-algebra benchmarks and their device tests, one after the other
# (each script writes its own $OUT/*.md).
set -uo pipefail
status=0
for s in gemm fft random linalg; do
  bash "benchmarks/gpu/run_$s.sh" > "${OUT:-gpu-results}/$s.log" 2>&1 || status=1
done
exit $status
