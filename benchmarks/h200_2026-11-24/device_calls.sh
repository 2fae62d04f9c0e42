# Device calls of session 26 (2026-11-24), H200, in order; each ran from the repository root of a checkout of the commit it names (.device/head). Call 1's cluster experiment measured the root copy three times (python -m puts the working directory ahead of PYTHONPATH): its tables are not kept; call 2 repeats it with each copy run from its own directory.
# ---- session 26, call 1 (H200): cluster_regs backward with clusters of two or four resident CTAs per SM (tuning/cluster_backward_experiment.sh); where a Triton split call's 60 us go (profile_call --kernels)
cd .device/head && export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat ../commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
mkdir -p /tmp/cbx; OUT=/tmp/cbx timeout 420 bash benchmarks/tuning/cluster_backward_experiment.sh > $OUT/cluster_bwd_experiment_$C.txt 2>&1
for f in /tmp/cbx/*.md; do echo "==== $(basename $f)"; cat $f; done > $OUT/cluster_bwd_tables_$C.md
grep -vE '^\s*$' $OUT/cluster_bwd_experiment_$C.txt | tail -150
echo "experiment done at $(el)s"
for d in fp32 bf16; do timeout 60 python3 benchmarks/tuning/profile_call.py --backends torch,triton --shape 1,262144 --dtype $d --calls 500 --top 14 --kernels; done > $OUT/split_call_profile_$C.txt 2>&1
grep -E "us/call|^ *(Name|_softmax|triton|void|Memset|aten::fill|cudaLaunch|cuLaunch|Self CUDA)" $OUT/split_call_profile_$C.txt | head -40
echo "all done at $(el)s"
# ---- session 26, call 2 (H200): call 1's cluster experiment again, each copy run from its own directory (call 1 measured the root copy three times); block_hybrid with 64 B of fp32 per thread, measured for real this time
cd .device/head && export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat ../commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
root=$PWD; rm -rf /tmp/b64 && mkdir -p /tmp/b64 && cp -r comparison kernels_cuda kernels_triton /tmp/b64/
sed -i 's/^constexpr int hybrid_grad_bytes(int elem, int pack_bytes) {.*/constexpr int hybrid_grad_bytes(int elem, int pack_bytes) { return elem == 4 ? std::min(64, 8 * pack_bytes) : std::min(32, 4 * pack_bytes); }/' /tmp/b64/kernels_cuda/csrc/softmax/block_hybrid.cuh
grep -c "elem == 4 ? std::min(64" /tmp/b64/kernels_cuda/csrc/softmax/block_hybrid.cuh
(cd /tmp/b64 && PYTHONPATH=/tmp/b64 python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1) &
mkdir -p /tmp/cbx; OUT=/tmp/cbx timeout 400 bash benchmarks/tuning/cluster_backward_experiment.sh > $OUT/cluster_bwd_experiment_$C.txt 2>&1
wait
for f in /tmp/cbx/*.md; do echo "==== $(basename $f)"; cat $f; done > $OUT/cluster_bwd_tables_$C.md
grep -vE '^\s*$' $OUT/cluster_bwd_experiment_$C.txt | tail -110
echo "experiment done at $(el)s"
B="--backends cuda --min-bytes 1GiB --quiet --format markdown --layout long --op softmax --pass bwd --variants block_hybrid --dtype fp32 --cols 20480,24576,28672,32768"
for t in $root /tmp/b64; do (cd $t && PYTHONPATH=$t python3 -c "import kernels_cuda; print(kernels_cuda.__file__)" && PYTHONPATH=$t timeout 80 python3 -m comparison $B --output $OUT/hybrid_b64_$(basename $t)_$C.md | tail -1); done
grep -hE '^\| cuda/' $OUT/hybrid_b64_*_$C.md | awk -F'|' '{print $2 "|" $3 "|" $4 "|" $7 "|" $10}'
echo "all done at $(el)s"
# ---- session 26, call 4 (H200): after the cluster/hybrid change (44fc313): backward plans and auto (cuda beside triton) at 1 GiB, the CUDA backward GPU tests, compute-sanitizer over the backward ops
cd .device/head && export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat ../commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
python3 - <<'PY' 2>&1 | tee $OUT/backward_auto_plans_$C.txt | grep -E "^(float32|bfloat16) +(24576|32768|49152|73728|98304|131072|196608) "
import torch, kernels_cuda.softmax as s
print(torch.cuda.get_device_name(), s.gpu_properties(0))
for dt in (torch.float32, torch.bfloat16, torch.float16):
    for cols in (16384, 20480, 24576, 28672, 32768, 36864, 40960, 45056, 49152, 57344, 65536, 73728, 98304, 131072, 196608, 262144):
        y = torch.softmax(torch.randn(2, cols, device="cuda"), -1).to(dt)
        r = s.plan(y, "softmax_backward", "cluster_regs")
        a = s.plan(y, "softmax_backward", "auto")
        print(f"{str(dt)[6:]:9} {cols:6}  auto {a['variant']:13} | cluster_regs k={r['cluster_size']} threads={r['threads']} bytes={r['cols_per_thread'] * y.element_size()} resident/SM={r['resident_per_sm']} | {a['reason']}")
PY
echo "plans done at $(el)s"
B="--backends cuda,triton --min-bytes 1GiB --quiet --format markdown --layout long --op softmax,log_softmax --pass bwd --variants auto"
timeout 120 python3 -m comparison --dtype fp32 --cols 16384,20480,24576,28672,32768,36864,40960,49152,65536,98304,131072,262144 $B --output $OUT/backward_auto_fp32_$C.md | tail -1
timeout 120 python3 -m comparison --dtype bf16,fp16 --cols 32768,40960,49152,57344,65536,73728,98304,131072,196608,262144 $B --output $OUT/backward_auto_16bit_$C.md | tail -1
grep -hE '^\| cuda/auto ' $OUT/backward_auto_*_$C.md | awk -F'|' '{print $2 "|" $3 "|" $4 "|" $7 "|" $10}' | paste - - - - | head -40
echo "bench done at $(el)s"
timeout 150 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 8 -m "not slow" tests/test_cuda_softmax.py tests/test_matrix.py \
  -k "auto_plan or (cuda and backward) or (cuda and gradient)" 2>&1 | grep -Ev '^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_backward_$C.log | tail -5
echo "tests done at $(el)s"
timeout $(( 585 - $(el) )) python3 benchmarks/sanitize.py --backends cuda --ops softmax_backward,log_softmax_backward --dtypes fp32,bf16 --out $OUT/sanitize_backward_$C.log 2>&1 | tail -8
echo "all done at $(el)s"
# ---- session 27, call 7 (H200)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
bash benchmarks/install_peers.sh part1 2>&1 | tail -1
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
timeout 200 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 6 tests/test_cuda_softmax.py tests/test_triton_softmax.py tests/test_triton_softmax_backward.py \
  -k "(auto or split or spill or policy or refusals or graph or bound or side_stream) and not 2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_$C.log | tail -4
timeout 100 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider tests/test_triton_softmax.py tests/test_triton_softmax_backward.py -k "2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner' | tee -a $OUT/gpu_tests_$C.log | tail -2
echo "tests done at $(el)s"
B="--min-bytes 1GiB --quiet --format markdown --layout long --backends cuda,triton"
timeout 120 python3 -m comparison --cols 524288,1048576 --dtype fp32,bf16,fp16 --op softmax --variants auto,split,online $B --output $OUT/wide_fwd_$C.md | tail -1
timeout 80 python3 -m comparison --cols 262144,524288,1048576 --dtype fp32,bf16 --op softmax --pass bwd --variants auto,split,tiled $B --output $OUT/wide_bwd_$C.md | tail -1
for f in $OUT/wide_fwd_$C.md $OUT/wide_bwd_$C.md; do grep -hE '^\| (cuda|triton)/' $f | awk -F'|' '{print $2 "|" $3 "|" $4 "|" $7 "|" $10}'; done
echo "all done at $(el)s"
# ---- session 27, call 8 (H200)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
echo "commit $(cat .device/commit)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
bash benchmarks/install_peers.sh part2 2>&1 | tail -1; echo "peers at $(el)s"
for o in softmax log_softmax; do for d in fp32 bf16; do timeout $(( 570 - $(el) )) bash benchmarks/record.sh few_rows --op $o --dtype $d --out $OUT --quiet 2>&1 | tail -1; echo "few_rows $o $d at $(el)s"; done; done
cd $OUT && tar czf few_rows.tgz */ && rm -rf */ && ls
# ---- session 27, call 9 (H200)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
timeout 150 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 6 tests/test_cuda_softmax.py -k "auto or split" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_cuda_auto_$C.log | tail -3
B="--min-bytes 1GiB --quiet --format markdown --layout long --backends cuda"
timeout 100 python3 -m comparison --cols 524288,1048576 --dtype fp32,bf16,fp16 --op softmax,log_softmax $B --output $OUT/wide_fwd_auto_$C.md | tail -1
grep -hE '^\| cuda/' $OUT/wide_fwd_auto_$C.md | awk -F'|' '{print $2 "|" $3 "|" $4 "|" $7 "|" $10}'
echo "all done at $(el)s"

