#!/usr/bin/env bash
# Runs on a GPU machine with two GPUs (kind nvidia-h200-x2), from the repository root, with .gpu/
# (from prepare.sh) carried along: the multi-device work of one session — the replica tests and
# benchmark (run_replicas.sh), the user-kernel device test, the transfer benchmarks
# (run_transfer.sh) — then, with `dask` as the first argument, the Dask benchmark (run_dask.sh).
# Each writes its own $OUT/*.md.
set -uo pipefail
status=0
if [ "${1:-}" = dask ]; then
  bash benchmarks/gpu/run_dask.sh || status=1
  exit $status
fi
bash benchmarks/gpu/run_replicas.sh || status=1
source benchmarks/gpu/common.sh
run_device_tests "${WORK:-/tmp/vka-gpu-work}/user_kernel.txt" .gpu/bin/user_kernel_test || status=1
cp "${WORK:-/tmp/vka-gpu-work}/user_kernel.txt" "$OUT/user_kernel_test.txt"
bash benchmarks/gpu/run_transfer.sh || status=1
exit $status
