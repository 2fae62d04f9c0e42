# Session 35 (2026-11-26): every device call's script, in order (.device/callN.sh at the commit named in its output; each run from the repository root, $OUT the call's output folder).

# ---- call 1
# session 35, call 1: verify session 34's unrun commits (69b89e7 forward split order/gather, 6a3034f, 17e337b, 6f6f718): CUDA split/backward/auto GPU tests, then compute-sanitizer's four tools over split (forward and backward ops)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
echo "built at $(el)s"
timeout 300 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_cuda_softmax.py tests/test_matrix.py -k "split or test_backward or auto" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_split_auto_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -12
echo "tests at $(el)s"
timeout $(( 590 - $(el) )) python3 benchmarks/sanitize.py --out $OUT/sanitize_split_full_${G}_$C.log --backends cuda --variants split --dtypes fp32,bf16,fp16 --shapes 14x131072,3x262145,400x1000 2>&1 | tee $OUT/sanitize_split_${G}_$C.log | tail -12
echo "all done at $(el)s"

# ---- call 2
# session 35, call 2: call 1's tests again with a narrower selection (call 1's took the matrix's Triton auto cases and ran past its 300 s): test_cuda_softmax.py split/backward/auto tests, the matrix's cuda split and auto cases
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
echo "built at $(el)s"
timeout $(( 590 - $(el) )) python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_cuda_softmax.py tests/test_matrix.py -k "(test_cuda_softmax and (split or backward or auto)) or (test_matrix and cuda and (split or auto))" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_split_auto_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -12
echo "all done at $(el)s"

# ---- call 3
# session 35, call 3: tuning/warp_rows_experiment.sh (warp_per_row's grid, rows per access and stores, fp32/bf16 128-1024, fwd and bwd)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
timeout 580 bash benchmarks/tuning/warp_rows_experiment.sh 2>&1 | tee $OUT/warp_rows_experiment.log | tail -90
echo "all done at $(el)s"

# ---- call 4
# session 35, call 4: tuning/grad_regs_bytes_experiment.sh (the backward's one-CTA cluster_regs at 64 B of each 16-bit tensor per thread, bf16/fp16 2048-32768)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
timeout 580 bash benchmarks/tuning/grad_regs_bytes_experiment.sh 2>&1 | tee $OUT/grad_regs_bytes_experiment.log | tail -40
echo "all done at $(el)s"

# ---- call 5
# session 35, call 5: tuning/warp_rows_experiment.sh with the packed 16-bit one-pack form (the checkout) at 4, 1, 2 and 8 rows per access, and __launch_bounds__(128, 12) at 2 and 4, 32-512 columns
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
RUNS="r4:0 rsel:0:1 rsel:0:2 rsel:0:8 lb12:0:2 lb12:0:4" COLS=32,64,128,256,512 timeout 580 bash benchmarks/tuning/warp_rows_experiment.sh 2>&1 | tee $OUT/warp_rows_experiment.log | tail -150
echo "all done at $(el)s"

# ---- call 6
# session 35, call 6 (H200): the checkout's auto backward (16-bit one-CTA rows at 64 B) bf16/fp16 2048-16384; warp_rows_experiment with 8-byte packs for 16-bit one-pack rows; GPU tests of warp_per_row and cluster_regs
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1 &
RUNS="r4:0 rsel:0:4:4 rsel:0:8:4" COLS=64,128,256 DTYPES=bf16 timeout 300 bash benchmarks/tuning/warp_rows_experiment.sh > $OUT/warp_rows_experiment.log 2>&1
wait
tail -40 $OUT/warp_rows_experiment.log
echo "experiment at $(el)s"
timeout 120 python3 -m comparison --cols 2048,4096,8192,16384 --dtype bf16,fp16 --op softmax,log_softmax --pass bwd --backends cuda --variants auto --min-bytes 1GiB --quiet --format markdown --layout long --output $OUT/grad_regs_auto_${G}_$C.md | tail -1
grep -E "^(###|\| cuda/)" $OUT/grad_regs_auto_${G}_$C.md | awk -F'|' '/^###/ {print; next} {printf "%s %s %s %s\n", $2, $4, $7, $10}'
echo "auto at $(el)s"
timeout $(( 590 - $(el) )) python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_cuda_softmax.py tests/test_matrix.py -k "(test_cuda_softmax and (warp or cluster_regs or backward)) or (test_matrix and cuda and (warp_per_row or cluster_regs or auto))" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_warp_regs_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -12
echo "all done at $(el)s"

