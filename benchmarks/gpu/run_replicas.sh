#!/usr/bin/env bash
# Runs on a GPU machine with two GPUs (kind nvidia-h200-x2), from the repository root, with .gpu/
# (from prepare.sh) carried along: the replica tests on two real GPUs
# (VKA_TEST_DEVICES=0,1) and benchmarks/replicas.py on devices 0,1, on 0,0 and on two queues
# of device 0; with two devices it also times broadcast / all_reduce of 1 GiB float32 between
# them (GB/s, the path's name, over chunk sizes, slot counts and both host paths).
# Writes $OUT/replicas.md.
set -uo pipefail
source benchmarks/gpu/common.sh
gpu_setup
install_python311
export VKA_CACHE_DIR=/tmp/vka-cache VKA_TEST_DEVICES=0,1
status=0
if [ -x .gpu/bin/replicas_test ]; then
  run_device_tests "$WORK/replicas_tests.txt" .gpu/bin/replicas_test || status=1
fi
if [ -x .gpu/bin/cross_device_test ]; then
  run_device_tests "$WORK/xdev_tests.txt" .gpu/bin/cross_device_test || status=1
fi
py311 -m pytest -q -p no:cacheprovider tests/python/replicas_test.py \
  tests/python/replicas_xdev_test.py > "$WORK/replicas_py.txt" 2>&1 || status=1
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
  grep -hE '^(PASS|FAIL)' "$WORK/xdev_tests.txt" 2>/dev/null | sed 's/^/- device test: /'
  echo "- python: $(tail -1 "$WORK/replicas_py.txt")"
  echo
  echo "## 1 GiB float32 between devices (GB/s, median of 7 runs)"
  echo
  py311 - "$WORK/replicas.jsonl" <<'PY'
import json, sys
print("| devices | op | path | chunk MiB | slots | GB/s | GB/s between devices |")
print("|---|---|---|---|---|---|---|")
for line in open(sys.argv[1]):
    try:
        r = json.loads(line)
    except ValueError:
        continue
    if "between devices" not in r.get("op", ""):
        continue
    o = r["options"]
    mark = " (default)" if r["default options"] else ""
    print(f"| {r['devices']} | {r['op'].split()[0]}{mark} | {r['path']} | "
          f"{o['chunk_bytes'] >> 20} | {o['slots']} | {r['GB/s']:.2f} | "
          f"{r['GB/s between devices']:.2f} |")
PY
  echo
  echo '```'
  cat "$WORK/replicas.jsonl"
  echo '```'
} > "$OUT/replicas.md"
cat "$OUT/replicas.md"
exit $status
