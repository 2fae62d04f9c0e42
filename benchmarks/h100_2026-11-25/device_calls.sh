# Device calls of session 30 (2026-11-25), NVIDIA H100 80GB HBM3 (every call asked for nvidia-h200 after call 2 and got the H100), in order; each ran from the repository root with carry [".device"], .device/commit holding the short hash of the commit under test and .device/exp/base an archive of 3fbefc9 (kernels_cuda, comparison, kernels_triton).

# session 30, call 1: the Triton split geometry of the cut-off try (16-bit forward chunks at 128 values a thread; backward fp32 chunks of 16 KiB at 32 values of each tensor a thread) against the constants before it, in one process per op (benchmarks/tuning/triton_split_geometry.py, 1 GiB, % of copy); the Triton split/spill/auto tests; the CUDA auto-plan and split_smem tests pending since 0290f1d
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader) $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
(python3 -c "from kernels_cuda import build; build.extension()" > /tmp/build.log 2>&1) &
G=benchmarks/tuning/triton_split_geometry.py
timeout 200 python3 $G --op softmax --dtype bf16,fp16 --cols 131072,262144,524288 --config 'new:' --config 'old:SPLIT_VALUES_PER_THREAD={4:32,2:32};SPLIT_MAX_CHUNK_VALUES={4:16384,2:16384}' 2>&1 | grep -v Warning | tee $OUT/split_geometry_fwd_$C.txt | awk '{printf "%s %s %s %s;", $1,$2,$3,$4} END {print ""}'; echo "fwd at $(el)s"
timeout 260 python3 $G --op softmax_backward --dtype fp32,bf16,fp16 --cols 65536,131072,262144,524288 --config 'new:' --config 'old:SPLIT_BWD_CHUNK_BYTES={4:8192,2:8192};SPLIT_BWD_VALUES_PER_THREAD={4:16,2:16}' 2>&1 | grep -v Warning | tee $OUT/split_geometry_bwd_$C.txt | awk '{printf "%s %s %s %s;", $1,$2,$3,$4} END {print ""}'; echo "bwd at $(el)s"
wait; tail -1 /tmp/build.log; echo "build done at $(el)s"
timeout $(( 580 - $(el) )) python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py tests/test_cuda_softmax.py -k "split or spill or auto or geometry or arithmetic" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_split_$C.log | tail -6
echo "all done at $(el)s"

# session 30, call 2 (warm after call 1): the auto record after the Triton split geometry: cuda and triton auto (and triton split), softmax forward and backward, fp32/bf16/fp16, 65536-1048576 columns, 1 GiB, % of copy
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader) $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
timeout 500 python3 -m comparison --cols 65536,131072,262144,524288,1048576 --dtype fp32,bf16,fp16 --op softmax --pass fwd,bwd --min-bytes 1GiB --quiet --format markdown --layout long --backends cuda,triton --variants auto,split --output $OUT/wide_auto_$C.md 2>&1 | tail -1
grep -E "^\| (cuda|triton)" $OUT/wide_auto_$C.md | awk -F'|' '{printf "%s %s %s %s %s %s;", $2,$3,$4,$5,$6,$7} END {print ""}'; echo "all done at $(el)s"

# session 30, call 3 (asked for nvidia-h200, ran on the H100 held warm): calls 1 and 2 again, files saved with the suffix _repeat
bash .device/call1.sh && bash .device/call2.sh

# session 30, call 4: the Triton split backward with the next row's loads issued after the row's part is published (registers: 16-bit chunks of 4096 values 189 -> 160, 8192 at 8 warps 136 -> 128) against the head before (.device/exp/base = 3fbefc9): triton backward auto/split/tiled, softmax and log-softmax, fp32/bf16/fp16, 65536-1048576 columns, 1 GiB, % of copy; the Triton backward tests. On an H200 also the forward geometry of call 1.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
B="--cols 65536,131072,262144,524288,1048576 --dtype fp32,bf16,fp16 --op softmax,log_softmax --pass bwd --min-bytes 1GiB --quiet --format markdown --layout long --backends triton --variants auto,split,tiled"
timeout 200 python3 -m comparison $B --output $OUT/triton_bwd_$C.md 2>&1 | tail -1; echo "head at $(el)s"
(cd .device/exp/base && PYTHONPATH=$PWD timeout 200 python3 -m comparison $B --output $OUT/triton_bwd_3fbefc9.md 2>&1 | tail -1); echo "base at $(el)s"
for f in $OUT/triton_bwd_*.md; do echo "$f"; grep -E "^\| triton" $f | awk -F'|' '{printf "%s %s %s;", $2,$4,$7} END {print ""}'; done
case "$GPU" in *H200*) timeout 100 python3 benchmarks/tuning/triton_split_geometry.py --op softmax --dtype bf16,fp16 --cols 131072,262144,524288 --config 'new:' --config 'old:SPLIT_VALUES_PER_THREAD={4:32,2:32};SPLIT_MAX_CHUNK_VALUES={4:16384,2:16384}' 2>&1 | grep -v Warning | tee $OUT/split_geometry_fwd_3fbefc9.txt | awk '{printf "%s %s %s %s;", $1,$2,$3,$4} END {print ""}';; esac
timeout $(( 570 - $(el) )) python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_triton_softmax_backward.py 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_triton_bwd_$C.log | tail -4
echo "all done at $(el)s"