# ---- session 28 ----
# session 28, call 4 (H200): stage the peers' wheels (part 1); the GPU tests of call 2 on the H200; few rows before (09cac61's kernels, today's latency code) and after (auto rule 0b, Triton's few-row split): --latency, cuda/triton/torch, softmax fp32 and bf16, 1-128 rows x 32768-262144
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader) $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
bash benchmarks/install_peers.sh part1 2>&1 | tail -1; echo "part1 staged at $(el)s"
(cd .device/exp/base && PYTHONPATH=$PWD TORCH_EXTENSIONS_DIR=/tmp/ext_base python3 -c "from kernels_cuda import build; build.extension()" > /tmp/build_base.log 2>&1) &
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; wait; tail -1 /tmp/build_base.log; echo "builds done at $(el)s"
timeout 200 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 8 tests/test_cuda_softmax.py tests/test_triton_softmax.py tests/test_api.py \
  -k "not 2_to_the_31 and not over_two_billion" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_few_rows_$C.log | tail -3
echo "tests done at $(el)s"
SHAPE="--cols 32768,65536,131072,262144 --rows 1,4,16,64,128 --dtype fp32,bf16 --op softmax --latency --format csv --quiet"
timeout 200 python3 -m comparison $SHAPE --backends cuda,triton,torch --output $OUT/few_rows_after_$C.csv 2>&1 | tail -1; echo "after at $(el)s"
(cd .device/exp/base && PYTHONPATH=$PWD TORCH_EXTENSIONS_DIR=/tmp/ext_base timeout $(( 560 - $(el) )) python3 -m comparison $SHAPE --backends cuda,triton --output $OUT/few_rows_before_09cac61.csv 2>&1 | tail -1); echo "all done at $(el)s"

