# Session 36 (2026-11-26): every device call's script, in order. Each ran from the repository root of the commit in .device/commit (b34a853 for calls 1-7, 8f858e4 for 8-11, 8686a0f for 12, 2f63906 for 13, 3ad3f15 for 14, 3fd6d7f (the same Triton code as 3ad3f15) for 15, 7fdb4db plus WarpRowGroups for 16) with .device carried (call 8-9: .device/base = git archive b34a853 kernels_triton comparison kernels_cuda, the code before).
# Results: benchmarks/h200_2026-11-26b/ (H200: calls 1-4, 6, 8, 11-14, 16; records of call 11 in benchmarks/h200/) and benchmarks/h100_2026-11-26b/ (H100: calls 5, 7, 9, 10, 15).

# ---- call 1
# session 36, call 1 (H200): session 35's unrun GPU tests (lane packs, 64 B backward, warp, backward); warp_per_row plain 16-bit stores (st2) against the checkout, bf16/fp16 32-1024; CUDA forward variants at the wide rows (fp32/bf16 32768-262144); Triton backward variants at bf16 32768-262144; all 1 GiB
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
echo "built at $(el)s"
timeout 200 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_cuda_softmax.py -k "lane_packs or 64_bytes or warp or backward" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_new_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -8
echo "tests at $(el)s"
PASSES=fwd RUNS="r4:0 st2:0" COLS=32,64,128,256,512,1024 DTYPES=bf16,fp16 timeout 200 bash benchmarks/tuning/warp_rows_experiment.sh > $OUT/warp_rows_st2_${G}_$C.log 2>&1
tail -30 $OUT/warp_rows_st2_${G}_$C.log
echo "st2 at $(el)s"
timeout 150 python3 -m comparison --cols 32768,65536,131072,262144 --dtype fp32,bf16 --op softmax --backends cuda --variants auto,cluster_regs,block_hybrid,split,split_smem --min-bytes 1GiB --quiet --format markdown --layout long --output $OUT/wide_fwd_variants_${G}_$C.md | tail -1
grep -E "^(###|\| cuda)" $OUT/wide_fwd_variants_${G}_$C.md | head -60
echo "cuda variants at $(el)s"
timeout $(( 580 - $(el) )) python3 -m comparison --cols 32768,65536,131072,262144 --dtype bf16 --op softmax,log_softmax --pass bwd --backends triton --variants auto,fused,tiled,split --min-bytes 1GiB --quiet --format markdown --layout long --output $OUT/triton_bwd_variants_${G}_$C.md | tail -1
grep -E "^(###|\| triton)" $OUT/triton_bwd_variants_${G}_$C.md | head -60
echo "all done at $(el)s"

# ---- call 2
# session 36, call 2 (H200): cluster_width_experiment: cluster_regs forced to clusters of at least K CTAs of 512 or 256 threads, against auto, forward softmax, fp32/bf16 32768-262144, 1 GiB
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
RUNS="t512:2 t512:4 t256:2 t256:4 t256:8" COLS=32768,65536,131072,262144 DTYPES=fp32,bf16 timeout 560 bash benchmarks/tuning/cluster_width_experiment.sh > $OUT/cluster_width_experiment.log 2>&1
tail -80 $OUT/cluster_width_experiment.log
echo "all done at $(el)s"

# ---- call 3
# session 36, call 3 (H200): Triton split geometry on the H200 (triton_split_geometry.py), backward softmax bf16 65536-262144 and fp32 262144, forward softmax fp32 65536-262144 and bf16 131072-262144, 1 GiB
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
T=benchmarks/tuning/triton_split_geometry.py
timeout 280 python3 $T --op softmax_backward --dtype bf16 --cols 65536,131072,262144 \
  --config plan: --config early:NEXT_EARLY=True --config late:NEXT_EARLY=False \
  --config 'reread:SPLIT_BWD_REREAD_VALUES={False: (1, 1 << 30), True: (1, 1 << 30)}' \
  --config 'c16k:SPLIT_BWD_CHUNK_BYTES={4: 16 * 1024, 2: 16 * 1024}' --config 'c4k:SPLIT_BWD_CHUNK_BYTES={4: 16 * 1024, 2: 4 * 1024}' \
  --config 'v16:SPLIT_BWD_VALUES_PER_THREAD={4: 32, 2: 16}' --config cps2:SPLIT_BWD_CHUNKS_PER_SM=2 2>&1 | tee $OUT/split_geometry_bwd_${G}_$C.txt | grep -v Warn
