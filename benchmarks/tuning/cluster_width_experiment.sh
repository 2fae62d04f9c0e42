#!/usr/bin/env bash
# Whether the CUDA forward's wide rows (32-512 KB) run closer to the copy on a cluster of
# small cluster_regs CTAs than on what `auto` runs there now (one 1024-thread CTA of
# 128 B per thread to 128 KB, block_hybrid past that). One device call of about four
# minutes, from the repository root on a GPU machine (results in $OUT, named by GPU
# and commit):
#
#   RUNS="t512:2 t512:4 t256:4 t256:8" COLS=65536,131072 DTYPES=bf16 \
#     bash benchmarks/tuning/cluster_width_experiment.sh
#
# Why ask: on the H200 (2026-11-26, benchmarks/h200_2026-11-26b/) `auto` holds 92.6 /
# 89.7 / 80.6% of copy at bf16 65536 / 131072 / 262144 where Quack's forward held 99.0 /
# 98.3 / 94.2 (2026-11-23). Its kernel (quack/softmax.py, read 2026-11-26) spreads a
# 16-bit row of 65536 over a cluster of 4 CTAs of 256 threads, 32 KB of the row each
# (fp32: 2 per row of 65536): small CTAs, several of them resident per SM, each of
# another cluster, so one CTA's wait for its peers overlaps another's loads. Our
# one-CTA shapes hold the SM alone; cluster_regs' clusters were measured at 2 CTAs of
# 512 threads (bf16 65536 88.4 against one CTA's 95.2, H200, 2026-11-21).
# RUNS lists copy:K pairs. The copy t512 is the checkout with cluster_regs' plan taking
# at least K CTAs per row (SK_MIN_CLUSTER, read at plan time); t256 also caps its CTAs
# at 256 threads (kRegsMaxThreads), so a 16-bit CTA holds 32 KB at 128 B per thread, as
# Quack's. A copy whose name ends in "nox" also skips the cluster's exchange of (max,
# sum) pairs (each CTA normalises by its own slice: WRONG results, flagged as such by the
# float64 check; timing only), to tell the exchange's cost from the clusters' own. `auto`
# of the checkout is measured beside them. Every result is checked against float64, as
# always.
source "$(dirname "$0")/experiment_env.sh"
alt=${ALT:-/tmp/cluster_width_alt}
runs=${RUNS:-t512:2 t512:4 t256:4 t256:8}
cols=${COLS:-65536,131072,262144}
dtypes=${DTYPES:-fp32,bf16}
ops=${OPS:-softmax}
echo "cluster_width_experiment at $rev on $gpu $(date -u +%FT%TZ): $runs"
rm -rf "$alt"
copies=$(for r in $runs; do echo "${r%%:*}"; done | sort -u)
for v in $copies; do
  mkdir -p "$alt/$v" && cp -r comparison kernels_cuda kernels_triton "$alt/$v"/
  python3 - "$alt/$v/kernels_cuda/csrc/softmax/cluster_regs.cuh" "$v" <<'PY' || exit 1
import sys
path, variant = sys.argv[1:]
s = open(path).read()
head = "Plan plan_cluster_regs(const Problem& p, int min_cluster = 1) {\n"
threads = "constexpr int kRegsMaxThreads = 512;"
assert head in s and threads in s, "cluster_regs.cuh changed: update this experiment's patch"
s = s.replace(head, head + "  if (const char* k = std::getenv(\"SK_MIN_CLUSTER\")) min_cluster = std::max(min_cluster, std::atoi(k));\n")
s = s.replace("#include <cstdint>", "#include <cstdint>\n#include <cstdlib>", 1)
if variant.startswith("t256"):
    s = s.replace(threads, "constexpr int kRegsMaxThreads = 256;")
if variant.endswith("nox"):
    merge = "    acc = cluster_merge_pairs(cluster, exchange, acc);\n"
    assert merge in s, "cluster_regs.cuh changed: update this experiment's patch"
    s = s.replace(merge, "")
open(path, "w").write(s)
PY
done
build_trees $(for v in $copies; do echo "$alt/$v"; done)
B="--min-bytes 1GiB --quiet --format markdown --layout long --op $ops --pass fwd --backends cuda"
timeout 150 python3 -m comparison --cols $cols --dtype $dtypes $B --variants auto --output "$out/cluster_width_auto_${tag}_$rev.md" | tail -1
for r in $runs; do
  IFS=: read -r v k <<< "$r"
  cd "$alt/$v" && SK_MIN_CLUSTER=$k PYTHONPATH=$alt/$v timeout 150 python3 -m comparison --cols $cols --dtype $dtypes $B \
    --variants cluster_regs --output "$out/cluster_width_${v}_k${k}_${tag}_$rev.md" | tail -1
  cd "$root"
done
for f in "$out"/cluster_width_*.md; do
  echo "== $(basename "$f")"
  grep -E "^(###|\| cuda/)" "$f" | awk -F'|' '/^###/ {print; next} {printf "%s %s %s %s\n", $2, $4, $7, $10}'
done
