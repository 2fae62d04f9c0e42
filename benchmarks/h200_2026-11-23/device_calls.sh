#!/usr/bin/env bash
# Device call of 2026-11-23 (night), NVIDIA H200, run from the repository root through the device
# tool with .device/ carried: .device/commit held 7d5dc81 and .device/before/ held 'git archive 27c38f1'
# of comparison/, kernels_cuda/, kernels_triton/ and benchmarks/tuning/profile_call.py.

# ---- session 23, call 4 (H200): the call path (7d5dc81) against 27c38f1 on the H200: GPU tests, host profile, latency
export PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
echo "commit $(cat .device/commit)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
root=$PWD before=$PWD/.device/before
(cd $before && PYTHONPATH=$before python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1) &
PYTHONPATH=$root python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
wait; echo "builds done at $(el)s"
export PYTHONPATH=$root
python3 benchmarks/tuning/profile_call.py --backends torch,cuda,triton --top 16 > $OUT/host_profile_after.txt 2>&1
(cd $before && PYTHONPATH=$before python3 benchmarks/tuning/profile_call.py --backends torch,cuda,triton --top 16) > $OUT/host_profile_before.txt 2>&1
grep -H "us/call" $OUT/host_profile_*.txt
L="--latency --op softmax,reduce_sum --cols 1024,32768,262144 --rows 1,16 --dtype fp32,bf16 --backends torch,cuda,triton --quiet --format markdown"
timeout 120 python3 -m comparison $L --output $OUT/latency_after.md
(cd $before && PYTHONPATH=$before timeout 120 python3 -m comparison $L --output $OUT/latency_before.md)
echo "latency done at $(el)s"
timeout -s INT $(( 585 - $(el) )) python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 12 --dist loadfile -m "not slow" \
  tests/test_cuda_softmax.py tests/test_cuda_reduce.py tests/test_triton_softmax.py tests/test_triton_softmax_backward.py \
  tests/test_triton_reduce.py tests/test_api.py tests/test_agreement.py tests/test_peers.py 2>&1 | grep -Ev '^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_call_path.log | tail -6
echo "all done at $(el)s"

# ---- call 2
# ---- session 23, call 5 (H200): Triton's direct launches: tests, host profile, latency, the matrix's Triton cases
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
echo "commit $(cat .device/commit)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
python3 benchmarks/tuning/profile_call.py --backends torch,cuda,triton --top 16 > $OUT/host_profile.txt 2>&1; grep "us/call" $OUT/host_profile.txt
L="--latency --op softmax --cols 1024,32768,262144 --rows 1,16 --dtype fp32,bf16 --backends torch,cuda,triton --quiet --format markdown"
timeout 100 python3 -m comparison $L --output $OUT/latency.md; grep -E "fp32|1024" $OUT/latency.md | head -12
echo "latency done at $(el)s"
timeout -s INT 200 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 12 --dist loadfile -m "not slow" \
  tests/test_triton_softmax.py tests/test_triton_softmax_backward.py tests/test_triton_reduce.py tests/test_api.py 2>&1 | grep -Ev '^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_triton.log | tail -5
echo "tests done at $(el)s"
TAG=triton LIMIT=$(( 560 - $(el) )) bash benchmarks/gpu_evidence.sh matrix -k triton 2>&1 | tail -3
echo "all done at $(el)s"

# ---- call 3 (the machine still warm from call 2)
# ---- session 23, call 6 (H200): the corrected bound-kernel test, and the host profile once more
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
echo "commit $(cat .device/commit)"; nvidia-smi --query-gpu=name --format=csv,noheader
timeout 120 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider tests/test_triton_softmax.py -k "bound_kernel or graph" 2>&1 | tail -3 | tee $OUT/gpu_tests_bound_kernel.log
python3 benchmarks/tuning/profile_call.py --backends torch,cuda,triton --top 16 > $OUT/host_profile.txt 2>&1; grep "us/call" $OUT/host_profile.txt

# ==== session 24 (2026-11-23, late night), NVIDIA H200, commit e97a5ac; carry [".device"] plus .whl/part1 (call 1) and .whl/part2 (call 2)

# ---- session 24, call 1 (H200): compute-sanitizer at the head (tensor-taking CUDA ops, Triton's bound/direct launches), peers part 1
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
echo "commit $(cat .device/commit)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
bash benchmarks/install_peers.sh part1 2>&1 | tail -2
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
timeout 500 python3 benchmarks/sanitize.py --timeout 470 --out $OUT/sanitize_all.log 2>&1 | tail -12
echo "all done at $(el)s"

