#!/usr/bin/env bash
# Builds the benchmarks and device tests here and stages them in .gpu/ with the Vulkan loader
# (the GPU machine has the NVIDIA driver but no loader, headers, shaderc or Bazel). Then one
# device call runs everything:  run(command="bash benchmarks/gpu/run.sh", carry=[".gpu"])
set -euo pipefail
cd "$(dirname "$0")/../.."
PATH=/usr/bin:$PATH bazel build //benchmarks:all //tests/device/...
rm -rf .gpu/bin && mkdir -p .gpu/bin .gpu/debs
cp .bazel/bin/benchmarks/roofline .bazel/bin/benchmarks/transfer .gpu/bin/
cp .bazel/bin/tests/device/*_test .gpu/bin/
if ! ls .gpu/debs/libvulkan1_*.deb >/dev/null 2>&1; then
  lists=/tmp/vkarray-apt-amd64
  mkdir -p "$lists/partial"
  o="-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=$lists"
  apt-get $o update >/dev/null
  # The loader, and the glvnd libraries the NVIDIA ICD (libGLX_nvidia) loads.
  (cd .gpu/debs && apt-get $o download libvulkan1 libglvnd0 libgl1 libglx0 libegl1 libgles2 \
    libopengl0 2>/dev/null)
fi
du -sh .gpu
echo 'staged in .gpu/: now run  bash benchmarks/gpu/run.sh  on the GPU machine, carrying .gpu'