# session 28, call 5 (H200, warm after call 4): the peers' wheels part 2 and install; the few_rows record (softmax and log-softmax, fp32 and bf16) at the head (graph time now per call of a 20-call graph) with Quack and Liger beside
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader) $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
bash benchmarks/install_peers.sh part2 2>&1 | tail -2; source /tmp/site/peers.env; echo "peers at $(el)s"
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
for op in softmax log_softmax; do for dt in fp32 bf16; do timeout $(( 570 - $(el) )) bash benchmarks/record.sh few_rows --op $op --dtype $dt --out $OUT --quiet 2>&1 | tail -1; echo "$op $dt at $(el)s"; done; done
cd $OUT && tar czf few_rows_$C.tgz h200 && rm -rf h200; ls

# session 28, call 9 (H200): rule 0b's 32 KB threshold (tuned on the H100) checked on the H200: the head against the same tree at 64 KB (m64), CUDA-graph time per call, 1-64 rows x 8192-65536, fp32 and bf16; the GPU tests of calls 2 and 7 at the head
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader) $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
(cd .device/exp/m64 && PYTHONPATH=$PWD TORCH_EXTENSIONS_DIR=/tmp/ext_m64 python3 -c "from kernels_cuda import build; build.extension()" > /tmp/build_m64.log 2>&1) &
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; wait; tail -1 /tmp/build_m64.log; echo "builds done at $(el)s"
SHAPE="--cols 8192,16384,32768,65536 --rows 1,4,16,64 --dtype fp32,bf16 --op softmax --latency --format csv --quiet"
python3 -m comparison $SHAPE --backends cuda,triton,torch --output $OUT/few_rows_min_row_m32_$C.csv 2>&1 | tail -1; echo "head at $(el)s"
(cd .device/exp/m64 && PYTHONPATH=$PWD TORCH_EXTENSIONS_DIR=/tmp/ext_m64 python3 -m comparison $SHAPE --backends cuda --output $OUT/few_rows_min_row_m64.csv 2>&1 | tail -1); echo "m64 at $(el)s"
timeout $(( 540 - $(el) )) python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 8 tests/test_cuda_softmax.py tests/test_triton_softmax.py tests/test_api.py \
  -k "not 2_to_the_31 and not over_two_billion" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_few_rows_$C.log | tail -3
