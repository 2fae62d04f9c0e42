# Session 45's device calls (2026-11-27), one section per call, each run from the
# repository root on the device machine as
#   sed -n '/^## call N$/,/^## call N+1$/p' benchmarks/h200_2026-11-27b/device_calls.sh > /tmp/c.sh; OUT=$OUT bash /tmp/c.sh
# with .device/commit holding the commit under test (and .device/base a copy of a base
# tree where a call compares two). Results: this folder (H200) and benchmarks/h100_2026-11-27b/.

## call 1
# session 45 call 1 (H200): main's head (18c97af): the CUDA softmax GPU test file and the
# Triton backward's; compute-sanitizer's four tools over every backward variant at the
# default shapes (not run since the 16-bit exp change, faa1a67); the busy-SMs experiment
# (benchmarks/tuning/hybrid_busy_sms_experiment.sh, first run).
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
echo "build $(el)"
timeout 120 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_cuda_softmax.py tests/test_triton_softmax_backward.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_${tag}_$rev.log | tail -8
echo "tests $(el)"
OUT=$out timeout 330 bash benchmarks/tuning/hybrid_busy_sms_experiment.sh 2>&1 | tail -30
echo "busy $(el)"
timeout $(( 590 - $(el) )) python3 benchmarks/sanitize.py --out $out/sanitize_backward_${tag}_$rev.log --backends cuda \
  --ops softmax_backward,log_softmax_backward > $out/sanitize_backward_${tag}_$rev.summary 2>&1; echo "sanitize rc $? at $(el)" >> $out/sanitize_backward_${tag}_$rev.summary
tail -8 $out/sanitize_backward_${tag}_$rev.summary
echo "elapsed $(el)"

## call 2
# session 45 call 2: the backward's block_hybrid clusters of two 512-thread CTAs per SM
# (checkout, uncommitted: tried before the 1024-thread clusters while 16 of them hold the
# row) against main's head (.device/base, 2b6dd7b: busiest cluster size, auto fallback): the backward's block_hybrid, split
# and auto, softmax fp32 and bf16, 131072-1048576, 1 GiB, two rounds; both trees' plans;
# the new test of offset views past cluster_regs' widest cluster (fixed in 2b6dd7b).
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root" "$root/.device/base" 2>&1
echo "build $(el)"
compare_trees bp512_${tag} bwd 2 "--cols 131072,262144,524288,1048576 --dtype fp32,bf16 --op softmax --backends cuda --variants block_hybrid,split,auto --min-bytes 1GiB --quiet --format csv" \
  "$root/.device/base" "$root" 2>&1 | tail -40
