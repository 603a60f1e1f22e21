#!/usr/bin/env bash
# Builds the benchmarks and device tests here and stages them in .gpu/ with the Vulkan loader
# (the GPU machine has the NVIDIA driver but no loader, headers, shaderc or Bazel). Then one
# device call runs everything:  run(command="bash benchmarks/gpu/run.sh", carry=[".gpu"])
set -euo pipefail
cd "$(dirname "$0")/../.."
PATH=/usr/bin:$PATH bazel build //benchmarks:all //tests/device/... //tests/array:views_test \
  //tests/array:array_test //tests/array:reduce_test //tests/array:sort_test \
  //tests/array:cumulative_test //tests/array/random:random_test //tests/array:matmul_test \
  //tests/array/linalg:linalg_test //tests/array/fft:fft_test //tests/array:epilogue_test \
  //tests/array:transfer_test //tests/array:replicas_test //tests/array:user_kernel_test \
  //tests/array:cross_device_test \
  //tests/array:transfer_queue_test \
  //tests/runtime:gemm_split_test //bindings:python_package
rm -rf .gpu/bin .gpu/pkg && mkdir -p .gpu/bin .gpu/debs .gpu/py .gpu/pkg
cp .bazel/bin/benchmarks/roofline .bazel/bin/benchmarks/transfer \
  .bazel/bin/benchmarks/elementwise .bazel/bin/benchmarks/dispatch_overhead \
  .bazel/bin/benchmarks/indexing .bazel/bin/benchmarks/cumulative \
  .bazel/bin/benchmarks/reduce .bazel/bin/benchmarks/sorting .bazel/bin/benchmarks/gemm \
  .bazel/bin/benchmarks/host_transfer .gpu/bin/
cp -r .bazel/bin/bindings/python/vkarray .gpu/pkg/ && chmod -R u+w .gpu/pkg .gpu/bin
cp .bazel/bin/tests/device/*_test .bazel/bin/tests/array/views_test \
  .bazel/bin/tests/array/array_test .bazel/bin/tests/array/reduce_test \
  .bazel/bin/tests/array/sort_test .bazel/bin/tests/array/cumulative_test \
  .bazel/bin/tests/array/random/random_test .bazel/bin/tests/array/matmul_test \
  .bazel/bin/tests/array/linalg/linalg_test .bazel/bin/tests/array/fft/fft_test \
  .bazel/bin/tests/array/epilogue_test .bazel/bin/tests/array/transfer_test \
  .bazel/bin/tests/array/replicas_test .bazel/bin/tests/array/user_kernel_test \
  .bazel/bin/tests/array/cross_device_test \
  .bazel/bin/tests/array/transfer_queue_test \
  .bazel/bin/tests/runtime/gemm_split_test .gpu/bin/
chmod -R u+w .gpu/bin
# Debug info is not needed there, and what travels is limited to 64 MiB.
strip .gpu/bin/* .gpu/pkg/vkarray/_vkarray.so
if ! ls .gpu/debs/libvulkan1_*.deb >/dev/null 2>&1; then
  lists=/tmp/vkarray-apt-amd64
  mkdir -p "$lists/partial"
  o="-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=$lists"
  apt-get $o update >/dev/null
  # The loader, and the glvnd libraries the NVIDIA ICD (libGLX_nvidia) loads.
  (cd .gpu/debs && apt-get $o download libvulkan1 libglvnd0 libgl1 libglx0 libegl1 libgles2 \
    libopengl0 2>/dev/null)
fi
# Debian's Python 3.11 and numpy: the GPU machine's python3 is 3.12, and _vkarray is built for
# 3.11. run.sh unpacks these into a private prefix.
if ! ls .gpu/py/python3.11-minimal_*.deb >/dev/null 2>&1; then
  lists=/tmp/vkarray-apt-amd64
  mkdir -p "$lists/partial"
  o="-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=$lists"
  apt-get $o update >/dev/null
  (cd .gpu/py && for p in python3.11-minimal libpython3.11-minimal libpython3.11-stdlib \
      python3-numpy libblas3 liblapack3 libgfortran5 libquadmath0 libffi8 libexpat1 libssl3 \
      zlib1g libbz2-1.0 liblzma5 libsqlite3-0 libncursesw6 libtinfo6 libreadline8 libuuid1 \
      libnsl2 libtirpc3 libgssapi-krb5-2 libkrb5-3 libk5crypto3 libkrb5support0 libcom-err2 \
      libkeyutils1 libcrypt1 libdb5.3; do apt-get $o download "$p" >/dev/null; done)
fi
# pytest, for benchmarks/gpu/run_pytest.sh.
if ! ls .gpu/py/python3-pytest_*.deb >/dev/null 2>&1; then
  lists=/tmp/vkarray-apt-amd64
  mkdir -p "$lists/partial"
  o="-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=$lists"
  apt-get $o update >/dev/null
  (cd .gpu/py && for p in python3-pytest python3-pluggy python3-iniconfig python3-packaging \
      python3-py python3-attr python3-more-itertools python3-pkg-resources \
      python3-exceptiongroup python3-tomli; do apt-get $o download "$p" >/dev/null; done)
fi
# Debian's dask and distributed (2022.12) and their dependencies, for
# benchmarks/gpu/run_dask.sh (unpacked into the same private prefix).
if ! ls .gpu/py/python3-distributed_*.deb >/dev/null 2>&1; then
  lists=/tmp/vkarray-apt-amd64
  mkdir -p "$lists/partial"
  o="-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=$lists"
  apt-get $o update >/dev/null
  (cd .gpu/py && for p in python3-dask python3-distributed python3-toolz python3-cloudpickle \
      python3-partd python3-locket python3-fsspec python3-msgpack python3-psutil \
      python3-tornado python3-zict python3-heapdict python3-tblib python3-sortedcontainers \
      python3-yaml libyaml-0-2 python3-click python3-colorama python3-jinja2 \
      python3-markupsafe python3-packaging python3-urllib3 python3-six \
      python3-importlib-metadata python3-zipp python3-more-itertools \
      python3-typing-extensions; do apt-get $o download "$p" >/dev/null; done)
fi
du -sh .gpu
echo 'staged in .gpu/: now run  bash benchmarks/gpu/run.sh  on the GPU machine, carrying .gpu'
