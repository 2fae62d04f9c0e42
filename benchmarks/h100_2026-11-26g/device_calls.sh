#!/bin/bash
# Session 41 device calls (2026-11-26), each run from the repository root as: bash .device/callN.sh

## call 1 (asked for an H200, ran on an H100: its results are named h100)
# session 41 call 1 (H200): Triton `fused` WINDOW 2 (every row but the last read as
# whole 16-byte vectors from the boundary before each row; the last row by value):
# the Triton softmax GPU tests, memcheck over fused/auto at window shapes, and auto
# forward on about 1 GiB (row counts that are not a multiple of 8: WINDOW 2) against
# main before it (.device/w1: window 1 only), then window 1 on the H200 at rows a
# multiple of 8 against the tree before it (.device/prewin), not yet run on an H200.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 300 python3 -m pytest tests/test_triton_softmax.py -q -x -p no:cacheprovider > $out/gpu_tests_triton_${tag}_$rev.log 2>&1; tail -2 $out/gpu_tests_triton_${tag}_$rev.log
echo "tests $(el)"
timeout 200 python3 benchmarks/sanitize.py --out $out/sanitize_win2_${tag}_$rev.log --backends triton --variants fused,auto \
  --dtypes bf16,fp16,fp32 --ops softmax,log_softmax --shapes 1027x197,1027x577,1027x3001,1027x1501,1024x197,7x197 2>&1 | tail -3
echo "sanitize $(el)"
compare_trees win2_${tag}_$rev fwd 2 "--cols 197,577,1025,3001 --dtype bf16,fp16 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/w1" 2>&1 | tail -18
compare_trees win2f_${tag}_$rev fwd 1 "--cols 1501,3001 --dtype fp32 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/w1" 2>&1 | tail -5
echo "bench $(el)"
for rc in 2725256x197 930448x577 178896x3001; do
  compare_trees win8_${rc}_${tag}_$rev fwd 1 "--rows ${rc%x*} --cols ${rc#*x} --dtype bf16 --op softmax,log_softmax --backends triton --variants auto --quiet --format csv" \
    "$root" "$root/.device/prewin" 2>&1 | tail -3
done
echo "elapsed $(el)"

## call 2 (H100; call 1 asked for an H200 and ran on an H100)
# session 41 call 2 (H100, warm): CUDA warp_per_row with two rows per group on 16-bit
# rows of several packs on 32 lanes (kWarpRowRows16Wide, merged 6fd0485): build the
# checkout and main before it (.device/w1), the three-part and warp_per_row GPU tests,
# compute-sanitizer's four tools at row counts whose last group has one row, then
# auto forward on about 1 GiB before / after, two rounds.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root" "$root/.device/w1"
echo "build $(el)"
timeout 120 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_cuda_softmax.py -k "three_parts or warp" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_wpr2_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_wpr2_${tag}_$rev.log | tail -4
echo "tests $(el)"
timeout 150 python3 benchmarks/sanitize.py --out $out/sanitize_wpr2_${tag}_$rev.log --backends cuda --variants warp_per_row,auto --dtypes bf16,fp16 --ops softmax,log_softmax --shapes 5x577,3x1023,7x576,3x700,5x1024 2>&1 | tail -6
echo "sanitize $(el)"
compare_trees wpr2_${tag}_$rev fwd 2 "--cols 576,577,700,1023,1024 --dtype bf16,fp16 --op softmax,log_softmax --backends cuda --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/w1" 2>&1 | tail -21
echo "elapsed $(el)"

## call 3 (H100)
# session 41 call 3 (H100, warm): the whole Triton softmax GPU test file at WINDOW 2
# (call 1's single-process run stopped at its 300 s limit, 40% in, nothing failed).
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 500 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 8 tests/test_triton_softmax.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_triton_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_triton_${tag}_$rev.log | tail -6
echo "elapsed $(el)"