echo "backward at $(el)s"
timeout $(( 580 - $(el) )) python3 $T --op softmax --dtype bf16,fp32 --cols 131072,262144 \
  --config plan: --config early:NEXT_EARLY=True --config late:NEXT_EARLY=False \
  --config 'reread:SPLIT_REREAD_VALUES={False: (1, 1 << 30), True: (1, 1 << 30)}' \
  --config 'c8k:SPLIT_CHUNK_BYTES={4: 8 * 1024, 2: 8 * 1024}' --config 'c32k:SPLIT_CHUNK_BYTES={4: 32 * 1024, 2: 32 * 1024}' \
  --config 'v64:SPLIT_VALUES_PER_THREAD={4: 32, 2: 64}' --config 'v16:SPLIT_VALUES_PER_THREAD={4: 16, 2: 128}' 2>&1 | tee $OUT/split_geometry_fwd_${G}_$C.txt | grep -v Warn
echo "all done at $(el)s"

# ---- call 4
# session 36, call 4 (H200): Triton split geometry on the H200, combinations of call 3's winners (REREAD form, 4 KB backward / 8 KB forward chunks), backward softmax bf16/fp16/fp32 and log-softmax bf16, forward softmax bf16/fp16/fp32, 1 GiB
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
T=benchmarks/tuning/triton_split_geometry.py
RRB='SPLIT_BWD_REREAD_VALUES={False: (1, 1 << 30), True: (1, 1 << 30)}'
BWD=(--config plan: --config "reread:$RRB" --config 'c4k:SPLIT_BWD_CHUNK_BYTES={4: 16 * 1024, 2: 4 * 1024}'
     --config "rr_c4k:$RRB;SPLIT_BWD_CHUNK_BYTES={4: 8 * 1024, 2: 4 * 1024}" --config "rr_c16k:$RRB;SPLIT_BWD_CHUNK_BYTES={4: 32 * 1024, 2: 16 * 1024}"
     --config "rr_v64:$RRB;SPLIT_BWD_VALUES_PER_THREAD={4: 64, 2: 64}")
timeout 200 python3 $T --op softmax_backward --dtype bf16,fp16,fp32 --cols 65536,131072,262144 "${BWD[@]}" 2>&1 | tee $OUT/split_geometry_bwd2_${G}_$C.txt | grep -v Warn
echo "backward at $(el)s"
timeout 100 python3 $T --op log_softmax_backward --dtype bf16 --cols 65536,131072,262144 "${BWD[@]}" 2>&1 | tee $OUT/split_geometry_logbwd2_${G}_$C.txt | grep -v Warn
echo "log backward at $(el)s"
RRF='SPLIT_REREAD_VALUES={False: (1, 1 << 30), True: (1, 1 << 30)}'
timeout $(( 580 - $(el) )) python3 $T --op softmax --dtype bf16,fp16,fp32 --cols 65536,131072,262144 \
  --config plan: --config "reread:$RRF" --config 'c8k:SPLIT_CHUNK_BYTES={4: 8 * 1024, 2: 8 * 1024}' \
  --config "rr_c8k:$RRF;SPLIT_CHUNK_BYTES={4: 8 * 1024, 2: 8 * 1024}" --config "rr_c32k:$RRF;SPLIT_CHUNK_BYTES={4: 32 * 1024, 2: 32 * 1024}" \
  --config "rr_v64:$RRF;SPLIT_VALUES_PER_THREAD={4: 64, 2: 128}" 2>&1 | tee $OUT/split_geometry_fwd2_${G}_$C.txt | grep -v Warn
echo "all done at $(el)s"

