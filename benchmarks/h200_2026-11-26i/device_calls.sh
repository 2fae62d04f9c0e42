# Session 43 (2026-11-26): every device call's script, as run (section "## call N").
# Run from the repository root on the device: sed -n '/^## call N$/,/^## call N+1$/p'.

## call 1
# session 43 call 1: (a) Triton memcheck over the backward's new shapes of session 42
# (element loads in tiles of rows at 33 / 130 / 260, the one-row edge tile at 577 / 700 /
# 1500); (b) Nsight Compute's pipe utilization and warp stalls of CUDA `auto` forward at
# bf16 262144 (block_hybrid over 4 CTAs, 2 per SM) against log-softmax there, fp32 262144
# and bf16 65536 / 8192; (c) ablations of the exps: .device/abl_oexp (the output pass
# without its exp) and .device/abl_rexp (the reduce without its exps) against the
# checkout, 1 GiB, softmax forward (their results are wrong by design: timing only).
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root" "$root/.device/abl_oexp" "$root/.device/abl_rexp" > $out/build.log 2>&1 &
timeout 200 python3 benchmarks/sanitize.py --out $out/sanitize_bwd_shapes_${tag}_$rev.log --backends triton --variants fused,auto \
  --dtypes bf16,fp16 --ops softmax_backward,log_softmax_backward --shapes 7x33,1031x33,8x260,1029x260,1039x130,5x577,1031x700,3x1500,1029x1500 --tools memcheck 2>&1 | tail -3
