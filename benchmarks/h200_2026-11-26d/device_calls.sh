# Session 38's device calls (2026-11-26), each as run from the repository root on the
# device machine with `.device/` carried (.device/commit holds the commit, .device/base
# the tree before the session: git archive db6e5ae comparison kernels_cuda kernels_triton;
# .device/ba.sh is the before/after script, as in benchmarks/h200_2026-11-26c/device_calls.sh).
# Results in benchmarks/h200_2026-11-26d/ and benchmarks/h100_2026-11-26d/.

# ---- call 1 (H200, f807507): .device/call1.sh
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100); C=$(cat .device/commit)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
COLS=151936,196608,139264,327680 DTYPES=fp32,bf16 PASSES=fwd OPS=softmax ROUNDS=2 PREFIX=anyk timeout 300 bash .device/ba.sh > $OUT/anyk_before_after_$C.log 2>&1; tail -12 $OUT/anyk_before_after_$C.log
echo "elapsed $(el)"
python3 - <<'PY'
import torch, kernels_cuda.softmax as s
for dt in (torch.float32, torch.bfloat16):
    for cols in (139264, 151936, 196608, 327680):
        p = s.plan(torch.empty(2, cols, device="cuda", dtype=dt), "softmax", "block_hybrid")
        a = s.plan(torch.empty(2000, cols, device="cuda", dtype=dt), "softmax", "auto")
        print(f"{str(dt)[6:]:8} {cols:7} block_hybrid k={p['cluster_size']} threads={p['threads']} smem={p['smem_bytes']} | auto {a['variant']} k={a['cluster_size']}")
PY
timeout 150 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_cuda_softmax.py -k "hybrid or auto" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $OUT/gpu_tests_hybrid_${G}_$C.log; grep -E "passed|failed|FAILED|Error" $OUT/gpu_tests_hybrid_${G}_$C.log | tail -8
echo "elapsed $(el)"
timeout $(( 430 - $(el) )) python3 benchmarks/sanitize.py --out $OUT/sanitize_anyk_${G}_$C.log --backends cuda --variants block_hybrid --dtypes fp32,bf16 --shapes 2x151936,1x327680,3x100000 2>&1 | tail -8
echo "elapsed $(el)"
timeout $(( 590 - $(el) )) python3 -m comparison --cols 197,1025,3001,50257 --dtype fp32,bf16 --op softmax --pass fwd,bwd --backends cuda,triton,torch --variants auto --min-bytes 1GiB --quiet --format csv --output $OUT/odd_widths_${G}_$C.csv 2>&1 | tail -1
python3 - $OUT/odd_widths_${G}_$C.csv <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(r["pass"], r["dtype"], r["cols"], f"{r['backend']}/{r['variant']}", r["pct_of_copy"][:5] or "-", r["ok"])
PY
echo "elapsed $(el)"

# ---- call 2 (H200): .device/call2.sh
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100); C=$(cat .device/commit)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
COLS=197,1025,3001,50257,70001,151937,32768,65536,131072 DTYPES=fp32,bf16 PASSES=fwd OPS=softmax ROUNDS=2 PREFIX=edges timeout 330 bash .device/ba.sh > $OUT/edges_before_after_$C.log 2>&1; tail -24 $OUT/edges_before_after_$C.log
echo "elapsed $(el)"
timeout 120 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_cuda_softmax.py 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $OUT/gpu_tests_cuda_${G}_$C.log; grep -E "passed|failed|FAILED|Error" $OUT/gpu_tests_cuda_${G}_$C.log | tail -12
echo "elapsed $(el)"
timeout $(( 590 - $(el) )) python3 benchmarks/sanitize.py --out $OUT/sanitize_edges_${G}_$C.log --backends cuda --variants cluster_regs,block_hybrid,auto --dtypes fp32,bf16,fp16 --ops softmax,log_softmax --shapes 5x7,5x197,3x1025,3x20001,2x50257,2x151937 2>&1 | tail -8
echo "elapsed $(el)"

