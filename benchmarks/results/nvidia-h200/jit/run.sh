#!/usr/bin/env bash
# #20's programs: vkarray, vkarray-jit (VKA_POLL_US 200 and 2000), JAX, CuPy, PyTorch in one call.
set -uo pipefail
mkdir -p $OUT
source benchmarks/gpu/common.sh
gpu_setup > /dev/null 2>&1 || true
install_python311 > /dev/null 2>&1
export VKA_CACHE_DIR=/tmp/vka-cache
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
P=seawater_eos,horner60,sliced_stencil
W=/tmp/w; mkdir -p $W
python3 benchmarks/run.py --libs numpy --programs $P --sizes medium,large --refs /tmp/refs --no-progress --runs 1 --warmup 0 --json $W/numpy.json > /dev/null 2>&1
python3 benchmarks/run.py --libs jax,cupy,torch --programs $P --sizes medium,large --refs /tmp/refs --no-progress --runs 9 --json $W/peers.json > $W/peers.txt 2>&1
PY_TIMEOUT=300 py311 benchmarks/run.py --libs vkarray,vkarray-jit --programs $P --sizes medium,large --refs /tmp/refs --no-progress --runs 9 --json $W/vk.json > $W/vk.txt 2>&1
VKA_POLL_US=2000 PY_TIMEOUT=300 py311 benchmarks/run.py --libs vkarray-jit --programs seawater_eos,horner60 --sizes medium,large --refs /tmp/refs --no-progress --runs 9 > $W/vk-poll.txt 2>&1
PY_TIMEOUT=300 py311 benchmarks/run.py --libs vkarray,vkarray-jit --programs $P --sizes medium,large --refs /tmp/refs --no-progress --runs 9 --json $W/vk2.json > $W/vk2.txt 2>&1
grep -h "| \(medium\|large\) |" $W/peers.txt $W/vk.txt; echo "== poll 2000"; grep -h "| \(medium\|large\) |" $W/vk-poll.txt; echo "== vk again"; grep -h "| \(medium\|large\) |" $W/vk2.txt
PY_TIMEOUT=100 py311 benchmarks/jit_call_times.py seawater_eos:medium seawater_eos:large --calls 20 2>&1 | tee $W/call_times.txt
python3 benchmarks/run.py --merge $W/numpy.json $W/vk.json $W/peers.json --out $OUT/jit > /dev/null 2>&1
cp $W/*.txt $OUT/
