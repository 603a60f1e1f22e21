#!/usr/bin/env bash
# The fusion programs of issue 20 on the GPU machine, from the repository root with .gpu/ (from
# prepare.sh) carried along:
#   run(command="bash benchmarks/gpu/run_fusion.sh", carry=[".gpu"])   # writes $OUT/fusion/
#   bash benchmarks/gpu/run_fusion.sh DIR                               # writes DIR/
# benchmarks/dropin/ seawater_eos (the 55-term TEOS-10 polynomial: ~280 operations, 4M and 16M
# elements) and sliced_stencil (~100 statements of sliced stencils, 1M and 8M cells), and the
# micro programs horner60 (2^24 elements at large), small_op_chain and zero_d_accumulate, at
# their medium and large sizes, on:
#   numpy (the reference; the machine's numpy 2, one core for elementwise work),
#   vkarray (its kernels per call in the table),
#   JAX with 64-bit types: jax.jit of the whole program where the program is a pure function
#     (seawater_eos, sliced_stencil, horner60: "jax (jit)" in the table), eager jax.numpy
#     otherwise ("jax"),
#   PyTorch: torch.compile (TorchInductor) of the same programs ("torch-compile
#     (torch.compile)", or "torch-compile (eager (torch.compile failed: ...))" where it could
#     not compile one), and eager PyTorch ("torch"),
#   CuPy, eager.
# Medians of RUNS (default 7) synchronized calls after a checked call, a counted call and 0.3 s
# of warm-up (numpy: NUMPY_RUNS, default 3, no warm-up). Writes DIR/table.md (markdown: ms,
# speedup over numpy, vkarray's kernels per call against numpy's operations, time per operation
# and per iteration of the two micro loops), DIR/results.json and DIR/fusion.log; PLOTS=1 adds
# speedup.png and kernels.png. SIZES=large (say) runs one size; the steps' time limits are
# NUMPY_S (default 150), PEERS_S (240) and VK_S (150) seconds, within a device call's 10 minutes
# with the setup (a step cut short keeps what it measured; torch.compile's compiles are the
# slowest part of PEERS_S: PEER_LIBS=torch-compile in a call of its own splits them off).
# PROGRAMS=a,b runs fewer. LOCAL=1 SIZES=small checks the script on a machine with no GPU
# (see dropin_group.sh).
set -uo pipefail
source benchmarks/gpu/common.sh
source benchmarks/gpu/dropin_group.sh
group_setup "${1:-${OUT:-gpu-results}/fusion}"
SIZES=${SIZES:-medium,large}
RUNS=${RUNS:-7}
NUMPY_RUNS=${NUMPY_RUNS:-3}
NUMPY_S=${NUMPY_S:-150} PEERS_S=${PEERS_S:-240} VK_S=${VK_S:-150}
dropin_group fusion "${PROGRAMS:-fusion}" "${PEER_LIBS:-jax,torch-compile,torch,cupy}"
