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
