# Session 42 (2026-11-26): every device call's script, in order. Results in
# benchmarks/h100_2026-11-26h/ and benchmarks/h200_2026-11-26h/ (by the GPU each call got).
# .device/<tree>: the checkout with one constant changed (named in each call's comment).

## call 1
# session 42 call 1: CUDA block_hybrid forward, 16-bit wide rows in clusters of smaller
# CTAs (kHybridQuadThreads / kHybridQuadSliceBytes / kHybridQuadResident, on GPUs of
# kHybridPairMinSmBandwidth or more per SM) against the checkout (that shape off):
# .device/q256s32 (256 threads, slices <= 32 KB, 4 per SM: Quack's cluster of 16 at
# bf16 262144), q256s64 (256, 64 KB, 4), q512s64 (512, 64 KB, 2). 1 GiB, one round.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root" "$root/.device/q256s32" "$root/.device/q256s64" "$root/.device/q512s64"
echo "built $(el)"
compare_trees quad_${tag}_$rev fwd 1 "--cols 131072,262144,524288,1048576 --dtype bf16 --op softmax,log_softmax --backends cuda --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/q256s32" "$root/.device/q256s64" "$root/.device/q512s64" 2>&1 | tail -12
echo "elapsed $(el)"

## call 2
# session 42 call 2: Triton `fused` forward, the window as two tiles (BLOCK + TAIL,
# `window_parts`: bf16 577 as 512 + 128 columns, 3001 as 2048 + 1024) against main
# before it (.device/base = 2b47517), softmax and log-softmax, bf16 and fp32, 1 GiB, one
# round; 197 (one tile either way) as a control; then the Triton softmax GPU test files.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
compare_trees tail_${tag}_$rev fwd 1 "--cols 197,300,577,700,1500,3001 --dtype bf16,fp32 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/base" 2>&1 | tail -25
echo "bench $(el)"
timeout 240 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_triton_${tag}_tail.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_triton_${tag}_tail.log | tail -8
echo "elapsed $(el)"
# (call 2's files were renamed tail1_* here: the tail tile loaded after the first tile's max.)

## call 3
# session 42 call 3: as call 2, with the tail tile loaded before either tile's reduction
# (results tail2_*), bf16 and fp16; the Triton softmax GPU test files again.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
compare_trees tail2_${tag}_$rev fwd 1 "--cols 197,300,577,700,1500,3001 --dtype bf16,fp16 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/base" 2>&1 | tail -25
echo "bench $(el)"
timeout 240 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_triton_${tag}_tail2.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_triton_${tag}_tail2.log | tail -8
echo "elapsed $(el)"

## call 4
# session 42 call 4 (an H100 asked for): the Triton window as two tiles at main's head
# (599add5; tiles of up to 1024 only) against .device/base (2b47517), bf16 and fp16, 1
# GiB, one round; compute-sanitizer memcheck (Triton) over fused / auto at shapes that
# take the tail tile (WINDOW 1 and 2); the CUDA softmax GPU test file (not run whole in
# session 41).
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
(python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1 > $out/build.log) &
compare_trees tail_${tag}_$rev fwd 1 "--cols 197,300,577,700 --dtype bf16,fp16 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/base" 2>&1 | tail -17
echo "bench $(el)"
timeout 200 python3 benchmarks/sanitize.py --out $out/sanitize_tail_${tag}_$rev.log --backends triton --variants fused,auto \
  --dtypes bf16,fp16 --ops softmax,log_softmax --shapes 7x577,8x577,1x577,1029x300,1040x700,1039x577,4096x577 2>&1 | tail -3
echo "sanitize $(el)"
wait; cat $out/build.log
timeout 200 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 6 tests/test_cuda_softmax.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_cuda_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_cuda_${tag}_$rev.log | tail -6
echo "elapsed $(el)"

## call 5
# session 42 call 5: Triton window tiles at main's head (599add5, the tail tile) against
# two patched trees: .device/w4 (a tail window's tile over half the warps: 95 registers,
# 5 programs per SM at bf16 577 under Triton 3.6) and .device/nowin (no window: every odd
# row through the edge tile, one row a program), bf16, 1 GiB, one round; Triton
# memcheck over the tail shapes.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
compare_trees tailx_${tag}_$rev fwd 1 "--cols 197,300,577,700,3001 --dtype bf16 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/w4" "$root/.device/nowin" 2>&1 | tail -11
echo "bench $(el)"
timeout 200 python3 benchmarks/sanitize.py --out $out/sanitize_tail_${tag}_$rev.log --backends triton --variants fused,auto \
  --dtypes bf16,fp16 --ops softmax,log_softmax --shapes 7x577,8x577,1x577,1029x300,1040x700,1039x577,4096x577 2>&1 | tail -3
