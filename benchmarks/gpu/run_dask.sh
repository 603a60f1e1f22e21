#!/usr/bin/env bash
# Runs on the GPU machine (2 or more GPUs), from the repository root, with .gpu/ (from
# prepare.sh) carried along: vkarray chunks on a dask.distributed LocalCluster with one worker
# per GPU (benchmarks/dask_bench.py, under Debian's Python 3.11 with Debian's dask and
# distributed 2022.12 staged by prepare.sh): the test pipeline checked against numpy, then a
# bandwidth-bound chunked workload on 1 worker (GPU 0) and on one worker per GPU, with the
# speedup. Writes $OUT/dask.md and the raw JSON lines.
#   run(command="bash benchmarks/gpu/run_dask.sh", carry=[".gpu"], kind="nvidia-h200-x2")
set -uo pipefail
source benchmarks/gpu/common.sh
gpu_setup
export VKA_CACHE_DIR=/tmp/vka-cache
install_python311
gpus=$(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l)
workers=1
for ((w = 2; w <= gpus; w *= 2)); do workers="$workers,$w"; done
status=0
: > "$WORK/dask.jsonl"
for log2n in 30 32; do
  PY_TIMEOUT=280 py311 benchmarks/dask_bench.py --log2n $log2n --chunks 16 --passes 32 \
    --workers "$workers" --repeats 5 --markdown "$WORK/dask_$log2n.md" \
    >> "$WORK/dask.jsonl" 2> "$WORK/dask_$log2n.err" || { status=1; tail -30 "$WORK/dask_$log2n.err"; }
done
cp "$WORK/dask.jsonl" "$OUT/dask.jsonl"
{
  echo "# vkarray chunks on dask.distributed, one worker per GPU ($gpus x $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1))"
  echo
  echo 'Staged with `bash benchmarks/gpu/prepare.sh`, run with `bash benchmarks/gpu/run_dask.sh`.'
  echo
  echo '```'
  cat "$WORK/gpu.txt"
  echo '```'
  for log2n in 30 32; do
    echo
    echo "## 2^$log2n float32"
    echo
    cat "$WORK/dask_$log2n.md" 2>/dev/null || echo "(no result: see $WORK/dask_$log2n.err)"
  done
} > "$OUT/dask.md"
cat "$OUT/dask.md"
exit $status