echo "bench $(el)"
for tree in "$root/.device/base" "$root"; do
  (cd "$tree" && PYTHONPATH=$tree python3 - "$(basename "$tree")" <<'PY'
import sys, torch, kernels_cuda.softmax as s
for dt in (torch.float32, torch.bfloat16):
    for cols in (131072, 262144, 524288, 1048576):
        x = torch.empty((1 << 28) // cols, cols, device="cuda", dtype=dt)
        for v in ("block_hybrid", "auto"):
            p = s.plan(x, "softmax_backward", v, dy=x)
            print(f"{sys.argv[1]:6} {str(dt)[6:]:8} {cols:7} {v:12} {p['variant']} k={p['cluster_size']} "
                  f"threads={p['threads']} active={p['active_clusters']} resident_per_sm={p['resident_per_sm']} smem={p['smem_bytes']}")
PY
  )
done
timeout $(( 590 - $(el) )) python3 -m pytest -q -rfE --tb=short -p no:cacheprovider tests/test_cuda_softmax.py -k "offset_views_past" 2>&1 | tail -3
echo "elapsed $(el)"

## call 3
# session 45 call 3 (H100): (a) the busiest cluster size (2b6dd7b, .device/base) against
# 18c97af (.device/pre), forward `auto` at 524288 and 1048576, fp32 and bf16; (b) the
# backward's clusters of two 512-thread CTAs per SM (16-bit ones to 8 CTAs) and rule 1a
# for fp32 too (checkout, uncommitted) against 2b6dd7b: softmax backward block_hybrid,
# split and auto at 131072-1048576 fp32 and bf16, two rounds; log-softmax backward and
# fp16 `auto`, one round; plans of the checkout.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root" "$root/.device/base" "$root/.device/pre" 2>&1
echo "build $(el)"
compare_trees busy_${tag} fwd 1 "--cols 524288,1048576 --dtype fp32,bf16 --op softmax,log_softmax --backends cuda --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root/.device/pre" "$root/.device/base" 2>&1 | tail -10
echo "busy $(el)"
compare_trees bp512_${tag} bwd 2 "--cols 131072,262144,524288,1048576 --dtype fp32,bf16 --op softmax --backends cuda --variants block_hybrid,split,auto --min-bytes 1GiB --quiet --format csv" \
  "$root/.device/base" "$root" 2>&1 | tail -10
echo "bp512 $(el)"
compare_trees bp512o_${tag} bwd 1 "--cols 131072,262144,524288,1048576 --dtype fp32,fp16,bf16 --op log_softmax --backends cuda --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root/.device/base" "$root" 2>&1 | tail -14
compare_trees bp512h_${tag} bwd 1 "--cols 131072,262144,524288,1048576 --dtype fp16 --op softmax --backends cuda --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root/.device/base" "$root" 2>&1 | tail -6
echo "others $(el)"
PYTHONPATH=$root python3 - <<'PY'
import torch, kernels_cuda.softmax as s
for dt in (torch.float32, torch.bfloat16):
    for cols in (131072, 262144, 524288, 1048576):
        x = torch.empty((1 << 28) // cols, cols, device="cuda", dtype=dt)
        for op, v in (("softmax", "auto"), ("softmax_backward", "block_hybrid"), ("softmax_backward", "auto")):
            p = s.plan(x, op, v, dy=x) if op.endswith("backward") else s.plan(x, op, v)
            print(f"{str(dt)[6:]:8} {cols:7} {op:16} {v:12} {p['variant']} k={p['cluster_size']} "
                  f"threads={p['threads']} active={p['active_clusters']} resident_per_sm={p['resident_per_sm']}")
PY
echo "elapsed $(el)"

## call 4
# session 45 call 4 (H200): bdc1464 (checkout) against 2b6dd7b (.device/base): the
# backward's `auto` where rule 1a now takes fp32 rows of 256-512 KB on this GPU (65536,
# 98304, 131072), softmax and log-softmax; the CUDA softmax test file and the Triton
# backward's; compute-sanitizer's four tools over the backward's block_hybrid and auto.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root" "$root/.device/base" 2>&1
echo "build $(el)"
compare_trees r1a32_${tag} bwd 1 "--cols 65536,98304,131072 --dtype fp32 --op softmax,log_softmax --backends cuda --variants auto,split --min-bytes 1GiB --quiet --format csv" \
  "$root/.device/base" "$root" 2>&1 | tail -8
echo "bench $(el)"
timeout 120 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_cuda_softmax.py tests/test_triton_softmax_backward.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_${tag}_$rev.log | tail -12
echo "tests $(el)"
timeout $(( 590 - $(el) )) python3 benchmarks/sanitize.py --out $out/sanitize_backward_${tag}_$rev.log --backends cuda --variants block_hybrid,auto \
  --ops softmax_backward,log_softmax_backward > $out/sanitize_backward_${tag}_$rev.summary 2>&1; echo "sanitize rc $? at $(el)" >> $out/sanitize_backward_${tag}_$rev.summary
grep -E "cases under|errors|ERROR|RAISED|rc " $out/sanitize_backward_${tag}_$rev.summary | tail -12
echo "elapsed $(el)"

## call 5
# session 45 call 5 (H100): main's head: the CUDA softmax test file and the Triton
# backward's; where the wide rows stand (both backends' `auto`, forward and backward,
# fp32 and bf16, 1 GiB); compute-sanitizer's four tools over the backward's block_hybrid
# and auto; the plans of the tests' widest block_hybrid rows.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
echo "build $(el)"
timeout 120 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_cuda_softmax.py tests/test_triton_softmax_backward.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_${tag}_$rev.log | tail -12
echo "tests $(el)"
for pass in fwd bwd; do
  timeout 150 python3 -m comparison --cols 131072,262144,524288,1048576 --dtype fp32,bf16 --op softmax --pass $pass \
    --backends cuda,triton --variants auto --min-bytes 1GiB --quiet --format markdown --layout long --output $out/wide_standing_${pass}_${tag}_$rev.md 2>&1 | tail -1
done
echo "bench $(el)"
python3 - <<'PY'
import torch, kernels_cuda.softmax as s
for dt in (torch.float16, torch.bfloat16, torch.float32):
    for cols in (1048576, 1572864):
        x = torch.empty(2, cols, device="cuda", dtype=dt)
        p = s.plan(x, "softmax", "block_hybrid")
        print(str(dt)[6:], cols, {k: p[k] for k in ("status", "threads", "cluster_size", "active_clusters", "resident_per_sm", "smem_bytes", "smem_limit")})
PY
timeout $(( 590 - $(el) )) python3 benchmarks/sanitize.py --out $out/sanitize_backward_${tag}_$rev.log --backends cuda --variants block_hybrid,auto \
  --ops softmax_backward,log_softmax_backward > $out/sanitize_backward_${tag}_$rev.summary 2>&1; echo "sanitize rc $? at $(el)" >> $out/sanitize_backward_${tag}_$rev.summary
grep -E "cases under|errors|ERROR|RAISED|rc |plain run" $out/sanitize_backward_${tag}_$rev.summary | tail -12
echo "elapsed $(el)"

## call 6
# session 45 call 6 (H200): main's head: the CUDA softmax test file and the Triton
# backward's; where the wide rows stand (both backends' `auto`, forward and backward,
# fp32 and bf16, 1 GiB); compute-sanitizer's four tools over the other backward variants
# (the 16-bit exp change, faa1a67, touched every backward kernel's math).
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
echo "build $(el)"
timeout 120 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_cuda_softmax.py tests/test_triton_softmax_backward.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_${tag}_$rev.log | tail -12
echo "tests $(el)"
for pass in fwd bwd; do
  timeout 150 python3 -m comparison --cols 131072,262144,524288,1048576 --dtype fp32,bf16 --op softmax --pass $pass \
    --backends cuda,triton --variants auto --min-bytes 1GiB --quiet --format markdown --layout long --output $out/wide_standing_${pass}_${tag}_$rev.md 2>&1 | tail -1
done
echo "bench $(el)"
timeout $(( 595 - $(el) )) python3 benchmarks/sanitize.py --out $out/sanitize_backward_rest_${tag}_$rev.log --backends cuda \
  --variants warp_per_row,block_smem,block_uncached,cluster_regs,split,split_smem \
  --ops softmax_backward,log_softmax_backward > $out/sanitize_backward_rest_${tag}_$rev.summary 2>&1; echo "sanitize rc $? at $(el)" >> $out/sanitize_backward_rest_${tag}_$rev.summary
grep -E "cases under|errors|ERROR|RAISED|rc |plain run" $out/sanitize_backward_rest_${tag}_$rev.summary | tail -12
echo "elapsed $(el)"

## call 7
# session 45 call 7 (H100; call 8 the same on the H200): the split backward's chunks of
# 256 threads where those of 128 leave one row group (fp32 1048576: 128 chunks of 32 KB
# of y and dy, one CTA per SM, instead of 256 of 16 KB), and rule 1b taking one group in
# them (checkout, uncommitted) against main's head (.device/base, 726724f): the
# backward's auto, split and split_smem at fp32 524288 and 1048576, softmax and
# log-softmax, 1 GiB, two rounds; the CUDA softmax test file on the checkout.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root" "$root/.device/base" 2>&1
echo "build $(el)"
compare_trees wsplit_${tag} bwd 2 "--cols 524288,1048576 --dtype fp32 --op softmax,log_softmax --backends cuda --variants auto,split,split_smem --min-bytes 1GiB --quiet --format csv" \
  "$root/.device/base" "$root" 2>&1 | tail -6
echo "bench $(el)"
timeout $(( 590 - $(el) )) python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_cuda_softmax.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_wsplit_${tag}.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_wsplit_${tag}.log | tail -12
echo "elapsed $(el)"

## call 8
# session 45 call 8 (H200): call 7's script (the section above), run on the H200.

## call 9
