#!/usr/bin/env bash
# Experiment for Triton `split` at the widest rows (issue 16's backward >= 90% at 524288
# and 1048576 columns, issue 17's forward >= 93%), one device call of about three
# minutes, from the repository root on a GPU machine (results in $OUT):
#
#   bash benchmarks/tuning/split_fine_chunks_experiment.sh
#
# The question: do rows cut into more chunks than the GPU has SMs, several programs of
# a group per SM (SPLIT_CHUNKS_PER_SM, SPLIT_BWD_CHUNKS_PER_SM past 1), beat the wider
# chunks of one program per SM that the plans use today? Why ask: on the H100 (session
# 31, benchmarks/h100_2026-11-25/triton_wide_auto_7257302.md) the backward gives 96% at
# 524288 (fp32: 128 chunks of 4096 values at 4 warps, 3 programs per SM) and 84% at
# 1048576 (128 chunks of 8192 at 8 warps: 174 registers, 1 program per SM); cut as
# 524288 is, 1048576 takes 256 chunks at 3 programs per SM (165-167 registers, Triton
# 3.6, sm_90), which hold 96 KiB of y and dy per SM against 64 today. The forward's fp32
# 1048576 (85%: 128 chunks of 8192, 2 per SM) would take 256 of 4096 at 4 per SM.
#
# How: benchmarks/tuning/triton_split_geometry.py, one process, `split` as planned
# (`base`) against the finer cut (`fine`), each figure with its plan's SPLIT, CHUNK,
# registers and programs per SM (the plan widens the chunks again where a group would
# not be resident, so a `fine` row may show the base geometry); every output checked
# roughly against float64 (the CLI's full check is the record's).
set -uo pipefail
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=${TORCH_EXTENSIONS_DIR:-/tmp/torch_ext}
out=${OUT:-benchmarks/out}
mkdir -p "$out"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
rev=$(git rev-parse --short HEAD 2>/dev/null || cat .device/commit 2>/dev/null || echo unknown)
echo "split_fine_chunks_experiment at $rev on $gpu $(date -u +%FT%TZ)"
for op in softmax_backward log_softmax_backward softmax log_softmax; do
  case $op in
    *backward) fine='fine:SPLIT_BWD_CHUNKS_PER_SM=4' ;;
    *) fine='fine:SPLIT_CHUNKS_PER_SM=4' ;;
  esac
  timeout 150 python3 benchmarks/tuning/triton_split_geometry.py --op "$op" --dtype fp32,bf16,fp16 \
      --cols 524288,1048576 --config base: --config "$fine" 2>&1 | grep -v Warning \
    | tee "$out/split_fine_chunks_${op}_$rev.txt"
done
