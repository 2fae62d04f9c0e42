# Session 39 device calls (2026-11-26). Each call ran from the repository root of the commit in .device/commit,
# with .device/ carried (base tree .device/base = git archive 5451ae7 comparison kernels_cuda kernels_triton).

## call 1 (H200, 768dd0b)
# session 39 call 1 (H200): Triton odd widths (merged branch triton-odd) - GPU tests, then
# triton/torch auto before (.device/base = 5451ae7, Triton as at bf2a6d4) / after.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
BASE=$PWD/.device/base timeout 560 bash benchmarks/tuning/triton_odd_widths_check.sh 2>&1 | tee $OUT/triton_odd_check_$(cat .device/commit).log | tail -40

## call 2 (H200, b234043)
# session 39 call 2 (H200): where Triton fused should read odd rows in three parts.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 560 bash benchmarks/tuning/triton_fused_edges_experiment.sh 2>&1 | tee $OUT/triton_fused_edges_$(cat .device/commit).log | tail -60

## call 3 (H100, 9e7773b)
# session 39 call 3 (H100): Triton odd widths - GPU tests and before/after (BASE 5451ae7),
# then fused edges: the checkout's rule against never (values) / always in the backward.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
BASE=$PWD/.device/base timeout 280 bash benchmarks/tuning/triton_odd_widths_check.sh 2>&1 | tee $OUT/triton_odd_check_$(cat .device/commit).log | tail -32
timeout 300 bash benchmarks/tuning/triton_fused_edges_experiment.sh 2>&1 | tee $OUT/triton_fused_edges_$(cat .device/commit).log | grep -v wrote | tail -52

## call 4 (H100, a3318e4)
# session 39 call 4 (H100): CUDA warp_per_row odd rows - before (.device/base, 5451ae7) /
# after at narrow odd widths (warp_row_backward_pack: 16-bit backward rows of one pack per
# lane keep their whole-row pack), the odd-width GPU tests, compute-sanitizer on warp_per_row.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100); C=$(cat .device/commit)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
COLS=33,197,577,1023,3001 DTYPES=fp32,bf16 PASSES=fwd,bwd OPS=softmax ROUNDS=1 PREFIX=warp_edges3 timeout 260 bash .device/ba.sh > $OUT/warp_edges3_before_after_${G}_$C.log 2>&1; tail -24 $OUT/warp_edges3_before_after_${G}_$C.log | cut -c1-130
echo "elapsed $(el)"
timeout 120 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_cuda_softmax.py -k "three_parts or warp or misaligned or alignment" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $OUT/gpu_tests_warp_edges3_${G}_$C.log; grep -E "passed|failed|FAILED|Error" $OUT/gpu_tests_warp_edges3_${G}_$C.log | tail -12
echo "elapsed $(el)"
timeout $(( 570 - $(el) )) python3 benchmarks/sanitize.py --out $OUT/sanitize_warp_edges3_${G}_$C.log --backends cuda --variants warp_per_row,auto --dtypes fp32,bf16,fp16 --ops softmax,log_softmax,softmax_backward,log_softmax_backward --shapes 5x7,5x15,5x33,5x197,3x577,3x1023 2>&1 | tail -8
echo "elapsed $(el)"

## call 5 (H200, d27221b)
# session 39 call 5 (H200): CUDA split backward reads odd rows in three parts - before
# (.device/base, 5451ae7) / after, the GPU tests of odd rows and split, compute-sanitizer.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100); C=$(cat .device/commit)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
COLS=70001,151937,262145,65536,131072 DTYPES=fp32,bf16 PASSES=bwd OPS=softmax,log_softmax ROUNDS=1 PREFIX=split_edges timeout 300 bash .device/ba.sh > $OUT/split_edges_before_after_${G}_$C.log 2>&1; tail -24 $OUT/split_edges_before_after_${G}_$C.log | cut -c1-150
python3 -c "
import torch, kernels_cuda.softmax as cs
for dt in (torch.float32, torch.bfloat16):
    for cols in (70001, 151937):
        rows = (1 << 30) // (cols * dt.itemsize * 3)
        y = torch.empty(rows, cols, dtype=dt, device='cuda')
        p = cs.plan(y, 'softmax_backward', 'auto', dy=torch.empty_like(y))
        print(dt, rows, cols, p['variant'], p['kernel'], p.get('split'), p.get('auto_reason'))
