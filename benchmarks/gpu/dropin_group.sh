# Sourced by run_fusion.sh and run_loops.sh (after common.sh): one group of drop-in programs
# (benchmarks/dropin/) on numpy, the peer libraries and vkarray, in the conventions of
# run_dropin.sh: numpy and the peers (CuPy, PyTorch, JAX) under the machine's python3, vkarray
# under Debian's Python 3.11 (py311, where the staged .gpu/pkg/vkarray imports), on the same
# inputs and against the same numpy results (saved in $WORK/refs-NAME by the numpy run).
#
# LOCAL=1 checks a script on a machine with no GPU (lavapipe): no setup, and both Pythons are
# /usr/bin/python3 with vkarray from .bazel/bin/bindings/python (bazel build
# //bindings:python_package); libraries that are missing there are skipped and noted.

# usage: group_setup DIR: $OUT (=DIR) and $WORK made, the GPU machine set up (or not, LOCAL=1).
group_setup() {
  OUT=$1
  if [ "${LOCAL:-0}" = 1 ]; then
    WORK=${WORK:-/tmp/vka-local-work}
    mkdir -p "$OUT" "$WORK"
    echo "LOCAL=1: $(uname -n), no GPU setup" > "$WORK/gpu.txt"
    PEERS_PY=/usr/bin/python3
    py311() {
      local path=$PWD/.bazel/bin/bindings/python${PYTHONPATH:+:$PYTHONPATH}
      ${PY_TIMEOUT:+timeout $PY_TIMEOUT} env PYTHONPATH="$path" /usr/bin/python3 "$@"
    }
  else
    gpu_setup
    install_python311
    PEERS_PY=python3
  fi
  export VKA_CACHE_DIR=$WORK/vka-cache
}

# usage: dropin_group NAME PROGRAMS PEER_LIBS
# Runs PROGRAMS (comma-separated) at $SIZES: numpy alone first with $NUMPY_RUNS timed calls (at
# the GPU sizes one numpy call can take seconds) and no warm-up, then PEER_LIBS
# (comma-separated) and vkarray with $RUNS timed calls each after 0.3 s of untimed calls. Each
# step has a time limit (NUMPY_S, PEERS_S, VK_S seconds) and saves its JSON after every
# measurement, so a step cut short keeps what it measured. Merges the three into
# $OUT/table.md (with the time per operation and per loop iteration of the loop programs) and
# $OUT/results.json ($OUT/speedup.png and kernels.png too with PLOTS=1), the steps' output in
# $OUT/NAME.log. Returns 1 if a step failed or a result differed from numpy's.
dropin_group() {
  local name=$1 programs=$2 peers=$3 status=0
  local common=(--programs "$programs" --sizes "$SIZES" --refs "$WORK/refs-$name" --no-progress)
  PY_TIMEOUT=${NUMPY_S} timed "$PEERS_PY" benchmarks/run.py --libs numpy "${common[@]}" \
    --runs "$NUMPY_RUNS" --warmup 0 --json "$WORK/$name-numpy.json" \
    > "$WORK/$name-numpy.txt" 2>&1 || status=1
  PY_TIMEOUT=${PEERS_S} timed "$PEERS_PY" benchmarks/run.py --libs "$peers" "${common[@]}" \
    --runs "$RUNS" --json "$WORK/$name-peers.json" > "$WORK/$name-peers.txt" 2>&1 || status=1
  PY_TIMEOUT=${VK_S} py311 benchmarks/run.py --libs vkarray "${common[@]}" --runs "$RUNS" \
    --json "$WORK/$name-vk.json" > "$WORK/$name-vk.txt" 2>&1 || status=1
  local merge=(--merge "$WORK/$name-numpy.json" "$WORK/$name-vk.json" "$WORK/$name-peers.json"
               --out "$OUT")
  [ "${PLOTS:-0}" = 1 ] || merge+=(--no-plots)
  # exit status 1 there means a result differed (the table says which), not a failed merge
  "$PEERS_PY" benchmarks/run.py "${merge[@]}" > "$WORK/$name-merge.txt" 2>&1 || status=1
  {
    cat "$WORK/gpu.txt"
    for step in numpy peers vk merge; do
      echo "== $name: $step"
      tail -80 "$WORK/$name-$step.txt"
    done
  } > "$OUT/$name.log"
  [ -s "$OUT/table.md" ] && cat "$OUT/table.md"
  return $status
}

# usage: PY_TIMEOUT=SECONDS timed PROGRAM ARGS...: PROGRAM run with a time limit.
timed() {
  local py=$1
  shift
  ${PY_TIMEOUT:+timeout $PY_TIMEOUT} "$py" "$@"
}