## call 4
# session 41 call 4: Triton `fused` backward WINDOW (16-bit odd rows of y and dy that fit
# the tile read as whole 16-byte vectors from the boundary before each row; 1: both end
# on a 16-byte boundary, 2: the last row by value): the Triton softmax GPU test files,
# memcheck over fused/auto backward at window shapes, and auto backward on about 1 GiB
# (rows not a multiple of 8: WINDOW 2) against main before the window (.device/w1),
# then rows a multiple of 8 (WINDOW 1), one round.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 240 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 8 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_triton_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_triton_${tag}_$rev.log | tail -6
echo "tests $(el)"
timeout 120 python3 benchmarks/sanitize.py --out $out/sanitize_bwin_${tag}_$rev.log --backends triton --variants fused,auto \
  --dtypes bf16,fp16 --ops softmax_backward,log_softmax_backward --shapes 1039x197,1040x197,1027x577,1027x3001,1024x3001,7x197 2>&1 | tail -3
echo "sanitize $(el)"
compare_trees bwin_${tag}_$rev bwd 2 "--cols 197,577,1025,3001 --dtype bf16,fp16 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/w1" 2>&1 | tail -18
echo "bench $(el)"
for rc in 2725256x197 930448x577 178896x3001; do
  compare_trees bwin8_${rc}_${tag}_$rev bwd 1 "--rows ${rc%x*} --cols ${rc#*x} --dtype bf16 --op softmax,log_softmax --backends triton --variants auto --quiet --format csv" \
    "$root" "$root/.device/w1" 2>&1 | tail -3
done
echo "elapsed $(el)"

## call 5
# session 41 call 5 (H200): call 4's six failing backward tests again with their
# messages; Triton forward WINDOW 2 on the H200 (call 1 ran on an H100); the CUDA
# two-rows-per-group warp_per_row experiment (branch wpr-two-rows, .device/wpr2) on the
# H200, for which it was meant: its warp_per_row tests, then auto forward against main
# (.device/w1), one round.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root/.device/wpr2" "$root/.device/w1" > $out/build.log 2>&1 &
timeout 150 python3 -m pytest -q -rfE --tb=line -p no:cacheprovider -n 4 tests/test_triton_softmax_backward.py -k "paired_rows or cpp_node" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tail -30
echo "tests $(el)"
compare_trees win2_${tag}_$rev fwd 1 "--cols 197,577,1025,3001 --dtype bf16,fp16 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/w1" 2>&1 | tail -17
echo "triton bench $(el)"
wait; cat $out/build.log
(cd .device/wpr2 && PYTHONPATH=$PWD timeout 100 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_cuda_softmax.py -k "three_parts or warp" 2>&1 | grep -E "passed|failed|FAILED|Error" | tail -4)
echo "cuda tests $(el)"
compare_trees wpr2_${tag}_$rev fwd 1 "--cols 197,576,577,1023,1024 --dtype bf16,fp16 --op softmax --backends cuda --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root/.device/wpr2" "$root/.device/w1" 2>&1 | tail -11
echo "elapsed $(el)"

## call 6
# session 41 call 6: (a) Triton backward window with FUSED_BWD_WINDOW_MIN_FILL (577 back
# to element loads) and the last-row index cast (call 4's six failures: n_rows
# specialised to 1): the Triton softmax GPU test files, memcheck, auto backward against
# main before the window (.device/w1) at 1 GiB and at rows a multiple of 8; (b) CUDA
# warp_per_row two rows per group for 16-bit rows of three packs a lane on GPUs of
# 30 GB/s or more per SM: warp_per_row tests, compute-sanitizer's four tools, auto
# forward against .device/w1 (an H100 keeps one row: the same figures expected).
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root" "$root/.device/w1" > $out/build.log 2>&1 &
timeout 200 python3 -m pytest -q -rfE --tb=line -p no:cacheprovider -n 8 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_triton_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_triton_${tag}_$rev.log | tail -8
echo "triton tests $(el)"
timeout 100 python3 benchmarks/sanitize.py --out $out/sanitize_bwin_${tag}_$rev.log --backends triton --variants fused,auto \
  --dtypes bf16,fp16 --ops softmax_backward,log_softmax_backward --shapes 1039x197,1040x197,1x197,2x3001,1027x3001,1024x3001,7x577 2>&1 | tail -2