# session 30, call 5: Triton backward auto after rule change (split for the widest rows at any row count): auto, softmax and log-softmax backward, fp32/bf16/fp16, 65536-1048576 columns, 1 GiB; the Triton backward tests. On an H200 also: call 4's comparison (split/tiled, head against 3fbefc9) and call 1's forward geometry.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
V=auto; case "$GPU" in *H200*) V=auto,split,tiled;; esac
B="--cols 65536,131072,262144,524288,1048576 --dtype fp32,bf16,fp16 --op softmax,log_softmax --pass bwd --min-bytes 1GiB --quiet --format markdown --layout long --backends triton"
timeout 200 python3 -m comparison $B --variants $V --output $OUT/triton_bwd_auto_$C.md 2>&1 | tail -1; echo "head at $(el)s"
grep -E "^\| triton" $OUT/triton_bwd_auto_$C.md | awk -F'|' '{printf "%s %s %s;", $2,$4,$7} END {print ""}'
case "$GPU" in *H200*)
  (cd .device/exp/base && PYTHONPATH=$PWD timeout 200 python3 -m comparison $B --variants auto,split,tiled --output $OUT/triton_bwd_3fbefc9.md 2>&1 | tail -1); echo "base at $(el)s"
  grep -E "^\| triton" $OUT/triton_bwd_3fbefc9.md | awk -F'|' '{printf "%s %s %s;", $2,$4,$7} END {print ""}'
  timeout 100 python3 benchmarks/tuning/triton_split_geometry.py --op softmax --dtype bf16,fp16 --cols 131072,262144,524288 --config 'new:' --config 'old:SPLIT_VALUES_PER_THREAD={4:32,2:32};SPLIT_MAX_CHUNK_VALUES={4:16384,2:16384}' 2>&1 | grep -v Warning | tee $OUT/split_geometry_fwd_3fbefc9.txt | awk '{printf "%s %s %s %s;", $1,$2,$3,$4} END {print ""}';;
esac
timeout $(( 570 - $(el) )) python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_triton_softmax_backward.py 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_triton_bwd_$C.log | tail -4
echo "all done at $(el)s"

