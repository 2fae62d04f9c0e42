# Session 44 (2026-11-27): every device call's script, run from the checkout as
#   sed -n '/^## call N$/,/^## call N+1$/p' benchmarks/h200_2026-11-27/device_calls.sh > /tmp/c.sh; OUT=$OUT bash /tmp/c.sh
# .device/base: main's head at the session's start (git archive of 5056c3c), carried.

## call 1
# session 44 call 1 (H200): block_hybrid on a persistent grid (the resident CTAs or
# clusters, each looping over rows and requesting the next row's shared-memory pieces
# as it writes each out; fp32 forward also its next registers) against main's head:
# its GPU tests first (the new persistent-rows test, cluster_tma's slot-reuse test of
# session 43 never run on a GPU, test_plan_fields, the matrix's cluster and
# block_hybrid cases), then CUDA `auto` and `block_hybrid`, 1 GiB, forward and backward.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root" "$root/.device/base" 2>&1
echo "build $(el)"
timeout 150 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_cuda_softmax.py -k "persistent_ctas or slots_are_reused or plan_fields" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_persistent_${tag}.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_persistent_${tag}.log | tail -8
echo "tests $(el)"
compare_trees ph_${tag} fwd,bwd 1 "--cols 32768,65536,131072,262144,524288,1048576 --dtype fp32,bf16 --op softmax --backends cuda --variants auto,block_hybrid --min-bytes 1GiB --quiet --format csv" \
  "$root/.device/base" "$root" 2>&1 | tail -52
echo "bench $(el)"
timeout $(( 590 - $(el) )) python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_matrix.py -k "cuda and (block_hybrid or cluster)" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_matrix_hybrid_${tag}.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_matrix_hybrid_${tag}.log | tail -8
echo "elapsed $(el)"

## call 2
# session 44 call 2 (H100) and call 3 (H200): the backward's block_hybrid over a cluster,
# named, against the backward's `auto`, at main's head: softmax and log-softmax,
# bf16 / fp16 / fp32, 65536 to 1048576 columns, 1 GiB (H100 also: the tests session 43
# left unrun there: test_plan_fields fixed, cluster_tma's slot-reuse test).
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root" 2>&1
echo "build $(el)"
timeout 100 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_cuda_softmax.py -k "slots_are_reused or plan_fields" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_pending_${tag}.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_pending_${tag}.log | tail -8
echo "tests $(el)"
for dt in bf16 fp16 fp32; do
  compare_trees hb_${dt}_${tag}_$rev bwd 1 "--cols 65536,98304,131072,196608,262144,524288,1048576 --dtype $dt --op softmax,log_softmax --backends cuda --variants auto,block_hybrid --min-bytes 1GiB --quiet --format csv" \
    "$root" 2>&1 | tail -16
done
echo "elapsed $(el)"

## call 3 ran the script of call 2 on an H200
## call 4
# session 44 call 4 (H200): the backward's rule 1a (16-bit rows that split would take by
# their width go to block_hybrid's clusters) in the checkout against main's head
# (.device/base): the backward's `auto`, softmax and log-softmax, bf16 and fp16, even and
# odd widths, 1 GiB; then the CUDA softmax GPU test file.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root" "$root/.device/base" 2>&1
echo "build $(el)"
compare_trees r1a_${tag} bwd 1 "--cols 98304,131072,196608,262144,524288,1048576,151937,262145 --dtype bf16,fp16 --op softmax,log_softmax --backends cuda --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root/.device/base" "$root" 2>&1 | tail -34
echo "bench $(el)"
timeout $(( 590 - $(el) )) python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_cuda_softmax.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_cuda_${tag}_r1a.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_cuda_${tag}_r1a.log | tail -8
echo "elapsed $(el)"

## call 5
# session 44 call 5 (H100): rule 1a as committed (odd rows read in three parts left to
# split) in the checkout against main's head (.device/base): the backward's `auto`,
# softmax and log-softmax, bf16 and fp16, 1 GiB; then the CUDA softmax GPU test file.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root" "$root/.device/base" 2>&1
echo "build $(el)"
compare_trees r1a_${tag} bwd 1 "--cols 131072,262144,524288,1048576,262145 --dtype bf16,fp16 --op softmax,log_softmax --backends cuda --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root/.device/base" "$root" 2>&1 | tail -22
echo "bench $(el)"
timeout $(( 590 - $(el) )) python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_cuda_softmax.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_cuda_${tag}_r1a.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_cuda_${tag}_r1a.log | tail -8
echo "elapsed $(el)"