# ---- session 24, call 2 (H200): peers part 2, then the record: default, forward fp32/bf16/fp16
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
echo "commit $(cat .device/commit)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
bash benchmarks/install_peers.sh part2 2>&1 | tail -3; echo "peers at $(el)s"
C=128,512,2048,8192,32768,65536,131072,262144
bash benchmarks/record.sh default --out $OUT --quiet 2>&1 | tail -2; echo "default at $(el)s"
for d in fp32 bf16 fp16; do timeout $(( 570 - $(el) )) bash benchmarks/record.sh forward --dtype $d --cols $C --out $OUT --quiet 2>&1 | tail -2; echo "forward $d at $(el)s"; done
cd $OUT && tar czf record_call2.tgz */ && ls -R | head -30

# ---- session 24, call 3 (H200): the record: backward fp32/bf16/fp16, step fp32/bf16, forward_wide
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
echo "commit $(cat .device/commit)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
C=128,512,2048,8192,32768,65536,131072,262144
for d in fp32 bf16 fp16; do timeout $(( 560 - $(el) )) bash benchmarks/record.sh backward --dtype $d --cols $C --out $OUT --quiet 2>&1 | tail -1; echo "backward $d at $(el)s"; done
timeout $(( 570 - $(el) )) bash benchmarks/record.sh step --dtype fp32,bf16 --cols 512,8192,65536,262144 --out $OUT --quiet 2>&1 | tail -1; echo "step at $(el)s"
timeout $(( 580 - $(el) )) bash benchmarks/record.sh forward_wide --out $OUT --quiet 2>&1 | tail -1; echo "forward_wide at $(el)s"
cd $OUT && tar czf record_call3.tgz */ && ls h200

# ---- session 24, call 4 (H200): the record: reductions, ladder
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
echo "commit $(cat .device/commit)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
timeout 250 bash benchmarks/record.sh reductions --out $OUT --quiet 2>&1 | tail -1; echo "reductions at $(el)s"
timeout $(( 520 - $(el) )) bash benchmarks/record.sh ladder --out $OUT --quiet 2>&1 | tail -1; echo "ladder at $(el)s"
cd $OUT && tar czf record_call4.tgz */ && ls h200

# ---- session 24, call 5 (H200): every CUDA and Triton variant at wide rows, forward and backward; GPU suites at the head
cd .device/head && export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
echo "commit $(cat ../commit)"; nvidia-smi --query-gpu=name --format=csv,noheader; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
W="--cols 65536,131072,262144,524288 --dtype fp32,bf16 --backends cuda,triton --variants all --min-bytes 1GiB --quiet --format markdown --layout long"
timeout 170 python3 -m comparison $W --op softmax --output $OUT/wide_variants_fwd.md; echo "fwd at $(el)s"
timeout 170 python3 -m comparison $W --op softmax --pass bwd --output $OUT/wide_variants_bwd.md; echo "bwd at $(el)s"
timeout -s INT $(( 580 - $(el) )) python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 12 --dist loadfile -m "not slow" \
  tests/test_cuda_softmax.py tests/test_cuda_reduce.py tests/test_triton_softmax.py tests/test_triton_softmax_backward.py \
  tests/test_triton_reduce.py tests/test_api.py tests/test_agreement.py 2>&1 | grep -Ev '^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_head.log | tail -6
echo "all done at $(el)s"

# (2 x H200, nvidia-h200-x2; .device/head held 'git archive 5957fbf')
# ---- session 24, call 7 (2 x H200): the two-GPU tests on the current call path; where a small training step's host time goes
cd .device/head && export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
echo "commit $(cat ../commit)"; nvidia-smi --query-gpu=name --format=csv,noheader; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
timeout 150 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 6 \
  tests/test_cuda_softmax.py tests/test_cuda_reduce.py tests/test_triton_softmax.py -k "second_device or own_device or cpp or named_variants" 2>&1 | grep -Ev '^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_two_gpus.log | tail -8
echo "tests at $(el)s"
timeout 150 python3 benchmarks/tuning/step_profile.py --backends torch,cuda,triton > $OUT/step_profile.txt 2>&1; grep -E "us/call|backward about" $OUT/step_profile.txt
timeout 60 python3 benchmarks/tuning/profile_call.py --backends torch,cuda,triton --grad > $OUT/host_grad.txt 2>&1; cat $OUT/host_grad.txt | tail -4
echo "all done at $(el)s"

# (H200; .device/head held 'git archive 1656086')
# ---- session 24, call 8 (H200): the C++ gradient node's refusal of a double backward; host time after
cd .device/head && export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
echo "commit $(cat ../commit)"; nvidia-smi --query-gpu=name --format=csv,noheader; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
timeout 120 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 8 tests/test_cuda_softmax.py tests/test_api.py \
  -k "cpp or named_variants or eager or api or auto_plan" 2>&1 | grep -Ev '^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_cpp_grad.log | tail -5
