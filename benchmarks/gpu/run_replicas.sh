#!/usr/bin/env bash
# Runs on a GPU machine with two GPUs (kind nvidia-h200-x2), from the repository root, with .gpu/
# (from prepare.sh) carried along: the replica tests on two real GPUs
# (VKA_TEST_DEVICES=0,1) and benchmarks/replicas.py on devices 0,1, on 0,0 and on two queues
# of device 0. Writes $OUT/replicas.md.
set -uo pipefail
source benchmarks/gpu/common.sh
gpu_setup
install_python311
export VKA_CACHE_DIR=/tmp/vka-cache VKA_TEST_DEVICES=0,1
status=0
if [ -x .gpu/bin/replicas_test ]; then
  run_device_tests "$WORK/replicas_tests.txt" .gpu/bin/replicas_test || status=1
fi
py311 -m pytest -q -p no:cacheprovider tests/python/replicas_test.py > "$WORK/replicas_py.txt" \
  2>&1 || status=1
: > "$WORK/replicas.jsonl"
for args in "0,1" "0,0" "0 2"; do
  py311 benchmarks/replicas.py $args >> "$WORK/replicas.jsonl" 2>&1 || status=1
done
{
  echo "# Replicas on $(nvidia-smi --query-gpu=name --format=csv,noheader | paste -sd, -)"
  echo
  echo '```'
  cat "$WORK/gpu.txt"
  echo '```'
  echo
  grep -hE '^(PASS|FAIL)' "$WORK/replicas_tests.txt" 2>/dev/null | sed 's/^/- device test: /'
  echo "- python: $(tail -1 "$WORK/replicas_py.txt")"
  echo
  echo '```'
  cat "$WORK/replicas.jsonl"
  echo '```'
} > "$OUT/replicas.md"
cat "$OUT/replicas.md"
exit $status
