# Session 47 (2026-11-27): every device call's script, in order. Each ran from the
# repository root as `sed -n '/^## call N$/,/^## call N+1$/p' <this file> > /tmp/c.sh;
# OUT=$OUT bash /tmp/c.sh`, with the working tree and .device/ (the experiments' patched
# trees, git-ignored) carried; results were copied into this folder.

## call 1
# session 47 call 1 (H200). Triton: the new `split_oneshot` variant (kernels_triton/
# softmax_oneshot.py, uncommitted at ef92754 + the working tree) on the GPU: its tests,
# then against `split` forward and backward, fp32 and bf16, 65536-1048576 columns, 1 GiB.
# CUDA: what split_hybrid's ticket costs and whether narrower forward slices help. Trees:
# the checkout; .device/noticket, ef92754 with each CTA's row and slice taken from its
# block index instead of a ticket (measurement only: it relies on the hardware starting
# CTAs in index order, which nothing promises); .device/slice112, ef92754 with the
# forward's two-per-SM slices at most 112 KB instead of 144 KB; split_hybrid at 1048576
# columns, fp32 and bf16, forward and backward, two rounds.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root" "$root/.device/noticket" "$root/.device/slice112" > $out/build.txt 2>&1 &
builder=$!
timeout 200 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py \
  -k "oneshot" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_oneshot_${tag}.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_oneshot_${tag}.log | tail -12
echo "tests $(el)"
for pass in fwd bwd; do
  timeout 150 python3 -m comparison --cols 65536,131072,262144,524288,1048576 --dtype fp32,bf16 --op softmax --pass $pass \
    --backends triton --variants auto,split,split_oneshot --min-bytes 1GiB --quiet --format csv --output $out/os_${pass}_${tag}.csv 2>&1 | tail -1
done
python3 - "$out" "$tag" <<'PY'
import csv, sys
out, tag = sys.argv[1], sys.argv[2]
for pass_ in ("fwd", "bwd"):
    rows = {}
    for r in csv.DictReader(open(f"{out}/os_{pass_}_{tag}.csv")):
        pct = f"{float(r['pct_of_copy']):.1f}" if r.get("pct_of_copy") else "-"
        rows.setdefault((r["dtype"], int(r["cols"])), []).append(f"{r['variant']}={pct}{'' if r['ok'] in ('True', 'ok', 'yes') else ' ' + r['ok']}")
    for (dt, cols), v in sorted(rows.items()):
        print(pass_, dt, cols, "  ".join(v))
PY
echo "triton $(el)"
wait $builder; cat $out/build.txt
echo "build $(el)"
compare_trees tk_${tag} fwd,bwd 2 "--cols 1048576 --dtype fp32,bf16 --op softmax --backends cuda --variants split_hybrid --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/noticket" "$root/.device/slice112" 2>&1 | tail -30
echo "elapsed $(el)"

## call 2
# session 47 call 2 (H200): split_oneshot's chunk geometries (64-bit chunk offsets made
# 32-bit after call 1: 133 -> 105 registers in the fp32 forward, 3 -> 4 programs per SM)
# through the package's plan and launch, beside split, forward and backward, fp32 and
# bf16, 65536-1048576 columns, 1 GiB (benchmarks/tuning/triton_oneshot_geometry.py).
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 560 python3 benchmarks/tuning/triton_oneshot_geometry.py 2>&1 | tee $out/oneshot_geometry_${tag}.txt
echo "elapsed $(el)"

## call 3
# session 47 call 3 (H100): the Triton test files on the GPU (split_oneshot's 2^31-element
# cases included), compute-sanitizer memcheck over split_oneshot, `auto` / `split` /
# `split_oneshot` forward and backward, fp32 and bf16, 65536-1048576 columns, 1 GiB (the
# `auto` rule as set from call 2); the fp32 geometries on this GPU.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 240 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py \
  -k "not more_than_2_to_the_31 or split_oneshot" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_triton_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_triton_${tag}_$rev.log | tail -12
echo "tests $(el)"
for pass in fwd bwd; do
  timeout 150 python3 -m comparison --cols 65536,131072,262144,524288,1048576 --dtype fp32,bf16 --op softmax --pass $pass \
    --backends triton --variants auto,split,split_oneshot --min-bytes 1GiB --quiet --format csv --output $out/os_${pass}_${tag}_$rev.csv 2>&1 | tail -1
done
python3 benchmarks/tuning/side_by_side.py $out os fwd_${tag}_$rev bwd_${tag}_$rev
echo "compare $(el)"
timeout 150 python3 benchmarks/tuning/triton_oneshot_geometry.py --dtypes fp32 2>&1 | tee $out/oneshot_geometry_${tag}.txt
echo "geometry $(el)"
timeout $(( 590 - $(el) )) python3 benchmarks/sanitize.py --out $out/sanitize_oneshot_${tag}_$rev.log --backends triton --variants split_oneshot \
  > $out/sanitize_oneshot_${tag}_$rev.summary 2>&1; echo "sanitize rc $? at $(el)" >> $out/sanitize_oneshot_${tag}_$rev.summary
grep -E "cases under|errors|ERROR|RAISED|rc |plain run" $out/sanitize_oneshot_${tag}_$rev.summary | tail -8
echo "elapsed $(el)"

## call 4
# session 47 call 4 (H200): call 3 on this GPU (ef5eb58): the Triton test files,
# memcheck over split_oneshot, `auto` / `split` / `split_oneshot` softmax forward and
# backward, fp32 and bf16, 65536-1048576 columns, 1 GiB; log-softmax fp32 `auto` against
# `split` (auto takes split_oneshot there too).
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 240 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py \
  -k "not more_than_2_to_the_31 or split_oneshot" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_triton_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_triton_${tag}_$rev.log | tail -12
