#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root, with .gpu/ (from prepare.sh) carried along:
# installs the Vulkan loader, runs the device tests and every benchmark, and writes the results
# tables (markdown) to $OUT (or ./gpu-results).
set -uo pipefail
OUT=${OUT:-gpu-results}
mkdir -p "$OUT"
for f in .gpu/debs/*.deb; do dpkg -x "$f" /; done
ldconfig
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [ -f "$icd" ] && ! ls /usr/share/vulkan/icd.d/*nvidia* /etc/vulkan/icd.d/*nvidia* >/dev/null 2>&1; then
  export VK_DRIVER_FILES=$icd
fi
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$OUT/gpu.txt"

status=0
: > "$OUT/device_tests.txt"
for t in .gpu/bin/*_test; do
  if "$t" --gtest_brief=1 >> "$OUT/device_tests.txt" 2>&1; then
    echo "PASS $(basename "$t")" | tee -a "$OUT/device_tests.txt"
  else
    echo "FAIL $(basename "$t")" | tee -a "$OUT/device_tests.txt"
    status=1
  fi
done

for access in auto staging; do
  .gpu/bin/roofline --elements 268435456 --runs 20 --host-access $access \
    --markdown "$OUT/roofline_$access.md" || status=1
done
.gpu/bin/transfer --mib 1024 --runs 7 --markdown "$OUT/transfer.md" || status=1

# One results file: what to commit under benchmarks/results/<device>/.
{
  echo "# Foundation benchmarks on the $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
  echo
  echo 'Staged with `bash benchmarks/gpu/prepare.sh` (build here), run on the GPU machine with'
  echo '`bash benchmarks/gpu/run.sh` (carrying `.gpu/`).'
  echo
  echo '```'
  cat "$OUT/gpu.txt"
  echo '```'
  echo
  echo "Device tests (the same GoogleTest binaries CI runs on lavapipe):"
  echo
  grep -E '^(PASS|FAIL)' "$OUT/device_tests.txt" | sed 's/^/- /'
  echo
  sed 's/^## Bandwidth roofline$/## Bandwidth roofline: buffers in host-visible device-local memory (the default where the device offers it)/' "$OUT/roofline_auto.md"
  echo
  sed 's/^## Bandwidth roofline$/## Bandwidth roofline: buffers in device-local memory that is not host-visible (`--host-access staging`)/' "$OUT/roofline_staging.md"
  echo
  cat "$OUT/transfer.md"
} > "$OUT/results.md"
exit $status
