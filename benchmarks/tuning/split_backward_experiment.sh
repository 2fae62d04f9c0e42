#!/usr/bin/env bash
# Whether the CUDA backward's `split` (chunks of y and dy in the registers of persistent
# CTAs that exchange their sums through global memory, the next row's chunks in flight
# through the wait: kernels_cuda/csrc/softmax/split.cuh) serves the widest rows better
# than what `auto` runs there (cluster_regs' clusters, split_smem from 1 MB rows of y).
# One device call of about five minutes, from the repository root on a GPU machine
# (results in $OUT, named by GPU and commit; COLS, DTYPES and VARIANTS choose the sweep):
#
#   bash benchmarks/tuning/split_backward_experiment.sh
#
# Why ask: Triton's split backward (the same design) reached 99.4 / 99.5 % of copy at
# fp32 131072 / 262144 on an H100 where CUDA `auto` gave 96.1 / 92.3 (the H100 backward
# record at 778ead4), and 95-96 at 524288 where CUDA gave 77.
# Runs so far: at 689e5c9 (H100) the kernel had two forms, the next row's chunks
# requested before the row's sum (early) or after its part is published (late), each
# forced in a copy of the package (a patch of that commit): late won at every width and
# dtype (fp32 131072 98.3 against 90.6), the only form since; 16-bit chunks then held 32
# values (64 B) of each tensor per thread and lost to auto's choices (bf16 262144 94.2
# against 95.7), since 128 B as fp32's.
source "$(dirname "$0")/experiment_env.sh"
echo "split_backward_experiment at $rev on $gpu $(date -u +%FT%TZ)"
cols=${COLS:-65536,131072,262144,524288,1048576}
PYTHONPATH="$root" python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
# The plans (chunks, threads, CTAs per SM) of split beside auto's choice.
PYTHONPATH=$root python3 - "$cols" <<'PY'
import sys, torch, kernels_cuda.softmax as s
for dt in (torch.float32, torch.bfloat16, torch.float16):
    for c in map(int, sys.argv[1].split(",")):
        y = torch.empty(2, c, device="cuda", dtype=dt)
        p = s.plan(y, "softmax_backward", "split", dy=y)
        a = s.plan(y, "softmax_backward", "auto", dy=y)
        print(f"{str(dt)[6:]:8} {c:8} auto {a['variant']:12} | split {p['status']} chunks={p['split']} "
              f"threads={p['threads']} values={p['cols_per_thread']} resident/SM={p['resident_per_sm']} "
              f"blocks={p['blocks']}")
PY
timeout 400 python3 -m comparison --cols "$cols" --dtype "${DTYPES:-fp32,bf16,fp16}" --op softmax,log_softmax \
  --pass bwd --min-bytes 1GiB --quiet --format markdown --layout long --backends cuda --variants "${VARIANTS:-auto,split}" \
  --output "$out/split_backward_${tag}_$rev.md" 2>&1 | tail -1
for f in "$out/split_backward_${tag}_$rev.md"; do
  echo "== $(basename "$f")"
  grep -E "^\| cuda|^###" "$f" | awk -F'|' '/###/ {printf "\n%s:", $0; next} {printf " %s %s %s;", $2, $4, $7} END {print ""}'
done