timeout 60 python3 benchmarks/tuning/profile_call.py --backends torch,cuda,triton --grad > $OUT/host_grad.txt 2>&1; tail -4 $OUT/host_grad.txt
timeout 60 python3 benchmarks/tuning/profile_call.py --backends torch,cuda,triton --top 8 > $OUT/host.txt 2>&1; grep "us/call" $OUT/host.txt
echo "all done at $(el)s"
# ---- session 25, call 2 (H200): backward block_hybrid: its tests, and every backward variant at 8192-65536 columns
cd .device/head && export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
echo "commit $(cat ../commit)"; nvidia-smi --query-gpu=name --format=csv,noheader; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
C=$(cat ../commit)
timeout 200 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 8 tests/test_matrix.py -k "cuda and backward and (block_hybrid or auto)" 2>&1 \
  | grep -Ev '^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_hybrid_bwd_$C.log | tail -5
echo "tests done at $(el)s"
B="--backends cuda --variants all --min-bytes 1GiB --quiet --format markdown --layout long --op softmax --pass bwd"
timeout 150 python3 -m comparison --cols 8192,16384,24576,32768,36864 --dtype fp32 $B --output $OUT/hybrid_bwd_fp32_$C.md 2>&1 | tail -3
echo "fp32 done at $(el)s"
timeout 150 python3 -m comparison --cols 16384,32768,49152,65536,73728 --dtype bf16 $B --output $OUT/hybrid_bwd_bf16_$C.md 2>&1 | tail -3
echo "bf16 done at $(el)s"
python3 - $OUT/hybrid_bwd_fp32_$C.md $OUT/hybrid_bwd_bf16_$C.md <<'PY'
import sys, re
for f in sys.argv[1:]:
    for line in open(f):
        if line.startswith("|") and ("auto" in line or "hybrid" in line or "cluster_regs" in line or "block_smem" in line):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            print(" | ".join(cells[:12]))
PY
echo "all done at $(el)s"
# ---- session 25, call 4 (H200): benchmarks/tuning/hybrid_backward_experiment.sh
cd .device/head && echo "commit $(cat ../commit)" && start=$(date +%s)
bash benchmarks/tuning/hybrid_backward_experiment.sh 2>&1 | tail -80
echo "all done at $(( $(date +%s) - start ))s"
# ---- session 25, call 5: the backward auto rule by DRAM bandwidth per SM: plans, tests, auto timed, compute-sanitizer over the backward ops
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
  -k "auto_plan or (cuda and backward) or (cuda and gradient) or cpp" 2>&1 | grep -Ev '^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_backward_auto_$C.log | tail -6
echo "tests done at $(el)s"
B="--backends cuda --min-bytes 1GiB --quiet --format markdown --layout long --op softmax,log_softmax --pass bwd --variants auto"
timeout 100 python3 -m comparison --dtype fp32 --cols 16384,20480,24576,28672,32768,36864,65536 $B --output $OUT/backward_auto_fp32_$C.md | tail -1
timeout 100 python3 -m comparison --dtype bf16 --cols 32768,40960,49152,57344,65536,73728,131072 $B --output $OUT/backward_auto_bf16_$C.md | tail -1
grep -hE '^\| cuda/auto ' $OUT/backward_auto_*_$C.md | awk -F'|' '{print $2 "|" $3 "|" $4 "|" $7 "|" $10}'
echo "bench done at $(el)s"
timeout $(( 575 - $(el) )) python3 benchmarks/sanitize.py --backends cuda --ops softmax_backward,log_softmax_backward --out $OUT/sanitize_backward_$C.log 2>&1 | tail -9
echo "all done at $(el)s"
# ---- session 25, call 7 (H200): the large backward cases of call 5 that ran out of memory beside 7 other workers, two workers
cd .device/head && export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat ../commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader)"; start=$(date +%s)
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
timeout 300 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 2 tests/test_matrix.py -m slow \
  -k "cuda and backward" 2>&1 | grep -Ev '^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_backward_slow_$C.log | tail -4
echo "all done at $(( $(date +%s) - start ))s"
# ---- session 25, call 8 (H200): after the review's block_hybrid refactor (shared plan, piece geometry, barrier setup): its tests forward and backward, compute-sanitizer over every CUDA softmax op
cd .device/head && export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat ../commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
timeout 150 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 8 -m "not slow" tests/test_cuda_softmax.py tests/test_matrix.py \
  -k "(cuda and (block_hybrid or auto)) or auto_plan or why or refus" 2>&1 | grep -Ev '^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_hybrid_review_$C.log | tail -4
echo "tests done at $(el)s"
timeout $(( 580 - $(el) )) python3 benchmarks/sanitize.py --backends cuda --ops softmax,log_softmax,softmax_backward,log_softmax_backward --out $OUT/sanitize_softmax_$C.log 2>&1 | tail -8
echo "all done at $(el)s"
