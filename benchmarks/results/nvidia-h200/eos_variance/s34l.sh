#!/usr/bin/env bash
# The GPU's performance state and clocks (nvidia-smi every 50 ms) while run.py's suite runs
# the equation of state through vk.jit, three processes.
set -uo pipefail
source benchmarks/gpu/common.sh
gpu_setup > /dev/null 2>&1
install_python311 > /dev/null 2>&1
W=/tmp/w; mkdir -p $W $OUT; export VKA_CACHE_DIR=$W/vka-cache
E=(--programs seawater_eos --sizes medium,large --refs $W/refs --no-progress)
timeout 150 python3 benchmarks/run.py --libs numpy "${E[@]}" --runs 1 --warmup 0 --json $W/numpy.json > /dev/null 2>&1
nvidia-smi --query-gpu=timestamp,pstate,clocks.sm,clocks.mem,power.draw,utilization.gpu --format=csv,noheader -lms 50 > $OUT/clocks.csv 2>&1 &
SMI=$!
for i in 1 2 3; do
  echo "start p$i $(date +%H:%M:%S.%N)"
  PY_TIMEOUT=100 py311 .gpu/scripts/eos_diag5.py p$i $W/refs medium,large 8000000 auto 2>&1 | grep -v "^\[run\]"
  echo "end p$i $(date +%H:%M:%S.%N)"
done | tee $OUT/diag.txt
kill $SMI
awk -F', ' '{print $2, $3, $4}' $OUT/clocks.csv | uniq -c | head -60