" 2>&1 | tail -6
echo "elapsed $(el)"
timeout 150 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_cuda_softmax.py -k "three_parts or split" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $OUT/gpu_tests_split_edges_${G}_$C.log; grep -E "passed|failed|FAILED|Error" $OUT/gpu_tests_split_edges_${G}_$C.log | tail -12
echo "elapsed $(el)"
timeout $(( 575 - $(el) )) python3 benchmarks/sanitize.py --out $OUT/sanitize_split_edges_${G}_$C.log --backends cuda --variants split,auto --dtypes fp32,bf16 --ops softmax_backward,log_softmax_backward --shapes 5x33,5x1025,300x9001,3x70001 2>&1 | tail -8
echo "elapsed $(el)"

## call 6 (H200, e204128; .device/reread = git archive d27221b comparison kernels_cuda kernels_triton)
# session 39 call 6 (H200): split backward odd rows - edges re-read on the row's path
# (.device/reread = d27221b) against held from a load a row ahead (the checkout), variant
# split at odd widths and aligned neighbours, two rounds; the checkout's GPU tests and
# compute-sanitizer.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100); C=$(cat .device/commit)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
BASE_TREE=$PWD/.device/reread VARIANTS=split COLS=70001,70004,151936,151937,262145 DTYPES=fp32,bf16 PASSES=bwd OPS=softmax ROUNDS=2 PREFIX=split_held timeout 330 bash .device/ba.sh > $OUT/split_held_before_after_${G}_$C.log 2>&1; tail -12 $OUT/split_held_before_after_${G}_$C.log | cut -c1-200
echo "elapsed $(el)"
timeout 100 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_cuda_softmax.py -k "three_parts or split" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $OUT/gpu_tests_split_held_${G}_$C.log; grep -E "passed|failed|FAILED|Error" $OUT/gpu_tests_split_held_${G}_$C.log | tail -12
echo "elapsed $(el)"
timeout $(( 575 - $(el) )) python3 benchmarks/sanitize.py --out $OUT/sanitize_split_held_${G}_$C.log --backends cuda --variants split --dtypes fp32,bf16 --ops softmax_backward,log_softmax_backward --shapes 5x33,5x1025,300x9001,3x70001 2>&1 | tail -8
echo "elapsed $(el)"

## call 7 (H100, f2be86a)
# session 39 call 7 (H100): split backward odd rows - auto before (.device/base, 5451ae7)
# / after, softmax and log-softmax; variant split re-read (.device/reread, d27221b) /
# held (checkout); the GPU tests and compute-sanitizer.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100); C=$(cat .device/commit)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
COLS=70001,151937,262145,131072 DTYPES=fp32,bf16 PASSES=bwd OPS=softmax,log_softmax ROUNDS=1 PREFIX=split_edges timeout 220 bash .device/ba.sh > $OUT/split_edges_before_after_${G}_$C.log 2>&1; tail -16 $OUT/split_edges_before_after_${G}_$C.log | cut -c1-150
echo "elapsed $(el)"
BASE_TREE=$PWD/.device/reread VARIANTS=split COLS=70001,151937,262145 DTYPES=fp32,bf16 PASSES=bwd OPS=softmax ROUNDS=1 PREFIX=split_held timeout 170 bash .device/ba.sh > $OUT/split_held_before_after_${G}_$C.log 2>&1; tail -6 $OUT/split_held_before_after_${G}_$C.log | cut -c1-150
echo "elapsed $(el)"
timeout 80 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_cuda_softmax.py -k "three_parts or split" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $OUT/gpu_tests_split_held_${G}_$C.log; grep -E "passed|failed|FAILED|Error" $OUT/gpu_tests_split_held_${G}_$C.log | tail -12
echo "elapsed $(el)"
timeout $(( 580 - $(el) )) python3 benchmarks/sanitize.py --out $OUT/sanitize_split_held_${G}_$C.log --backends cuda --variants split,auto --dtypes fp32,bf16 --ops softmax_backward,log_softmax_backward --shapes 5x33,5x1025,300x9001,3x70001 2>&1 | tail -8
echo "elapsed $(el)"