## call 6
# session 44 call 6 (H200): 16-bit log-softmax backward's exp(y) as fast_exp2 (bf16 took
# expf) in the checkout against main's head (.device/base = bcbed24): the backward's
# `auto`, bf16 log-softmax (softmax as the control), 1 GiB; then the GPU tests that judge
# gradients (the CUDA softmax file, the matrix's CUDA log-softmax cases, the property tests).
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root" "$root/.device/base" 2>&1
echo "build $(el)"
compare_trees gexp_${tag} bwd 1 "--cols 1024,4096,8192,32768,65536,131072,262144,524288,1048576 --dtype bf16 --op log_softmax,softmax --backends cuda --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root/.device/base" "$root" 2>&1 | tail -20
echo "bench $(el)"
timeout 200 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_cuda_softmax.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_cuda_${tag}_gexp.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_cuda_${tag}_gexp.log | tail -8
timeout $(( 590 - $(el) )) python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_matrix.py tests/test_properties.py tests/test_agreement.py -k "cuda and log_softmax or properties or agreement" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_grad_${tag}_gexp.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_grad_${tag}_gexp.log | tail -8
echo "elapsed $(el)"

## call 7
# session 44 call 7 (H200, the machine of call 6, warm): the three matrix cases that ran
# out of GPU memory under 8 workers in call 6, in one process (nothing written to $OUT;
# result: 24 passed).
export PYTHONPATH=$PWD TORCH_EXTENSIONS_DIR=/tmp/torch_ext; nvidia-smi --query-gpu=name --format=csv,noheader; timeout 300 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider tests/test_matrix.py -k "cuda and log_softmax_backward and 1000x262144" 2>&1 | tail -3

