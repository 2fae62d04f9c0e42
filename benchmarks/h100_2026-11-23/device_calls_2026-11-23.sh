# The four device calls of 2026-11-23 (afternoon) on NVIDIA H100 80GB HBM3 (driver 580.159.04;
# torch 2.11.0+cu130, Triton 3.6.0), each run from the repository root as 'bash call.sh' with
# $OUT collecting the logs of benchmarks/h100_2026-11-23/ named in benchmarks/README.md. Commits:
# call 1 and 2 at 1b6475f, call 3 at 8defad2 (superseded), call 4 at d4fc837.

# ---- call 1
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
git log -1 --format='commit %h %s' 2>/dev/null || echo "commit $(cat .device/commit)"
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -2; echo "build done at $(el)s"
left=$(( 560 - $(el) - 170 ))
timeout $left python3 -m pytest tests -q -rfEs -m "not slow" -n 6 --dist loadfile -p no:cacheprovider 2>&1 | tee $OUT/gpu_tests.log | tail -25
echo "tests done at $(el)s"
timeout 130 python3 -m comparison --cols 131072,262144 --dtype fp32,bf16 --op softmax --pass fwd,bwd --backends cuda,triton --variants all --min-bytes 1GiB --quiet --format markdown --output $OUT/wide_variants.md
echo "wide done at $(el)s"
timeout 40 python3 benchmarks/tuning/profile_call.py --backends torch,cuda,triton --top 14 > $OUT/host_profile.txt 2>&1; grep "us/call" $OUT/host_profile.txt
echo "all done at $(el)s"

# ---- call 2
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "commit $(cat .device/commit)"
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
timeout -s INT $(( 540 - $(el) )) python3 -m pytest tests -q -rfE -m "not slow" -n 12 --dist loadfile -p no:cacheprovider --tb=line --durations=20 -W ignore::pytest_benchmark.logger.PytestBenchmarkWarning 2>&1 | grep -v '^\.*\s*\[' | tee $OUT/gpu_tests.log | tail -60
echo "tests done at $(el)s"

# ---- call 3
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "commit $(cat .device/commit)"
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
W="-W ignore::pytest_benchmark.logger.PytestBenchmarkWarning -p no:cacheprovider"
timeout -s INT 200 python3 -m pytest -q -n 10 --dist loadfile --tb=short -rfE $W tests/test_plot.py tests/test_properties.py \
  tests/test_triton_softmax.py::test_any_tensor_gets_an_answer tests/test_triton_softmax_backward.py::test_backward_any_tensor_gets_an_answer \
  tests/test_triton_softmax_backward.py::test_gpu_backward_compiled_kernels_do_not_spill tests/test_triton_softmax_backward.py::test_gradient_that_arrives_broadcast \
  tests/test_cuda_softmax.py tests/test_cuda_reduce.py tests/test_cuda_compile.py 2>&1 | grep -v '^[.sFx]*\s*\[' | tee $OUT/gpu_tests_targeted.log | tail -80
echo "targeted done at $(el)s"
timeout -s INT 150 python3 -m pytest -q -n 10 --tb=line -rfE $W tests/test_matrix.py -k "special or empty" 2>&1 | grep -v '^[.sFx]*\s*\[' | tee $OUT/gpu_tests_matrix_special.log | tail -30
echo "matrix special done at $(el)s"
timeout 100 python3 -m comparison --cols 2048,32768,131072,262144 --backends cuda --dtype fp32,bf16 --op softmax,log_softmax --min-bytes 1GiB --quiet --format markdown --output $OUT/exp_shift_perf.md
grep "cuda/auto" $OUT/exp_shift_perf.md
echo "all done at $(el)s"

# ---- call 4
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "commit $(cat .device/commit)"
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
W="-W ignore::pytest_benchmark.logger.PytestBenchmarkWarning -p no:cacheprovider"
timeout -s INT 150 python3 -m pytest -q -n 12 --dist loadfile --tb=short -rfE $W tests/test_properties.py \
  tests/test_triton_softmax_backward.py::test_gpu_backward_compiled_kernels_do_not_spill tests/test_triton_softmax_backward.py::test_gradient_that_arrives_broadcast \
  tests/test_triton_softmax.py::test_any_tensor_gets_an_answer tests/test_triton_softmax_backward.py::test_backward_any_tensor_gets_an_answer \
  tests/test_cuda_softmax.py tests/test_cuda_reduce.py tests/test_plot.py 2>&1 | grep -v '^[.sFx]*\s*\[' | tee $OUT/gpu_tests_targeted.log | tail -40
echo "targeted done at $(el)s"
timeout -s INT 90 python3 -m pytest -q -n 12 --tb=line -rfE $W tests/test_matrix.py -k "special or empty or large" 2>&1 | grep -v '^[.sFx]*\s*\[' | tee $OUT/gpu_tests_matrix_special.log | tail -25
echo "matrix special done at $(el)s"
timeout 60 python3 -m comparison --cols 512,2048,8192,32768,131072,262144 --backends cuda --dtype fp32,bf16 --op softmax,log_softmax --min-bytes 1GiB --quiet --format markdown --output $OUT/exp_shift_perf.md
grep -E "^\| +[0-9]" $OUT/exp_shift_perf.md | awk -F'|' '{print $2,$3,$6}' | tr -s ' ' | paste -sd';'
echo "all done at $(el)s"
