#!/usr/bin/env bash
# The loop programs of issue 21 on the GPU machine, from the repository root with .gpu/ (from
# prepare.sh) carried along:
#   run(command="bash benchmarks/gpu/run_loops.sh", carry=[".gpu"])    # writes $OUT/loops/
#   bash benchmarks/gpu/run_loops.sh DIR                                # writes DIR/
# benchmarks/dropin/ lu, lu_inner, cholesky, gram_schmidt, gauss_seidel, floyd_warshall,
# nussinov, durbin, advection_diffusion and element_writes: Python loops of small operations as
# numpy users write them, at their large sizes (a few hundred rows), on numpy, vkarray, CuPy
# and PyTorch (eager: torch_shim), each call's time also divided by the numpy-level operations
# it issues (us/op) and by its Python-loop iterations (us/iteration), with vkarray's kernels
# per call. PEER_LIBS=cupy,torch,jax adds eager JAX where a program writes no array in place
# (floyd_warshall). Medians of RUNS (default 5) synchronized calls after a checked call, a
# counted call and 0.3 s of warm-up (numpy: NUMPY_RUNS, default 5). Writes DIR/table.md,
# DIR/results.json and DIR/loops.log (PLOTS=1: the plots too). SIZES=medium,large (say) runs
# more sizes; time limits NUMPY_S (default 60), PEERS_S (240), VK_S (240) seconds.
# PROGRAMS=a,b runs fewer. LOCAL=1 SIZES=small checks the script on a machine with no GPU
# (see dropin_group.sh).
set -uo pipefail
source benchmarks/gpu/common.sh
source benchmarks/gpu/dropin_group.sh
group_setup "${1:-${OUT:-gpu-results}/loops}"
SIZES=${SIZES:-large}
RUNS=${RUNS:-5}
NUMPY_RUNS=${NUMPY_RUNS:-5}
NUMPY_S=${NUMPY_S:-60} PEERS_S=${PEERS_S:-240} VK_S=${VK_S:-240}
dropin_group loops "${PROGRAMS:-loops}" "${PEER_LIBS:-cupy,torch}"
status=$?
# The submission policy (device/stream.cc) against one submission per read
# (VKA_SUBMIT_EVERY=0): vkarray alone on the loops whose time is mostly tiny dispatches.
if [ "${SUBMIT_POLICY:-1}" = 1 ]; then
  for every in 0 ""; do
    VKA_SUBMIT_EVERY=$every PY_TIMEOUT=${VK_S} py311 benchmarks/run.py --libs vkarray \
      --programs "${POLICY_PROGRAMS:-element_writes,lu_inner,gauss_seidel}" --sizes "$SIZES" \
      --refs "$WORK/refs-loops" --no-progress --runs "$RUNS" \
      > "$OUT/submit-every-${every:-policy}.txt" 2>&1 || status=1
  done
  tail -n 12 "$OUT"/submit-every-*.txt
fi
exit $status
