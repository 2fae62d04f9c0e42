# Session 50 (2026-11-27): every device call's script, in order. Each ran from the
# repository root as `sed -n '/^## call N$/,/^## call N+1$/p' <this file> > /tmp/c.sh;
# OUT=$OUT bash /tmp/c.sh`, with the working tree and .device/ carried; results were
# copied into benchmarks/h200_2026-11-27g/ or benchmarks/h100_2026-11-27g/ by GPU.

## call 1
# session 50 call 1 (H200). Triton `split_oneshot` with each chunk's output written LAG
# tickets after its load, read again from L2 then (benchmarks/tuning/triton_oneshot_lagged.py):
# no program waits with its chunk in registers. Forward and backward, fp32 and bf16,
# 131072-1048576 columns, 1 GiB, beside the package's kernel.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
V=lag1,lag2,lag4,lag1_hints,res1,lag2_ba,lag2_ba_hints
timeout 330 python3 benchmarks/tuning/triton_oneshot_lagged.py --passes fwd --variants $V 2>&1 | tee $out/lagged_${tag}_$rev.txt
echo "fwd $(el)"
timeout $(( 580 - $(el) )) python3 benchmarks/tuning/triton_oneshot_lagged.py --passes bwd --variants $V 2>&1 | tee -a $out/lagged_${tag}_$rev.txt
echo "elapsed $(el)"

## call 2
