#!/usr/bin/env bash
# The fused elementwise benchmarks alone (run.sh runs them too), on the GPU machine with .gpu/
# carried: the roofline, the C++ fused kernels (cold and warm cache), vkarray from Python and
# its peers, and the goals' report, into $OUT/elementwise_report.md.
set -uo pipefail
OUT=${OUT:-gpu-results}
WORK=${WORK:-/tmp/vka-gpu-work}
mkdir -p "$OUT" "$WORK"
source benchmarks/gpu/common.sh
install_vulkan_loader
status=0
if [ ! -f "$WORK/roofline_auto.md" ]; then
  .gpu/bin/roofline --elements 268435456 --runs 20 --host-access auto \
    --markdown "$WORK/roofline_auto.md" || status=1
fi
# Fused elementwise kernels (C++), twice on one fresh cache directory: the second process shows
# the warm (cached) cost of a kernel's first use.
export VKA_CACHE_DIR=/tmp/vka-cache
rm -rf "$VKA_CACHE_DIR"
.gpu/bin/elementwise --elements 268435456 --runs 20 --markdown "$WORK/elementwise_cold.md" || status=1
.gpu/bin/elementwise --elements 268435456 --runs 20 --markdown "$WORK/elementwise.md" || status=1

# Python: vkarray under Debian's Python 3.11 (private prefix), peers under the machine's python3.
install_python311
: > "$WORK/peers.jsonl"
py311 benchmarks/elementwise_peers.py vkarray >> "$WORK/peers.jsonl" || status=1
python3 benchmarks/elementwise_peers.py cupy torch numpy >> "$WORK/peers.jsonl" || status=1
cp "$WORK/peers.jsonl" "$OUT/"
python3 benchmarks/gpu/report_elementwise.py "$WORK" > "$OUT/elementwise_report.md" || status=1

exit $status
