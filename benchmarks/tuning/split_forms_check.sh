#!/usr/bin/env bash
# Triton `split`'s form rules on this GPU, one device call of about seven minutes, from
# the repository root on a GPU machine (results in $OUT, named by GPU and commit):
#
#   bash benchmarks/tuning/split_forms_check.sh
#
# The rules were tuned on an H100 (sessions 30-32, benchmarks/h100_2026-11-25/): where the
# next row's loads go (NEXT_EARLY: SPLIT_[BWD_]NEXT_LATE_MIN_SPLIT, a tie-break after
# residency) and which rows hold no chunk across the exchange (REREAD:
# SPLIT_BWD_REREAD_VALUES, log-softmax's backward at 131072-1048576). The first
# criterion, programs per SM, comes from ptxas's registers and is the same on every
# sm_90 GPU of 132 SMs; the tie-break and REREAD are latency and L2 trades, which a GPU
# with more DRAM bandwidth per SM (the H200: about 4.8 against 3.35 TB/s) or another L2
# may settle otherwise. Each rule's plan against its alternatives, forced
# (benchmarks/tuning/triton_split_geometry.py, 1 GiB, % of the same run's copy, with
# registers and programs per SM), then the CLI record of triton `auto` at the widths
# the rules touch.
set -uo pipefail
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=${TORCH_EXTENSIONS_DIR:-/tmp/torch_ext}
out=${OUT:-benchmarks/out}
mkdir -p "$out"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
tag=$(echo "$gpu" | grep -q H200 && echo h200 || echo "$gpu" | tr -c 'A-Za-z0-9\n' '_' | tr 'A-Z' 'a-z')
rev=$(cat .device/commit 2>/dev/null || git rev-parse --short HEAD 2>/dev/null || echo unknown)
echo "split_forms_check at $rev on $gpu $(date -u +%FT%TZ)"
geometry() {  # op, dtypes, widths, configs...
  local op=$1 dtypes=$2 cols=$3; shift 3
  timeout 120 python3 benchmarks/tuning/triton_split_geometry.py --op "$op" --dtype "$dtypes" --cols "$cols" "$@" \
    2>&1 | grep -v Warning | tee "$out/split_forms_check_${op}_${tag}_$rev.txt" \
    | awk '/^(fp32|bf16|fp16)/ {printf "%s %s %s %s r%s p%s;", $1,$2,$3,$4,$12,$16} END {print ""}'
}
forms=(--config plan: --config early:NEXT_EARLY=True --config late:NEXT_EARLY=False)
geometry softmax fp32,bf16 262144,524288,1048576 "${forms[@]}"
geometry softmax_backward fp32,bf16 65536,262144,1048576 "${forms[@]}"
geometry log_softmax_backward fp32,bf16,fp16 65536,131072,262144,524288,1048576 --config plan: \
  --config 'held:REREAD=None' --config 'reread:REREAD=(1, 1 << 30)'
timeout 240 python3 -m comparison --cols 65536,131072,262144,524288,1048576 --dtype fp32,bf16 \
  --op softmax,log_softmax --pass fwd,bwd --min-bytes 1GiB --quiet --format markdown --layout long \
  --backends triton --variants auto --output "$out/split_forms_check_auto_${tag}_$rev.md" 2>&1 | tail -1