# ---- call 5
# session 36, call 5 (H100): session 35's unrun GPU tests; warp_per_row plain 16-bit stores (st2) against the checkout, bf16/fp16 32-1024; Triton split geometries that won on the H200 in calls 3-4 (REREAD, 64 values a thread, 4 KB backward / 8 KB forward chunks), 1 GiB
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
T=benchmarks/tuning/triton_split_geometry.py
RRB='SPLIT_BWD_REREAD_VALUES={False: (1, 1 << 30), True: (1, 1 << 30)}'
BWD=(--config plan: --config "reread:$RRB" --config "rr_c4k:$RRB;SPLIT_BWD_CHUNK_BYTES={4: 8 * 1024, 2: 4 * 1024}" --config "rr_v64:$RRB;SPLIT_BWD_VALUES_PER_THREAD={4: 64, 2: 64}")
(timeout 150 python3 $T --op softmax_backward --dtype bf16,fp16 --cols 65536,131072,262144 "${BWD[@]}" > $OUT/split_geometry_bwd_${G}_$C.txt 2>&1
 timeout 60 python3 $T --op log_softmax_backward --dtype bf16 --cols 65536,131072,262144 "${BWD[@]}" > $OUT/split_geometry_logbwd_${G}_$C.txt 2>&1
 RRF='SPLIT_REREAD_VALUES={False: (1, 1 << 30), True: (1, 1 << 30)}'
 timeout 150 python3 $T --op softmax --dtype bf16,fp16,fp32 --cols 65536,131072,262144 --config plan: --config "reread:$RRF" \
  --config 'c8k:SPLIT_CHUNK_BYTES={4: 8 * 1024, 2: 8 * 1024}' --config "rr_v64:$RRF;SPLIT_VALUES_PER_THREAD={4: 64, 2: 128}" > $OUT/split_geometry_fwd_${G}_$C.txt 2>&1) &
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
echo "built at $(el)s"
wait
grep -hv Warn $OUT/split_geometry_*.txt
echo "triton at $(el)s"
timeout 120 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_cuda_softmax.py -k "lane_packs or 64_bytes or warp or backward" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_new_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -8
echo "tests at $(el)s"
PASSES=fwd RUNS="r4:0 st2:0" COLS=32,64,128,256,512,1024 DTYPES=bf16,fp16 timeout $(( 585 - $(el) )) bash benchmarks/tuning/warp_rows_experiment.sh > $OUT/warp_rows_st2_${G}_$C.log 2>&1
tail -30 $OUT/warp_rows_st2_${G}_$C.log
echo "all done at $(el)s"

# ---- call 6
# session 36, call 6 (H200; call 7 the same on the H100): Triton split geometry, the widths calls 3-5 left open: log-softmax and softmax backward 16-bit 524288/1048576 (REREAD at 32 / 64 values a thread), forward fp32 262144-1048576 (REREAD), 1 GiB
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
T=benchmarks/tuning/triton_split_geometry.py
RRB='SPLIT_BWD_REREAD_VALUES={False: (1, 1 << 30), True: (1, 1 << 30)}'
BWD=(--config plan: --config "reread:$RRB" --config "rr_v64:$RRB;SPLIT_BWD_VALUES_PER_THREAD={4: 32, 2: 64}")
timeout 150 python3 $T --op log_softmax_backward --dtype bf16,fp16 --cols 524288,1048576 "${BWD[@]}" 2>&1 | tee $OUT/split_geometry_logbwd_wide_${G}_$C.txt | grep -v Warn
timeout 150 python3 $T --op softmax_backward --dtype bf16 --cols 524288,1048576 "${BWD[@]}" 2>&1 | tee $OUT/split_geometry_bwd_wide_${G}_$C.txt | grep -v Warn
echo "backward at $(el)s"
RRF='SPLIT_REREAD_VALUES={False: (1, 1 << 30), True: (1, 1 << 30)}'
timeout $(( 560 - $(el) )) python3 $T --op softmax --dtype fp32 --cols 262144,524288,1048576 --config plan: --config "reread:$RRF" 2>&1 | tee $OUT/split_geometry_fwd_wide_${G}_$C.txt | grep -v Warn
echo "all done at $(el)s"

