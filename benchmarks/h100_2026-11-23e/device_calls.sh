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
# ---- session 25, call 6 (H100): the backward auto rule by DRAM bandwidth per SM: plans, tests, auto timed, compute-sanitizer over the backward ops
cd .device/head && export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat ../commit); G=$(nvidia-smi --query-gpu=name --format=csv,noheader | tr -d ' ' | head -1)
echo "commit $C on $G"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
python3 - <<'PY' 2>&1 | tee $OUT/backward_auto_plans_$C.txt
import torch, kernels_cuda.softmax as s
print(torch.cuda.get_device_name(), s.gpu_properties(0))
for dt in (torch.float32, torch.bfloat16):
    for cols in (16384, 20480, 24576, 28672, 32768, 36864, 40960, 49152, 57344, 65536, 73728, 131072):
        y = torch.softmax(torch.randn(2, cols, device="cuda"), -1).to(dt)
        r = s.plan(y, "softmax_backward", "cluster_regs")
        a = s.plan(y, "softmax_backward", "auto")
        print(f"{str(dt)[6:]:9} {cols:6}  auto {a['variant']:13} | cluster_regs k={r['cluster_size']} threads={r['threads']} resident/SM={r['resident_per_sm']} | {a['reason']}")
PY
echo "plans done at $(el)s"
timeout 200 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 8 tests/test_cuda_softmax.py tests/test_matrix.py \
  -m "not slow" -k "auto_plan or (cuda and backward) or (cuda and gradient) or cpp" 2>&1 | grep -Ev '^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_backward_auto_$C.log | tail -6
timeout 150 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 2 tests/test_matrix.py -m slow \
  -k "cuda and backward" 2>&1 | grep -Ev '^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_backward_slow_$C.log | tail -4
echo "tests done at $(el)s"
B="--backends cuda --min-bytes 1GiB --quiet --format markdown --layout long --op softmax,log_softmax --pass bwd --variants auto"
timeout 100 python3 -m comparison --dtype fp32 --cols 16384,20480,24576,28672,32768,36864,65536 $B --output $OUT/backward_auto_fp32_$C.md | tail -1
timeout 100 python3 -m comparison --dtype bf16 --cols 32768,40960,49152,57344,65536,73728,131072 $B --output $OUT/backward_auto_bf16_$C.md | tail -1
grep -hE '^\| cuda/auto ' $OUT/backward_auto_*_$C.md | awk -F'|' '{print $2 "|" $3 "|" $4 "|" $7 "|" $10}'
echo "bench done at $(el)s"
timeout $(( 575 - $(el) )) python3 benchmarks/sanitize.py --backends cuda --ops softmax_backward,log_softmax_backward --out $OUT/sanitize_backward_$C.log 2>&1 | tail -9
echo "all done at $(el)s"
