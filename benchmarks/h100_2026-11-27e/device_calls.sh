# Session 48 (2026-11-27): every device call's script, in order. Each ran from the
# repository root as `sed -n '/^## call N$/,/^## call N+1$/p' <this file> > /tmp/c.sh;
# OUT=$OUT bash /tmp/c.sh`, with the working tree and .device/ carried; results were
# copied into benchmarks/h100_2026-11-27e/ or benchmarks/h200_2026-11-27e/ by GPU.

## call 1
# session 48 call 1 (H100; call 2 runs the same block on an H200). Triton `split_oneshot`
# holding 16-bit rows of even width as pairs of values per 32-bit word
# (kernels_triton/pairs.py): the Triton GPU test files (split_oneshot's 2^31-element cases
# included); `split` (what `auto` runs for these rows) against `split_oneshot`, forward
# and backward, softmax and log-softmax, bf16 and fp16, 65536-1048576 columns, 1 GiB; the
# pairs' chunk geometries (bf16); compute-sanitizer memcheck over `split_oneshot`.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 200 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py \
  -k "not more_than_2_to_the_31 or split_oneshot" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_triton_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_triton_${tag}_$rev.log | tail -12
echo "tests $(el)"
for pass in fwd bwd; do
  timeout 150 python3 -m comparison --cols 65536,131072,262144,524288,1048576 --dtype bf16,fp16 --op softmax,log_softmax --pass $pass \
    --backends triton --variants split,split_oneshot --min-bytes 1GiB --quiet --format csv --output $out/pairs_${pass}_${tag}_$rev.csv 2>&1 | tail -1
done
python3 benchmarks/tuning/side_by_side.py $out pairs fwd_${tag}_$rev bwd_${tag}_$rev
echo "compare $(el)"
timeout 120 python3 benchmarks/tuning/triton_oneshot_geometry.py --dtypes bf16 --cols 131072,524288,1048576 2>&1 | tee $out/pairs_geometry_${tag}.txt
echo "geometry $(el)"
timeout $(( 585 - $(el) )) python3 benchmarks/sanitize.py --out $out/sanitize_oneshot_${tag}_$rev.log --backends triton --variants split_oneshot \
  > $out/sanitize_oneshot_${tag}_$rev.summary 2>&1; echo "sanitize rc $? at $(el)" >> $out/sanitize_oneshot_${tag}_$rev.summary
grep -E "cases under|errors|ERROR|RAISED|rc |plain run" $out/sanitize_oneshot_${tag}_$rev.summary | tail -8
echo "elapsed $(el)"

## call 2
# session 48 call 2 (H200): call 1's block, on an H200.

## call 3
# session 48 call 3 (H100; call 4 runs the same block on an H200). `auto`'s new rule
# (softmax_policy.oneshot_rows: 16-bit rows to `split_oneshot`, by DRAM bandwidth per SM)
# as committed: the Triton GPU test files (the exchange-words test included, on the H100
# for the first time); Triton `auto` forward and backward, softmax and log-softmax, fp32,
# bf16 and fp16, 65536-1048576 columns, 1 GiB (the standing of the wide rows).
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 220 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 8 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py \
  -k "not more_than_2_to_the_31 or split_oneshot" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_triton_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_triton_${tag}_$rev.log | tail -12
echo "tests $(el)"
for pass in fwd bwd; do
  timeout 170 python3 -m comparison --cols 65536,131072,262144,524288,1048576 --dtype fp32,bf16,fp16 --op softmax,log_softmax --pass $pass \
    --backends triton --variants auto --min-bytes 1GiB --quiet --format csv --output $out/auto_${pass}_${tag}_$rev.csv 2>&1 | tail -1
done
python3 benchmarks/tuning/side_by_side.py $out auto fwd_${tag}_$rev bwd_${tag}_$rev
echo "elapsed $(el)"

## call 4
# session 48 call 4 (H200): call 3's block, at 052a222.

## call 5
# session 48 call 5 (H200; call 6 runs the same block on an H100). `split_oneshot`'s
# forward under a register cap of 96 (ONESHOT_MAX_REGISTERS; sm_90, Triton 3.6: 104-115
# registers uncapped, 4 programs per SM; 96 without spills, 5 per SM): fp32, bf16 and fp16,
# 131072-1048576 columns, 1 GiB, through the package's plan (tuning/triton_oneshot_geometry.py).
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 400 python3 benchmarks/tuning/triton_oneshot_geometry.py --passes fwd --dtypes fp32,bf16,fp16 \
  --cols 131072,262144,524288,1048576 --geometries 8192x64 --caps none,96 2>&1 | tee $out/cap96_geometry_${tag}_$rev.txt
echo "elapsed $(el)"

## call 6
# session 48 call 6 (H100): call 5's block.

## call 7
# session 48 call 7 (H200; call 8 runs the same block on an H100). The forward's cap of
# 96 registers as committed, and `auto` taking `split_oneshot` for the 16-bit softmax
# forward from 65536 on the H200 too: the Triton GPU tests of `split_oneshot` and `auto`;
# Triton `auto` forward, softmax and log-softmax, fp32 / bf16 / fp16, 65536-1048576, 1 GiB.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 150 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 8 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py \
  -k "oneshot or auto or exchange_words" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_oneshot_auto_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_oneshot_auto_${tag}_$rev.log | tail -12
echo "tests $(el)"
timeout 170 python3 -m comparison --cols 65536,131072,262144,524288,1048576 --dtype fp32,bf16,fp16 --op softmax,log_softmax --pass fwd \
  --backends triton --variants auto,split --min-bytes 1GiB --quiet --format csv --output $out/cap_fwd_${tag}_$rev.csv 2>&1 | tail -1
python3 benchmarks/tuning/side_by_side.py $out cap fwd_${tag}_$rev
echo "elapsed $(el)"

## call 8
# session 48 call 8 (H100, call 7's block): not run; the device time was spent.