# ---- call 7: call 6's script on the H100

# ---- call 8
# session 36, call 8 (H200; call 9 the H100): Triton auto before (b34a853, .device/base) and after the split rules of this session (16-bit 8 KiB forward chunks, REREAD by bandwidth per SM, 64 values a thread in 16-bit REREAD backward chunks), softmax and log-softmax, forward and backward, bf16/fp16/fp32, 65536-1048576, 1 GiB; the Triton GPU tests
export PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
A="--cols 65536,131072,262144,524288,1048576 --dtype bf16,fp16,fp32 --op softmax,log_softmax --pass fwd,bwd --backends triton --min-bytes 1GiB --quiet --format markdown --layout long"
(cd .device/base && PYTHONPATH=$PWD timeout 240 python3 -m comparison $A --output $OUT/triton_split_rules_before_${G}_b34a853.md | tail -1)
echo "before at $(el)s"
PYTHONPATH=$PWD timeout 240 python3 -m comparison $A --output $OUT/triton_split_rules_after_${G}_$C.md | tail -1
echo "after at $(el)s"
python3 - $OUT/triton_split_rules_before_${G}_b34a853.md $OUT/triton_split_rules_after_${G}_$C.md <<'PY'
import sys
def read(path):
    out, head = {}, None
    for line in open(path):
        if line.startswith("###"):
            head = line[3:].strip()
        elif line.startswith("| triton/"):
            c = [x.strip() for x in line.strip().strip("|").split("|")]
            out[(head, c[2])] = (c[5], c[-1])
    return out
b, a = read(sys.argv[1]), read(sys.argv[2])
for k in a:
    print(f"{k[0]:32s} {k[1]:>8s}  {b.get(k, ('?', '?'))[0]:>6s} -> {a[k][0]:>6s}  {a[k][1]}")
PY
echo "compared at $(el)s"
PYTHONPATH=$PWD timeout $(( 590 - $(el) )) python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_triton_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -10
echo "all done at $(el)s"

# ---- call 9
# session 36, call 9 (H100; call 8 the same on the H200, without the CUDA part): Triton auto before (b34a853, .device/base) and after the split rules of this session (16-bit 8 KiB forward chunks, REREAD by bandwidth per SM, 64 values a thread in 16-bit REREAD backward chunks), softmax and log-softmax, forward and backward, bf16/fp16/fp32, 65536-1048576, 1 GiB; the Triton GPU tests; the CUDA warp_per_row GPU tests (plain 16-bit stores) and compute-sanitizer over warp_per_row (16-bit) and Triton split (memcheck)
export PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
(PYTHONPATH=$PWD python3 -c "from kernels_cuda import build; build.extension()" > $OUT/build.log 2>&1) &
A="--cols 65536,131072,262144,524288,1048576 --dtype bf16,fp16,fp32 --op softmax,log_softmax --pass fwd,bwd --backends triton --min-bytes 1GiB --quiet --format markdown --layout long"
(cd .device/base && PYTHONPATH=$PWD timeout 240 python3 -m comparison $A --output $OUT/triton_split_rules_before_${G}_b34a853.md | tail -1)
echo "before at $(el)s"
PYTHONPATH=$PWD timeout 240 python3 -m comparison $A --output $OUT/triton_split_rules_after_${G}_$C.md | tail -1
echo "after at $(el)s"
python3 - $OUT/triton_split_rules_before_${G}_b34a853.md $OUT/triton_split_rules_after_${G}_$C.md <<'PY'
import sys
def read(path):
    out, head = {}, None
    for line in open(path):
        if line.startswith("###"):
            head = line[3:].strip()
        elif line.startswith("| triton/"):
            c = [x.strip() for x in line.strip().strip("|").split("|")]
            out[(head, c[2])] = (c[5], c[-1])
    return out
b, a = read(sys.argv[1]), read(sys.argv[2])
for k in a:
    print(f"{k[0]:32s} {k[1]:>8s}  {b.get(k, ('?', '?'))[0]:>6s} -> {a[k][0]:>6s}  {a[k][1]}")