echo "triton sanitize $(el)"
compare_trees bwin_${tag}_$rev bwd 1 "--cols 197,577,3001 --dtype bf16,fp16 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/w1" 2>&1 | tail -13
echo "triton bench $(el)"
wait; cat $out/build.log
timeout 100 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_cuda_softmax.py -k "three_parts or warp" 2>&1 | grep -E "passed|failed|FAILED|Error" | tail -4
echo "cuda tests $(el)"
timeout 120 python3 benchmarks/sanitize.py --out $out/sanitize_wpr2_${tag}_$rev.log --backends cuda --variants warp_per_row,auto --dtypes bf16,fp16 --ops softmax,log_softmax --shapes 5x577,3x700,7x576,3x768 2>&1 | tail -6
echo "cuda sanitize $(el)"
compare_trees wpr2_${tag}_$rev fwd 1 "--cols 520,576,577,700,768,1023 --dtype bf16,fp16 --op softmax,log_softmax --backends cuda --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/w1" 2>&1 | tail -25
echo "elapsed $(el)"

## call 7 (call 6's script again, for an H200)

## call 8 (call 6's script again, for an H200; ran on another H100)

## call 9 (H200)
# session 41 call 9: (a) Triton `fused` forward experiment (.device/ww): 16-bit odd rows
# that do not fit the body's tile with their head and tail vectors (1025: a 1024-wide
# tile) take a window tile twice as wide (2048) instead of the edge tile, against the
# checkout, 1 GiB, rows not a multiple of 8 (WINDOW 2) and then a multiple of 8 at 1025;
# (b) on an H200 only: the CUDA two-row rule at 520-768 columns and the Triton backward's
# fill rule against main before the session (.device/w1).
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
[ $tag = h200 ] && { build_trees "$root" "$root/.device/w1" > $out/build.log 2>&1 & }
compare_trees ww_${tag}_$rev fwd 1 "--cols 1025,2049,4097 --dtype bf16,fp16 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/ww" 2>&1 | tail -13
compare_trees ww8_${tag}_$rev fwd 1 "--rows 523760 --cols 1025 --dtype bf16 --op softmax,log_softmax --backends triton --variants auto --quiet --format csv" \
  "$root" "$root/.device/ww" 2>&1 | tail -3
echo "ww $(el)"
if [ $tag = h200 ]; then
  compare_trees bwin_${tag}_$rev bwd 1 "--cols 197,577,3001 --dtype bf16 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" \
    "$root" "$root/.device/w1" 2>&1 | tail -7
  wait; cat $out/build.log
  timeout 60 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_cuda_softmax.py -k "lane_packs" 2>&1 | grep -E "passed|failed|FAILED|Error" | tail -3
  compare_trees wpr2_${tag}_$rev fwd 1 "--cols 520,576,577,700,768,1023 --dtype bf16,fp16 --op softmax --backends cuda --variants auto --min-bytes 1GiB --quiet --format csv" \
    "$root" "$root/.device/w1" 2>&1 | tail -13
fi
echo "elapsed $(el)"

## call 10 (H200)
# session 41 call 10 (H200, warm from call 9): at main's head, the Triton softmax GPU
# test files (call 4's failures fixed since, not yet run on an H200), the CUDA three-part
# and warp_per_row tests, and compute-sanitizer's four tools over warp_per_row / auto
# at the two-row shapes, which only GPUs like the H200 take.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root" > $out/build.log 2>&1 &
timeout 200 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_triton_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_triton_${tag}_$rev.log | tail -8
echo "triton tests $(el)"
wait; cat $out/build.log
timeout 150 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 6 tests/test_cuda_softmax.py -k "three_parts or warp or lane" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_cuda_wpr_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_cuda_wpr_${tag}_$rev.log | tail -4
echo "cuda tests $(el)"
timeout 150 python3 benchmarks/sanitize.py --out $out/sanitize_wpr2_${tag}_$rev.log --backends cuda --variants warp_per_row,auto --dtypes bf16,fp16 --ops softmax,log_softmax --shapes 5x577,3x700,7x576,3x768,5x520 2>&1 | tail -6
echo "elapsed $(el)"