# session 30, call 6: the Triton split backward's two forms (NEXT_EARLY, chosen per plan by residency and spills; late from 64 chunks): triton backward auto and split, softmax and log-softmax, fp32/bf16/fp16, 65536-1048576 columns, 1 GiB, % of copy, with each plan's form and registers; the Triton tests (backward, forward split/spill/auto); Triton memcheck over the split backward (both forms)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
B="--cols 65536,131072,262144,524288,1048576 --dtype fp32,bf16,fp16 --op softmax,log_softmax --pass bwd --min-bytes 1GiB --quiet --format markdown --layout long --backends triton"
timeout 200 python3 -m comparison $B --variants auto,split --output $OUT/triton_bwd_forms_$C.md 2>&1 | tail -1; echo "bench at $(el)s"
grep -E "^\| triton" $OUT/triton_bwd_forms_$C.md | awk -F'|' '{printf "%s %s %s;", $2,$4,$7} END {print ""}'
python3 - <<'PY' 2>&1 | grep -v Warn | tee $OUT/triton_bwd_forms_plans_$C.txt
import torch
from kernels_triton import softmax
for op in ("softmax_backward", "log_softmax_backward"):
    for dt in (torch.float32, torch.bfloat16, torch.float16):
        for cols in (65536, 131072, 262144, 524288, 1048576):
            y = torch.empty(2**30 // (cols * dt.itemsize), cols, dtype=dt, device="cuda")
            p = softmax.plan(y, op, "split", y)
            c = p["constexprs"]
            print(op, str(dt)[6:], cols, "SPLIT", c["SPLIT"], "CHUNK", c["CHUNK"], "NEXT_EARLY", c["NEXT_EARLY"], "warps", p["num_warps"], "regs", p["n_regs"], "spills", p["n_spills"], "per_sm", p["programs_per_sm"])
            del y
PY
echo "plans at $(el)s"
(timeout 200 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_triton_softmax_backward.py; timeout 150 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_triton_softmax.py -k "split or spill or auto") 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_triton_$C.log | grep -E "passed|failed|FAILED|Error" | tail -6
echo "tests at $(el)s"
timeout $(( 570 - $(el) )) python3 benchmarks/sanitize.py --backends triton --ops softmax_backward,log_softmax_backward --dtypes fp32,bf16,fp16 --shapes 3x65536,2x262144,2x1048576 --out $OUT/sanitize_triton_bwd_forms_$C.log 2>&1 | tail -3
echo "all done at $(el)s"


# ---- session 31 ----
# session 31, call 1: the Triton split forward's two forms (NEXT_EARLY; the plan's rule: late from SPLIT_NEXT_LATE_MIN_SPLIT = 64 chunks, below that the late form where it holds more programs per SM or spills less) against all-early (the kernel before) and all-late: softmax and log-softmax, fp32/bf16/fp16, 65536-1048576 columns, 1 GiB, % of copy with each plan's registers and programs per SM; then the Triton and API GPU tests (the plan refactor of fe7fb61 and the forms, not GPU-run before)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
for op in softmax log_softmax; do
  timeout 170 python3 benchmarks/tuning/triton_split_geometry.py --op $op --dtype fp32,bf16,fp16 --cols 65536,131072,262144,524288,1048576 --config 'plan:' --config 'early:SPLIT_NEXT_LATE_MIN_SPLIT=10**9;other_form=None' --config 'late:SPLIT_NEXT_LATE_MIN_SPLIT=1' 2>&1 | grep -v Warning | tee $OUT/split_forms_fwd_${op}_$C.txt | awk '{printf "%s %s %s %s r%s p%s;", $1,$2,$3,$4,$12,$16} END {print ""}'
  echo "$op at $(el)s"
done
timeout $(( 570 - $(el) )) python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py tests/test_triton_reduce.py 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_triton_$C.log | grep -E "passed|failed|FAILED|Error" | tail -8
echo "all done at $(el)s"
# session 31, call 2 (warm after call 1): the plan's rule for split's two forms after call 1 (both forms compiled for every plan, the more resident kept; at a tie late from 64 chunks for softmax, at any width for log-softmax): the forward as planned against each form forced (log-softmax; softmax's choices did not change), the backward's forms (softmax and log-softmax backward, plan / early / late), 65536-1048576 columns, fp32/bf16/fp16, 1 GiB; the Triton GPU tests
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
for op in log_softmax softmax_backward log_softmax_backward; do
  timeout 170 python3 benchmarks/tuning/triton_split_geometry.py --op $op --dtype fp32,bf16,fp16 --cols 65536,131072,262144,524288,1048576 --config 'plan:' --config 'early:NEXT_EARLY=True' --config 'late:NEXT_EARLY=False' 2>&1 | grep -v Warning | tee $OUT/split_forms_${op}_$C.txt | awk '{printf "%s %s %s %s r%s p%s;", $1,$2,$3,$4,$12,$16} END {print ""}'
  echo "$op at $(el)s"
done
timeout $(( 570 - $(el) )) python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_triton_$C.log | grep -E "passed|failed|FAILED|Error" | tail -8
echo "all done at $(el)s"
# session 31, call 3: the Triton backend's C++ gradient node (3804514) against the Python autograd.Function (a78395e, .device/exp/base) on this GPU host: profile_call.py --grad (1x1024 fp32: forward that records its gradient, forward+backward; plain torch and the torch and cuda backends beside) and the no-grad loop, both trees in this call; the node's GPU tests and the API, Triton backward and matrix-gradient tests; Triton memcheck over the forward split (both forms in its plans) and the backward through the node
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "cuda build at $(el)s"
python3 -c "from kernels_triton import grad_node; print(grad_node.extension())" 2>&1 | tail -2; echo "node build at $(el)s"
for i in 1 2; do
  python3 benchmarks/tuning/profile_call.py --grad --backends torch,cuda,triton 2>&1 | grep -v Warn | tee -a $OUT/host_grad_$C.txt
  (cd .device/exp/base && PYTHONPATH=$PWD python3 benchmarks/tuning/profile_call.py --grad --backends triton 2>&1 | grep -v Warn | tee -a $OUT/host_grad_a78395e.txt)
done
python3 benchmarks/tuning/profile_call.py --backends torch,cuda,triton --top 8 2>&1 | grep -v Warn > $OUT/host_profile_$C.txt; grep "us/call" $OUT/host_profile_$C.txt
echo "profiles at $(el)s"
timeout 300 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_triton_softmax_backward.py tests/test_api.py tests/test_matrix.py -k "node or named_variants or grad or api" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_node_$C.log | grep -E "passed|failed|FAILED|Error" | tail -8
echo "tests at $(el)s"
timeout $(( 560 - $(el) )) python3 benchmarks/sanitize.py --backends triton --ops softmax,log_softmax,softmax_backward,log_softmax_backward --dtypes fp32,bf16,fp16 --shapes 3x65536,2x262144,2x1048576 --out $OUT/sanitize_triton_split_forms_$C.log 2>&1 | tail -3
echo "all done at $(el)s"
# session 31, call 4 (warm after call 3): where the triton backward's host time goes (benchmarks/tuning/backward_host.py, 1x1024 fp32, three runs)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
for i in 1 2 3; do timeout 150 python3 benchmarks/tuning/backward_host.py 2>&1 | grep -v Warn | tee -a $OUT/backward_host_$C.txt; done
echo "all done at $(el)s"
# session 31, call 5: the record after the split forms: triton auto, softmax and log-softmax, forward and backward, fp32/bf16/fp16, 65536-1048576 columns, 1 GiB, % of copy (CLI)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
timeout 330 python3 -m comparison --cols 65536,131072,262144,524288,1048576 --dtype fp32,bf16,fp16 --op softmax,log_softmax --pass fwd,bwd --min-bytes 1GiB --quiet --format markdown --layout long --backends triton --variants auto --output $OUT/triton_wide_auto_$C.md 2>&1 | tail -1
grep -E "^\| triton" $OUT/triton_wide_auto_$C.md | awk -F'|' '{printf "%s %s %s %s %s %s;", $2,$3,$4,$5,$6,$7} END {print ""}'; echo "all done at $(el)s"
# session 31, call 6 (asked for nvidia-h200): the split forms on this GPU: softmax forward fp32/bf16 at 262144-1048576 and log-softmax forward and backward bf16 65536 / 262144 and fp32 262144, plan / early / late forced; the forms' GPU test
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
F="--config plan: --config early:NEXT_EARLY=True --config late:NEXT_EARLY=False"
timeout 80 python3 benchmarks/tuning/triton_split_geometry.py --op softmax --dtype fp32,bf16 --cols 262144,524288,1048576 $F 2>&1 | grep -v Warning | tee $OUT/split_forms_fwd_softmax_${G}_$C.txt | awk '{printf "%s %s %s %s r%s p%s;", $1,$2,$3,$4,$12,$16} END {print ""}'
for op in log_softmax log_softmax_backward; do
  timeout 50 python3 benchmarks/tuning/triton_split_geometry.py --op $op --dtype fp32,bf16 --cols 65536,262144 $F 2>&1 | grep -v Warning | tee $OUT/split_forms_${op}_${G}_$C.txt | awk '{printf "%s %s %s %s r%s p%s;", $1,$2,$3,$4,$12,$16} END {print ""}'
done
echo "forms at $(el)s"
timeout 60 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_triton_softmax_backward.py -k "resident_form" 2>&1 | tail -1 | tee $OUT/gpu_tests_forms_${G}_$C.log
echo "all done at $(el)s"

# ---- session 32 ----
# session 32, call 1: Triton split rows cut finer than one chunk per SM (benchmarks/tuning/split_fine_chunks_experiment.sh); the no-grad host loop before (f979bbd, .device/exp/base) and after the empty-hook-chain change (c370b77), both trees in this call; the Triton GPU tests of the launcher, split and the node (the deque registry of 37951e5, regroup 98c0e03, hooks c370b77: not GPU-run before)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
for i in 1 2; do
  python3 benchmarks/tuning/profile_call.py --backends torch,triton --top 8 2>&1 | grep -v Warn > $OUT/host_profile_${G}_${C}_$i.txt; grep "us/call" $OUT/host_profile_${G}_${C}_$i.txt | tr '\n' ';'; echo
  (cd .device/exp/base && PYTHONPATH=$PWD python3 benchmarks/tuning/profile_call.py --backends torch,triton --top 8 2>&1 | grep -v Warn > $OUT/host_profile_${G}_f979bbd_$i.txt; grep "us/call" $OUT/host_profile_${G}_f979bbd_$i.txt | tr '\n' ';'; echo)
done
echo "profiles at $(el)s"
OUT=$OUT/fine bash benchmarks/tuning/split_fine_chunks_experiment.sh 2>&1 | awk '/^(fp32|bf16|fp16|split_fine|device)/ {printf "%s %s %s %s r%s p%s;", $1,$2,$3,$4,$12,$16} END {print ""}'
echo "experiment at $(el)s"
timeout $(( 575 - $(el) )) python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_triton_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -8
echo "all done at $(el)s"

# session 32, call 2: the Triton split REREAD form (no chunk held across the exchange's wait; read again from L2 after it: 72-96 registers, 5-8 programs per SM, where the held forms take 112-167, 3-4) against the plan (held forms), forced by SPLIT_[BWD_]REREAD_MIN_VALUES=1, with the L2 hints (REREAD 2: evict_last then evict_first) and without (1); softmax, log-softmax and both backward ops, fp32/bf16, 131072-1048576 columns, 1 GiB, % of copy with registers and programs per SM
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
for op in softmax softmax_backward log_softmax log_softmax_backward; do
  case $op in *backward) K=SPLIT_BWD_REREAD_MIN_VALUES ;; *) K=SPLIT_REREAD_MIN_VALUES ;; esac
  timeout 140 python3 benchmarks/tuning/triton_split_geometry.py --op $op --dtype fp32,bf16 --cols 131072,262144,524288,1048576 --config plan: --config "reread:$K=1" --config "reread1:$K=1;SPLIT_REREAD=1" 2>&1 | grep -v Warning | tee $OUT/split_reread_${op}_${G}_$C.txt | awk '/^(fp32|bf16)/ {printf "%s %s %s %s r%s p%s;", $1,$2,$3,$4,$12,$16} END {print ""}'
  echo "$op at $(el)s"