echo "elapsed $(el)"

## call 6
# session 42 call 6: odd rows of 1 KiB or more through the edge tile, one row a
# program, not the window (FUSED_WINDOW_MAX_ROW_BYTES; the checkout) against main before
# (.device/base2 = 599add5) and .device/rw4 (the rule, and a tail window's tile over half
# the warps), 1 GiB, one round.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
compare_trees rule_${tag} fwd 1 "--cols 197,260,300,450,577,700,1500,3001 --dtype bf16 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/base2" "$root/.device/rw4" 2>&1 | tail -17
compare_trees rule32_${tag} fwd 1 "--cols 1501,3001 --dtype fp32 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/base2" 2>&1 | tail -5
echo "elapsed $(el)"

## call 7 (H100)
# session 42 call 7 (call 8 was planned the same, and replaced by call 8 below): the working tree (odd rows of 1 KiB or more through the edge
# tile, one row a program; a window twice the body's power of two where the head and tail
# vectors spill past it, bf16 260; a tail window's tile over half the warps) against
# .device/base2 (599add5), 1 GiB, one round; then the Triton softmax GPU test files (call
# 7) or Triton memcheck over the new window shapes (call 8).
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
compare_trees rule2_${tag} fwd 1 "--cols 197,260,300,450,511,577,700,1500,3001 --dtype bf16 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/base2" 2>&1 | tail -19
compare_trees rule2_32_${tag} fwd 1 "--cols 1501,3001 --dtype fp32 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/base2" 2>&1 | tail -5
echo "bench $(el)"
if [ "$tag" = h100 ]; then
timeout 240 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_triton_${tag}_rule2.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_triton_${tag}_rule2.log | tail -8
else
timeout 200 python3 benchmarks/sanitize.py --out $out/sanitize_rule2_${tag}.log --backends triton --variants fused,auto \
  --dtypes bf16,fp16 --ops softmax,log_softmax --shapes 7x260,8x260,1029x260,1040x300,1039x511,1x511,5x577,1031x700 2>&1 | tail -3
fi
echo "elapsed $(el)"

## call 8 (H200)
# session 42 call 8 (its side-by-side output is saved as benchmarks/h200_2026-11-26h/call8_output.txt;
# the device tool left out the wpr8_* CSVs, past its count of files): (a) the Triton rule as committed next (window spans of 1 KiB or
# more in rows under 4 KiB through the edge tile; a window twice the body's power of two
# for narrow rows whose head and tail vectors spill past it; a tail window over half the
# warps) against .device/base2 (599add5) at narrow and odd widths, bf16 and fp32, 1
# GiB, one round; (b) CUDA warp_per_row two rows per group on 8 or 16 lanes (the
# helper's branch wpr-narrow-two-rows, ea1f706, as .device/wprA) against the checkout
# (whose CUDA code is 599add5's), bf16 and fp16; its GPU tests and compute-sanitizer (4
# tools) over warp_per_row at the shapes it changes; Triton memcheck over the new
# window shapes.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
(build_trees "$root" "$root/.device/wprA" > $out/build.log 2>&1) &
compare_trees rule3_${tag} fwd 1 "--cols 33,58,130,154,197,250,260,300,314,505,511,577,700,1500,3001 --dtype bf16 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/base2" 2>&1 | tail -31
compare_trees rule3_32_${tag} fwd 1 "--cols 1025,1501,3001 --dtype fp32 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/base2" 2>&1 | tail -7
echo "triton $(el)"
wait; cat $out/build.log
compare_trees wpr8_${tag} fwd 1 "--cols 129,136,197,199,256,264,300,383,391,450,577 --dtype bf16,fp16 --op softmax --backends cuda --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/wprA" 2>&1 | tail -23
echo "cuda $(el)"
(cd .device/wprA && PYTHONPATH=$PWD timeout 120 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 6 tests/test_cuda_softmax.py tests/test_cuda_compile.py -k "three_pack_rows or lane_packs or three_parts or warp" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_wprA_${tag}.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_wprA_${tag}.log | tail -4)
(cd .device/wprA && PYTHONPATH=$PWD timeout 150 python3 $root/benchmarks/sanitize.py --out $out/sanitize_wprA_${tag}.log --backends cuda --variants warp_per_row,auto \
  --dtypes bf16,fp16 --ops softmax,log_softmax --shapes 7x197,1001x197,65x300,3x136,1001x391 2>&1 | tail -6)
echo "sanitize $(el)"
timeout 100 python3 benchmarks/sanitize.py --out $out/sanitize_rule3_${tag}.log --backends triton --variants fused,auto \
  --dtypes bf16,fp16 --ops softmax,log_softmax --shapes 7x33,1031x33,8x260,1029x260,1040x300,1039x130,5x505,1031x700 --tools memcheck 2>&1 | tail -3
