# Session 49 (2026-11-27): every device call's script, in order. Each ran from the
# repository root as `sed -n '/^## call N$/,/^## call N+1$/p' <this file> > /tmp/c.sh;
# OUT=$OUT bash /tmp/c.sh`, with the working tree and .device/ carried; results were
# copied into benchmarks/h200_2026-11-27f/ or benchmarks/h100_2026-11-27f/ by GPU.

## call 1
# session 49 call 1 (H200). Where the Triton `split_oneshot` kernels lose time on the
# H200's widest rows: copies of them changing one thing each (the ticket, the poll, a
# free exchange, cache hints; benchmarks/tuning/triton_oneshot_exchange.py), forward and
# backward, fp32 and bf16, 131072-1048576 columns, 1 GiB; and 16-bit rows of 65536
# columns, `fused` (what `auto` runs for bf16) against `split_oneshot`, forward.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 300 python3 benchmarks/tuning/triton_oneshot_exchange.py --passes fwd --cols 262144,524288,1048576 2>&1 | tee $out/exchange_${tag}_$rev.txt
timeout 180 python3 benchmarks/tuning/triton_oneshot_exchange.py --passes bwd --cols 524288,1048576 \
  --variants base,nowait,pid,counter,nap,evict_loads 2>&1 | tee -a $out/exchange_${tag}_$rev.txt
echo "exchange $(el)"
timeout $(( 580 - $(el) )) python3 -m comparison --cols 49152,65536 --dtype bf16,fp16 --op softmax,log_softmax \
  --backends triton --variants auto,fused,split_oneshot --min-bytes 1GiB --quiet --format csv --output $out/w65536_fwd_${tag}_$rev.csv 2>&1 | tail -1
python3 benchmarks/tuning/side_by_side.py $out w65536 fwd_${tag}_$rev
echo "elapsed $(el)"

## call 2
# session 49 call 2 (H200). Call 1 found the exchange's wait to be the whole gap (no
# exchange: 96.8-97.0 forward, 101.6-102.3 backward at every width), an arrival counter
# and the cache hints worse, a nap between polls even. Here: the word published by a
# relaxed store instead of an atomic exchange (no round trip, no barrier), each thread
# spinning on its own lane's word (no block-wide min per poll), the merge in one
# reduction, and a nap inside the spin.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 300 python3 benchmarks/tuning/triton_oneshot_exchange.py --passes fwd --cols 262144,524288,1048576 \
  --variants base,nowait,nap,store_publish,spin,spin_store,spin_store_merge,spin_store_nap,store_merge 2>&1 | tee $out/exchange2_${tag}_$rev.txt
timeout 200 python3 benchmarks/tuning/triton_oneshot_exchange.py --passes bwd --cols 524288,1048576 \
  --variants base,nowait,nap,store_publish,spin,spin_store,spin_store_nap 2>&1 | tee -a $out/exchange2_${tag}_$rev.txt
echo "elapsed $(el)"

## call 3
# session 49 call 3 (H200; call 4 runs the same block on an H100). Call 1 found bf16 rows
# of 49152 columns at 70.9 in `fused` (what `auto` runs) against 97.0 in `split_oneshot`.
# Rows between `fused`'s reach and `split_oneshot`'s range (65536 up): Triton `auto`,
# `fused`, `split` and `split_oneshot`, forward and backward, fp32/bf16/fp16, at widths
# of real vocabularies (32000, 50304) and between, 1 GiB.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for pass in fwd bwd; do
  timeout 270 python3 -m comparison --cols 24576,32000,40960,49152,50304,57344,65536 --dtype fp32,bf16,fp16 --op softmax --pass $pass \
    --backends triton --variants auto,fused,split,split_oneshot --min-bytes 1GiB --quiet --format csv --output $out/between_${pass}_${tag}_$rev.csv 2>&1 | tail -1
  echo "$pass $(el)"
done
python3 benchmarks/tuning/side_by_side.py $out between fwd_${tag}_$rev bwd_${tag}_$rev
echo "elapsed $(el)"

