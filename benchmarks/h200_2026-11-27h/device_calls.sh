# Session 51 (2026-11-27): the exact commands of each device call, run from the checkout
# root as `sed -n '/^## call N$/,/^## call N+1$/p' <this file> > /tmp/c.sh; OUT=$OUT bash /tmp/c.sh`.

## call 1
# session 51 call 1 (H200). A `split_oneshot` whose resident programs load their next
# chunk while they wait for the last one's row (benchmarks/tuning/triton_oneshot_pipelined.py):
# the forward, fp32 and bf16, 65536-1048576 columns, four geometries beside the package's.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root:$root/benchmarks/tuning
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 560 python3 benchmarks/tuning/triton_oneshot_pipelined.py --passes fwd --dtypes fp32,bf16 \
  --geometries 8192x64,4096x32,2048x32,8192x32 2>&1 | tee $out/pipelined_fwd_${tag}_$rev.txt
echo "elapsed $(el)"

## call 2
# session 51 call 2 (H200). Call 1: the pipelined grid loses everywhere (forward fp32 /
# bf16 65536-524288: 76-92 against the package's 91.5-97.1; K >= 64 collapses to 14-60):
# not taken. Here: Triton `fused` at the narrowest rows, where it trails on the H200
# (fp32 128: 96.9-97.1 in three records, against CUDA's 100.2 and QuACK's 99.5): its
# tile's bytes (FUSED_TILE_BYTES) and units a thread (FUSED_UNITS_PER_THREAD), forward,
# beside torch. (A first run with cuda/auto beside it spent every 60 s process building
# the CUDA extension and printed nothing.)
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
f=$out/narrow_tiles_fwd_${tag}_$rev.txt; : > $f
for tile in 8192 16384 32768 65536; do for per in 16 32 64; do
  timeout 60 python3 benchmarks/tuning/tune.py --cols 128,256,512 --dtype fp32,bf16,fp16 --impl triton/fused,torch/auto \
    --set kernels_triton.softmax_fused.FUSED_TILE_BYTES=$tile --set kernels_triton.softmax_fused.FUSED_UNITS_PER_THREAD=$per \
    --label "t$tile/u$per" 2>&1 | grep -v Warn | tee -a $f
  [ $(el) -gt 540 ] && break 2
done; done
echo "elapsed $(el)"

## call 3
# session 51 call 3 (H200). Call 2: fp32 rows of 128 ran at 100.0 in 64 KiB tiles at 16
# units a thread (128 rows over 32 warps) against 96.7-97.6 in every other tile, the
# shipped one (16 KiB, 32 a thread) 97.0; bf16 and fp16 no better than shipped. Checked
# here twice over, with tiles between, at fp32 32-512 columns (the rows 512 B and under).
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
f=$out/narrow_fp32_tiles_${tag}_$rev.txt; : > $f
for round in 1 2; do for tu in 16384/32 65536/16 32768/16 32768/8 65536/8 65536/32; do
  tile=${tu%/*}; per=${tu#*/}
  timeout 60 python3 benchmarks/tuning/tune.py --cols 32,64,96,128,256,512 --dtype fp32 --impl triton/fused,torch/auto \
    --set kernels_triton.softmax_fused.FUSED_TILE_BYTES=$tile --set kernels_triton.softmax_fused.FUSED_UNITS_PER_THREAD=$per \
    --label "r$round:t$tile/u$per" 2>&1 | grep -v Warn | tee -a $f
  [ $(el) -gt 280 ] && break 2
done; done
echo "elapsed $(el)"

## call 4
