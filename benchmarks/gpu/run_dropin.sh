#!/usr/bin/env bash
# The drop-in numpy programs (benchmarks/dropin/) and the C++ microbenchmarks on the GPU
# machine, from the repository root with .gpu/ (from prepare.sh) carried along:
#   run(command="bash benchmarks/gpu/run_dropin.sh", carry=[".gpu"])
# numpy, CuPy and PyTorch run under the machine's python3 (its numpy has an optimized,
# multithreaded BLAS; the staged Debian numpy links the unoptimized reference BLAS, which would
# make numpy's matrix products look many times slower than they are), vkarray under Debian's
# Python 3.11 (py311, where the staged vkarray imports); numpy's inputs and results pass from
# the first to the second through $WORK/refs. $OUT receives table.md, results.json,
# speedup.png, kernels.png and dropin.log. It runs the 22 realistic programs (PROGRAMS=suite;
# the fusion and loop programs have run_fusion.sh and run_loops.sh). SIZES=small,medium (say)
# runs fewer sizes; RUNS sets the timed runs (default 5). Each step has a time limit, so that
# what was measured comes back within the device call's 10 minutes (the runs save their JSON
# after every measurement): PEERS_S (numpy, CuPy, PyTorch; default 240), VK_S (vkarray; 150),
# MICRO_S (each microbenchmark; 20).
set -uo pipefail
source benchmarks/gpu/common.sh
gpu_setup
install_python311
SIZES=${SIZES:-small,medium,large}
RUNS=${RUNS:-5}
export VKA_CACHE_DIR=$WORK/vka-cache
log=$OUT/dropin.log
status=0
common=(--programs "${PROGRAMS:-suite}" --sizes "$SIZES" --runs "$RUNS" --refs "$WORK/refs"
        --no-progress)
timeout "${PEERS_S:-240}" python3 benchmarks/run.py --libs numpy,cupy,torch "${common[@]}" \
  --json "$WORK/peers.json" > "$WORK/peers.txt" 2>&1 || status=1
PY_TIMEOUT=${VK_S:-150} py311 benchmarks/run.py --libs vkarray "${common[@]}" \
  --json "$WORK/vk.json" > "$WORK/vk.txt" 2>&1 || status=1
# The microbenchmarks and the merged outputs; plots need matplotlib, which the machine's python3
# may lack: then table.md and results.json come back alone, and the plots are made here with
#   benchmarks/run.py --merge results.json --out DIR
merge=(--merge "$WORK/vk.json" "$WORK/peers.json" --micro --micro-timeout "${MICRO_S:-20}"
       --bin .gpu/bin --out "$OUT")
if python3 -c 'import matplotlib' 2>/dev/null; then
  python3 benchmarks/run.py "${merge[@]}" > "$WORK/merge.txt" 2>&1 || status=1
else
  py311 benchmarks/run.py "${merge[@]}" > "$WORK/merge.txt" 2>&1 || status=1
fi
{
  cat "$WORK/gpu.txt"
  echo "== numpy, cupy, torch (python3)"; cat "$WORK/peers.txt"
  echo "== vkarray (py311)"; cat "$WORK/vk.txt"
  echo "== merge and microbenchmarks"; tail -50 "$WORK/merge.txt"
} > "$log"
grep -A3 'Geometric-mean' "$OUT/table.md"
exit $status
