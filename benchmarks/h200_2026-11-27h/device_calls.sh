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
