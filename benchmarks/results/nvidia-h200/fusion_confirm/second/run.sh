#!/usr/bin/env bash
# Issue 20: the equation of state (vk.jit against JAX jit, CuPy, PyTorch), 0-d accumulation,
# and the 2000-op chain, and issue 21's element writes: each library in a process of its own.
set -uo pipefail
source benchmarks/gpu/common.sh
gpu_setup > /dev/null 2>&1
install_python311 > /dev/null 2>&1
W=/tmp/w; mkdir -p $W $OUT; export VKA_CACHE_DIR=$W/vka-cache
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
E=(--programs seawater_eos --sizes medium,large --refs $W/refs --no-progress)
L=(--programs zero_d_accumulate,small_op_chain,element_writes --sizes large --refs $W/refs --no-progress)
timeout 150 python3 benchmarks/run.py --libs numpy "${E[@]}" --runs 1 --warmup 0 --json $W/eos-numpy.json > /dev/null 2>&1
timeout 60 python3 benchmarks/run.py --libs numpy "${L[@]}" --runs 3 --json $W/loop-numpy.json > /dev/null 2>&1
timeout 120 python3 benchmarks/run.py --libs jax "${E[@]}" --runs 15 --json $W/eos-jax.json > $W/jax.txt 2>&1
timeout 120 python3 benchmarks/run.py --libs cupy "${E[@]}" --runs 9 --json $W/eos-cupy.json > /dev/null 2>&1
timeout 120 python3 benchmarks/run.py --libs torch "${E[@]}" --runs 9 --json $W/eos-torch.json > /dev/null 2>&1
timeout 150 python3 benchmarks/run.py --libs cupy,torch "${L[@]}" --runs 7 --json $W/loop-peers.json > /dev/null 2>&1
PY_TIMEOUT=150 py311 benchmarks/run.py --libs vkarray,vkarray-jit "${E[@]}" --runs 15 --json $W/eos-vk.json > $W/vk.txt 2>&1
PY_TIMEOUT=150 py311 benchmarks/run.py --libs vkarray "${L[@]}" --runs 7 --json $W/loop-vk.json >> $W/vk.txt 2>&1
PY_TIMEOUT=100 py311 benchmarks/jit_call_times.py seawater_eos:medium seawater_eos:large --calls 20 > $OUT/call_times.txt 2>&1
python3 benchmarks/run.py --merge $W/eos-numpy.json $W/loop-numpy.json $W/eos-jax.json $W/eos-cupy.json $W/eos-torch.json $W/loop-peers.json $W/eos-vk.json $W/loop-vk.json --out $OUT --no-plots > /dev/null 2>&1
tail -5 $W/jax.txt $W/vk.txt
grep -E "seawater|zero_d|small_op|element_w" $OUT/table.md | head -60
cat $OUT/call_times.txt
# a second pass of JAX and vk.jit, each in its own process again
timeout 120 python3 benchmarks/run.py --libs jax "${E[@]}" --runs 15 --json $W/eos-jax2.json > /dev/null 2>&1
PY_TIMEOUT=150 py311 benchmarks/run.py --libs vkarray-jit "${E[@]}" --runs 15 --json $W/eos-vk2.json > /dev/null 2>&1
mkdir -p $OUT/pass2
python3 benchmarks/run.py --merge $W/eos-numpy.json $W/eos-jax2.json $W/eos-vk2.json --out $OUT/pass2 --no-plots > /dev/null 2>&1
grep seawater $OUT/pass2/table.md | head -8
