# Session 51 (2026-11-27): the exact commands of each device call, run from the checkout
# root as `sed -n '/^## call N$/,/^## call N+1$/p' <this file> > /tmp/c.sh; OUT=$OUT bash /tmp/c.sh`.

## call 1
# session 51 call 1 (H200). A `split_oneshot` whose resident programs load their next
# chunk while they wait for the last one's row (benchmarks/tuning/triton_oneshot_pipelined.py):
# the forward, fp32 and bf16, 65536-1048576 columns, four geometries beside the package's.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root:$root/benchmarks/tuning
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 560 python3 benchmarks/tuning/triton_oneshot_pipelined.py --passes fwd --dtypes fp32,bf16 \
  --geometries 8192x64,4096x32,2048x32,8192x32 2>&1 | tee $out/pipelined_fwd_${tag}_$rev.txt
echo "elapsed $(el)"

## call 2
# session 51 call 2 (H200). Call 1: the pipelined grid loses everywhere (forward fp32 /
# bf16 65536-524288: 76-92 against the package's 91.5-97.1; K >= 64 collapses to 14-60):
# not taken. Here: Triton `fused` at the narrowest rows, where it trails on the H200
# (fp32 128: 96.9-97.1 in three records, against CUDA's 100.2 and QuACK's 99.5): its
# tile's bytes (FUSED_TILE_BYTES) and units a thread (FUSED_UNITS_PER_THREAD), forward,
# beside torch. (A first run with cuda/auto beside it spent every 60 s process building
# the CUDA extension and printed nothing.)
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
f=$out/narrow_tiles_fwd_${tag}_$rev.txt; : > $f
for tile in 8192 16384 32768 65536; do for per in 16 32 64; do
  timeout 60 python3 benchmarks/tuning/tune.py --cols 128,256,512 --dtype fp32,bf16,fp16 --impl triton/fused,torch/auto \
    --set kernels_triton.softmax_fused.FUSED_TILE_BYTES=$tile --set kernels_triton.softmax_fused.FUSED_UNITS_PER_THREAD=$per \
    --label "t$tile/u$per" 2>&1 | grep -v Warn | tee -a $f
  [ $(el) -gt 540 ] && break 2
done; done
echo "elapsed $(el)"

## call 3
# session 51 call 3 (H200). Call 2: fp32 rows of 128 ran at 100.0 in 64 KiB tiles at 16
# units a thread (128 rows over 32 warps) against 96.7-97.6 in every other tile, the
# shipped one (16 KiB, 32 a thread) 97.0; bf16 and fp16 no better than shipped. Checked
# here twice over, with tiles between, at fp32 32-512 columns (the rows 512 B and under).
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
f=$out/narrow_fp32_tiles_${tag}_$rev.txt; : > $f
for round in 1 2; do for tu in 16384/32 65536/16 32768/16 32768/8 65536/8 65536/32; do
  tile=${tu%/*}; per=${tu#*/}
  timeout 60 python3 benchmarks/tuning/tune.py --cols 32,64,96,128,256,512 --dtype fp32 --impl triton/fused,torch/auto \
    --set kernels_triton.softmax_fused.FUSED_TILE_BYTES=$tile --set kernels_triton.softmax_fused.FUSED_UNITS_PER_THREAD=$per \
    --label "r$round:t$tile/u$per" 2>&1 | grep -v Warn | tee -a $f
  [ $(el) -gt 280 ] && break 2
done; done
echo "elapsed $(el)"

## call 4
# session 51 call 4 (H100; call 5 runs it on the H200). Call 3: the fp32 rows of 128 run
# at 100.1 in 64 KiB tiles of 16 values a thread, twice over (97.4 shipped), 256 / 512
# 97.9 / 97.9 (97.2 / 97.6), narrower and padded rows no better. Taken for fp32 rows of
# 128-512 columns, powers of two (softmax_fused.FUSED_WIDE_TILE_FP32_COLS). Here: the
# Triton `fused` GPU tests; Triton `auto` before (the previous commit's kernels_triton,
# carried in .device/before) and after, fp32, softmax and log-softmax, 64-1024 columns,
# twice, through `python -m comparison` (every element against float64).
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
rm -rf /tmp/before && cp -r $root /tmp/before && rm -rf /tmp/before/kernels_triton && cp -r $root/.device/before/kernels_triton /tmp/before/
compare_trees wide_tile fwd 2 "--cols 64,96,128,256,512,1024 --dtype fp32 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" $root /tmp/before
echo "compare $(el)"
timeout $(( 560 - $(el) )) python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_triton_softmax.py \
  -k "(fused or auto) and not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_triton_fused_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_triton_fused_${tag}_$rev.log | tail -12