# ---- call 7
# session 35, call 7 (H200): warp_rows_experiment: rows of 2-32 packs as two packs per lane (the checkout) against one pack per lane on 4 rows (one) and the fp32 rows only back (two16), forward, 32-1024 columns, fp32/bf16/fp16; then warp_per_row's GPU tests
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1 &
PASSES=fwd RUNS="r4:0 one:0 two16:0" COLS=32,64,128,256,512,1024 DTYPES=fp32,bf16,fp16 timeout 400 bash benchmarks/tuning/warp_rows_experiment.sh > $OUT/warp_rows_experiment.log 2>&1
wait
tail -75 $OUT/warp_rows_experiment.log
echo "experiment at $(el)s"
timeout $(( 590 - $(el) )) python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_cuda_softmax.py tests/test_matrix.py -k "(test_cuda_softmax and warp) or (test_matrix and cuda and (warp_per_row or auto))" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_warp_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -12
echo "all done at $(el)s"

# ---- call 8
# session 35, call 8 (H200): warp_rows_experiment: 16-bit rows at 2 packs per lane (the checkout) against 4 (lp4), forward, 32-1024 columns, bf16/fp16; then the CUDA softmax GPU tests of warp_per_row
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1 &
PASSES=fwd RUNS="r4:0 lp4:0" COLS=32,64,128,256,512,1024 DTYPES=bf16,fp16 timeout 400 bash benchmarks/tuning/warp_rows_experiment.sh > $OUT/warp_rows_experiment.log 2>&1
wait
tail -34 $OUT/warp_rows_experiment.log
echo "experiment at $(el)s"
timeout $(( 590 - $(el) )) python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_cuda_softmax.py tests/test_matrix.py -k "(test_cuda_softmax and warp) or (test_matrix and cuda and (warp_per_row or auto))" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_warp_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -12
echo "all done at $(el)s"

# ---- call 9
# session 35, call 9 (H100): warp_rows_experiment (the checkout against one pack per lane on 4 rows, "one", and 16-bit at two packs per lane, "lp2"; forward, fp32/bf16/fp16, 32-1024) and grad_regs_bytes_experiment (the checkout's 16-bit one-CTA rule against it off, "b32"; bf16/fp16 backward 2048-16384)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1 &
PASSES=fwd RUNS="r4:0 one:0 lp2:0" COLS=32,64,128,256,512,1024 DTYPES=fp32,bf16,fp16 timeout 330 bash benchmarks/tuning/warp_rows_experiment.sh > $OUT/warp_rows_experiment.log 2>&1
wait
tail -60 $OUT/warp_rows_experiment.log
echo "warp experiment at $(el)s"
COLS=2048,4096,8192,16384 timeout $(( 590 - $(el) )) bash benchmarks/tuning/grad_regs_bytes_experiment.sh > $OUT/grad_regs_bytes_experiment.log 2>&1
tail -24 $OUT/grad_regs_bytes_experiment.log
echo "all done at $(el)s"

# ---- call 10
# session 35, call 10 (H100, warm after call 9): the CUDA softmax GPU tests (test_cuda_softmax.py, the matrix's cuda cases), then compute-sanitizer's four tools over warp_per_row and cluster_regs (forward and backward ops), fp32/bf16/fp16
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
timeout 330 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_cuda_softmax.py tests/test_matrix.py -k "test_cuda_softmax or (test_matrix and cuda)" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_cuda_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -12
echo "tests at $(el)s"
timeout $(( 590 - $(el) )) python3 benchmarks/sanitize.py --out $OUT/sanitize_warp_regs_full_${G}_$C.log --backends cuda --variants warp_per_row,cluster_regs --dtypes fp32,bf16,fp16 --shapes 64x32,33x64,17x128,9x256,5x1000,7x8192,3x12000 2>&1 | tee $OUT/sanitize_warp_regs_${G}_$C.log | tail -10
echo "all done at $(el)s"

