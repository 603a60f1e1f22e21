#!/usr/bin/env bash
# Contracted multiply-adds (VKA_FMA=1) on the GPU machine, from the repository root with .gpu/
# (from prepare.sh) carried along:
#   run(command="bash benchmarks/gpu/run_fma.sh", carry=[".gpu"])    # writes $OUT/fma/
#   bash benchmarks/gpu/run_fma.sh DIR                                # writes DIR/
# benchmarks/dropin/ horner60 (60 multiply-adds an element, float64) and seawater_eos (the
# 55-term polynomial equation of state) at their medium and large sizes: vkarray and vk.jit
# with every op rounded as numpy's (the default) and with VKA_FMA=1, against JAX's jit (which
# contracts), each library in a process of its own, numpy first for the references; then the
# kernels' GPU time each way (benchmarks/profile_program.py). Medians of RUNS (default 9)
# synchronized calls after a checked call, a counted call and 0.3 s of warm-up. Writes
# DIR/table.md, DIR/results.json, DIR/profile-*.txt and DIR/fma.log. PROGRAMS=a,b and
# SIZES=... run fewer. LOCAL=1 SIZES=small checks the script on a machine with no GPU (JAX
# skipped where it is missing; see dropin_group.sh).
set -uo pipefail
source benchmarks/gpu/common.sh
source benchmarks/gpu/dropin_group.sh
group_setup "${1:-${OUT:-gpu-results}/fma}"
SIZES=${SIZES:-medium,large}
RUNS=${RUNS:-9}
PROGRAMS=${PROGRAMS:-horner60,seawater_eos}
common=(--programs "$PROGRAMS" --sizes "$SIZES" --refs "$WORK/refs-fma" --no-progress)
status=0
{
  timed "$PEERS_PY" benchmarks/run.py --libs numpy "${common[@]}" --runs 1 --warmup 0 \
    --json "$WORK/fma-numpy.json" || status=1
  timed "$PEERS_PY" benchmarks/run.py --libs jax "${common[@]}" --runs "$RUNS" \
    --json "$WORK/fma-jax.json" || status=1
  for fma in 0 1; do
    VKA_FMA=$fma PY_TIMEOUT=200 py311 benchmarks/run.py --libs vkarray,vkarray-jit "${common[@]}" \
      --runs "$RUNS" --json "$WORK/fma-vk-$fma.json" || status=1
    IFS=, read -ra progs <<< "$PROGRAMS"
    IFS=, read -ra sizes <<< "$SIZES"
    specs=()
    for p in "${progs[@]}"; do for s in "${sizes[@]}"; do specs+=("$p:$s"); done; done
    VKA_FMA=$fma PY_TIMEOUT=200 py311 benchmarks/profile_program.py "${specs[@]}" \
      > "$OUT/profile-fma$fma.txt" 2>&1 || status=1
  done
} > "$OUT/fma.log" 2>&1
# The merge names both vkarray runs alike: their figures are in fma-vk-0.json (numpy's
# rounding) and fma-vk-1.json (VKA_FMA=1), merged one at a time.
for fma in 0 1; do
  mkdir -p "$OUT/fma$fma"
  "$PEERS_PY" benchmarks/run.py --merge "$WORK/fma-numpy.json" "$WORK/fma-jax.json" \
    "$WORK/fma-vk-$fma.json" --out "$OUT/fma$fma" --no-plots >> "$OUT/fma.log" 2>&1 || status=1
  cp "$WORK/fma-vk-$fma.json" "$OUT/fma$fma/"
done
grep -h "^| \(horner60\|seawater_eos\)" "$OUT"/fma*/table.md
grep -h "^## " "$OUT"/profile-fma*.txt
exit $status