echo "all done at $(el)s"

# session 29, call 1 (H200): CUDA reductions at 128-65536 columns (vectorized lanes of up to 4 packs, 7ac7684), 1 GiB, % of copy, cuda/triton/torch; the reduction tests; the host cost of a forward that records its gradient (loop us per call and a cProfile of each backend's)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader) $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
timeout 120 python3 benchmarks/tuning/profile_call.py --backends torch,cuda,triton --grad --profile-grad --calls 2000 > $OUT/host_grad_profile_$C.txt 2>&1; grep "us/call" $OUT/host_grad_profile_$C.txt
echo "profile done at $(el)s"
python3 -m comparison --cols 128,256,512,1024,2048,4096,8192,16384,32768,65536 --dtype fp32,bf16 --op reduce_sum,reduce_max --min-bytes 1GiB --format markdown --quiet --backends cuda,triton,torch --output $OUT/reduce_$C.md 2>&1 | tail -1; echo "sweep done at $(el)s"
timeout 200 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 8 tests/test_cuda_reduce.py tests/test_api.py -k "reduce or sum or max" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_reduce_$C.log | tail -3
echo "all done at $(el)s"; which ncu nsys 2>&1 | head -2; ls /usr/local/cuda/bin | grep -i -E "ncu|nsys" | head

# session 29, call 3: split_smem's part size and block size: the head (64 KB parts, 512 threads, parts shared out evenly over the resident CTAs) against copies with 32 KB x 256 threads, 32 KB x 512, 96 KB x 512, 64 KB x 256; forward and backward, fp32/bf16, 262144-1048576 columns, 1 GiB, % of copy
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
C=$(cat .device/commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader) $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
T="p32t256 p32t512 p96t512 p64t256"
for t in $T; do (cd .device/exp/$t && PYTHONPATH=$PWD TORCH_EXTENSIONS_DIR=/tmp/ext_$t python3 -c "from kernels_cuda import build; build.extension()" > /tmp/build_$t.log 2>&1) & done
TORCH_EXTENSIONS_DIR=/tmp/ext_head python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; wait; tail -qn1 /tmp/build_*.log; echo "builds done at $(el)s"
W="--cols 131072,262144,524288,1048576 --dtype fp32,bf16 --op softmax --min-bytes 1GiB --quiet --format csv --backends cuda --variants split_smem --pass fwd,bwd"
TORCH_EXTENSIONS_DIR=/tmp/ext_head timeout 120 python3 -m comparison $W --output $OUT/parts_p64t512.csv 2>&1 | tail -1; echo "head at $(el)s"
for t in $T; do (cd .device/exp/$t && PYTHONPATH=$PWD TORCH_EXTENSIONS_DIR=/tmp/ext_$t timeout 120 python3 -m comparison $W --output $OUT/parts_$t.csv 2>&1 | tail -1); echo "$t at $(el)s"; done
cd $OUT && for f in parts_*.csv; do echo "== $f"; awk -F, 'NR>1 {print $2, $3, $5, $11}' $f | tr '\n' ';'; echo; done
# (the copies: .device/exp/<name> = git archive of 8ec5767's kernels_cuda and comparison, with kSplitSmemPartBytes / kSplitSmemThreads edited as named; outputs saved here as split_smem_parts_<name>_8ec5767.csv)

