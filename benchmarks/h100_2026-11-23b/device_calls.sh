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

# ---- call 5 (commit a69c45d: split's first form, 256-thread CTAs of 64 bytes for every dtype)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
echo "commit $(cat .device/commit)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
W="-W ignore::pytest_benchmark.logger.PytestBenchmarkWarning -p no:cacheprovider"
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
timeout -s INT 90 python3 -m pytest -q -n 12 --dist load --tb=short -rfEs $W tests/test_matrix.py -k "cuda and split" 2>&1 | grep -Ev '^[.sFxX]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_matrix_split.log | tail -15
echo "matrix split done at $(el)s"
timeout -s INT 100 python3 -m pytest -q -n 12 --dist loadfile --tb=short -rfEs $W tests/test_cuda_softmax.py tests/test_cuda_compile.py 2>&1 | grep -Ev '^[.sFxX]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_cuda_softmax.log | tail -25
echo "cuda tests done at $(el)s"
timeout 130 python3 benchmarks/sanitize.py --backends cuda --ops softmax --timeout 110 --out $OUT/sanitize_cuda_softmax.log 2>&1 | tail -12
echo "sanitize done at $(el)s"
timeout $(( 590 - $(el) )) python3 -m comparison --cols 16384,32768,65536,131072,262144,524288,1048576 --dtype fp32,bf16 --op softmax --backends cuda,triton --variants auto,cluster_regs,split --min-bytes 1GiB --quiet --format markdown --output $OUT/split_wide.md
grep -E "^\| +[0-9]" $OUT/split_wide.md | awk -F'|' '{print $2,$3,$4,$5,$7,$8}' | head -80
echo "all done at $(el)s"

# ---- call 6 (commit 8959d95: split with Triton's geometry)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
echo "commit $(cat .device/commit)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
W="-W ignore::pytest_benchmark.logger.PytestBenchmarkWarning -p no:cacheprovider"
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
timeout 60 python3 -m comparison --cols 16384,65536,131072,262144,524288,1048576 --dtype fp32,bf16 --op softmax --backends cuda,triton --variants auto,split --min-bytes 1GiB --quiet --format markdown --output $OUT/split_wide.md
grep -E "split|auto" $OUT/split_wide.md | grep -E "^\|" | awk -F'|' '{print $2,$4,$7,$10}' | paste -sd';'
echo "bench done at $(el)s"
timeout -s INT $(( 225 - $(el) )) python3 -m pytest -q -n 12 --dist load --tb=short -rfEs $W tests/test_matrix.py tests/test_cuda_softmax.py -k "(cuda and split) or graph or plan_fields" 2>&1 | grep -Ev '^[.sFxX]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_split.log | tail -12
echo "all done at $(el)s"
