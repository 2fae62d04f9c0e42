#!/usr/bin/env bash
# Device call of 2026-11-23 (late night), NVIDIA H100, run from the repository root through the device tool with
# .device/ carried: .device/head held 'git archive 8845377' and .device/before 'git archive e97a5ac' of comparison/,
# kernels_cuda/, kernels_triton/ (and tests/, benchmarks/tuning/ for head); .device/commit held 8845377.

# ---- session 24, call 6 (H100): C++ gradient node and auto's rows over 1 MB: tests, host time before (e97a5ac) / after, wide variants
cd .device/head && export PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
echo "commit $(cat ../commit)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
here=$PWD before=$(cd ../before && pwd)
(cd $before && PYTHONPATH=$before python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1) &
PYTHONPATH=$here python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; wait; echo "builds done at $(el)s"
export PYTHONPATH=$here
timeout 100 python3 -m comparison --cols 524288,1048576 --dtype fp32,bf16 --op softmax --backends cuda,triton --variants auto,online,cluster_smem,split --min-bytes 1GiB --quiet --format markdown --output $OUT/wide_rule.md; grep -E "auto|online|cluster_smem" $OUT/wide_rule.md | cut -c1-80; echo "wide at $(el)s"
for t in after before; do d=$here; [ $t = before ] && d=$before
  PYTHONPATH=$d python3 $here/benchmarks/tuning/profile_call.py --backends torch,cuda,triton --grad --calls 1000 > $OUT/host_grad_$t.txt 2>&1
  PYTHONPATH=$d python3 $here/benchmarks/tuning/profile_call.py --backends torch,cuda,triton --top 8 > $OUT/host_$t.txt 2>&1
done; grep -H "us/call" $OUT/host_*.txt | cut -c1-160; echo "profiles at $(el)s"
timeout -s INT $(( 560 - $(el) )) python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 12 --dist loadfile -m "not slow" \
  tests/test_cuda_softmax.py tests/test_api.py tests/test_matrix.py -k "cpp or named_variants or auto_plan or grad or api or (matrix and cuda and gradient)" 2>&1 | grep -Ev '^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests.log | tail -8
echo "all done at $(el)s"
