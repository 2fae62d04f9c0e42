#!/usr/bin/env bash
# Device calls of session 25 on the H100 (2026-11-23), in order; each ran from a copy of the
# commit it names (git archive into .device/head), with the Python and torch the machine has.
# ---- session 25, call 1 (H100): the C++ gradient node at the head (its struct refactor never ran on a GPU); where an H100 training step's host time goes
cd .device/head && export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
echo "commit $(cat ../commit)"; nvidia-smi --query-gpu=name --format=csv,noheader; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
timeout 150 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 8 tests/test_cuda_softmax.py tests/test_api.py \
  -k "cpp or named_variants or eager or api or auto_plan or grad" 2>&1 | grep -Ev '^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_cpp_grad.log | tail -5
echo "tests done at $(el)s"
timeout 90 python3 benchmarks/tuning/step_profile.py --backends torch,cuda,triton > $OUT/step_profile_h100.txt 2>&1; head -30 $OUT/step_profile_h100.txt
timeout 60 python3 benchmarks/tuning/profile_call.py --backends torch,cuda,triton --grad > $OUT/host_grad_h100.txt 2>&1; tail -6 $OUT/host_grad_h100.txt
echo "all done at $(el)s"
# ---- session 25, call 3 (H100): benchmarks/tuning/hybrid_backward_experiment.sh
cd .device/head && echo "commit $(cat ../commit)" && start=$(date +%s)
bash benchmarks/tuning/hybrid_backward_experiment.sh 2>&1 | tail -80
echo "all done at $(( $(date +%s) - start ))s"
