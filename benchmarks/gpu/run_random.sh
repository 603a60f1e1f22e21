#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root, with .gpu/ (from prepare.sh) carried along:
# the random-number benchmarks (benchmarks/random_peers.py for vkarray, CuPy and PyTorch in the
# same run) after the random device test and the Python random tests. Writes $OUT/random.md and
# the raw JSON lines.
set -uo pipefail
source benchmarks/gpu/common.sh
gpu_setup
status=0
run_device_tests "$WORK/random_tests.txt" .gpu/bin/random_test || status=1
export VKA_CACHE_DIR=/tmp/vka-cache
install_python311
py311 -m pytest -q -p no:cacheprovider tests/python/random_test.py tests/python/random_api_test.py \
  > "$WORK/random_pytest.txt" 2>&1 || status=1
tail -3 "$WORK/random_pytest.txt"
: > "$WORK/random_peers.jsonl"
timeout 300 python3 benchmarks/random_peers.py cupy torch >> "$WORK/random_peers.jsonl" || status=1
# py311 is a shell function: no timeout.
py311 benchmarks/random_peers.py vkarray >> "$WORK/random_peers.jsonl" || status=1
cp "$WORK/random_peers.jsonl" "$OUT/random_peers.jsonl"
{
  echo "# Random numbers on the $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
  echo
  echo 'Staged with `bash benchmarks/gpu/prepare.sh`, run with `bash benchmarks/gpu/run_random.sh`.'
  echo
  echo '```'
  cat "$WORK/gpu.txt"
  echo '```'
  echo
  grep -E '^(PASS|FAIL)' "$WORK/random_tests.txt" | sed 's/^/- device test: /'
  echo "- python: $(tail -1 "$WORK/random_pytest.txt")"
  echo
  echo '`python3 benchmarks/random_peers.py cupy torch` and, under Python 3.11, `... vkarray`;'
  echo 'medians of 20 runs (CUDA events; vkarray: wall clock with a sync). GB/s of output written.'
  echo
  python3 benchmarks/gpu/peers_table.py "$WORK/random_peers.jsonl" gbps
} > "$OUT/random.md"
cat "$OUT/random.md"
exit $status