## call 11 (H200)
# session 41 call 11: Triton `fused` forward experiment: rows read with an edge tile (odd
# widths that do not fit a window: 1025, 2049, 4097) in tiles of at most 2 (.device/er2)
# or 1 (.device/er1) rows instead of 16 KiB tiles (1025 bf16: 8 rows, 94 / 128 registers,
# 2 programs of 8 warps per SM offline; 2 rows: 72 / 80, 14 of 2 warps), against the
# checkout, 1 GiB, one round.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
compare_trees er_${tag}_$rev fwd 1 "--cols 1025,2049,4097 --dtype bf16,fp32 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/er2" "$root/.device/er1" 2>&1 | tail -13
echo "elapsed $(el)"

## call 12 (H200)
# session 41 call 12: (a) the Triton softmax GPU test files at main's head (edge tiles of
# one row, FUSED_EDGES_TILE_ROWS); (b) that forward rule against main before the session
# (.device/w1) at 1025 / 2049 / 4097, bf16 and fp32; (c) the backward experiment
# (.device/be1): rows read with the backward's edge tile one per program too, against
# the checkout. 1 GiB, one round.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 200 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_triton_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_triton_${tag}_$rev.log | tail -8
echo "tests $(el)"
compare_trees er_${tag}_$rev fwd 1 "--cols 1025,2049,4097,3001 --dtype bf16,fp32 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/w1" 2>&1 | tail -17
compare_trees be_${tag}_$rev bwd 1 "--cols 1025,2049,4097 --dtype bf16,fp32 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/be1" 2>&1 | tail -13
echo "elapsed $(el)"

## call 13 (H100)
# session 41 call 13 (an H100 asked for): the one-row edge tiles, forward and backward,
# against main before the session (.device/w1) at 1025 / 2049 / 4097 (3001: a window,
# unchanged), bf16 and fp32, 1 GiB, one round; the Triton softmax GPU test files.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
compare_trees er_${tag}_$rev fwd,bwd 1 "--cols 1025,2049,4097,3001 --dtype bf16,fp32 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/w1" 2>&1 | tail -34
echo "bench $(el)"
timeout 200 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_triton_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_triton_${tag}_$rev.log | tail -8
echo "elapsed $(el)"

## call 14 (H200)
# session 41 call 14: compute-sanitizer memcheck (Triton) over fused / auto at the rows
# that one-row edge tiles now read (1025, 2049, 4097; row counts odd and even), forward
# and backward, bf16 and fp32.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
tag=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
timeout 300 python3 benchmarks/sanitize.py --out $OUT/sanitize_edge_rows_${tag}_$(cat .device/commit).log --backends triton --variants fused,auto \
  --dtypes bf16,fp32 --ops softmax,log_softmax,softmax_backward,log_softmax_backward --shapes 3x1025,8x1025,5x2049,2x4097,1x1025 2>&1 | tail -3

## call 15 (H200)
# session 41 call 15 (H200, warm): compute-sanitizer memcheck (Triton) over fused / auto
# at the window shapes at main's head, forward (WINDOW 1 and 2) and backward (one row,
# two rows, odd and even row counts).
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
tag=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
timeout 200 python3 benchmarks/sanitize.py --out $OUT/sanitize_windows_${tag}_$(cat .device/commit).log --backends triton --variants fused,auto \
  --dtypes bf16,fp16 --ops softmax,log_softmax,softmax_backward,log_softmax_backward --shapes 1039x197,1040x197,1x197,2x3001,1027x3001,1024x3001,7x577 2>&1 | tail -3

## call 16 (H200)
# session 41 call 16: Triton `auto` forward with window 1 (rows a multiple of 8: the
# tensor ends on a 16-byte boundary) at main's head against the tree before any window
# (.device/prewin, ee93566), bf16, one round; its speed on the H200 was not yet recorded.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for rc in 2725256x197 930448x577 178896x3001; do
  compare_trees win8_${rc}_${tag}_$rev fwd 1 "--rows ${rc%x*} --cols ${rc#*x} --dtype bf16 --op softmax,log_softmax --backends triton --variants auto --quiet --format csv" \
    "$root" "$root/.device/prewin" 2>&1 | tail -3
done
