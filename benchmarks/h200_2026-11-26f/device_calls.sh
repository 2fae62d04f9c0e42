# Session 40 device calls (2026-11-26): every call's script, in order; H200 and H100 results in benchmarks/h200_2026-11-26f/ and benchmarks/h100_2026-11-26f/.

## call 1 (H200, 937d1d0)
# session 40 call 1 (H200): CUDA split forward with odd rows in three parts (937d1d0, merged
# from branch split-forward-edges before any GPU run): its tests, compute-sanitizer's four
# tools, and split against auto at odd and aligned widths, two rounds
# (benchmarks/tuning/split_forward_edges_check.sh); then the forward plans auto takes there.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 560 bash benchmarks/tuning/split_forward_edges_check.sh 2>&1 | cut -c1-220
echo "elapsed $(el)"
python3 - <<'PY' 2>&1 | tee $OUT/split_fwd_edges_auto_plans.txt
import torch, kernels_cuda.softmax as cs
for dt in (torch.float32, torch.bfloat16):
    for c in (3001, 20001, 50257, 70001, 100001, 151937, 262145, 65536, 131072):
        r = max(1, (1 << 30) // (c * (4 if dt == torch.float32 else 2)))
        x = torch.randn(r, c, device="cuda", dtype=dt)
        for v in ("auto", "split"):
            p = cs.plan(x, "softmax", v)
            print(dt, c, v, {k: p.get(k) for k in ("variant", "kernel", "realigned", "split", "blocks", "cluster_size", "resident_per_sm", "reason", "status")})
        del x
PY
echo "elapsed $(el)"

## call 2 (H200, 01d45bc)
# session 40 call 2: the CUDA forward's edges asked for before the row's packs (prefetch,
# 01d45bc) against the tree before (.device/pre40 = f7b95a6), auto forward at odd
# widths and aligned neighbours, 1 GiB, two rounds; the odd-row tests; sanitizer (four
# tools) over warp_per_row / cluster_regs / block_hybrid forward at odd widths.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100); C=$(cat .device/commit)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
BASE_TREE=$PWD/.device/pre40 VARIANTS=auto COLS=197,577,1023,1024,1025,3001,20001,50257,151937 DTYPES=bf16,fp32 PASSES=fwd OPS=softmax ROUNDS=2 PREFIX=edge_prefetch timeout 400 bash .device/ba.sh > $OUT/edge_prefetch_before_after_${G}_$C.log 2>&1; tail -20 $OUT/edge_prefetch_before_after_${G}_$C.log | cut -c1-200
echo "elapsed $(el)"
timeout 80 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_cuda_softmax.py -k "three_parts" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $OUT/gpu_tests_edges_${G}_$C.log; grep -E "passed|failed|FAILED|Error" $OUT/gpu_tests_edges_${G}_$C.log | tail -4
echo "elapsed $(el)"
timeout $(( 590 - $(el) )) python3 benchmarks/sanitize.py --out $OUT/sanitize_edge_prefetch_${G}_$C.log --backends cuda --variants warp_per_row,cluster_regs,block_hybrid --dtypes fp32,bf16 --ops softmax,log_softmax --shapes 5x197,5x577,3x1025,3x3001,2x50257 2>&1 | tail -6
echo "elapsed $(el)"

## call 3 (H200, )
# session 40 call 3 (H200): where narrow odd 16-bit forward rows lose (warp_per_row, bf16
# 197 / 577 / 1023 at 45-66% of copy against 98 at 1024): ablations of the 16-bit
# multi-pack path without its edges' stores, loads, or both (wrong results, timed only),
# then, where Nsight Compute is installed, DRAM bytes read and written per launch for
# bf16 577 against 576 and fp32 577.
source benchmarks/tuning/experiment_env.sh
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root" "$root/.device/abl_store" "$root/.device/abl_load" "$root/.device/abl_both"
echo "elapsed $(el)"
compare_trees abl fwd 1 "--cols 197,577,1023,1024 --dtype bf16 --op softmax --backends cuda --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/abl_store" "$root/.device/abl_load" "$root/.device/abl_both" 2>&1 | tail -6
echo "elapsed $(el)"
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
echo "ncu: ${NCU:-none}"
if [ -n "$NCU" ]; then
  cat > /tmp/one.py <<'PY'
import sys, torch
from comparison import softmax
dt = getattr(torch, sys.argv[1]); cols = int(sys.argv[2])
x = torch.randn((256 << 20) // (cols * torch.empty(0, dtype=dt).element_size()), cols, device="cuda", dtype=dt)
for _ in range(3):
    y = softmax(x, backend="cuda")
torch.cuda.synchronize()
PY
  for c in "bfloat16 577" "bfloat16 576" "bfloat16 1023" "bfloat16 1024" "float32 577"; do
    timeout 120 $NCU --launch-skip 2 --launch-count 1 -k regex:softmax --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct python3 /tmp/one.py $c 2>&1 | grep -E "softmax_|dram__|gpu__time|lts__|inst_exec|warps_active|stalled|ERR" | sed "s/^/$c: /" | cut -c1-200 | tee -a $out/ncu_narrow_${tag}_$rev.txt
  done
fi
echo "elapsed $(el)"

## call 4 (H200, )
# session 40 call 4 (H200): Nsight Compute's DRAM and L2 bytes per launch of CUDA auto
# forward on 256 MiB inputs: bf16 1023 / 577 / 197 (odd rows, warp_per_row in three
# parts) against 1024 / 576 / 200, fp32 1023 against 1024 (call 3's ncu runs lacked
# PYTHONPATH).
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100); C=$(cat .device/commit)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
cat > /tmp/one.py <<'PY'
import sys, torch
from comparison import softmax
dt = getattr(torch, sys.argv[1]); cols = int(sys.argv[2])
x = torch.randn((256 << 20) // (cols * torch.empty(0, dtype=dt).element_size()), cols, device="cuda", dtype=dt)
for _ in range(3):
    y = softmax(x, backend="cuda")
torch.cuda.synchronize()
PY
python3 /tmp/one.py bfloat16 577 && echo script ok
M=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_requests_op_write.sum,lts__t_requests_op_read.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,launch__registers_per_thread,launch__grid_size,sm__maximum_warps_per_active_cycle_pct
for c in "bfloat16 1023" "bfloat16 1024" "bfloat16 577" "bfloat16 576" "bfloat16 197" "bfloat16 200" "float32 1023" "float32 1024"; do
  timeout 100 /usr/local/cuda/bin/ncu --launch-skip 2 --launch-count 1 -k regex:softmax --metrics $M python3 /tmp/one.py $c 2>&1 | grep -E "softmax_|dram__|gpu__time|lts__|inst_exec|warps|stalled|l1tex|launch__|ERR" | sed "s/^/$c: /" | cut -c1-220 | tee -a $OUT/ncu_narrow_${G}_$C.txt
done
echo "elapsed $(el)"

## call 5 (H200, )
# session 40 call 5: 16-bit warp_per_row rows read in three parts store whole 16-byte
# packs (kWarpRow16StoreOf, 68c48bd) against the tree before (.device/pre40 = f7b95a6):
# auto forward, softmax and log-softmax, bf16 / fp16 at odd widths and aligned
# neighbours, 1 GiB, two rounds; Nsight Compute's store requests at bf16 1023; the
# warp_per_row and odd-row GPU tests; sanitizer (four tools) over warp_per_row's 16-bit
# forward at odd widths.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100); C=$(cat .device/commit)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
BASE_TREE=$PWD/.device/pre40 VARIANTS=auto COLS=33,197,577,1023,1024,2047 DTYPES=bf16,fp16 PASSES=fwd OPS=softmax,log_softmax ROUNDS=2 PREFIX=wpr_store timeout 400 bash .device/ba.sh > $OUT/wpr_store_before_after_${G}_$C.log 2>&1; tail -26 $OUT/wpr_store_before_after_${G}_$C.log | cut -c1-200
echo "elapsed $(el)"
cat > /tmp/one.py <<'PY'
import sys, torch
from comparison import softmax
dt = getattr(torch, sys.argv[1]); cols = int(sys.argv[2])
x = torch.randn((256 << 20) // (cols * torch.empty(0, dtype=dt).element_size()), cols, device="cuda", dtype=dt)
for _ in range(3):
    y = softmax(x, backend="cuda")
torch.cuda.synchronize()
PY
timeout 60 /usr/local/cuda/bin/ncu --launch-skip 2 --launch-count 1 -k regex:softmax --metrics gpu__time_duration.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,lts__t_sectors_op_write.sum,dram__bytes_write.sum python3 /tmp/one.py bfloat16 1023 2>&1 | grep -E "void|gpu__|l1tex|lts__|dram" | cut -c1-160 | tee $OUT/ncu_wpr_store_${G}_$C.txt
echo "elapsed $(el)"
timeout 100 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_cuda_softmax.py -k "three_parts or warp" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $OUT/gpu_tests_wpr_store_${G}_$C.log; grep -E "passed|failed|FAILED|Error" $OUT/gpu_tests_wpr_store_${G}_$C.log | tail -4
echo "elapsed $(el)"
timeout $(( 590 - $(el) )) python3 benchmarks/sanitize.py --out $OUT/sanitize_wpr_store_${G}_$C.log --backends cuda --variants warp_per_row,auto --dtypes bf16,fp16 --ops softmax,log_softmax --shapes 5x33,7x197,5x577,3x1023,3x2047 2>&1 | tail -6
echo "elapsed $(el)"

## call 6 (H200, b73a9fc; branch triton-narrow-odd b8d3639 in .device/tri)
# session 40 call 6 (H200): Triton fused tiles of odd rows whose edge tiles join the body
# per thread (branch triton-narrow-odd, b8d3639, in .device/tri) against main (the
# checkout): auto, softmax and log-softmax, forward and backward, bf16 / fp32 at odd
# widths, 1 GiB, two rounds; the branch's Triton odd-row GPU tests.
source benchmarks/tuning/experiment_env.sh
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
compare_trees tri_edges_${tag}_$rev fwd,bwd 2 "--cols 197,577,1025,3001,50257 --dtype bf16,fp32 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/tri" 2>&1 | tail -44
echo "elapsed $(el)"
(cd .device/tri && PYTHONPATH=$PWD timeout $(( 590 - $(el) )) python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py -k "(odd or edge or three) and not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_tri_edges_${tag}_b8d3639.log); grep -E "passed|failed|FAILED|Error" $out/gpu_tests_tri_edges_${tag}_b8d3639.log | tail -4
echo "elapsed $(el)"

## call 7 (H100, e8235ee)
# session 40 call 7 (H100), as call 5 (H200): 16-bit warp_per_row rows read in three parts store whole 16-byte
# packs (kWarpRow16StoreOf, 68c48bd; main at the commit named) against the tree before (.device/pre40 = f7b95a6):
# auto forward, softmax and log-softmax, bf16 / fp16 at odd widths and aligned
# neighbours, 1 GiB, two rounds; Nsight Compute's store requests at bf16 1023; the
# warp_per_row and odd-row GPU tests; sanitizer (four tools) over warp_per_row's 16-bit
# forward at odd widths.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100); C=$(cat .device/commit)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
BASE_TREE=$PWD/.device/pre40 VARIANTS=auto COLS=33,197,577,1023,1024,2047 DTYPES=bf16,fp16 PASSES=fwd OPS=softmax,log_softmax ROUNDS=2 PREFIX=wpr_store timeout 400 bash .device/ba.sh > $OUT/wpr_store_before_after_${G}_$C.log 2>&1; tail -26 $OUT/wpr_store_before_after_${G}_$C.log | cut -c1-200
echo "elapsed $(el)"
cat > /tmp/one.py <<'PY'
import sys, torch
from comparison import softmax, log_softmax
dt = getattr(torch, sys.argv[1]); cols = int(sys.argv[2])
x = torch.randn((256 << 20) // (cols * torch.empty(0, dtype=dt).element_size()), cols, device="cuda", dtype=dt)
for _ in range(3):
    y = (log_softmax if sys.argv[4] == "log" else softmax)(x, backend=sys.argv[3])
torch.cuda.synchronize()
PY
M=gpu__time_duration.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_read.sum,dram__bytes_write.sum,dram__bytes_read.sum,launch__registers_per_thread,launch__grid_size,launch__block_size,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
for c in "bfloat16 1023 cuda soft" "bfloat16 577 triton soft" "bfloat16 576 triton soft" "bfloat16 3001 triton soft" "bfloat16 3001 triton log" "float32 577 triton soft" "float32 577 triton log"; do
  timeout 60 /usr/local/cuda/bin/ncu --launch-skip 2 --launch-count 1 -k regex:softmax --metrics $M python3 /tmp/one.py $c 2>&1 | grep -E "void|  _|gpu__|l1tex|lts__|dram|launch__|warps|inst" | sed "s/^/$c: /" | cut -c1-170 | tee -a $OUT/ncu_narrow_${G}_$C.txt
done
echo "elapsed $(el)"
timeout 100 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_cuda_softmax.py -k "three_parts or warp" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $OUT/gpu_tests_wpr_store_${G}_$C.log; grep -E "passed|failed|FAILED|Error" $OUT/gpu_tests_wpr_store_${G}_$C.log | tail -4
echo "elapsed $(el)"
timeout $(( 590 - $(el) )) python3 benchmarks/sanitize.py --out $OUT/sanitize_wpr_store_${G}_$C.log --backends cuda --variants warp_per_row,auto --dtypes bf16,fp16 --ops softmax,log_softmax --shapes 5x33,7x197,5x577,3x1023,3x2047 2>&1 | tail -6
echo "elapsed $(el)"

## call 8 (H100, e8235ee)
# session 40 call 8 (H100): the whole CUDA softmax GPU test file at main's head, and the
# CUDA split forward with odd rows in three parts (merged in 937d1d0) on the H100:
# benchmarks/tuning/split_forward_edges_check.sh (its tests, sanitizer, split against auto).
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100); C=$(cat .device/commit)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 330 bash benchmarks/tuning/split_forward_edges_check.sh 2>&1 | cut -c1-220
echo "elapsed $(el)"
timeout $(( 580 - $(el) )) python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 6 tests/test_cuda_softmax.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $OUT/gpu_tests_cuda_${G}_$C.log; grep -E "passed|failed|FAILED|Error" $OUT/gpu_tests_cuda_${G}_$C.log | tail -6
echo "elapsed $(el)"

## call 9 (H100, e8235ee)
# session 40 call 9 (H100): Triton fused tiles of narrow odd 16-bit rows (94 registers at
# bf16 577, Nsight Compute in call 7) with fewer units per thread: FUSED_UNITS_PER_THREAD
# 32 (main) against 16 and 8 (.device/upt16, .device/upt8; twice and four times the
# warps per tile), auto forward softmax and log-softmax, bf16 / fp16 at odd widths and
# aligned neighbours, 1 GiB, one round.
source benchmarks/tuning/experiment_env.sh
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
compare_trees upt_${tag}_$rev fwd 1 "--cols 197,576,577,1024,1025,3001 --dtype bf16,fp16 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/upt16" "$root/.device/upt8" 2>&1 | tail -26
echo "elapsed $(el)"

## call 10 (H100, e8235ee)
# session 40 call 10 (H100): the vocab record at main's head (python -m comparison record
# --sweeps vocab, softmax; log-softmax left for another call), into $OUT/<gpu>/.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
timeout $(( 570 - $(el) )) python3 -m comparison record --sweeps vocab --op softmax --out $OUT --quiet 2>&1 | tail -15
echo "elapsed $(el)"

## call 11 (H100, e8235ee)
# session 40 call 11 (H100): the vocab record at main's head (python -m comparison record
# --sweeps vocab, log-softmax; softmax in call 10), into $OUT/<gpu>/.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
timeout $(( 570 - $(el) )) python3 -m comparison record --sweeps vocab --op log_softmax --out $OUT --quiet 2>&1 | tail -15
echo "elapsed $(el)"

## call 12 (H200, e8235ee)
# session 40 call 12 (H200): the vocab record at main's head (python -m comparison record
# --sweeps vocab, softmax and log-softmax), into $OUT/<gpu>/, and the whole CUDA softmax
# GPU test file (but the >2^31-element tests).
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
timeout $(( 570 - $(el) )) python3 -m comparison record --sweeps vocab --out $OUT --quiet 2>&1 | tail -15
echo "elapsed $(el)"
G=h200; C=$(cat .device/commit)
timeout $(( 585 - $(el) )) python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 6 tests/test_cuda_softmax.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $OUT/gpu_tests_cuda_${G}_$C.log; grep -E "passed|failed|FAILED|Error" $OUT/gpu_tests_cuda_${G}_$C.log | tail -6
echo "elapsed $(el)"

## call 13 (H100, ee93566)
# session 40 call 13 (H100): Triton fused tiles of odd rows read whole from the 16-byte
# boundary before each row (branch triton-narrow-odd-36, ca40d99, in .device/win; values
# of the neighbouring rows masked to -inf, head and tail stored singly) against main:
# auto forward softmax and log-softmax, bf16 / fp16 / fp32 at odd widths, 1 GiB, two
# rounds; the branch's Triton odd-row GPU tests; memcheck / initcheck over its fused tiles.
source benchmarks/tuning/experiment_env.sh
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
compare_trees win_${tag}_$rev fwd 2 "--cols 197,577,1025,3001 --dtype bf16,fp16,fp32 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/win" 2>&1 | tail -25
echo "elapsed $(el)"
(cd .device/win && PYTHONPATH=$PWD timeout 200 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_triton_softmax.py -k "(odd or edge or three or whole) and not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_win_${tag}_ca40d99.log); grep -E "passed|failed|FAILED|Error" $out/gpu_tests_win_${tag}_ca40d99.log | tail -4
echo "elapsed $(el)"
(cd .device/win && PYTHONPATH=$PWD timeout $(( 585 - $(el) )) python3 benchmarks/sanitize.py --out $out/sanitize_win_${tag}_ca40d99.log --backends triton --variants fused,auto --dtypes fp32,bf16 --ops softmax,log_softmax --shapes 8x197,8x577,8x3001,5x577 2>&1 | tail -6) 
echo "elapsed $(el)"

## call 14 (H100, ee93566)
# session 40 call 14 (H100): call 13 again with row counts that make each input's bytes a
# multiple of 16 (rows a multiple of 8), so that the branch's window tile serves them
# (window() declines a tensor whose last row's tail vector lies past its storage, as
# call 13's 1 GiB inputs all did): about 1 GiB, auto forward softmax and log-softmax,
# bf16 / fp16, one round.
source benchmarks/tuning/experiment_env.sh
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for rc in 2725256x197 930448x577 178896x3001; do
  compare_trees win8_${rc}_${tag}_$rev fwd 1 "--rows ${rc%x*} --cols ${rc#*x} --dtype bf16,fp16 --op softmax,log_softmax --backends triton --variants auto --quiet --format csv" \
    "$root" "$root/.device/win" 2>&1 | tail -4
done
echo "elapsed $(el)"

## call 15 (H100, 7d91be3)
# session 40 call 15 (H100): Triton WINDOW tiles merged (odd rows read whole from the
# 16-byte boundary before each row, where the tensor ends on a 16-byte boundary): the
# Triton softmax GPU test files (but the >2^31-element tests), compute-sanitizer's four
# tools over fused / auto at shapes that take WINDOW (8 rows) and that do not (5, 7 rows).
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100); C=$(cat .device/commit)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 330 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 6 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $OUT/gpu_tests_triton_${G}_$C.log; grep -E "passed|failed|FAILED|Error" $OUT/gpu_tests_triton_${G}_$C.log | tail -6
echo "elapsed $(el)"
timeout $(( 585 - $(el) )) python3 benchmarks/sanitize.py --out $OUT/sanitize_window_${G}_$C.log --backends triton --variants fused,auto --dtypes fp32,bf16 --ops softmax,log_softmax --shapes 8x197,8x577,8x3001,5x577,7x197 2>&1 | tail -6
echo "elapsed $(el)"
