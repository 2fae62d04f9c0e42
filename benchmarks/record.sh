#!/usr/bin/env bash
# Records the benchmark tables of benchmarks/ on the GPU machine, from the repo root:
#   bash benchmarks/record.sh tests     # every GPU test, log to $OUT/gpu_tests.log
#   bash benchmarks/record.sh softmax   # softmax ladder: every variant, 1 GiB inputs
#   bash benchmarks/record.sh others    # log_softmax and the reductions, 1 GiB inputs
#   bash benchmarks/record.sh auto      # softmax and log_softmax `auto` of every backend
#   bash benchmarks/record.sh triton    # the Triton softmax ladder (fused, online, split)
#   bash benchmarks/record.sh clusters  # the CUDA cluster rungs at the wide widths
# Each table is the CLI's own markdown output (device, date and command in its header).
set -uo pipefail
out=${OUT:-benchmarks/out}; mkdir -p "$out"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=${TORCH_EXTENSIONS_DIR:-/tmp/torch_ext}
WIDTHS=128,512,1024,2048,4096,8192,16384,32768,65536
cli() { python3 -m comparison --min-bytes 1GiB --format markdown "$@"; }
case "${1:?mode}" in
  tests)
    python3 -m pytest tests -q -rfEs -p no:cacheprovider 2>&1 | tee "$out/gpu_tests.log" | tail -40 ;;
  softmax)
    cli --cols $WIDTHS --dtype fp32,bf16 --op softmax --variants all --output "$out/softmax_ladder.md"
    cli --cols 131072,262144 --dtype fp32,bf16 --op softmax --backends torch,triton,cuda --output "$out/softmax_wide.md"
    tail -n 3 "$out"/softmax_*.md ;;
  others)
    cli --cols $WIDTHS --dtype fp32,bf16 --op log_softmax --output "$out/log_softmax.md"
    cli --cols $WIDTHS --dtype fp32,bf16 --op reduce_sum,reduce_max --variants all --output "$out/reductions.md"
    tail -n 3 "$out"/*.md ;;
  auto)
    cli --cols $WIDTHS,131072,262144 --dtype fp32,bf16 --op softmax --output "$out/softmax_auto.md"
    cli --cols $WIDTHS --dtype fp32,bf16 --op log_softmax --output "$out/log_softmax.md"
    tail -n 3 "$out"/*.md ;;
  triton)
    cli --cols $WIDTHS --dtype fp32,bf16 --op softmax --backends triton --variants all --output "$out/softmax_triton_ladder.md"
    tail -n 3 "$out"/*.md ;;
  clusters)
    cli --cols 16384,32768,65536 --dtype fp32,bf16 --op softmax --backends cuda \
      --variants auto,cluster_smem,cluster_regs,cluster_tma,block_hybrid --output "$out/softmax_cuda_clusters.md"
    tail -n 3 "$out"/*.md ;;
esac