done
timeout $(( 575 - $(el) )) python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py -k "split or published or forced" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_split_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -8
echo "all done at $(el)s"

# session 32, call 3: log-softmax backward as shipped (REREAD at 131072-524288) against the held forms forced and REREAD at every width, fp32/bf16/fp16, 65536-1048576, 1 GiB (triton_split_geometry.py); the CLI record of triton auto, log-softmax backward and forward, three dtypes, 65536-1048576; the split GPU tests; compute-sanitizer memcheck over the Triton log-softmax backward (REREAD rows and offset views)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
timeout 150 python3 benchmarks/tuning/triton_split_geometry.py --op log_softmax_backward --dtype fp32,bf16,fp16 --cols 65536,131072,262144,524288,1048576 --config plan: --config 'held:SPLIT_BWD_REREAD_VALUES={False: None, True: None}' --config 'reread:SPLIT_BWD_REREAD_VALUES={False: None, True: (1, 1 << 30)}' 2>&1 | grep -v Warning | tee $OUT/split_reread_log_softmax_backward_${G}_$C.txt | awk '/^(fp32|bf16|fp16)/ {printf "%s %s %s %s r%s p%s;", $1,$2,$3,$4,$12,$16} END {print ""}'
echo "geometry at $(el)s"
timeout 200 python3 -m comparison --cols 65536,131072,262144,524288,1048576 --dtype fp32,bf16,fp16 --op log_softmax --pass bwd,fwd --min-bytes 1GiB --quiet --format markdown --layout long --backends triton --variants auto --output $OUT/triton_log_softmax_auto_${G}_$C.md 2>&1 | tail -1
grep -E "^\| triton|^###" $OUT/triton_log_softmax_auto_${G}_$C.md | awk -F'|' '/###/ {printf "%s:", $0; next} {printf " %s %s;", $4,$7} END {print ""}'
echo "record at $(el)s"
timeout 150 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py -k "split or published or forced or resident or reread" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_split_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -8
echo "tests at $(el)s"
timeout $(( 570 - $(el) )) python3 benchmarks/sanitize.py --backends triton --ops log_softmax_backward --dtypes fp32,bf16,fp16 --shapes 3x131072,2x262144,2x524288 --out $OUT/sanitize_triton_reread_${G}_$C.log 2>&1 | tail -3
echo "all done at $(el)s"