echo "elapsed $(el)"

## call 5
# session 51 call 5 (H200). Call 4 (H100, benchmarks/h100_2026-11-27h/): the wide tile
# gains at 128 (softmax 99.2 -> 99.7, log-softmax 99.1 -> 99.2) and 512 (98.9 -> 99.2)
# but loses at 256 (99.8 -> 99.1; log-softmax 99.8 -> 97.6) and log-softmax 512 (98.8
# -> 97.6): taken for fp32 rows of 128 alone, at ALIGN 16. The `fused` GPU tests with the
# new planning test; `auto` before and after on the H200, softmax and log-softmax.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
rm -rf /tmp/before && cp -r $root /tmp/before && rm -rf /tmp/before/kernels_triton && cp -r $root/.device/before/kernels_triton /tmp/before/
compare_trees wide_tile fwd 2 "--cols 64,96,128,256,512 --dtype fp32 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" $root /tmp/before
echo "compare $(el)"
timeout $(( 560 - $(el) )) python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_triton_softmax.py \
  -k "(fused or auto or wide_tiles) and not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_triton_fused_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_triton_fused_${tag}_$rev.log | tail -12
echo "elapsed $(el)"

## call 6
# session 51 call 6 (H200). Call 5: softmax fp32 128 97.3 -> 100.0 twice, log-softmax
# 97.5 -> 97.6, the other widths within 0.1; the `fused`/`auto` GPU tests 32 passed.
# compute-sanitizer memcheck over Triton `fused` and `auto` on fp32 rows of 128 (the
# wide tile: a full tile, a partial one, one row).
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 300 python3 benchmarks/sanitize.py --out $out/sanitize_wide_tile_${tag}_$rev.log --backends triton --variants fused,auto \
  --dtypes fp32 --ops softmax,log_softmax --shapes 300x128,5x128,1x128,1000x128 \
  > $out/sanitize_wide_tile_${tag}_$rev.summary 2>&1; echo "sanitize rc $? at $(el)" >> $out/sanitize_wide_tile_${tag}_$rev.summary; tail -4 $out/sanitize_wide_tile_${tag}_$rev.summary

## call 7
# session 51 call 7 (H200). The four `split_oneshot` tuning scripts now share their
# sweep's loop (triton_oneshot_geometry.sweep, header): each once on a small input, as a
# check that they still run; and the pipelined grid's backward (not run in call 1) at
# 1 GiB, fp32 and bf16, 65536 and 262144 columns.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
f=$out/tuning_scripts_${tag}_$rev.txt; : > $f
S="--cols 65536 --dtypes bf16 --passes fwd,bwd --bytes 67108864"
timeout 90 python3 benchmarks/tuning/triton_oneshot_geometry.py $S --geometries 8192x64 --baselines auto 2>&1 | grep -v Warn | tee -a $f
timeout 90 python3 benchmarks/tuning/triton_oneshot_exchange.py $S --variants base 2>&1 | grep -v Warn | tee -a $f
timeout 90 python3 benchmarks/tuning/triton_oneshot_lagged.py $S --variants lag1 2>&1 | grep -v Warn | tee -a $f
echo "smoke $(el)"
timeout $(( 280 - $(el) )) python3 benchmarks/tuning/triton_oneshot_pipelined.py --passes bwd --dtypes fp32,bf16 --cols 65536,262144 \
  --geometries 4096x32,2048x16 2>&1 | grep -v Warn | tee $out/pipelined_bwd_${tag}_$rev.txt
echo "elapsed $(el)"

## call 8
# session 51 call 8 (H200). The wide tile filled: a GPU test of fp32 rows of 128 in full
# 128-row tiles on every SM and a partial one, and memcheck over the same (call 6's
# shapes were too few rows for a full wide tile); the Triton forward test file.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 120 python3 benchmarks/sanitize.py --out $out/sanitize_full_wide_tile_${tag}_$rev.log --backends triton --variants fused,auto \
  --dtypes fp32 --ops softmax,log_softmax --shapes 16973x128,33000x128 \
  > $out/sanitize_full_wide_tile_${tag}_$rev.summary 2>&1; echo "sanitize rc $? at $(el)" >> $out/sanitize_full_wide_tile_${tag}_$rev.summary; tail -4 $out/sanitize_full_wide_tile_${tag}_$rev.summary
timeout $(( 300 - $(el) )) python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_triton_softmax.py \
  -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_triton_softmax_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_triton_softmax_${tag}_$rev.log | tail -12
echo "elapsed $(el)"

## call 9