# session 29, call 4: auto with split_smem (forward rule 3a: as many rows as SMs or more, rows of 1 MB or more; backward rule 2b: rows of y of 1 MB or more): GPU tests (CUDA suite, API, the matrix's split_smem and auto cases), 1 GiB auto against the variants it chose before, in one run, and few-row latency of the backward
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader) $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
W="--cols 131072,262144,524288,1048576 --dtype fp32,bf16 --op softmax,log_softmax --min-bytes 1GiB --quiet --format markdown --layout long"
timeout 150 python3 -m comparison $W --backends cuda,triton --variants auto,split_smem,cluster_regs,online,split --output $OUT/wide_fwd_$C.md 2>&1 | tail -1; echo "fwd at $(el)s"
grep -E "^\| (cuda|triton)" $OUT/wide_fwd_$C.md | awk -F'|' '{printf "%s %s %s;", $2,$4,$7} END {print ""}'
timeout 150 python3 -m comparison $W --pass bwd --backends cuda,triton --variants auto,split_smem,cluster_regs,block_uncached --output $OUT/wide_bwd_$C.md 2>&1 | tail -1; echo "bwd at $(el)s"
grep -E "^\| (cuda|triton)" $OUT/wide_bwd_$C.md | awk -F'|' '{printf "%s %s %s;", $2,$4,$7} END {print ""}'
timeout 90 python3 -m comparison --latency --cols 262144,1048576 --rows 1,4,16,64 --dtype fp32,bf16 --op softmax --pass bwd --backends cuda,torch --variants auto,split_smem,cluster_regs,block_uncached --format markdown --quiet --output $OUT/latency_bwd_$C.md 2>&1 | tail -1; echo "latency at $(el)s"
timeout $(( 560 - $(el) )) python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 6 tests/test_cuda_softmax.py tests/test_api.py tests/test_matrix.py -k "(not test_matrix or split_smem or (cuda and auto)) and not 2_to_the_31 and not over_two_billion" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_$C.log | tail -12
echo "all done at $(el)s"

# session 29, call 6: the backward's rule 2b refined (rows of y of 1 MB that a cluster holds go to split_smem only on GPUs of 30 GB/s of DRAM bandwidth per SM or more): the auto-plan tests, the CUDA suite, API and the matrix's cuda auto and split_smem cases with 2 workers (6 ran out of GPU memory on the H100), and backward auto at 262144-524288 columns
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader) $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
timeout 100 python3 -m comparison --cols 262144,524288 --dtype fp32,bf16 --op softmax --pass bwd --min-bytes 1GiB --quiet --format markdown --layout long --backends cuda --variants auto,split_smem,cluster_regs --output $OUT/bwd_1mb_$C.md 2>&1 | tail -1
grep -E "^\| cuda" $OUT/bwd_1mb_$C.md | awk -F'|' '{printf "%s %s %s;", $2,$4,$7} END {print ""}'; echo "bench at $(el)s"
timeout $(( 570 - $(el) )) python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 2 tests/test_cuda_softmax.py tests/test_api.py tests/test_matrix.py -k "(not test_matrix or split_smem or (cuda and auto)) and not 2_to_the_31 and not over_two_billion" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_$C.log | tail -6
echo "all done at $(el)s"

# session 29, call 8: split_smem with two stages (the next row's part arriving by cp.async in a second buffer while the CTA reduces, exchanges and writes the current one; 2 x 32 KB per CTA) against the committed single-buffer form (base, 1b9b01b: 64 KB parts loaded through registers) and copies with one 64 KB stage by cp.async (s1p64) and two 48 KB stages (s2p48); forward and backward, fp32/bf16, 262144-1048576 columns, 1 GiB; the split_smem tests of the two-stage tree
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
C=$(cat .device/commit); echo "commit $C (+ the two-stage working tree) on $(nvidia-smi --query-gpu=name --format=csv,noheader) $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
T="base s1p64 s2p48"
for t in $T; do (cd .device/exp/$t && PYTHONPATH=$PWD TORCH_EXTENSIONS_DIR=/tmp/ext_$t python3 -c "from kernels_cuda import build; build.extension()" > /tmp/build_$t.log 2>&1) & done
TORCH_EXTENSIONS_DIR=/tmp/ext_head python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; wait; tail -qn1 /tmp/build_*.log; echo "builds done at $(el)s"
W="--cols 262144,524288,1048576 --dtype fp32,bf16 --op softmax --min-bytes 1GiB --quiet --format csv --backends cuda --variants split_smem --pass fwd,bwd"
TORCH_EXTENSIONS_DIR=/tmp/ext_head timeout 100 python3 -m comparison $W --output $OUT/stages_s2p32.csv 2>&1 | tail -1; echo "head at $(el)s"
for t in $T; do (cd .device/exp/$t && PYTHONPATH=$PWD TORCH_EXTENSIONS_DIR=/tmp/ext_$t timeout 100 python3 -m comparison $W --output $OUT/stages_$t.csv 2>&1 | tail -1); echo "$t at $(el)s"; done
cd $OUT && for f in stages_*.csv; do echo "== $f"; awk -F, 'NR>1 {printf "%s %s %s %.1f; ", $2, $3, $5, $11}' $f; echo; done; cd - > /dev/null
TORCH_EXTENSIONS_DIR=/tmp/ext_head timeout $(( 570 - $(el) )) python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_cuda_softmax.py tests/test_matrix.py -k "split_smem or auto_plan or auto_takes" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_stages.log | tail -4
echo "all done at $(el)s"
# (the trees: base = git archive of 1b9b01b; the repository root = 9467329 with benchmarks/tuning/split_smem_stages_experiment.patch applied (two 32 KB stages); s1p64 / s2p48 = that tree with kSplitSmemStages = 1 and kSplitSmemPartBytes = 64 KB / kSplitSmemPartBytes = 48 KB)