## call 8
# session 44 call 8 (H200): 16-bit forward rows past one 512-thread CTA that one
# 1024-thread CTA holds (144-290 KB), run instead as clusters of 512-thread CTAs, two per
# SM (.device/pairk: block_hybrid's one-CTA plan skipped where the pair shape applies),
# against main's head (.device/base = faa1a67): forward `auto`, bf16 and fp16, softmax and
# log-softmax, 1 GiB; and the plans of the widest forward rows (how many clusters are
# resident at once).
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root/.device/base" "$root/.device/pairk" 2>&1
echo "build $(el)"
compare_trees pairk_${tag} fwd 1 "--cols 81920,98304,114688,131072,139264,151936,262144 --dtype bf16,fp16 --op softmax,log_softmax --backends cuda --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root/.device/base" "$root/.device/pairk" 2>&1 | tail -30
echo "bench $(el)"
(cd "$root/.device/base" && PYTHONPATH=$PWD python3 - <<'PY'
import torch, kernels_cuda.softmax as ks
for dt in (torch.float32, torch.bfloat16):
    for cols in (131072, 262144, 524288, 1048576):
        x = torch.empty(1024 * 1024 * 256 // cols, cols, dtype=dt, device="cuda")
        for op in ("softmax", "softmax_backward"):
            p = ks.plan(x, op, "auto", dy=x) if op.endswith("backward") else ks.plan(x, op, "auto")
            print(dt, cols, op, {k: p[k] for k in ("variant", "threads", "cluster_size", "blocks", "active_clusters", "resident_per_sm", "smem_bytes", "split")})
PY
) 2>&1 | tail -16
echo "elapsed $(el)"

## call 9
# session 44 call 9 (H200): 16-bit forward rows of 144-290 KB as clusters of 512-thread
# CTAs (committed form) in the checkout against main's head (.device/base = faa1a67):
# forward `auto`, bf16 and fp16, softmax and log-softmax, 1 GiB; the CUDA softmax GPU
# test file; compute-sanitizer's four tools over block_hybrid at the new shapes.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root" "$root/.device/base" 2>&1
echo "build $(el)"
compare_trees pk_${tag} fwd 1 "--cols 65536,73728,98304,131072,139264,145000,151936,262144 --dtype bf16,fp16 --op softmax,log_softmax --backends cuda --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root/.device/base" "$root" 2>&1 | tail -34
echo "bench $(el)"
timeout 150 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_cuda_softmax.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_cuda_${tag}_pk.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_cuda_${tag}_pk.log | tail -8
echo "tests $(el)"
timeout $(( 590 - $(el) )) python3 benchmarks/sanitize.py --out $out/sanitize_pair_clusters_${tag}.log --backends cuda --variants block_hybrid,auto \
  --dtypes bf16,fp16 --ops softmax,log_softmax --shapes 3x131072,5x139265,2x98304 2>&1 | tail -6
echo "elapsed $(el)"

## call 10
# session 44 call 10 (H200): fp32 forward rows in block_hybrid's 512-thread CTAs, two per
# SM, as the 16-bit rows on GPUs of 30 GB/s or more per SM (.device/p32: fp32 instances of
# the 512-thread kernel; one per row to 144 KB, clusters of them past it), against main's
# head (.device/base = 064ed87): forward `auto`, fp32, softmax and log-softmax, 1 GiB.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root/.device/base" "$root/.device/p32" 2>&1
echo "build $(el)"
compare_trees p32_${tag} fwd 2 "--cols 36864,40000,49152,65536,98304,131072,196608,262144,524288 --dtype fp32 --op softmax,log_softmax --backends cuda --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root/.device/base" "$root/.device/p32" 2>&1 | tail -20
echo "elapsed $(el)"

## call 11
# session 44 call 11 (H200): fp32 block_hybrid in 512-thread CTAs, two per SM, on GPUs of
# fast SMs (committed form: clusters of at most kHybridSmallFp32MaxCluster) in the
# checkout against main's head (.device/base = 064ed87): forward `auto`, fp32, softmax and
# log-softmax, 1 GiB; the CUDA softmax GPU test file; compute-sanitizer's four tools over
# fp32 block_hybrid at the new shapes.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root" "$root/.device/base" 2>&1
echo "build $(el)"
compare_trees f32p_${tag} fwd 1 "--cols 32768,36864,40000,65536,98304,131072,151936,262144,524288,1048576 --dtype fp32 --op softmax,log_softmax --backends cuda --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root/.device/base" "$root" 2>&1 | tail -22
echo "bench $(el)"
timeout 150 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_cuda_softmax.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_cuda_${tag}_f32p.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_cuda_${tag}_f32p.log | tail -8
echo "tests $(el)"
timeout $(( 590 - $(el) )) python3 benchmarks/sanitize.py --out $out/sanitize_fp32_pairs_${tag}.log --backends cuda --variants block_hybrid,auto \
  --dtypes fp32 --ops softmax,log_softmax --shapes 3x36864,5x40001,3x65536,2x131072,2x262144 2>&1 | tail -6
echo "elapsed $(el)"

## call 12
# session 44 call 12 (H100): main's head (4f8d4a5) against bcbed24 (rule 1a, before the
# 16-bit log-softmax backward's fast_exp2) for the bf16 backward, 1 GiB; the CUDA softmax
# GPU test file; then where the wide rows stand, both backends' `auto`, forward and
# backward, fp32 and bf16, 1 GiB.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root" "$root/.device/base" 2>&1
echo "build $(el)"
compare_trees gexp_${tag} bwd 1 "--cols 4096,32768,131072,262144,524288,1048576 --dtype bf16 --op log_softmax,softmax --backends cuda --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root/.device/base" "$root" 2>&1 | tail -13
echo "bench $(el)"
timeout 150 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_cuda_softmax.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_cuda_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_cuda_${tag}_$rev.log | tail -8
echo "tests $(el)"
for pass in fwd bwd; do
  timeout $(( (590 - $(el)) / 2 )) python3 -m comparison --cols 131072,262144,524288,1048576 --dtype fp32,bf16 --op softmax --pass $pass \
    --backends cuda,triton --variants auto --min-bytes 1GiB --quiet --format markdown --layout long --output $out/wide_standing_${pass}_${tag}_$rev.md 2>&1 | tail -1
done
echo "elapsed $(el)"

## call 13
# session 44 call 13 (H200): main's head: where the wide rows stand, both backends'
# `auto`, forward and backward, fp32 and bf16, 1 GiB; the matrix's CUDA block_hybrid,
# cluster and split cases (1000 rows: the new 512-thread shapes, rule 1a).
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
tag=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
rev=$(cat .device/commit)
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
echo "build $(el)"
for pass in fwd bwd; do
  timeout 150 python3 -m comparison --cols 131072,262144,524288,1048576 --dtype fp32,bf16 --op softmax --pass $pass \
    --backends cuda,triton --variants auto --min-bytes 1GiB --quiet --format markdown --layout long --output $OUT/wide_standing_${pass}_${tag}_$rev.md 2>&1 | tail -1
done
echo "bench $(el)"
timeout $(( 590 - $(el) )) python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 6 tests/test_matrix.py -k "cuda and (block_hybrid or cluster or split or auto)" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $OUT/gpu_tests_matrix_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $OUT/gpu_tests_matrix_${tag}_$rev.log | tail -8
echo "elapsed $(el)"

## call 14
# (call 14, the CUDA softmax GPU test file at 49732df, was refused: the session's device
# time was spent.)
