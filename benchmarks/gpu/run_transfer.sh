#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root, with .gpu/ (from prepare.sh) carried along:
# the transfer benchmarks of issue 8 (host arrays and mapped memory): the device tests of
# array/transfer and of the transfer queue, then benchmarks/host_transfer.cc (1 GiB host →
# device and device → host from pinned HostArray memory and from pageable memory, against the
# link rate one bare copy command measures and the 51 GB/s reference of docs/ENVIRONMENT;
# overlap of a copy on the transfer queue with kernels on the compute queue) and the
# foundation's benchmarks/transfer.cc for comparison. Writes $OUT/transfer.md.
set -uo pipefail
source benchmarks/gpu/common.sh
gpu_setup
status=0
run_device_tests "$WORK/tests.txt" .gpu/bin/transfer_test .gpu/bin/transfer_stream_test \
  .gpu/bin/transfer_queue_test || status=1
export VKA_CACHE_DIR=/tmp/vka-cache
timeout 400 .gpu/bin/host_transfer --mib 1024 --runs 7 --kernels 40 \
  --markdown "$WORK/host_transfer.md" > "$WORK/host_transfer.log" 2>&1 || {
  status=1; tail -20 "$WORK/host_transfer.log"; }
timeout 200 .gpu/bin/transfer --mib 1024 --runs 7 --markdown "$WORK/transfer.md" \
  > "$WORK/transfer.log" 2>&1 || { status=1; tail -20 "$WORK/transfer.log"; }
{
  echo "# Host arrays and transfers on the $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
  echo
  echo 'Staged with `bash benchmarks/gpu/prepare.sh`, run with `bash benchmarks/gpu/run_transfer.sh`.'
  echo
  echo '```'
  cat "$WORK/gpu.txt"
  echo '```'
  echo
  grep -E '^(PASS|FAIL)' "$WORK/tests.txt" | sed 's/^/- device test: /'
  echo
  cat "$WORK/host_transfer.md" 2>/dev/null || { echo '```'; tail -20 "$WORK/host_transfer.log"; echo '```'; }
  echo
  cat "$WORK/transfer.md" 2>/dev/null || { echo '```'; tail -20 "$WORK/transfer.log"; echo '```'; }
} > "$OUT/transfer.md"
cat "$OUT/transfer.md"
exit $status