## call 8 (H100, ef100dd)
# session 39 call 8 (asked for the H200, ran on the warm H100; the same on the H200 as call 9): odd rows read in three
# parts, backward - split against auto's choice (cluster_regs / block_hybrid below split's
# row sizes) by width, 1 GiB, softmax, two rounds.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
G=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100); C=$(cat .device/commit)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for r in 1 2; do
  timeout 250 python3 -m comparison --cols 3001,8193,16385,20001,32769,50257,70001,100001 --dtype fp32,bf16 --op softmax --pass bwd --backends cuda --variants auto,split --min-bytes 1GiB --quiet --format csv --output $OUT/odd_split_rows_${G}_${C}_r$r.csv | tail -1
done
python3 benchmarks/tuning/side_by_side.py $OUT odd_split_rows_${G}_${C} r1 r2
python3 -c "
import torch, kernels_cuda.softmax as cs
for dt in (torch.float32, torch.bfloat16):
    for cols in (3001, 8193, 16385, 20001, 32769, 50257, 70001, 100001):
        rows = (1 << 30) // (cols * dt.itemsize * 3)
        y = torch.empty(rows, cols, dtype=dt, device='cuda')
        p = cs.plan(y, 'softmax_backward', 'auto', dy=torch.empty_like(y))
        s = cs.plan(y, 'softmax_backward', 'split', dy=torch.empty_like(y))
        print(dt, cols, 'auto', p['kernel'], '| split', s['split'], s['blocks'] // max(s['split'], 1), 'groups')
"

## call 9 (H200, ef100dd): .device/call8.sh again, on the H200

## call 10 (H200, e6b0d22; .device/norule = git archive ef100dd comparison kernels_cuda kernels_triton)
# session 39 call 10 (H200; call 11 the same on the H100): the backward's rule 1c (odd
# rows that the rules by width give to cluster_regs go to split) - auto and split before
# (.device/norule = ef100dd) / after, softmax, 1 GiB; the GPU tests of both softmax backends and the matrix.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100); C=$(cat .device/commit)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
BASE_TREE=$PWD/.device/norule VARIANTS=auto,split COLS=1025,1537,2049,2561,3001,8193,50257,70001 DTYPES=fp32,bf16 PASSES=bwd OPS=softmax ROUNDS=1 PREFIX=edges_rule timeout 330 bash .device/ba.sh > $OUT/edges_rule_before_after_${G}_$C.log 2>&1; tail -16 $OUT/edges_rule_before_after_${G}_$C.log | cut -c1-200
echo "elapsed $(el)"
timeout $(( 585 - $(el) )) python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 6 tests/test_cuda_softmax.py tests/test_triton_softmax.py tests/test_triton_softmax_backward.py tests/test_matrix.py 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $OUT/gpu_tests_cuda_${G}_$C.log; grep -E "passed|failed|FAILED|Error" $OUT/gpu_tests_cuda_${G}_$C.log | tail -12
echo "elapsed $(el)"

## call 11 (H100, 363b4d4)
# session 39 call 11 (H100): the backward's rule 1c - auto and split before (.device/norule
# = ef100dd) / after; the CUDA softmax GPU tests; the Triton backward's >2^31-element
# tests one at a time (out of memory beside other workers in call 10).
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100); C=$(cat .device/commit)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
BASE_TREE=$PWD/.device/norule VARIANTS=auto,split COLS=1537,8193,20001,50257,70001,100001 DTYPES=fp32,bf16 PASSES=bwd OPS=softmax ROUNDS=1 PREFIX=edges_rule timeout 260 bash .device/ba.sh > $OUT/edges_rule_before_after_${G}_$C.log 2>&1; tail -12 $OUT/edges_rule_before_after_${G}_$C.log | cut -c1-200
echo "elapsed $(el)"
timeout 90 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_cuda_softmax.py 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $OUT/gpu_tests_cuda_${G}_$C.log; grep -E "passed|failed|FAILED|Error" $OUT/gpu_tests_cuda_${G}_$C.log | tail -8
echo "elapsed $(el)"
timeout $(( 585 - $(el) )) python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider tests/test_triton_softmax_backward.py -k more_than_2_to_the_31 2>&1 | tail -3 > $OUT/gpu_tests_triton_2_31_${G}_$C.log; cat $OUT/gpu_tests_triton_2_31_${G}_$C.log
echo "elapsed $(el)"

