# Sourced by the GPU scripts (run.sh, run_indexing.sh, run_reduce.sh, run_pytest.sh), from the repository
# root with .gpu/ (from prepare.sh) carried along: the Vulkan loader and the private Python.

# Unpacks the Vulkan loader (and the glvnd libraries the NVIDIA ICD loads) and points the
# loader at the NVIDIA ICD when the image does not list it.
install_vulkan_loader() {
  for f in .gpu/debs/*.deb; do dpkg -x "$f" /; done
  ldconfig
  local icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  if [ -f "$icd" ] && ! ls /usr/share/vulkan/icd.d/*nvidia* /etc/vulkan/icd.d/*nvidia* >/dev/null 2>&1; then
    export VK_DRIVER_FILES=$icd
  fi
}

# Runs each GoogleTest binary named, appending its output to LOG and a "PASS name" or
# "FAIL name" line (also printed, with the log's tail on failure). Returns 1 if any failed.
# usage: run_device_tests LOG binary...
run_device_tests() {
  local log=$1 failed=0
  shift
  : > "$log"
  for t in "$@"; do
    if "$t" --gtest_brief=1 >> "$log" 2>&1; then
      echo "PASS $(basename "$t")" | tee -a "$log"
    else
      echo "FAIL $(basename "$t")" | tee -a "$log"
      tail -30 "$log"
      failed=1
    fi
  done
  return $failed
}

# Debian's Python 3.11 with numpy (and pytest) in /opt/vkpy, for the staged vkarray package
# (built for 3.11; the machine's own python3 may differ). py311 runs it.
VKPY=/opt/vkpy
install_python311() {
  mkdir -p $VKPY
  for f in .gpu/py/*.deb; do dpkg -x "$f" $VKPY; done
}
# Debian's Python 3.11 with vkarray; PY_TIMEOUT=SECONDS py311 ... bounds its run.
py311() {
  local lib=$VKPY/usr/lib/x86_64-linux-gnu
  ${PY_TIMEOUT:+timeout $PY_TIMEOUT} env \
    LD_LIBRARY_PATH=$lib:$lib/blas:$lib/lapack:$VKPY/lib/x86_64-linux-gnu PYTHONHOME=$VKPY/usr \
    PYTHONPATH=$PWD/.gpu/pkg:$VKPY/usr/lib/python3/dist-packages $VKPY/usr/bin/python3.11 "$@"
}

# The common start of a GPU script: $OUT and $WORK made, prepare.sh's binaries unpacked (they
# may travel compressed to fit the 64 MiB a device call carries), the Vulkan loader installed,
# and the GPU's name and driver in $WORK/gpu.txt.
gpu_setup() {
  OUT=${OUT:-gpu-results}
  WORK=${WORK:-/tmp/vka-gpu-work}
  mkdir -p "$OUT" "$WORK"
  if [ -f .gpu/bin.tar.xz ]; then tar -C .gpu -xJf .gpu/bin.tar.xz; fi
  install_vulkan_loader
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$WORK/gpu.txt"
}
