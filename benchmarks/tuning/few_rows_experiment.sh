#!/usr/bin/env bash
# Few rows (session 28): where should a few wide rows spread over more SMs? Run on a GPU
# machine from the repository root with the trees prepared here:
#   .device/exp/base  the package at 09cac61 (one CTA / one Triton program per row)
#   .device/exp/c16, c64  the working tree with kFewRowsCtaBytes (auto.cuh) at 16 / 64 KB
#   (the working tree itself: 32 KB; the rule then read "rows < SMs, rows x CTAs <= 4 x
#   SMs, rows over 32 KB"; Triton: rows of fewer than the SMs over 32 KB cut into 16 KiB
#   chunks). Every tree builds into its own TORCH_EXTENSIONS_DIR.
# Output: $OUT/cuda_{base,c16,c32,c64}.csv, $OUT/triton_{base,new}.csv: `--latency`
# rows (graph / do_bench / loop us per call) of softmax fp32 and bf16, 1-128 rows x
# 16384-262144 columns. Results: benchmarks/h100_2026-11-24/few_rows_experiment_*.csv.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
for t in base c16 c64; do (cd .device/exp/$t && PYTHONPATH=$PWD TORCH_EXTENSIONS_DIR=/tmp/ext_$t python3 -c "from kernels_cuda import build; build.extension()" > /tmp/build_$t.log 2>&1) & done
TORCH_EXTENSIONS_DIR=/tmp/ext_new python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
wait
SHAPE="--cols 16384,32768,65536,131072,262144 --rows 1,4,16,64,128 --dtype fp32,bf16 --op softmax --latency --format csv --quiet"
TORCH_EXTENSIONS_DIR=/tmp/ext_new python3 -m comparison $SHAPE --backends cuda,torch --output $OUT/cuda_c32.csv
for t in base c16 c64; do (cd .device/exp/$t && PYTHONPATH=$PWD TORCH_EXTENSIONS_DIR=/tmp/ext_$t python3 -m comparison $SHAPE --backends cuda --output $OUT/cuda_$t.csv); done
TORCH_EXTENSIONS_DIR=/tmp/ext_new python3 -m comparison $SHAPE --backends triton --variants auto,fused,split --output $OUT/triton_new.csv
(cd .device/exp/base && PYTHONPATH=$PWD TORCH_EXTENSIONS_DIR=/tmp/ext_base python3 -m comparison $SHAPE --backends triton --output $OUT/triton_base.csv)
