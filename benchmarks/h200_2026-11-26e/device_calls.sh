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