## call 12 (H100, 6b8ed3e)
# session 39 call 12 (H100): rule 1c on clusters of any residency - auto before
# (.device/norule = ef100dd) / after; the CUDA softmax GPU tests.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100); C=$(cat .device/commit)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
BASE_TREE=$PWD/.device/norule VARIANTS=auto COLS=8193,20001,50257,70001,100001 DTYPES=fp32,bf16 PASSES=bwd OPS=softmax,log_softmax ROUNDS=1 PREFIX=edges_rule2 timeout 260 bash .device/ba.sh > $OUT/edges_rule2_before_after_${G}_$C.log 2>&1; tail -20 $OUT/edges_rule2_before_after_${G}_$C.log | cut -c1-200
echo "elapsed $(el)"
timeout 90 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_cuda_softmax.py 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $OUT/gpu_tests_cuda_${G}_$C.log; grep -E "passed|failed|FAILED|Error" $OUT/gpu_tests_cuda_${G}_$C.log | tail -8
echo "elapsed $(el)"

## call 13 (H100, beda461)
# session 39 call 13 (H100): the Triton softmax GPU test files (odd rows in three parts
# merged; the >2^31-element backward tests ran alone in call 11) and compute-sanitizer's
# memcheck over Triton fused / split / auto at odd widths.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100); C=$(cat .device/commit)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 330 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $OUT/gpu_tests_triton_${G}_$C.log; grep -E "passed|failed|FAILED|Error" $OUT/gpu_tests_triton_${G}_$C.log | tail -8
echo "elapsed $(el)"
timeout $(( 585 - $(el) )) python3 benchmarks/sanitize.py --out $OUT/sanitize_triton_odd_${G}_$C.log --backends triton --variants fused,split,auto --dtypes fp32,bf16 --ops softmax,log_softmax,softmax_backward,log_softmax_backward --shapes 5x33,5x197,5x1025,3x4097,3x70001 2>&1 | tail -6
echo "elapsed $(el)"

## call 14 (H200, 10fa590)
# session 39 call 14 (H200): the Triton softmax GPU test files at the session's head (the
# >2^31-element backward tests alone, after the others: out of memory beside other
# workers in call 10).
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100); C=$(cat .device/commit)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 330 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $OUT/gpu_tests_triton_${G}_$C.log; grep -E "passed|failed|FAILED|Error" $OUT/gpu_tests_triton_${G}_$C.log | tail -8
echo "elapsed $(el)"
timeout $(( 500 - $(el) )) python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider tests/test_triton_softmax_backward.py tests/test_triton_softmax.py -k more_than_2_to_the_31 2>&1 | tail -3 > $OUT/gpu_tests_triton_2_31_${G}_$C.log; cat $OUT/gpu_tests_triton_2_31_${G}_$C.log
echo "elapsed $(el)"
