#!/usr/bin/env bash
# Whether 16-bit forward rows of 64-256 KB run closer to the copy on an H200 in
# block_hybrid CTAs of 512 threads, two per SM, than in the one 1024-thread CTA per SM
# that `auto` gives them now (cluster_regs to 128 KB rows, block_hybrid to ~290 KB). One
# device call of about four minutes, from the repository root on a GPU machine (results
# in $OUT, named by GPU and commit):
#
#   bash benchmarks/tuning/hybrid_small_experiment.sh
#
# Why ask: with one CTA per SM a row's phases run one after the other on its SM (every
# load lands, the reductions, then the output's exps and stores), and on the H200 the
# compute between them costs more per byte than on the H100 (1.4x the DRAM bandwidth per
# SM, the same SMs and clocks). A 16-bit row has twice the values, hence twice the exps,
# of an fp32 row of the same bytes: on the H200 (2026-11-26, benchmarks/
# h200_2026-11-26c/) CUDA `auto` holds fp32 65536 (256 KB) at 94.5% of copy and bf16
# 131072 (256 KB) at 89.8, and the log-softmax (one exp per value fewer) bf16 131072 /
# 262144 at 93.1 / 85.1 where softmax holds 89.8 / 81.0. Two CTAs per SM overlap one's
# compute with the other's loads. The 16-bit cluster shape of block_hybrid (512 threads,
# 32 KB of the row in registers and up to ~112 KB in shared memory, two per SM) serves
# rows from 288 KB; it was never measured on narrower rows.
# Copies of the package, differing from the checkout as ALTS names them (default
# "s1 s1c"): s1 plans 16-bit block_hybrid rows that one such 512-thread CTA holds (up to
# 144 KB: bf16 65536) as one per row, two per SM; s1c also gives the wider 16-bit rows
# that one 1024-thread CTA holds (bf16 131072) to a cluster of the 512-thread CTAs
# instead. The checkout's `auto` and block_hybrid run beside the copies' block_hybrid.
# Every result is checked against float64, as always.
# Runs so far: at 39eb6be on an H200 (benchmarks/h200_2026-11-26c/hybrid_small_*): s1 won
# at 65536 (bf16 / fp16 softmax 93.0 / 92.5 -> 94.6 / 96.0), lost at 32768 to cluster_regs
# (82.6 against 97.1); s1c lost at 131072 (84.6 against 89.9). s1 is the package's rule 1a
# since 24b4ade, on GPUs of 30 GB/s or more of DRAM bandwidth per SM since bae34ff (the
# H100 lost 0.2-1.0 with it: h100_2026-11-26c/pair_*_24b4ade*).
source "$(dirname "$0")/experiment_env.sh"
alt=${ALT:-/tmp/hybrid_small_alt}
alts=${ALTS:-s1 s1c}
cols=${COLS:-32768,65536,131072}
dtypes=${DTYPES:-bf16,fp16}
ops=${OPS:-softmax,log_softmax}
echo "hybrid_small_experiment at $rev on $gpu $(date -u +%FT%TZ): $alts"
rm -rf "$alt"
for v in $alts; do
  mkdir -p "$alt/$v" && cp -r comparison kernels_cuda kernels_triton "$alt/$v"/
  python3 - "$alt/$v/kernels_cuda/csrc/softmax/block_hybrid.cuh" "$v" <<'PY' || exit 1
import sys
path, variant = sys.argv[1:]
s = open(path).read()
one = "  plan.smem_bytes = slice_smem(1, kHybridThreads);\n"
assert s.count(one) == 1, "block_hybrid.cuh changed: update this experiment's patch"
small = """  if (shapes.size() > 1) {
    // The experiment: the first shape (16-bit: 512 threads, two per SM) one per row.
    const HybridShape& small = *shapes.begin();
    const int64_t smem = slice_smem(1, small.threads);
    const int64_t limit = opt_in_smem(small.fn, p.device, false);
    if (smem <= limit && resident_blocks(small.fn, p.device, small.threads, smem) >= small.min_resident) {
      plan.smem_limit = limit;
      one_shot_grid(plan, p.device, small.fn, small.threads, std::min(plan_rows(p), kMaxGridBlocks), smem);
      return plan;
    }
SKIP  }
"""
skip = "    plan.status = PlanStatus::row_exceeds_smem;\n    goto clusters;\n" if variant == "s1c" else ""
s = s.replace(one, small.replace("SKIP", skip) + one)
if variant == "s1c":
    tail = "  plan.status = PlanStatus::row_exceeds_smem;\n  if (max_cluster < 2) return plan;\n"
    assert s.count(tail) == 1, "block_hybrid.cuh changed: update this experiment's patch"
    s = s.replace(tail, tail.replace("  if (max_cluster", "clusters:\n  if (max_cluster"))
open(path, "w").write(s)
PY
done
trees="$root"
for v in $alts; do trees="$trees $alt/$v"; done
build_trees $trees
# Each copy runs from its own directory: `python -m` and `python -` put the working
# directory first on sys.path, ahead of PYTHONPATH.
for tree in $trees; do
  cd "$tree" && PYTHONPATH=$tree python3 - "$cols" <<'PY'
import sys, torch, kernels_cuda.softmax as s
for dt in (torch.bfloat16, torch.float16):
    for cols in map(int, sys.argv[1].split(",")):
        x = torch.randn(2, cols, device="cuda").to(dt)
        p, a = s.plan(x, "softmax", "block_hybrid"), s.plan(x, "softmax", "auto")
        print(f"{s.__file__.split('/kernels_cuda')[0][-22:]:22} {str(dt)[6:]:8} {cols:7} auto {a['variant']:12}"
              f" | block_hybrid {p['status']} k={p['cluster_size']} smem={p['smem_bytes']} threads={p['threads']}"
              f" resident/SM={p['resident_per_sm']}")
PY
done
cd "$root"
B="--min-bytes 1GiB --quiet --format csv --op $ops --pass fwd --backends cuda --cols $cols --dtype $dtypes"
labels=""
for tree in $trees; do
  name=$([ "$tree" = "$root" ] && echo base || basename "$tree")
  variants=$([ "$tree" = "$root" ] && echo auto,block_hybrid || echo block_hybrid)
  cd "$tree" && PYTHONPATH=$tree timeout 200 python3 -m comparison $B --variants $variants \
    --output "$out/hybrid_small_${tag}_${rev}_$name.csv" | tail -1
  cd "$root"
  labels="$labels $name"
done
python3 benchmarks/tuning/side_by_side.py "$out" "hybrid_small_${tag}_$rev" $labels