# ---- call 3 (H200): .device/call3.sh
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100); C=$(cat .device/commit)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
COLS=1025,3001,50257,70001,151937,32768,65536,131072 DTYPES=fp32,bf16 PASSES=${PASSES:-bwd,fwd} OPS=softmax,log_softmax ROUNDS=1 PREFIX=edges2 timeout 300 bash .device/ba.sh > $OUT/edges2_before_after_${G}_$C.log 2>&1; tail -36 $OUT/edges2_before_after_${G}_$C.log | cut -c1-130
echo "elapsed $(el)"
timeout 130 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_cuda_softmax.py 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $OUT/gpu_tests_cuda_${G}_$C.log; grep -E "passed|failed|FAILED|Error" $OUT/gpu_tests_cuda_${G}_$C.log | tail -12
echo "elapsed $(el)"
timeout $(( 590 - $(el) )) python3 benchmarks/sanitize.py --out $OUT/sanitize_edges_bwd_${G}_$C.log --backends cuda --variants cluster_regs,block_hybrid,auto --dtypes fp32,bf16,fp16 --ops softmax_backward,log_softmax_backward,softmax --shapes 5x7,5x197,3x1025,3x20001,2x50257,2x151937 2>&1 | tail -8
echo "elapsed $(el)"

# ---- call 4 (H100): .device/call4.sh (call 3's script)

# ---- call 5 (H200): .device/call5.sh
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100); C=$(cat .device/commit)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
COLS=197,577,1023,128,1024 DTYPES=fp32,bf16 PASSES=fwd,bwd OPS=softmax ROUNDS=1 PREFIX=warp_edges timeout 200 bash .device/ba.sh > $OUT/warp_edges_before_after_${G}_$C.log 2>&1; tail -22 $OUT/warp_edges_before_after_${G}_$C.log | cut -c1-130
echo "elapsed $(el)"
timeout 60 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_cuda_softmax.py -k "three_parts or warp or misaligned or alignment" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $OUT/gpu_tests_warp_edges_${G}_$C.log; grep -E "passed|failed|FAILED|Error" $OUT/gpu_tests_warp_edges_${G}_$C.log | tail -12
echo "elapsed $(el)"
timeout $(( 290 - $(el) )) python3 benchmarks/sanitize.py --out $OUT/sanitize_warp_edges_${G}_$C.log --backends cuda --variants warp_per_row,auto --dtypes fp32,bf16,fp16 --ops softmax,log_softmax,softmax_backward,log_softmax_backward --shapes 5x7,5x15,5x197,3x577,3x1023 2>&1 | tail -8
echo "elapsed $(el)"

# ---- call 6 (H200): .device/call6.sh
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100); C=$(cat .device/commit)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
COLS=197,577,1023,33,128 DTYPES=fp32,bf16 PASSES=fwd,bwd OPS=softmax ROUNDS=1 PREFIX=warp_edges2 timeout 200 bash .device/ba.sh > $OUT/warp_edges2_before_after_${G}_$C.log 2>&1; tail -22 $OUT/warp_edges2_before_after_${G}_$C.log | cut -c1-130
echo "elapsed $(el)"
timeout 60 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_cuda_softmax.py -k "three_parts or warp or misaligned or alignment" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $OUT/gpu_tests_warp_edges2_${G}_$C.log; grep -E "passed|failed|FAILED|Error" $OUT/gpu_tests_warp_edges2_${G}_$C.log | tail -12
echo "elapsed $(el)"
timeout $(( 290 - $(el) )) python3 benchmarks/sanitize.py --out $OUT/sanitize_warp_edges2_${G}_$C.log --backends cuda --variants warp_per_row,auto --dtypes fp32,bf16,fp16 --ops softmax,log_softmax,softmax_backward,log_softmax_backward --shapes 5x7,5x15,5x197,3x577,3x1023 2>&1 | tail -8
echo "elapsed $(el)"