# session 32, call 4: REREAD in the plan's own chunks at the widest rows for the other ops (softmax and log-softmax forward, softmax backward; call 2 measured it in 4096-value chunks only): plan against REREAD forced, fp32/bf16/fp16, 524288 and 1048576, 1 GiB; the CLI record of triton auto log-softmax backward at 1048576 (REREAD now); memcheck over it at 2x1048576
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
for op in softmax softmax_backward log_softmax; do
  case $op in *backward) K=SPLIT_BWD_REREAD_VALUES ;; *) K=SPLIT_REREAD_VALUES ;; esac
  timeout 100 python3 benchmarks/tuning/triton_split_geometry.py --op $op --dtype fp32,bf16,fp16 --cols 524288,1048576 --config plan: --config "reread:$K={False: (1, 1 << 30), True: (1, 1 << 30)}" 2>&1 | grep -v Warning | tee $OUT/split_reread_wide_${op}_${G}_$C.txt | awk '/^(fp32|bf16|fp16)/ {printf "%s %s %s %s r%s p%s;", $1,$2,$3,$4,$12,$16} END {print ""}'
  echo "$op at $(el)s"
done
timeout 120 python3 -m comparison --cols 1048576 --dtype fp32,bf16,fp16 --op log_softmax,softmax --pass bwd --min-bytes 1GiB --quiet --format markdown --layout long --backends triton --variants auto --output $OUT/triton_bwd_1048576_auto_${G}_$C.md 2>&1 | tail -1
grep -E "^\| triton|^###" $OUT/triton_bwd_1048576_auto_${G}_$C.md | awk -F'|' '/###/ {printf "%s:", $0; next} {printf " %s %s;", $4,$7} END {print ""}'
echo "record at $(el)s"
timeout $(( 560 - $(el) )) python3 benchmarks/sanitize.py --backends triton --ops log_softmax_backward --dtypes fp32,bf16 --shapes 2x1048576 --out $OUT/sanitize_triton_reread_wide_${G}_$C.log 2>&1 | tail -3
echo "all done at $(el)s"

# session 32, call 5 (asked for nvidia-h200; carry .device, .whl/part1): the peers' wheels, first part (benchmarks/install_peers.sh)
bash benchmarks/install_peers.sh part1 2>&1 | tail -3; nvidia-smi --query-gpu=name --format=csv,noheader
# session 32, call 6 (warm after call 5, which staged .whl/part1): the peers installed (benchmarks/install_peers.sh part2), then the record of this GPU: forward and backward sweeps, fp32 and bf16, 128-262144 columns, `auto` of every backend and peer (torch, torch.compile, Liger-Kernel, QuACK), 1 GiB inputs
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
bash benchmarks/install_peers.sh part2 2>&1 | tail -3 && source /tmp/site/peers.env
echo "peers at $(el)s"
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "cuda build at $(el)s"
timeout $(( 560 - $(el) )) bash benchmarks/record.sh forward,backward --dtype fp32,bf16 --cols 128,512,2048,8192,32768,65536,131072,262144 --out $OUT --quiet 2>&1 | tail -4
ls $OUT/*/ | head; echo "all done at $(el)s"

# session 32, call 7: the Triton softmax and backward GPU tests at the session's head (log-softmax's backward in the REREAD form at 131072-1048576)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
timeout 230 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_triton_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -8
echo "all done at $(el)s"

# ---- session 33 ----
# session 33, call 1 (853b3f7): block_hybrid over a cluster against auto, with copies capping the slices at 128 KB and 64 KB
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext; nvidia-smi --query-gpu=name --format=csv,noheader; bash benchmarks/tuning/hybrid_cluster_experiment.sh 2>&1 | grep -v Warning | tee $OUT/hybrid_cluster_experiment.log | tail -150

# session 33, call 2 (4fcf69a): the CUDA GPU tests (test_cuda_softmax, and the matrix's cuda block_hybrid/auto targets) with block_hybrid's clusters and auto's rule 2b; the CLI record of cuda auto and block_hybrid (fp32/bf16/fp16, 131072-1048576, softmax and log-softmax forward, 1 GiB; block_hybrid at fp32 1048576 is a 16-CTA cluster, beyond the rule); compute-sanitizer's four tools over block_hybrid on cluster shapes; latency at 67-132 rows
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
timeout 200 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_cuda_softmax.py tests/test_matrix.py -k "test_cuda_softmax or (cuda and (block_hybrid or auto))" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_cuda_hybrid_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -8
echo "tests at $(el)s"
timeout 150 python3 -m comparison --cols 131072,262144,524288,1048576 --dtype fp32,bf16,fp16 --op softmax,log_softmax --pass fwd --min-bytes 1GiB --quiet --format markdown --layout long --backends cuda --variants auto,block_hybrid --output $OUT/hybrid_auto_fwd_${G}_$C.md 2>&1 | tail -1
grep -E "^\| cuda|^###" $OUT/hybrid_auto_fwd_${G}_$C.md | awk -F'|' '/###/ {printf "\n%s:", $0; next} {printf " %s %s %s;", $2, $4,$7} END {print ""}'
echo "record at $(el)s"
timeout $(( 520 - $(el) )) python3 benchmarks/sanitize.py --backends cuda --variants block_hybrid --dtypes fp32,bf16,fp16 --shapes 1x262144,3x70000,4x131075 --out $OUT/sanitize_cuda_hybrid_${G}_$C.log 2>&1 | tail -6
echo "sanitize at $(el)s"
timeout $(( 585 - $(el) )) python3 -m comparison --latency --rows 67,100,132 --cols 131072,262144 --dtype fp32 --op softmax --backends cuda --variants auto,cluster_regs,split_smem,block_hybrid --quiet --format markdown --output $OUT/hybrid_rows_latency_${G}_$C.md 2>&1 | tail -1
echo "all done at $(el)s"
# session 33, call 3 (asked for nvidia-h200, got an H100; carry .device, .whl/part1): the peers' wheels, first part
bash benchmarks/install_peers.sh part1 2>&1 | tail -3; nvidia-smi --query-gpu=name --format=csv,noheader

# session 33, call 4 (daa4354; warm after call 3, which staged .whl/part1): the peers installed, the CUDA GPU tests at this commit (test_cuda_softmax; the matrix's cuda auto and block_hybrid targets), the forward variants at the widest rows against each other (auto = block_hybrid's clusters now, cluster_regs and split_smem = auto's choices before), then the record of this GPU's forward sweep, fp32 and bf16, 128-262144 columns, `auto` of every backend and peer, 1 GiB inputs
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
bash benchmarks/install_peers.sh part2 2>&1 | tail -2 && source /tmp/site/peers.env
echo "peers at $(el)s"
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "cuda build at $(el)s"
timeout 120 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_cuda_softmax.py tests/test_matrix.py -k "test_cuda_softmax or (cuda and (block_hybrid or auto))" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_cuda_hybrid_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -8
echo "tests at $(el)s"
timeout 110 python3 -m comparison --cols 131072,262144,524288,1048576 --dtype fp32,bf16 --op softmax --pass fwd --min-bytes 1GiB --quiet --format markdown --layout long --backends cuda --variants auto,cluster_regs,split_smem --output $OUT/hybrid_rule_fwd_${G}_$C.md 2>&1 | tail -1
grep -E "^\| cuda|^###" $OUT/hybrid_rule_fwd_${G}_$C.md | awk -F'|' '/###/ {printf "\n%s:", $0; next} {printf " %s %s %s;", $2, $4,$7} END {print ""}'
echo "variants at $(el)s"
timeout $(( 585 - $(el) )) bash benchmarks/record.sh forward --dtype fp32,bf16 --cols 128,8192,32768,65536,131072,262144 --out $OUT --quiet 2>&1 | tail -4
ls $OUT/*/ | head; echo "all done at $(el)s"
# session 33, call 5 (3993eb3): the experiment again with a copy of 512-thread CTAs, two per SM, slices of at most 144 KB
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext; ALTS=t512 bash benchmarks/tuning/hybrid_cluster_experiment.sh 2>&1 | grep -v Warning | tee $OUT/hybrid_cluster_t512_experiment.log | tail -75