PY
echo "compared at $(el)s"
wait; tail -n 1 $OUT/build.log
PYTHONPATH=$PWD timeout 150 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_triton_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -10
echo "triton tests at $(el)s"
PYTHONPATH=$PWD timeout 100 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_cuda_softmax.py -k "warp" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_cuda_warp_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -6
echo "cuda tests at $(el)s"
PYTHONPATH=$PWD timeout $(( 590 - $(el) )) python3 benchmarks/sanitize.py --out $OUT/sanitize_warp16_split_${G}_$C.log --backends cuda,triton --variants warp_per_row,split --ops softmax,log_softmax,softmax_backward,log_softmax_backward --dtypes bf16,fp16 --shapes 64x32,33x64,17x128,9x256,5x1000,200x65536,8x1048576 2>&1 | tail -12
echo "all done at $(el)s"

# ---- call 10 (ran on the warm H100; records in h100_2026-11-26b/record_8f858e4_*) and call 11 (H200; records in h200/): the same script
# session 36, call 10 (H200): the H200 forward record (fp32/bf16, 128-262144) and backward record (fp32/bf16, 128-262144) at 8f858e4, no peers
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
timeout 200 bash benchmarks/record.sh forward --dtype fp32,bf16 --cols 128,8192,32768,65536,131072,262144 --out $OUT --quiet 2>&1 | tail -2
echo "forward record at $(el)s"
timeout $(( 590 - $(el) )) bash benchmarks/record.sh backward --dtype fp32,bf16 --cols 128,512,2048,8192,32768,65536,131072,262144 --out $OUT --quiet 2>&1 | tail -2
echo "all done at $(el)s"

# ---- call 12
# session 36, call 12 (H200): cluster_width_experiment with and without the cluster exchange (t512nox / t256nox: timing only, wrong results), forward softmax, fp32/bf16 65536/131072, 1 GiB
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" > /dev/null 2>&1 &
RUNS="t512:2 t512nox:2 t256:4 t256nox:4" COLS=65536,131072 DTYPES=fp32,bf16 timeout 560 bash benchmarks/tuning/cluster_width_experiment.sh > $OUT/cluster_width_nox_experiment.log 2>&1
tail -60 $OUT/cluster_width_nox_experiment.log
echo "all done at $(el)s"

# ---- call 13
# session 36, call 13 (H200): the Triton GPU tests at 2f63906 (odd rows' REREAD ranges as before, the review's fixes)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
timeout 300 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_triton_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -10
echo "all done at $(el)s"

# ---- call 14 (.device/base2 = git archive 5a2a7eb kernels_triton comparison kernels_cuda benchmarks/tuning/profile_call.py)
# session 36, call 14 (H200): host time of a small Triton call before (5a2a7eb, .device/base2) and after the current-device / empty_like change, profile_call.py 1x1024 fp32 and bf16 (torch beside it, same process); the Triton GPU tests
export PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
for round in 1 2; do
  for tree in base2 here; do
    if [ $tree = base2 ]; then dir=$PWD/.device/base2; rev=5a2a7eb; else dir=$PWD; rev=$C; fi
    for dt in fp32 bf16; do
      (cd $dir && PYTHONPATH=$dir timeout 60 python3 benchmarks/tuning/profile_call.py --backends torch,triton --dtype $dt --calls 5000 --top 10 > $OUT/host_profile_${dt}_${rev}_r$round.txt 2>&1)
      echo "$tree $rev $dt round $round: $(grep -E '^(plain|torch|triton):' $OUT/host_profile_${dt}_${rev}_r$round.txt | tr '\n' ' ')"
    done
  done
done
echo "profiles at $(el)s"
PYTHONPATH=$PWD timeout $(( 590 - $(el) )) python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_triton_${G}_$C.log | grep -E "passed|failed|FAILED|Error" | tail -10
echo "all done at $(el)s"

