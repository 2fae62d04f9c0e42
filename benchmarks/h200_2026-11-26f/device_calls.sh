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
