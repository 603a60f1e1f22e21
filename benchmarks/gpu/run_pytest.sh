#!/usr/bin/env bash
# Runs Python test files on the GPU machine (from the repository root, .gpu/ carried along from
# prepare.sh): the staged vkarray package under Debian's Python 3.11 with pytest, on the NVIDIA
# driver. usage: bash benchmarks/gpu/run_pytest.sh [test files...]   (default: tests/python)
set -uo pipefail
source benchmarks/gpu/common.sh
install_vulkan_loader
install_python311
export VKA_CACHE_DIR=${VKA_CACHE_DIR:-/tmp/vka-cache}
py311 -m pytest -q -p no:cacheprovider "${@:-tests/python}"