# session 33, call 6 (da95bc0; ran on an H200, results in ../h200_2026-11-25/): block_hybrid's 16-bit cluster shape (512-thread CTAs, two per SM) in the package: the CUDA GPU tests (test_cuda_softmax; the matrix's cuda auto and block_hybrid targets), compute-sanitizer's four tools over block_hybrid, the CLI of cuda auto (softmax and log-softmax forward, 1 GiB, 131072-1048576, three dtypes)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
timeout 150 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_cuda_softmax.py tests/test_matrix.py -k "test_cuda_softmax or (cuda and (block_hybrid or auto))" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_cuda_hybrid_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -8
echo "tests at $(el)s"
timeout 120 python3 -m comparison --cols 131072,262144,524288,1048576 --dtype fp32,bf16,fp16 --op softmax,log_softmax --pass fwd --min-bytes 1GiB --quiet --format markdown --layout long --backends cuda --variants auto --output $OUT/hybrid_auto_fwd_${G}_$C.md 2>&1 | tail -1
grep -E "^\| cuda|^###" $OUT/hybrid_auto_fwd_${G}_$C.md | awk -F'|' '/###/ {printf "\n%s:", $0; next} {printf " %s %s;", $4,$7} END {print ""}'
echo "record at $(el)s"
timeout $(( 500 - $(el) )) python3 benchmarks/sanitize.py --backends cuda --variants block_hybrid --dtypes fp32,bf16,fp16 --shapes 1x262144,3x70000,4x131075 --out $OUT/sanitize_cuda_hybrid_${G}_$C.log 2>&1 | tail -6
echo "all done at $(el)s"

# session 33, call 7 (da95bc0, the H200 of call 6, warm): auto against the forward variants it chose before
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext; C=$(cat .device/commit); nvidia-smi --query-gpu=name --format=csv,noheader; timeout 200 python3 -m comparison --cols 131072,262144,524288,1048576 --dtype fp32,bf16 --op softmax --pass fwd --min-bytes 1GiB --quiet --format markdown --layout long --backends cuda --variants auto,cluster_regs,split_smem,split,online --output $OUT/hybrid_rule_fwd_h200_$C.md 2>&1 | tail -1
# session 33, call 8 (the same H200): the forward record, no peers
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext; timeout 290 bash benchmarks/record.sh forward --dtype fp32,bf16 --cols 128,8192,32768,65536,131072,262144 --out $OUT --quiet 2>&1 | tail -3
# session 33, call 9 (the same H200): the README's default command
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext; timeout 200 bash benchmarks/record.sh default --out $OUT --quiet 2>&1 | tail -2
# session 33, call 10 (da95bc0, asked for nvidia-h100-x1): the 16-bit cluster shape in the package, cuda auto forward
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext; C=$(cat .device/commit); nvidia-smi --query-gpu=name --format=csv,noheader; python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; timeout 60 python3 -m comparison --cols 262144,524288,1048576 --dtype bf16,fp16 --op softmax,log_softmax --pass fwd --min-bytes 1GiB --quiet --format markdown --layout long --backends cuda --variants auto --output $OUT/hybrid_auto_fwd16_h100_$C.md 2>&1 | tail -1

