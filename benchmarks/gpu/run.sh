#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root, with .gpu/ (from prepare.sh) carried along:
# installs the Vulkan loader, runs the device tests and every benchmark, and writes the results
# tables (markdown) to $OUT (or ./gpu-results).
set -uo pipefail
# $OUT receives only the final tables and the log (the device tool returns at most 8 files);
# everything intermediate goes to $WORK.
OUT=${OUT:-gpu-results}
WORK=${WORK:-/tmp/vka-gpu-work}
mkdir -p "$OUT" "$WORK"
source benchmarks/gpu/common.sh
install_vulkan_loader
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv | tee "$WORK/gpu.txt"

status=0
run_device_tests "$WORK/device_tests.txt" .gpu/bin/*_test || status=1

for access in auto staging; do
  .gpu/bin/roofline --elements 268435456 --runs 20 --host-access $access \
    --markdown "$WORK/roofline_$access.md" || status=1
done
.gpu/bin/transfer --mib 1024 --runs 7 --markdown "$WORK/transfer.md" || status=1

bash benchmarks/gpu/run_elementwise.sh || status=1

# One results file: what to commit under benchmarks/results/<device>/.
{
  echo "# Foundation benchmarks on the $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
  echo
  echo 'Staged with `bash benchmarks/gpu/prepare.sh` (build here), run on the GPU machine with'
  echo '`bash benchmarks/gpu/run.sh` (carrying `.gpu/`).'
  echo
  echo '```'
  cat "$WORK/gpu.txt"
  echo '```'
  echo
  echo "Device tests (the same GoogleTest binaries CI runs on lavapipe):"
  echo
  grep -E '^(PASS|FAIL)' "$WORK/device_tests.txt" | sed 's/^/- /'
  echo
  sed 's/^## Bandwidth roofline$/## Bandwidth roofline: buffers in host-visible device-local memory (the default where the device offers it)/' "$WORK/roofline_auto.md"
  echo
  sed 's/^## Bandwidth roofline$/## Bandwidth roofline: buffers in device-local memory that is not host-visible (`--host-access staging`)/' "$WORK/roofline_staging.md"
  echo
  cat "$WORK/transfer.md"
} > "$OUT/results.md"
cat "$OUT/elementwise_report.md"
exit $status
