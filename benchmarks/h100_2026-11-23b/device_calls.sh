# The device calls of 2026-11-23 (evening) on NVIDIA H100 80GB HBM3 (driver 580.159.04; torch 2.11.0+cu130,
# Triton 3.6.0), each run from the repository root as 'bash call.sh', the tree at commit cd245e2 (the
# logs' own 'commit 79695bf' line is the device's stale .git: the copied tree is cd245e2's; .device/commit held it).

# ---- call 1
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
echo "commit $(cat .device/commit)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
LIMIT=250 bash benchmarks/gpu_evidence.sh tests -W ignore::pytest_benchmark.logger.PytestBenchmarkWarning
echo "tests done at $(el)s"
LIMIT=$(( 585 - $(el) )) TAG=cuda bash benchmarks/gpu_evidence.sh matrix -k cuda
echo "matrix cuda done at $(el)s"

# ---- call 2
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
echo "commit $(cat .device/commit)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
LIMIT=330 TAG=not_cuda bash benchmarks/gpu_evidence.sh matrix -k "not cuda" 2>&1 | grep -v PytestBenchmarkWarning | grep -v "warner("
echo "matrix not cuda done at $(el)s"
timeout $(( 590 - $(el) )) bash benchmarks/tuning/wide_rows_experiment.sh 2>&1 | tail -30
echo "wide done at $(el)s"

# ---- call 3
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
echo "commit $(cat .device/commit)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 benchmarks/sanitize.py --backends cuda --ops softmax,softmax_backward --dtypes fp32,bf16 --timeout 480 --out $OUT/sanitize_cuda_softmax_fwd_bwd.log 2>&1 | tail -25
echo "sanitize done at $(el)s"

# ---- call 4
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
echo "commit $(cat .device/commit)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 benchmarks/sanitize.py --timeout 500 --out $OUT/sanitize_all.log 2>&1 | tail -25
echo "sanitize done at $(el)s"
