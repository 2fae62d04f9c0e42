#!/usr/bin/env bash
# Whether the CUDA backward's one-CTA cluster_regs shape (auto's rule 1 up to fp32 8192 /
# 16-bit 16384 columns: 512 threads, at least kGradRegsMinBytes = 32 bytes of y and of
# dy per thread) keeps too few 16-bit bytes in flight on an H200: the bf16 backward at
# 8192 columns is 95.5% of copy there against Triton's 101.9 and fp32's 102.5 (the
# record of 2026-11-26, benchmarks/h200/backward-fp32-bf16-cols128-262144.md), while a
# bf16 row of 8192 gives each thread only 32 B of each tensor (two 16-byte packs; fp32:
# 64 B). The forward's 16-bit rows start at 64 B per thread (kRegsMinBytes16). One device
# call of about three minutes, from the repository root on a GPU machine:
#
#   bash benchmarks/tuning/grad_regs_bytes_experiment.sh
#
# The copy b64 starts 16-bit rows at 64 bytes of each tensor per thread (so a bf16 row of
# 8192 takes 256 threads); the checkout and the copy run `auto` and cluster_regs, softmax
# backward, bf16 and fp16 at COLS (default 2048-32768), checked against float64.
# Run at 911ec38 on an H200 (benchmarks/h200_2026-11-26/grad_regs_*_911ec38.md): b64 won
# at 8192 (bf16 96.1 -> 102.4) and lost half a point at 2048 / 4096, so 097a39f adopted it
# for rows of more than 8 KB only (kGradRegsMinBytes16). Since then the copy is b32: that
# rule off (every row from kGradRegsMinBytes), the checkout being the rule.
source "$(dirname "$0")/experiment_env.sh"
alt=${ALT:-/tmp/grad_regs_alt}
cols=${COLS:-2048,4096,8192,16384,32768}
echo "grad_regs_bytes_experiment at $rev on $gpu $(date -u +%FT%TZ)"
rm -rf "$alt"
mkdir -p "$alt/b32" && cp -r comparison kernels_cuda kernels_triton "$alt/b32"/
python3 - "$alt/b32/kernels_cuda/csrc/softmax/cluster_regs.cuh" <<'PY' || exit 1
import sys
path = sys.argv[1]
s = open(path).read()
line = "const int min_cta = fills_cta ? std::min(kGradRegsMinBytes16, cap_two) : min_two;"
assert line in s, "cluster_regs.cuh changed: update this experiment's patch"
open(path, "w").write(s.replace(line, "const int min_cta = min_two;"))
PY
build_trees "$root" "$alt/b32"
B="--min-bytes 1GiB --quiet --format markdown --layout long --op softmax --pass bwd --backends cuda --variants auto,cluster_regs"
for tree in "$root" "$alt/b32"; do
  name=$([ "$tree" = "$root" ] && echo checkout || echo b32)
  cd "$tree" && PYTHONPATH=$tree timeout 150 python3 -m comparison --cols $cols --dtype bf16,fp16 $B \
    --output "$out/grad_regs_${name}_${tag}_$rev.md" | tail -1
  cd "$root"
done
for f in "$out"/grad_regs_*.md; do
  echo "== $(basename "$f")"
  grep -E "^(###|\| cuda/)" "$f" | awk -F'|' '/^###/ {print; next} {printf "%s %s %s %s\n", $2, $4, $7, $10}'
done