echo "tests $(el)"
for pass in fwd bwd; do
  timeout 150 python3 -m comparison --cols 65536,131072,262144,524288,1048576 --dtype fp32,bf16 --op softmax --pass $pass \
    --backends triton --variants auto,split,split_oneshot --min-bytes 1GiB --quiet --format csv --output $out/os_${pass}_${tag}_$rev.csv 2>&1 | tail -1
  timeout 100 python3 -m comparison --cols 65536,131072,262144,524288,1048576 --dtype fp32 --op log_softmax --pass $pass \
    --backends triton --variants auto,split --min-bytes 1GiB --quiet --format csv --output $out/oslog_${pass}_${tag}_$rev.csv 2>&1 | tail -1
done
python3 benchmarks/tuning/side_by_side.py $out os fwd_${tag}_$rev bwd_${tag}_$rev
python3 benchmarks/tuning/side_by_side.py $out oslog fwd_${tag}_$rev bwd_${tag}_$rev
echo "compare $(el)"
timeout $(( 590 - $(el) )) python3 benchmarks/sanitize.py --out $out/sanitize_oneshot_${tag}_$rev.log --backends triton --variants split_oneshot \
  > $out/sanitize_oneshot_${tag}_$rev.summary 2>&1; echo "sanitize rc $? at $(el)" >> $out/sanitize_oneshot_${tag}_$rev.summary
grep -E "cases under|errors|ERROR|RAISED|rc |plain run" $out/sanitize_oneshot_${tag}_$rev.summary | tail -8
echo "elapsed $(el)"

## call 5
# session 47 call 5 (H200): why the package's split_oneshot forward measured below its
# prototype on the H200 (call 4, fp32 262144 / 524288: 86.9 / 83.6; the prototype 91.0 /
# 87.8 in the morning's run on another H200): the prototype again on this machine, and
# .device/kp128 (ef5eb58 with the poll always 128 words wide, as the prototype's) against
# the checkout, forward and backward fp32, 262144 / 524288 / 1048576, two rounds.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 120 python3 benchmarks/tuning/triton_oneshot_split.py --dtype fp32 --configs 8192x4 2>&1 | tee $out/prototype_again_${tag}.txt | grep -E "^fp32|summary"
echo "prototype $(el)"
compare_trees kp_${tag} fwd,bwd 2 "--cols 262144,524288,1048576 --dtype fp32 --op softmax --backends triton --variants split_oneshot --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/kp128" 2>&1 | tail -12
(cd $out && tar -czf kp_${tag}.tgz kp_${tag}_*.csv && rm kp_${tag}_*.csv)
echo "elapsed $(el)"

## call 6
# session 47 calls 6 (H100) and 7 (H200): main's head (poll lanes at least a lane per
# thread): the Triton test files, memcheck over split_oneshot, softmax and log-softmax
# fp32 `auto` (split_oneshot) against `split`, forward and backward, 65536-1048576, 1 GiB.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 240 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py \
  -k "not more_than_2_to_the_31 or split_oneshot" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_triton_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_triton_${tag}_$rev.log | tail -12
echo "tests $(el)"
for pass in fwd bwd; do
  timeout 150 python3 -m comparison --cols 65536,131072,262144,524288,1048576 --dtype fp32 --op softmax,log_softmax --pass $pass \
    --backends triton --variants auto,split --min-bytes 1GiB --quiet --format csv --output $out/final_${pass}_${tag}_$rev.csv 2>&1 | tail -1
done
python3 benchmarks/tuning/side_by_side.py $out final fwd_${tag}_$rev bwd_${tag}_$rev
echo "compare $(el)"
timeout $(( 590 - $(el) )) python3 benchmarks/sanitize.py --out $out/sanitize_oneshot_${tag}_$rev.log --backends triton --variants split_oneshot \
  > $out/sanitize_oneshot_${tag}_$rev.summary 2>&1; echo "sanitize rc $? at $(el)" >> $out/sanitize_oneshot_${tag}_$rev.summary
grep -E "cases under|errors|ERROR|RAISED|rc |plain run" $out/sanitize_oneshot_${tag}_$rev.summary | tail -8
echo "elapsed $(el)"

## call 8
# session 47 call 8 (H200): does Triton `split`'s wait lose to the same replicated poll
# as split_oneshot's did? .device/splitpoll: 1518cc5 with split's words polled as a
# vector of max(SPLIT, 32 x warps) lanes (POLL, masked past SPLIT) against the checkout,
# `split` forward and backward, bf16 and fp32, 65536-1048576, 1 GiB, two rounds.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
compare_trees sp_${tag} fwd,bwd 2 "--cols 65536,131072,262144,524288,1048576 --dtype bf16,fp32 --op softmax --backends triton --variants split --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/splitpoll" 2>&1 | tail -24
(cd $out && tar -czf sp_${tag}.tgz sp_${tag}_*.csv && rm sp_${tag}_*.csv)
echo "elapsed $(el)"

## call 9
# session 47 call 9 (H200): the exchange-words test over split_oneshot too (calls of both
# variants interleaved on the same words, two streams, a captured call replayed).
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 200 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_triton_softmax.py -k "exchange_words" 2>&1 \
  | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_exchange_words_${tag}_$rev.log; tail -30 $out/gpu_tests_exchange_words_${tag}_$rev.log

## call 10
