#!/usr/bin/env bash
# Device calls of 2026-11-23 (night session), NVIDIA H100 80GB HBM3, each run from the repository root
# through the device tool with .device/ carried; .device/commit held the commit named.

# ---- session 23, call 1: split polling experiment, split under the sanitizer, split >2^31, host profile before
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
echo "commit $(cat .device/commit)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
W="-W ignore::pytest_benchmark.logger.PytestBenchmarkWarning -p no:cacheprovider"
timeout 260 bash benchmarks/tuning/split_poll_experiment.sh 2>&1 | tail -30
echo "experiment done at $(el)s"
python3 benchmarks/tuning/profile_call.py --backends torch,cuda,triton --top 14 > $OUT/host_profile_before_27c38f1.txt 2>&1; grep "us/call" $OUT/host_profile_before_27c38f1.txt
echo "profile done at $(el)s"
timeout 150 python3 benchmarks/sanitize.py --backends cuda --ops softmax --timeout 130 --out $OUT/sanitize_cuda_softmax_27c38f1.log 2>&1 | tail -12
echo "sanitize done at $(el)s"
timeout -s INT $(( 580 - $(el) )) python3 -m pytest -q --tb=short -rfEs $W tests/test_cuda_softmax.py -k "two_billion and split" 2>&1 | tail -8 | tee $OUT/gpu_tests_split_huge_27c38f1.log
echo "all done at $(el)s"

# ---- call 2
# ---- session 23, call 2: host cost after (5202912) and before (27c38f1, in .device/before), same machine
export PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
echo "commit $(cat .device/commit)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
root=$PWD before=$PWD/.device/before
(cd $before && PYTHONPATH=$before python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1) &
PYTHONPATH=$root python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
wait; echo "builds done at $(el)s"
export PYTHONPATH=$root
timeout -s INT 210 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 12 --dist loadfile -m "not slow" \
  tests/test_cuda_softmax.py tests/test_cuda_reduce.py tests/test_triton_softmax.py tests/test_triton_softmax_backward.py \
  tests/test_triton_reduce.py tests/test_api.py 2>&1 | grep -Ev '^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_host_cost.log | tail -12
echo "tests done at $(el)s"
python3 benchmarks/tuning/profile_call.py --backends torch,cuda,triton --top 14 > $OUT/host_profile_after.txt 2>&1
(cd $before && PYTHONPATH=$before python3 benchmarks/tuning/profile_call.py --backends torch,cuda,triton --top 14) > $OUT/host_profile_before.txt 2>&1
grep -H "us/call" $OUT/host_profile_*.txt
echo "profiles done at $(el)s"
L="--latency --op softmax --cols 1024,32768,262144 --rows 1,16 --dtype fp32,bf16 --backends torch,cuda,triton --quiet --format markdown"
timeout 100 python3 -m comparison $L --output $OUT/latency_after.md; tail -30 $OUT/latency_after.md
echo "latency after done at $(el)s"
(cd $before && PYTHONPATH=$before timeout 100 python3 -m comparison $L --output $OUT/latency_before.md); tail -30 $OUT/latency_before.md
echo "all done at $(el)s"

# ---- call 3
# ---- session 23, call 3: the call path's second step: tests, matrix, host profile and latency
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
echo "commit $(cat .device/commit)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
python3 benchmarks/tuning/profile_call.py --backends torch,cuda,triton --top 16 > $OUT/host_profile_after2.txt 2>&1; grep "us/call" $OUT/host_profile_after2.txt
L="--latency --op softmax --cols 1024,32768,262144 --rows 1,16 --dtype fp32,bf16 --backends torch,cuda,triton --quiet --format markdown"
timeout 100 python3 -m comparison $L --output $OUT/latency_after2.md; grep -E "1024|32768" $OUT/latency_after2.md | head -24
echo "latency done at $(el)s"
timeout -s INT 200 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 12 --dist loadfile -m "not slow" \
  tests/test_cuda_softmax.py tests/test_cuda_reduce.py tests/test_triton_softmax.py tests/test_triton_softmax_backward.py \
  tests/test_triton_reduce.py tests/test_api.py tests/test_agreement.py tests/test_peers.py 2>&1 | grep -Ev '^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_call_path.log | tail -6
echo "tests done at $(el)s"
LIMIT=$(( 585 - $(el) )) bash benchmarks/gpu_evidence.sh matrix 2>&1 | tail -6
echo "all done at $(el)s"