## call 4
# session 49 call 4 (H100): call 3's block, on an H100.

## call 5
# session 49 call 5 (H200; call 6 runs the same block on an H100). `auto` with the new
# rule (softmax_policy.AUTO_ONESHOT_ABOVE: aligned rows past 16384-32768 columns to
# `split_oneshot`) as committed: the Triton GPU test files; `auto` at the widths of calls
# 3-4 (whose `auto` was the rule before), forward and backward, softmax and log-softmax,
# fp32/bf16/fp16; fp16 rows of 20480 (unmeasured before) against `fused` and `split`.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 240 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py \
  -k "not more_than_2_to_the_31 or split_oneshot" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_triton_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_triton_${tag}_$rev.log | tail -12
echo "tests $(el)"
for pass in fwd bwd; do
  timeout 150 python3 -m comparison --cols 24576,32000,40960,49152,50304,57344,65536 --dtype fp32,bf16,fp16 --op softmax,log_softmax --pass $pass \
    --backends triton --variants auto --min-bytes 1GiB --quiet --format csv --output $out/after_${pass}_${tag}_$rev.csv 2>&1 | tail -1
  timeout 60 python3 -m comparison --cols 20480 --dtype fp16 --op softmax --pass $pass \
    --backends triton --variants auto,fused,split,split_oneshot --min-bytes 1GiB --quiet --format csv --output $out/fp16_20480_${pass}_${tag}_$rev.csv 2>&1 | tail -1
  echo "$pass $(el)"
done
python3 benchmarks/tuning/side_by_side.py $out after fwd_${tag}_$rev bwd_${tag}_$rev
python3 benchmarks/tuning/side_by_side.py $out fp16_20480 fwd_${tag}_$rev bwd_${tag}_$rev
echo "elapsed $(el)"

## call 6
# session 49 call 6 (H100): call 5's block, on an H100.

## call 7
# session 49 call 7 (H200; call 8 runs the same block on an H100). Call 5 found the bf16
# log-softmax backward at 24576 columns (`fused`, as before) at 87.0 on the H200 (102.7
# for softmax's): the backward, both ops, fp32/bf16/fp16, 16384-32768 columns, `auto`,
# `fused` and `split_oneshot`; then compute-sanitizer memcheck over Triton's
# `split_oneshot` and `auto` (the forward's register cap, not memchecked before).
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 240 python3 -m comparison --cols 16384,20480,24576,28672,32000,32768 --dtype fp32,bf16,fp16 --op softmax,log_softmax --pass bwd \
  --backends triton --variants auto,fused,split_oneshot --min-bytes 1GiB --quiet --format csv --output $out/narrow_bwd_${tag}_$rev.csv 2>&1 | tail -1
python3 benchmarks/tuning/side_by_side.py $out narrow bwd_${tag}_$rev
echo "narrow $(el)"
timeout $(( 580 - $(el) )) python3 benchmarks/sanitize.py --out $out/sanitize_oneshot_${tag}_$rev.log --backends triton --variants split_oneshot,auto \
  > $out/sanitize_oneshot_${tag}_$rev.summary 2>&1; echo "sanitize rc $? at $(el)" >> $out/sanitize_oneshot_${tag}_$rev.summary
grep -E "cases under|errors|ERROR|RAISED|rc |plain run" $out/sanitize_oneshot_${tag}_$rev.summary | tail -8
echo "elapsed $(el)"

## call 8
# session 49 call 8 (H100): call 7's block, on an H100.

## call 9
# session 49 call 9 (H200; call 10 runs the same block on an H100). Calls 7-8: the bf16
# log-softmax backward past 16384 columns to `split_oneshot` on the H200 only, the fp16
# backward from 8192 (both as committed here): the policy's GPU tests; `auto` against
# `fused`, `split` and `split_oneshot` for the fp16 backward at 10240-16384 (below call
# 7's widths), and `auto` for the bf16 backward at 20480 / 24576, softmax and log-softmax.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 200 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py \
  -k "auto or oneshot or threshold" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_policy_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_policy_${tag}_$rev.log | tail -12
