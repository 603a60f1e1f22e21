#!/usr/bin/env bash
# Installs the Debian packages vkarray builds and tests with, if any is missing (idempotent).
# Exit 2 with a clear message when something is missing and we are not root.
set -euo pipefail
packages=(
  bazel-bootstrap           # Bazel 4.2.3 (pulls a JDK)
  g++
  libvulkan-dev             # the Vulkan loader and headers
  mesa-vulkan-drivers       # lavapipe, the CPU Vulkan device used when there is no GPU
  vulkan-validationlayers   # VKA_VALIDATE=1
  libshaderc-dev            # GLSL -> SPIR-V at run time (linked statically)
  glslc spirv-tools
  xtensor-dev xtl-dev
  pybind11-dev python3-dev python3-numpy python3-pytest
  libgtest-dev libbenchmark-dev
  libvkfft-dev              # VkFFT (header-only): numpy.fft on the device
  python3-tqdm              # the demo's progress bar
  python3-matplotlib        # the drop-in benchmark plots
  python3-hypothesis        # array-api-tests (make conformance)
  python3-dask python3-distributed  # vkarray.dask
)
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "vkarray needs these Debian packages, which are not installed: ${missing[*]}" >&2
  echo "Install them as root:  apt-get install ${missing[*]}" >&2
  exit 2
fi
echo "Installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