# session 29, call 9 (H200): CUDA reductions at narrow widths, where bf16 128 columns reached 88% of copy (call 1): the head (vectorized lanes of up to 4 packs) against copies whose lanes take 2 packs (lp2: twice the lanes per row) or up to 8 (u8: kUnroll = 8, half the lanes, 128 bytes in flight per lane); reduce_sum and reduce_max, fp32/bf16, 128-2048 columns, 1 GiB, % of copy, torch beside
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
C=$(cat .device/commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader) $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
T="lp2 u8"
for t in $T; do (cd .device/exp/$t && PYTHONPATH=$PWD TORCH_EXTENSIONS_DIR=/tmp/ext_$t python3 -c "from kernels_cuda import build; build.extension()" > /tmp/build_$t.log 2>&1) & done
TORCH_EXTENSIONS_DIR=/tmp/ext_head python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; wait; tail -qn1 /tmp/build_*.log; echo "builds done at $(el)s"
W="--cols 128,256,512,1024,2048 --dtype fp32,bf16 --op reduce_sum,reduce_max --min-bytes 1GiB --quiet --format csv"
TORCH_EXTENSIONS_DIR=/tmp/ext_head timeout 120 python3 -m comparison $W --backends cuda,torch --output $OUT/reduce_narrow_head.csv 2>&1 | tail -1; echo "head at $(el)s"
for t in $T; do (cd .device/exp/$t && PYTHONPATH=$PWD TORCH_EXTENSIONS_DIR=/tmp/ext_$t timeout 120 python3 -m comparison $W --backends cuda --output $OUT/reduce_narrow_$t.csv 2>&1 | tail -1); echo "$t at $(el)s"; done
cd $OUT && for f in reduce_narrow_*.csv; do echo "== $f"; awk -F, 'NR>1 && $6=="cuda" {printf "%s %s %s %.1f; ", $1, $3, $5, $11}' $f; echo; done
echo "all done at $(el)s"
# (the copies: git archive of 1b9b01b's kernels_cuda and comparison; lp2: reduce/rows.cuh's group from ceil(packs / 2) instead of ceil(packs / kUnroll); u8: reduce/combine.cuh's kUnroll = 8)

# session 29, call 10 (H200): where split_smem's time goes: the head against a copy that publishes its part's pair but does not wait for the row's others (noexch: wrong results, timing only); forward and backward, fp32/bf16, 262144-1048576 columns, 1 GiB, % of copy (rows of results marked failing are the copy's, expected)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
C=$(cat .device/commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader) $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
(cd .device/exp/noexch && PYTHONPATH=$PWD TORCH_EXTENSIONS_DIR=/tmp/ext_noexch python3 -c "from kernels_cuda import build; build.extension()" > /tmp/build_noexch.log 2>&1) &
TORCH_EXTENSIONS_DIR=/tmp/ext_head python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; wait; tail -qn1 /tmp/build_*.log; echo "builds done at $(el)s"
W="--cols 131072,262144,524288,1048576 --dtype fp32,bf16 --op softmax --min-bytes 1GiB --quiet --format csv --backends cuda --variants split_smem --pass fwd,bwd"
TORCH_EXTENSIONS_DIR=/tmp/ext_head timeout 100 python3 -m comparison $W --output $OUT/exchange_head.csv 2>&1 | tail -1; echo "head at $(el)s"
(cd .device/exp/noexch && PYTHONPATH=$PWD TORCH_EXTENSIONS_DIR=/tmp/ext_noexch timeout 100 python3 -m comparison $W --output $OUT/exchange_noexch.csv 2>&1 | tail -1); echo "noexch at $(el)s"
cd $OUT && for f in exchange_*.csv; do echo "== $f"; awk -F, 'NR>1 {printf "%s %s %s %.1f; ", $2, $3, $5, $11}' $f; echo; done
# (noexch: git archive of f09e918 with the two gather calls of split_smem.cuh removed: each CTA publishes and goes on with its own part's pair)