echo "sanitize $(el)"
wait; cat $out/build.log
cat > /tmp/one.py <<'PY'
import sys, torch
from comparison import softmax, log_softmax
dt = getattr(torch, sys.argv[1]); cols = int(sys.argv[2]); op = softmax if sys.argv[3] == "softmax" else log_softmax
x = torch.randn((512 << 20) // (cols * torch.empty(0, dtype=dt).element_size()), cols, device="cuda", dtype=dt)
for _ in range(3):
    y = op(x, backend="cuda")
torch.cuda.synchronize()
PY
for c in "bfloat16 262144 softmax" "bfloat16 262144 log_softmax" "float32 262144 softmax" "bfloat16 65536 softmax" "bfloat16 8192 softmax"; do
  f=$out/ncu_$(echo $c | tr ' ' _)_${tag}_$rev.txt
  timeout 90 /usr/local/cuda/bin/ncu --clock-control none --launch-skip 2 --launch-count 1 -k regex:softmax --page raw \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section ComputeWorkloadAnalysis --section WarpStateStats --section MemoryWorkloadAnalysis \
    python3 /tmp/one.py $c > $f 2>&1
  echo "== $c"; grep -E "gpu__time_duration.sum|dram__throughput.avg.pct|launch__registers|launch__grid_size|launch__cluster|sm__warps_active.avg.pct|pipe_(xu|fma|alu|fmaheavy|lsu)[a-z_]*\.avg\.pct_of_peak_sustained_active |smsp__average_warp_latency_issue_stalled|warp_issue_stalled_(long|barrier|math|membar|short|mio|wait|lg|no_inst|dispatch|sleeping|not_selected|selected)[a-z_]*_per_warp_active" $f | tr -s ' ' | cut -c1-150 | head -40
done
echo "ncu $(el)"
compare_trees abl_${tag}_$rev fwd 1 "--cols 8192,65536,131072,262144 --dtype bf16,fp32 --op softmax --backends cuda --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/abl_oexp" "$root/.device/abl_rexp" 2>&1 | tail -10
echo "elapsed $(el)"

## call 2
# session 43 call 2: the cluster exchange through st.async counted on mbarriers
# (ClusterSlots, the working tree as the checkout) against main's head (.device/base)
# and against main with block_hybrid's and cluster_regs' exchange skipped
# (.device/noexch: wrong results, a bound); CUDA `auto`, 1 GiB, forward softmax and
# log-softmax, backward softmax; few rows' latency; the cluster kernels' GPU tests.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root" "$root/.device/base" "$root/.device/noexch" 2>&1
echo "build $(el)"
compare_trees mbx_${tag} fwd 1 "--cols 32768,65536,131072,262144,524288 --dtype fp32,bf16 --op softmax,log_softmax --backends cuda --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/base" "$root/.device/noexch" 2>&1 | tail -21
echo "fwd $(el)"
compare_trees mbx_${tag} bwd 1 "--cols 32768,65536,131072,262144,524288 --dtype fp32,bf16 --op softmax --backends cuda --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/base" 2>&1 | tail -11
echo "bwd $(el)"
for tree in "$root" "$root/.device/base"; do
  name=$([ "$tree" = "$root" ] && echo checkout || basename "$tree")
  (cd $tree && PYTHONPATH=$tree timeout 100 python3 -m comparison --rows 1,16 --cols 65536,262144 --dtype fp32,bf16 --op softmax --backends cuda --variants auto --latency --quiet --format markdown --output $out/mbx_latency_${tag}_$name.md | tail -1)
done
echo "latency $(el)"
timeout $(( 580 - $(el) )) python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 6 tests/test_cuda_softmax.py -k "(cluster or hybrid or tma) and not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_mbx_${tag}.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_mbx_${tag}.log | tail -4
echo "elapsed $(el)"

## call 3
# session 43 call 3: call 2 again for the widths where the new exchange lost (fp32
# 65536-524288, bf16 65536 / 131072, where block_hybrid runs one CTA per row or
# clusters of 1024-thread CTAs), main's head first this time, two rounds; each tree's
# `auto` plan at those widths.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader
build_trees "$root" "$root/.device/base" 2>&1
echo "build $(el)"
for tree in "$root/.device/base" "$root"; do
  (cd $tree && PYTHONPATH=$tree python3 -c "
import torch
from kernels_cuda import softmax as s
for dt, cols in ((torch.float32, 65536), (torch.float32, 262144), (torch.bfloat16, 65536), (torch.bfloat16, 131072), (torch.bfloat16, 262144)):
    x = torch.empty(1024, cols, device='cuda', dtype=dt)
    p = s.plan(x, 'softmax')
    print('$(basename $tree)', dt, cols, {k: p[k] for k in p if k in ('variant', 'threads', 'cluster_size', 'smem_bytes', 'grid', 'active_clusters', 'reason', 'pack')})
")
done
compare_trees mbx2_${tag} fwd 2 "--cols 32768,65536,131072,262144 --dtype fp32,bf16 --op softmax --backends cuda --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root/.device/base" "$root" 2>&1 | tail -9
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader
echo "elapsed $(el)"

## call 4
# session 43 call 4: why the new exchange's tree runs block_hybrid with ONE CTA per row
# (no exchange at all) 6 points slower: Nsight Compute of CUDA `auto` forward fp32 65536
# (block_hybrid, one 1024-thread CTA per row) and bf16 262144 (4-CTA clusters), in both
# trees.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root" "$root/.device/base" 2>&1
cat > /tmp/one.py <<'PY'
import sys, torch
from comparison import softmax
dt = getattr(torch, sys.argv[1]); cols = int(sys.argv[2])
x = torch.randn((512 << 20) // (cols * torch.empty(0, dtype=dt).element_size()), cols, device="cuda", dtype=dt)
for _ in range(3):
    y = softmax(x, backend="cuda")
torch.cuda.synchronize()
PY
for tree in "$root/.device/base" "$root"; do
  name=$([ "$tree" = "$root" ] && echo checkout || basename "$tree")
  for c in "float32 65536" "bfloat16 262144"; do
    f=$out/ncu_$(echo $c | tr ' ' _)_${tag}_$name.txt
    (cd $tree && PYTHONPATH=$tree timeout 90 /usr/local/cuda/bin/ncu --clock-control none --launch-skip 2 --launch-count 1 -k regex:softmax --page raw \
      --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis \
      python3 /tmp/one.py $c > $f 2>&1)
    echo "== $name $c"; grep -E "gpu__time_duration.sum|launch__shared_mem|launch__occupancy_limit|sm__warps_active.avg.pct|sm__maximum_warps|launch__registers_per_thread |dram__bytes_read.sum |dram__bytes_write.sum |lts__t_sectors_srcunit_tex_op_read.sum |issue_stalled_(long|barrier|membar|wait|short|mio|lg|no_inst|math|sleeping|branch)[a-z_]*_per_issue_active|smsp__inst_executed.sum |l1tex__data_bank_conflicts|l1tex__data_pipe_lsu_wavefronts_mem_shared.sum " $f | tr -s ' ' | cut -c1-120
  done
done
echo "elapsed $(el)"

## call 5
# session 43 call 5: block_hybrid's bulk-copy buffers on 128-byte boundaries
# (tma_aligned; the dynamic shared memory began at 0x220 / 0x230 past the static, 32 /
# 48 bytes past a boundary), with the old exchange (.device/base_a) and the new
# (the checkout), against both without (.device/base, .device/mbx); CUDA `auto`, 1 GiB,
# forward and backward softmax.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root" "$root/.device/base" "$root/.device/base_a" "$root/.device/mbx" 2>&1
echo "build $(el)"
compare_trees al_${tag} fwd,bwd 1 "--cols 32768,65536,131072,262144,524288 --dtype fp32,bf16 --op softmax --backends cuda --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root/.device/base" "$root/.device/base_a" "$root/.device/mbx" "$root" 2>&1 | tail -22
echo "elapsed $(el)"

## call 6
# session 43 call 6 (H100): the new exchange (ClusterSlots) with block_hybrid's buffers
# on 128-byte boundaries (the checkout) against main's head (.device/base): CUDA `auto`,
# 1 GiB, forward and backward softmax, forward log-softmax; the CUDA softmax GPU test
# file; compute-sanitizer's four tools over block_hybrid, cluster_regs and cluster_tma.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root" "$root/.device/base" 2>&1
echo "build $(el)"
compare_trees xa_${tag} fwd,bwd 1 "--cols 32768,65536,131072,262144,524288 --dtype fp32,bf16 --op softmax --backends cuda --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root/.device/base" "$root" 2>&1 | tail -22
compare_trees xal_${tag} fwd 1 "--cols 65536,131072,262144,524288 --dtype bf16 --op log_softmax --backends cuda --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root/.device/base" "$root" 2>&1 | tail -5
echo "bench $(el)"
timeout 150 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 6 tests/test_cuda_softmax.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_cuda_${tag}_xa.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_cuda_${tag}_xa.log | tail -4
echo "tests $(el)"
timeout $(( 585 - $(el) )) python3 benchmarks/sanitize.py --out $out/sanitize_exchange_${tag}.log --backends cuda --variants block_hybrid,cluster_regs,cluster_tma \
  --dtypes fp32,bf16 --ops softmax,log_softmax,softmax_backward,log_softmax_backward --shapes 3x262144,2x65536,5x40001 2>&1 | tail -6
echo "elapsed $(el)"

## call 7
# session 43 call 7 (H200): main's head (the exchange and aligned buffers, committed)
# against the session's start (.device/base = 3543713) at vocabulary widths (odd rows:
# block_hybrid's rows read in three parts keep their backward buffers unaligned) and
# fp16, CUDA `auto`, 1 GiB; the CUDA softmax GPU test file; compute-sanitizer's four
# tools over block_hybrid, cluster_regs and cluster_tma.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root" "$root/.device/base" 2>&1
echo "build $(el)"
compare_trees vocab_${tag}_$rev fwd,bwd 1 "--cols 50257,151936 --dtype fp32,bf16 --op softmax --backends cuda --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root/.device/base" "$root" 2>&1 | tail -10
compare_trees fp16_${tag}_$rev fwd,bwd 1 "--cols 131072,262144 --dtype fp16 --op softmax --backends cuda --variants auto --min-bytes 1GiB --quiet --format csv" \
  "$root/.device/base" "$root" 2>&1 | tail -6
echo "bench $(el)"
timeout 150 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 6 tests/test_cuda_softmax.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_cuda_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_cuda_${tag}_$rev.log | tail -4
echo "tests $(el)"
timeout $(( 585 - $(el) )) python3 benchmarks/sanitize.py --out $out/sanitize_exchange_${tag}_$rev.log --backends cuda --variants block_hybrid,cluster_regs,cluster_tma \
  --dtypes fp32,bf16 --ops softmax,log_softmax,softmax_backward,log_softmax_backward --shapes 3x262144,2x65536,5x40001 2>&1 | tail -6
echo "elapsed $(el)"

## call 8
# session 43 call 8 (H200): where the widest rows stand at main's head, both backends'
# `auto`, forward then backward, fp32 and bf16, 1 GiB (a record for the next work).
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
tag=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
for pass in fwd bwd; do
  timeout 110 python3 -m comparison --cols 131072,262144,524288,1048576 --dtype fp32,bf16 --op softmax --pass $pass \
    --backends cuda,triton --variants auto --min-bytes 1GiB --quiet --format markdown --layout long --output $OUT/wide_standing_${pass}_${tag}_$(cat .device/commit).md 2>&1 | tail -1
done