# ---- call 15 (H100)
# session 36, call 15 (H100; call 14 the same on the H200, with the Triton GPU tests): host time of a small Triton call before (5a2a7eb, .device/base2) and after the current-device / empty_like change, profile_call.py 1x1024 fp32 and bf16 (torch beside it, same process)
export PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "commit $C on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
for round in 1 2; do
  for tree in base2 here; do
    if [ $tree = base2 ]; then dir=$PWD/.device/base2; rev=5a2a7eb; else dir=$PWD; rev=3ad3f15; fi
    for dt in fp32 bf16; do
      (cd $dir && PYTHONPATH=$dir timeout 60 python3 benchmarks/tuning/profile_call.py --backends torch,triton --dtype $dt --calls 5000 --top 10 > $OUT/host_profile_${dt}_${rev}_r$round.txt 2>&1)
      echo "$tree $rev $dt round $round: $(grep -E '^(plain torch.softmax loop|torch|triton):' $OUT/host_profile_${dt}_${rev}_r$round.txt | tr '\n' ' ')"
    done
  done
done
echo "profiles at $(el)s"
echo "all done at $(el)s"

# ---- call 16 (H200; the working tree of 7fdb4db plus WarpRowGroups in all four warp_per_row paths; .device/base3 = git archive 7fdb4db kernels_triton comparison kernels_cuda)
# session 36, call 16 (H200): warp_per_row's lane-group prologue as one WarpRowGroups (uncommitted on 7fdb4db; its SASS differs from 7fdb4db's in scheduling): warp_per_row forward and backward, fp32/bf16/fp16, 32-1024 columns, 1 GiB, before (.device/base3 = 7fdb4db) and after; the warp GPU tests; compute-sanitizer's four tools over warp_per_row
export PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "base $C + WarpRowGroups on $GPU $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(echo "$GPU" | grep -q H200 && echo h200 || echo h100)
(cd .device/base3 && PYTHONPATH=$PWD python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1) &
PYTHONPATH=$PWD python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
wait
echo "built at $(el)s"
A="--cols 32,64,128,256,512,1024 --dtype fp32,bf16,fp16 --op softmax --pass fwd,bwd --backends cuda --variants warp_per_row --min-bytes 1GiB --quiet --format markdown --layout long"
for round in 1 2; do
  (cd .device/base3 && PYTHONPATH=$PWD timeout 100 python3 -m comparison $A --output $OUT/warp_groups_before_r${round}_${G}_$C.md | tail -1)
  PYTHONPATH=$PWD timeout 100 python3 -m comparison $A --output $OUT/warp_groups_after_r${round}_${G}.md | tail -1
done
python3 - $OUT <<'PY'
import sys, glob
def read(path):
    out, head = {}, None
    for line in open(path):
        if line.startswith("###"): head = line[3:].strip()
        elif line.startswith("| cuda/"):
            c = [x.strip() for x in line.strip().strip("|").split("|")]
            out[(head, c[2])] = (float(c[5]), c[-1])
    return out
d = sys.argv[1]
b = [read(f) for f in sorted(glob.glob(f"{d}/warp_groups_before_r*.md"))]
a = [read(f) for f in sorted(glob.glob(f"{d}/warp_groups_after_r*.md"))]
for k in a[0]:
    print(f"{k[0]:24s} {k[1]:>6s}  before {b[0][k][0]:6.1f} {b[1][k][0]:6.1f}  after {a[0][k][0]:6.1f} {a[1][k][0]:6.1f}  {a[0][k][1]} {a[1][k][1]}")
PY
echo "measured at $(el)s"
PYTHONPATH=$PWD timeout 100 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_cuda_softmax.py -k "warp" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_warp_groups_${G}.log | grep -E "passed|failed|FAILED|Error" | tail -6
echo "tests at $(el)s"
PYTHONPATH=$PWD timeout $(( 590 - $(el) )) python3 benchmarks/sanitize.py --out $OUT/sanitize_warp_groups_${G}.log --backends cuda --variants warp_per_row --dtypes fp32,bf16,fp16 --shapes 64x32,33x64,17x128,9x256,5x1000,3x8 2>&1 | tail -9
echo "all done at $(el)s"
