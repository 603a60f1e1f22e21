#!/usr/bin/env bash
# Runs Python test files on the GPU machine (from the repository root, .gpu/ carried along from
# prepare.sh): the staged vkarray package under Debian's Python 3.11 with pytest, on the NVIDIA
# driver. usage: bash benchmarks/gpu/run_pytest.sh [test files...]   (default: tests/python)
set -uo pipefail
for f in .gpu/debs/*.deb; do dpkg -x "$f" /; done
ldconfig
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [ -f "$icd" ] && ! ls /usr/share/vulkan/icd.d/*nvidia* /etc/vulkan/icd.d/*nvidia* >/dev/null 2>&1; then
  export VK_DRIVER_FILES=$icd
fi
py=/opt/vkpy
mkdir -p $py
for f in .gpu/py/*.deb; do dpkg -x "$f" $py; done
lib=$py/usr/lib/x86_64-linux-gnu
export VKA_CACHE_DIR=${VKA_CACHE_DIR:-/tmp/vka-cache}
LD_LIBRARY_PATH=$lib:$lib/blas:$lib/lapack:$py/lib/x86_64-linux-gnu PYTHONHOME=$py/usr \
  PYTHONPATH=$PWD/.gpu/pkg:$py/usr/lib/python3/dist-packages \
  $py/usr/bin/python3.11 -m pytest -q -p no:cacheprovider "${@:-tests/python}"