echo "elapsed $(el)"

## call 9 (H100)
# session 42 call 9: call 8's Triton comparison (a) on the H100; the CUDA two-row branch
# (.device/wprA) only through its GPU tests (the H100 is under the rule's bandwidth, so
# its plans are main's; the helper checked the other kernels' SASS is main's).
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
(cd .device/wprA && PYTHONPATH=$PWD python3 -c "from kernels_cuda import build; build.extension()" > $out/build.log 2>&1) &
compare_trees rule3_${tag} fwd 1 "--cols 33,58,130,154,197,250,260,300,314,505,511,577,700,1500,3001 --dtype bf16 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/base2" 2>&1 | tail -31
echo "triton $(el)"
wait; tail -1 $out/build.log
(cd .device/wprA && PYTHONPATH=$PWD timeout 120 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 6 tests/test_cuda_softmax.py tests/test_cuda_compile.py -k "three_pack_rows or lane_packs or three_parts or warp" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_wprA_${tag}.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_wprA_${tag}.log | tail -4)
echo "elapsed $(el)"

## call 10 (H200) and call 11 (H100)
# session 42 calls 10-11: main's head (fb03d27: CUDA warp_per_row two rows per group on 16
# lanes and on 8 for whole rows; Triton's windows as of 76c1b81) against .device/base2
# (599add5), CUDA `auto` forward bf16 / fp16 at the widths the rule covers and controls,
# 1 GiB, one round; the CUDA softmax GPU test file whole, the Triton softmax GPU test
# files, compute-sanitizer's four tools over warp_per_row / auto at the rule's shapes.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root" "$root/.device/base2" 2>&1 | tail -2
echo "built $(el)"
compare_trees wprf_${tag}_$rev fwd 1 "--cols 136,197,199,264,300,391,577,768 --dtype bf16,fp16 --op softmax --backends cuda --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/base2" 2>&1 | tail -17 | tee $out/wprf_${tag}_$rev.txt
echo "bench $(el)"
timeout 150 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 6 tests/test_cuda_softmax.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_cuda_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_cuda_${tag}_$rev.log | tail -4
timeout 200 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_triton_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_triton_${tag}_$rev.log | tail -4
echo "tests $(el)"
timeout 150 python3 benchmarks/sanitize.py --out $out/sanitize_wpr_${tag}_$rev.log --backends cuda --variants warp_per_row,auto \
  --dtypes bf16,fp16 --ops softmax,log_softmax --shapes 3x136,1001x136,65x264,1001x300,7x197,1001x199,1001x391 2>&1 | tail -6
echo "elapsed $(el)"

## call 12 (H200)
# session 42 call 12: where narrow and odd 16-bit rows stand at main's head, forward and
# backward, both backends' `auto` and torch, bf16, 1 GiB (a record for the next work, no
# comparison of trees).
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
tag=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
timeout 560 python3 -m comparison --cols 33,130,197,260,300,450,577,700,1500,3001 --dtype bf16 --op softmax,log_softmax --pass fwd,bwd \
  --backends cuda,triton,torch --variants auto --min-bytes 1GiB --quiet --format markdown --layout long --output $OUT/narrow_odd_standing_${tag}_$(cat .device/commit).md 2>&1 | tail -3
# (call 12's table: benchmarks/h200_2026-11-26h/narrow_odd_standing_h200_93c397b.md)

## call 13 (H200)
# session 42 call 13: Triton `fused` backward, .device/bA (16-bit rows whose span is
# 1-4 KiB through the edge tile, one row a program; narrower rows read in three parts by
# element loads in tiles of rows) against main's head, bf16, 1 GiB, one round.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
compare_trees bA_${tag}_$rev bwd 1 "--cols 33,130,197,260,300,577,700,1500,3001 --dtype bf16 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/bA" 2>&1 | tail -19

## call 14 (H100)
# session 42 call 14: the backward rule as committed next (FUSED_BWD_EDGE_ROWS_BYTES: the
# edge tile for 16-bit spans over 1 KiB in rows under 2 KiB, element loads in tiles of
# rows for narrower rows past a power of two) against main's head (.device/hd = 93c397b),
# bf16, 1 GiB, one round; the Triton softmax GPU test files.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
compare_trees bwdrule_${tag} bwd 1 "--cols 33,130,260,577,700,1500 --dtype bf16 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/hd" 2>&1 | tail -13
timeout 200 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_triton_${tag}_bwdrule.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_triton_${tag}_bwdrule.log | tail -4
echo "elapsed $(el)"

# (a call 15, Triton memcheck over the backward's new shapes, could not start: the
# session's device time was spent.)