# ---- session 34 ----
# session 34, call 1 (6eda16a, nvidia-h100-x1): the commits not GPU-run in session 33 (9708f29, f3dc378, 6eda16a: auto's misaligned-view plans, the 16-bit shape's cap, the loop barrier, rules 2/2b from one aligned plan): the CUDA GPU tests (test_cuda_softmax; the matrix's cuda auto and block_hybrid targets), compute-sanitizer's four tools over block_hybrid
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
echo "built at $(el)s"
timeout 200 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_cuda_softmax.py tests/test_matrix.py -k "test_cuda_softmax or (cuda and (block_hybrid or auto))" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_cuda_hybrid_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -8
echo "tests at $(el)s"
timeout $(( 560 - $(el) )) python3 benchmarks/sanitize.py --backends cuda --variants block_hybrid,auto --dtypes fp32,bf16,fp16 --shapes 1x262144,3x70000,4x131075 --out $OUT/sanitize_cuda_hybrid_${G}_$C.log 2>&1 | tail -6
echo "all done at $(el)s"
# session 34, call 2 (689e5c9): the CUDA split backward (new): its GPU tests (its test, the matrix's cuda split backward cases, auto's backward rule, parsed tables), then tuning/split_backward_experiment.sh (split against auto and split_smem, both forms forced)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
echo "built at $(el)s"
timeout 150 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_cuda_softmax.py tests/test_matrix.py -k "test_backward_split or test_backward_auto or (cuda and split and backward)" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_split_backward_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -12
echo "tests at $(el)s"
timeout $(( 590 - $(el) )) bash benchmarks/tuning/split_backward_experiment.sh 2>&1 | tee $OUT/split_backward_experiment_${G}_$C.log | tail -40
echo "all done at $(el)s"
# session 34, call 3 (dba62a7, asked for nvidia-h200, got the H200; files in ../h200_2026-11-25/): split backward, late form only, 128 B per thread for 16-bit too: its GPU tests, then tuning/split_backward_experiment.sh (cuda auto against split, 65536-1048576, three dtypes, softmax and log-softmax backward)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
echo "built at $(el)s"
timeout 150 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_cuda_softmax.py tests/test_matrix.py -k "test_backward_split or (cuda and split and backward)" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_split_backward_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -12
echo "tests at $(el)s"
timeout $(( 590 - $(el) )) bash benchmarks/tuning/split_backward_experiment.sh 2>&1 | tee $OUT/split_backward_experiment_${G}_$C.log | tail -30
echo "all done at $(el)s"
# session 34, call 4 (dba62a7; files in ../h200_2026-11-25/) (the same H200, warm): block_hybrid's 16-bit cluster shape (512-thread CTAs, two per SM, session 33) against the fp32 shape for 16-bit rows (ALTS=t1024), the check on an H200 session 33 left open
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "$(cat .device/commit) on $GPU"
ALTS=t1024 timeout 580 bash benchmarks/tuning/hybrid_cluster_experiment.sh 2>&1 | tee $OUT/hybrid_cluster_t1024_experiment.log | tail -50
# session 34, call 5 (d5383d0): auto backward rule 1b (split): the CUDA backward GPU tests (split, auto's rules, the matrix's cuda split/auto backward cases), then tuning/split_backward_experiment.sh with auto, split and the old choices (cluster_regs, split_smem), 65536-1048576, three dtypes
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
echo "built at $(el)s"
timeout 200 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_cuda_softmax.py tests/test_matrix.py -k "test_backward or (cuda and backward and (split or auto))" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_split_backward_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -12
echo "tests at $(el)s"
VARIANTS=auto,split,cluster_regs,split_smem timeout $(( 590 - $(el) )) bash benchmarks/tuning/split_backward_experiment.sh 2>&1 | tee $OUT/split_backward_experiment_${G}_$C.log | tail -30
echo "all done at $(el)s"
# session 34, call 6 (2661d51): split backward polling with every thread: the CUDA backward GPU tests (split, auto's rules, the matrix's cuda split/auto backward cases), then tuning/split_backward_experiment.sh with auto, split and the old choices (cluster_regs, split_smem), 65536-1048576, three dtypes
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
echo "built at $(el)s"
timeout 200 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_cuda_softmax.py tests/test_matrix.py -k "test_backward or (cuda and backward and (split or auto))" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_split_backward_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -12
echo "tests at $(el)s"
VARIANTS=auto,split timeout $(( 590 - $(el) )) bash benchmarks/tuning/split_backward_experiment.sh 2>&1 | tee $OUT/split_backward_experiment_${G}_$C.log | tail -30
echo "all done at $(el)s"
# session 34, call 7 (the cubins of 689e5c9's and 2661d51's split backward, built here with nvcc -cubin, carried in .device/sass): their SASS
cd .device/sass && for v in old new; do (cuobjdump -sass $v.cubin 2>/dev/null || nvdisasm -c $v.cubin) > $OUT/$v.sass; done
# session 34, call 8 (5449b8d): tuning/split_backward_forms_experiment.sh (head / warp-0 four-slot gather / 689e5c9 late forced), fp32 and bf16 131072, 262144, 1048576, softmax backward
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
R689=$PWD/.device/r689 timeout 590 bash benchmarks/tuning/split_backward_forms_experiment.sh 2>&1 | tee $OUT/split_backward_forms_experiment.log | tail -8
# session 34, call 9 (ef48e62): tuning/split_backward_forms_experiment.sh: the gather's slots per lane at a time, 1-4, fp32 and bf16 131072, 262144, 1048576
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
timeout 590 bash benchmarks/tuning/split_backward_forms_experiment.sh 2>&1 | tee $OUT/split_backward_gather_experiment.log | tail -8
# session 34, call 10 (ed52e32): split backward with the 32-bit four-slot gather: CUDA backward GPU tests (split, auto rules, matrix's cuda split/auto backward), compute-sanitizer's four tools over split's backward, then tuning/split_backward_experiment.sh (auto, split, cluster_regs, split_smem; 65536-1048576; three dtypes)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
echo "built at $(el)s"
timeout 150 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_cuda_softmax.py tests/test_matrix.py -k "test_backward or (cuda and backward and (split or auto))" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_split_backward_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -12
echo "tests at $(el)s"
timeout 200 python3 benchmarks/sanitize.py --backends cuda --variants split --ops softmax_backward,log_softmax_backward --dtypes fp32,bf16,fp16 --shapes 14x131072,3x262145,400x1000 --out $OUT/sanitize_split_backward_${G}_$C.log 2>&1 | tail -6
echo "sanitizer at $(el)s"
VARIANTS=auto,split,cluster_regs,split_smem timeout $(( 590 - $(el) )) bash benchmarks/tuning/split_backward_experiment.sh 2>&1 | tee $OUT/split_backward_experiment_${G}_$C.log | tail -8
echo "all done at $(el)s"
# session 34, call 11 (ed52e32, asked for nvidia-h200, ran on the warm H100: the _repeat files): split backward with the 32-bit four-slot gather: CUDA backward GPU tests (split, auto rules, matrix's cuda split/auto backward), compute-sanitizer's four tools over split's backward, then tuning/split_backward_experiment.sh (auto, split, cluster_regs, split_smem; 65536-1048576; three dtypes)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
echo "built at $(el)s"
timeout 150 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_cuda_softmax.py tests/test_matrix.py -k "test_backward or (cuda and backward and (split or auto))" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_split_backward_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -12
echo "tests at $(el)s"
timeout 200 python3 benchmarks/sanitize.py --backends cuda --variants split --ops softmax_backward,log_softmax_backward --dtypes fp32,bf16,fp16 --shapes 14x131072,3x262145,400x1000 --out $OUT/sanitize_split_backward_${G}_$C.log 2>&1 | tail -6
echo "sanitizer at $(el)s"
VARIANTS=auto,split,cluster_regs,split_smem timeout $(( 590 - $(el) )) bash benchmarks/tuning/split_backward_experiment.sh 2>&1 | tee $OUT/split_backward_experiment_${G}_$C.log | tail -8
echo "all done at $(el)s"
# session 34, call 12 (ce8e994, asked for nvidia-h200, got the H200; its files are in ../h200_2026-11-25/): split backward with the 32-bit four-slot gather: CUDA backward GPU tests (split, auto rules, matrix's cuda split/auto backward), compute-sanitizer's four tools over split's backward, then tuning/split_backward_experiment.sh (auto, split, cluster_regs, split_smem; 65536-1048576; three dtypes)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
echo "built at $(el)s"
timeout 150 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_cuda_softmax.py tests/test_matrix.py -k "test_backward or (cuda and backward and (split or auto))" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_split_backward_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -12
echo "tests at $(el)s"
timeout 200 python3 benchmarks/sanitize.py --backends cuda --variants split --ops softmax_backward,log_softmax_backward --dtypes fp32,bf16,fp16 --shapes 14x131072,3x262145,400x1000 --out $OUT/sanitize_split_backward_${G}_$C.log 2>&1 | tail -6
echo "sanitizer at $(el)s"
VARIANTS=auto,split,cluster_regs,split_smem timeout $(( 590 - $(el) )) bash benchmarks/tuning/split_backward_experiment.sh 2>&1 | tee $OUT/split_backward_experiment_${G}_$C.log | tail -8
echo "all done at $(el)s"
# session 34, call 13 (a085255, asked for nvidia-h200, got the H200; files in ../h200/ and ../h200_2026-11-25/): auto backward rule 1b as committed: the CUDA backward GPU tests; the backward record (no peers), fp32/bf16, 128-262144, 1 GiB
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
timeout 150 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_cuda_softmax.py tests/test_matrix.py -k "test_backward or (cuda and backward and (split or auto))" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_split_rule_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -12
echo "tests at $(el)s"
timeout $(( 590 - $(el) )) bash benchmarks/record.sh backward --dtype fp32,bf16 --cols 128,512,2048,8192,32768,65536,131072,262144 --out $OUT --quiet 2>&1 | tail -3
echo "all done at $(el)s"
# session 34, call 14 (a085255) (nvidia-h100-x1): peers' wheels, part 1 (Quack's cutlass-dsl libs)
bash benchmarks/install_peers.sh part1 2>&1 | tail -3
# session 34, call 15 (a085255) (the same H100, warm): peers part 2; the CUDA backward GPU tests at the committed rule; the H100 backward record with peers, fp32/bf16, 128-262144, 1 GiB
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
bash benchmarks/install_peers.sh part2 2>&1 | tail -2 && source /tmp/site/peers.env
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
timeout 150 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_cuda_softmax.py tests/test_matrix.py -k "test_backward or (cuda and backward and (split or auto))" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_split_rule_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -12
echo "tests at $(el)s"
timeout $(( 590 - $(el) )) bash benchmarks/record.sh backward --dtype fp32,bf16 --cols 128,512,2048,8192,32768,65536,131072,262144 --out $OUT --quiet 2>&1 | tail -3
echo "all done at $(el)s"
# session 34, call 16 (97a4279): tuning/split_forward_gather_experiment.sh (forward split: head / four-slot gather / and late loads), fp32 and bf16 131072-1048576
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
timeout 590 bash benchmarks/tuning/split_forward_gather_experiment.sh 2>&1 | tee $OUT/split_forward_gather_experiment.log | tail -6
# session 34, call 17 (69b89e7's forward split tests, sanitizer and CLI; .device/call17.sh): refused, too little device time left to start a machine