echo "tests $(el)"
timeout 150 python3 -m comparison --cols 10240,12288,14336,16384 --dtype fp16 --op softmax,log_softmax --pass bwd \
  --backends triton --variants auto,fused,split,split_oneshot --min-bytes 1GiB --quiet --format csv --output $out/fp16_bwd_${tag}_$rev.csv 2>&1 | tail -1
timeout 100 python3 -m comparison --cols 20480,24576 --dtype bf16 --op softmax,log_softmax --pass bwd \
  --backends triton --variants auto --min-bytes 1GiB --quiet --format csv --output $out/bf16_bwd_${tag}_$rev.csv 2>&1 | tail -1
python3 benchmarks/tuning/side_by_side.py $out fp16_bwd ${tag}_$rev
python3 benchmarks/tuning/side_by_side.py $out bf16_bwd ${tag}_$rev
echo "elapsed $(el)"

## call 10
# session 49 call 10 (H100): call 9's block, on an H100.

## call 11
# session 49 call 11 (H200; call 12 runs the same block on an H100). Where both backends'
# `auto` stand at 20480-65536 columns after this session's Triton rules (calls 3-10 timed
# Triton alone): cuda and triton `auto`, softmax, forward and backward, fp32/bf16/fp16.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
echo "build $(el)"
for pass in fwd bwd; do
  timeout 200 python3 -m comparison --cols 20480,24576,32000,40960,49152,50304,57344,65536 --dtype fp32,bf16,fp16 --op softmax --pass $pass \
    --backends cuda,triton --variants auto --min-bytes 1GiB --quiet --format csv --output $out/both_${pass}_${tag}_$rev.csv 2>&1 | tail -1
  echo "$pass $(el)"
done
python3 benchmarks/tuning/side_by_side.py $out both fwd_${tag}_$rev bwd_${tag}_$rev
echo "elapsed $(el)"

## call 12
# session 49 call 12 (H100): call 11's block, on an H100.

## call 13
# session 49 call 13 (H200; call 14 runs the same block on an H100). Call 11 found
# Triton's `fused` forward at 20480 columns on the H200 at 88.3 (fp32) / 84.6 (bf16), its
# tile padding rows to 32768: the fp32 and bf16 forward at 17408-28672, softmax and
# log-softmax, `auto` (`fused`) against `split_oneshot`.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 200 python3 -m comparison --cols 17408,20480,24576,28672 --dtype fp32,bf16 --op softmax,log_softmax --pass fwd \
  --backends triton --variants auto,fused,split_oneshot --min-bytes 1GiB --quiet --format csv --output $out/pow2_fwd_${tag}_$rev.csv 2>&1 | tail -1
python3 benchmarks/tuning/side_by_side.py $out pow2 fwd_${tag}_$rev
echo "elapsed $(el)"

## call 14
# session 49 call 14 (H100): call 13's block, on an H100.

## call 15
# session 49 call 15 (H200; call 16 runs the same block on an H100). The fp32 forward's
# rows past 16384 that fill at most 3/4 of `fused`'s tile to `split_oneshot` on GPUs of
# 30 GB/s or more of DRAM bandwidth per SM (softmax_policy.AUTO_ONESHOT_PADDED_FAST_SM), as
# committed: the policy's GPU tests; `auto` at calls 13-14's widths, fp32 forward.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 150 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py \
  -k "auto or oneshot or threshold" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_policy_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_policy_${tag}_$rev.log | tail -12
timeout 100 python3 -m comparison --cols 17408,20480,24576,28672 --dtype fp32 --op softmax,log_softmax --pass fwd \
  --backends triton --variants auto --min-bytes 1GiB --quiet --format csv --output $out/padded_fwd_${tag}_$rev.csv 2>&1 | tail -1
python3 benchmarks/tuning/side_by_side.py $out padded fwd_${tag}_$rev
echo "elapsed $(el)"

## call 16
# session 49 call 16 (H100): call 15's block, on an H100.

## call 17
