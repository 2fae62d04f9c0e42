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