# ---- call 11
# session 35, call 11 (H200): the 12 matrix cases call 10 lost to out-of-memory (4 workers on the H100), 2 workers; the H200 forward record (fp32/bf16, 128-262144) and backward record (fp32/bf16, 128-262144), no peers
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
timeout 150 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 2 tests/test_matrix.py -k "cuda and ((log_softmax_backward and block_hybrid and 1000x) or (reduce_sum and smem_tree and whole))" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_large_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -6
echo "tests at $(el)s"
timeout 200 bash benchmarks/record.sh forward --dtype fp32,bf16 --cols 128,8192,32768,65536,131072,262144 --out $OUT --quiet 2>&1 | tail -2
echo "forward record at $(el)s"
timeout $(( 590 - $(el) )) bash benchmarks/record.sh backward --dtype fp32,bf16 --cols 128,512,2048,8192,32768,65536,131072,262144 --out $OUT --quiet 2>&1 | tail -2
echo "all done at $(el)s"

# ---- call 12
# session 35, call 12 (asked for the H200): the H200 forward record (fp32/bf16, 128-262144) and backward record (fp32/bf16, 128-262144), no peers
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
timeout 200 bash benchmarks/record.sh forward --dtype fp32,bf16 --cols 128,8192,32768,65536,131072,262144 --out $OUT --quiet 2>&1 | tail -2
echo "forward record at $(el)s"
timeout $(( 590 - $(el) )) bash benchmarks/record.sh backward --dtype fp32,bf16 --cols 128,512,2048,8192,32768,65536,131072,262144 --out $OUT --quiet 2>&1 | tail -2
echo "all done at $(el)s"

# ---- call 13
# session 35, call 13 (H200): warp_rows_experiment on the 16-bit narrow rows still under 97% (bf16 128 95.8 in the record): 256-thread blocks (t256), RegSlice's plain stores (st2), evict-first loads (cs), against the checkout (r4:0), forward, bf16/fp16, 64-256 columns
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
PASSES=fwd RUNS="r4:0 t256:0 st2:0 cs:0" COLS=64,128,256 DTYPES=bf16,fp16 timeout 500 bash benchmarks/tuning/warp_rows_experiment.sh > $OUT/warp_rows_experiment.log 2>&1
tail -44 $OUT/warp_rows_experiment.log
echo "all done at $(el)s"

# ---- call 14 (refused: too little device time left to start a machine; 94f3a8b's plain 16-bit stores were then set back to streaming in 5c5d019, whose sm_90 cubin is byte-identical to c1a4789's, the GPU-verified kernels). Its script, for the next session:
# # session 35, call 14 (H200; call 15 the same on the H100): warp_per_row's plain 16-bit stores as committed: CUDA auto forward, softmax and log-softmax, bf16/fp16/fp32, 32-1024 columns, 1 GiB; the warp_per_row GPU tests
# export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
# C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
# G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
# python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
# timeout 150 python3 -m comparison --cols 32,64,128,256,512,1024 --dtype bf16,fp16,fp32 --op softmax,log_softmax --backends cuda --min-bytes 1GiB --quiet --format markdown --layout long --output $OUT/warp_auto_fwd_${G}_$C.md | tail -1
# grep -E "^(###|\| cuda/)" $OUT/warp_auto_fwd_${G}_$C.md | awk -F'|' '/^###/ {printf "\n%s: ", $0; next} {gsub(/ /,"",$4); gsub(/ /,"",$7); printf "%s=%s ", $4, $7}'; echo
# echo "measured at $(el)s"
# timeout $(( 400 - $(el) )) python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_cuda_softmax.py tests/test_matrix.py -k "(test_cuda_softmax and warp) or (test_matrix and cuda and (warp_per_row or auto) and not backward)" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_warp_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -8
# echo "all done at $(el)s"
