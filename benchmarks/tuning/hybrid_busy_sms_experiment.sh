#!/usr/bin/env bash
# Whether block_hybrid's widest rows run faster over the cluster size that keeps the most
# SMs busy than over the smallest size whose slices fit (the planner's choice now). One
# device call of about four minutes, from the repository root on a GPU machine (results
# in $OUT, named by GPU and commit):
#
#   bash benchmarks/tuning/hybrid_busy_sms_experiment.sh
#
# Why ask: at 1 GiB the H200's forward at 1048576 columns holds 76-77% of copy (fp32 and
# bf16) where 524288 holds 88-89 (benchmarks/h200_2026-11-27/wide_standing_fwd_*). The
# plans printed in session 44 (benchmarks/h200_2026-11-27/comparisons.txt, call 8):
# fp32 1048576 runs 15 1024-thread CTAs per row with 7 clusters resident at once (105 of
# 132 SMs), bf16 15 512-thread CTAs two per SM with 14 resident (105 SMs), and the
# backward's bf16 1048576 15 CTAs, 7 resident: a fifth of the SMs idle, whatever the
# kernel does. A cluster of 16 may fit as many clusters at once (the GPCs' SMs bound
# them), keeping 112 SMs busy.
# The copy "busy" tries every size from the smallest that fits to the most its shape
# allows and keeps the one with the most CTAs resident at once (K x active clusters; a
# tie keeps the smaller K). The checkout's `auto` runs beside the copy's `auto`, forward
# and backward, at COLS (default 524288,1048576; fp32, bf16), and both trees' plans are
# printed. Every result is checked against float64, as always.
# Runs so far: H200, 2026-11-27, session 45 call 1 at 18c97af (benchmarks/h200_2026-11-27b/
# hybrid_busy_*): forward fp32 / bf16 1048576 76.9 / 76.1 -> 81.2 / 82.1 (16 CTAs, the
# same clusters resident), backward bf16 1048576 82.8 -> 83.8, 524288 within 0.2. Adopted
# (plan_hybrid_block keeps the busiest size), so the patch below no longer applies.
source "$(dirname "$0")/experiment_env.sh"
alt=${ALT:-/tmp/hybrid_busy_sms_alt}
cols=${COLS:-524288,1048576}
dtypes=${DTYPES:-fp32,bf16}
echo "hybrid_busy_sms_experiment at $rev on $gpu $(date -u +%FT%TZ)"
rm -rf "$alt" && mkdir -p "$alt/busy" && cp -r comparison kernels_cuda kernels_triton pyproject.toml "$alt/busy"/
python3 - "$alt/busy/kernels_cuda/csrc/softmax/block_hybrid.cuh" <<'PY' || exit 1
import sys
path = sys.argv[1]
s = open(path).read()
a = """      if (plan.active_clusters == 0) continue;
      plan.status = PlanStatus::ok;
      one_shot_grid(plan, p.device, shape.fn, shape.threads, k * std::min(plan_rows(p), kMaxGridBlocks / k), smem);
      return plan;
    }
  }"""
b = """      if (plan.active_clusters == 0) continue;
      if (plan.status == PlanStatus::ok && k * plan.active_clusters <= best.cluster_size * best.active_clusters) continue;
      plan.status = PlanStatus::ok;
      one_shot_grid(plan, p.device, shape.fn, shape.threads, k * std::min(plan_rows(p), kMaxGridBlocks / k), smem);
      best = plan;
    }
    if (best.status == PlanStatus::ok) return best;
  }"""
c = """  bool fits = false;
  for (const HybridShape& shape : shapes) {"""
d = """  bool fits = false;
  Plan best = plan;
  for (const HybridShape& shape : shapes) {"""
assert s.count(a) == 1 and s.count(c) == 1, "block_hybrid.cuh changed: update this experiment's patch"
s = s.replace(a, b).replace(c, d)
open(path, "w").write(s)
PY
build_trees "$root" "$alt/busy"
compare_trees "hybrid_busy_${tag}_$rev" fwd,bwd 1 \
  "--cols $cols --dtype $dtypes --op softmax --backends cuda --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$alt/busy" 2>&1 | tail -12
for tree in "$root" "$alt/busy"; do
  (cd "$tree" && PYTHONPATH=$tree python3 - "$cols" "$(basename "$tree")" <<'PY'
import sys, torch, kernels_cuda.softmax as s
for dt in (torch.float32, torch.bfloat16):
    for cols in map(int, sys.argv[1].split(",")):
        x = torch.empty((1 << 28) // cols, cols, device="cuda", dtype=dt)
        for op in ("softmax", "softmax_backward"):
            p = s.plan(x, op, "auto", dy=x) if op.endswith("backward") else s.plan(x, op, "auto")
            print(f"{sys.argv[2]:8} {op:16} {str(dt)[6:]:8} {cols:7} {p['variant']} k={p['cluster_size']} "
                  f"threads={p['threads']} active={p['active_clusters']} resident_per_sm={p['resident_per_sm']}")
PY
  )
done