# session 29, call 11: split_smem pipelined by one row (publish row r's pair, read row r + groups's part into the second 32 KB buffer, then gather row r's pairs) against the committed form (base, f09e918: one 64 KB buffer, gather right after publish); forward and backward, fp32/bf16, 131072-1048576 columns, 1 GiB; the split_smem and auto tests of the pipelined tree
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
C=$(cat .device/commit); echo "commit $C (+ the pipelined working tree) on $(nvidia-smi --query-gpu=name --format=csv,noheader) $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
(cd .device/exp/base && PYTHONPATH=$PWD TORCH_EXTENSIONS_DIR=/tmp/ext_base python3 -c "from kernels_cuda import build; build.extension()" > /tmp/build_base.log 2>&1) &
TORCH_EXTENSIONS_DIR=/tmp/ext_head python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; wait; tail -qn1 /tmp/build_*.log; echo "builds done at $(el)s"
W="--cols 131072,262144,524288,1048576 --dtype fp32,bf16 --op softmax --min-bytes 1GiB --quiet --format csv --backends cuda --variants split_smem --pass fwd,bwd"
TORCH_EXTENSIONS_DIR=/tmp/ext_head timeout 100 python3 -m comparison $W --output $OUT/pipelined_head.csv 2>&1 | tail -1; echo "head at $(el)s"
(cd .device/exp/base && PYTHONPATH=$PWD TORCH_EXTENSIONS_DIR=/tmp/ext_base timeout 100 python3 -m comparison $W --output $OUT/pipelined_base.csv 2>&1 | tail -1); echo "base at $(el)s"
cd $OUT && for f in pipelined_*.csv; do echo "== $f"; awk -F, 'NR>1 {printf "%s %s %s %.1f %s; ", $2, $3, $5, $11, $15}' $f; echo; done; cd - > /dev/null
TORCH_EXTENSIONS_DIR=/tmp/ext_head timeout $(( 560 - $(el) )) python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_cuda_softmax.py tests/test_matrix.py -k "split_smem or auto_plan or auto_takes or plan_fields" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_pipelined.log | tail -6
echo "all done at $(el)s"
# (the repository root: f09e918 with benchmarks/tuning/split_smem_pipelined_experiment.patch applied; base: git archive of f09e918; outputs saved here as split_smem_pipelined_{head,base}_f09e918.csv)

# session 29, call 12: the backward's split_smem pipelined by one row for rows of y and dy of up to 2 MB together (one 64 KB buffer beyond): backward auto against split_smem and cluster_regs, 131072-1048576 columns, 1 GiB, % of copy; the split_smem, auto-plan and plan tests
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader) $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
timeout 120 python3 -m comparison --cols 131072,262144,524288,1048576 --dtype fp32,bf16 --op softmax,log_softmax --pass bwd --min-bytes 1GiB --quiet --format markdown --layout long --backends cuda --variants auto,split_smem,cluster_regs --output $OUT/bwd_pipelined_$C.md 2>&1 | tail -1
grep -E "^\| cuda" $OUT/bwd_pipelined_$C.md | awk -F'|' '{printf "%s %s %s;", $2,$4,$7} END {print ""}'; echo "bench at $(el)s"
timeout 200 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 3 tests/test_cuda_softmax.py tests/test_matrix.py -k "split_smem or auto_plan or auto_takes or plan_fields" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_pipelined_$C.log | tail -4
echo "tests done at $(el)s"
if [ -n "$SANITIZE" ]; then timeout $(( 570 - $(el) )) python3 benchmarks/sanitize.py --backends cuda --ops softmax_backward,log_softmax_backward --dtypes fp32,bf16 --shapes 3x131072,2x262145 --out $OUT/sanitize_split_smem_backward_$C.log 2>&1 | tail -6; fi
echo "all done at $(el)s"
