# Device calls of session 26 (2026-11-24), H100, in order; each ran from the repository root of a checkout of the commit it names (.device/head).
# ---- session 26, call 3 (H100): the same as call 2 (cluster backward of two or four resident CTAs per SM; block_hybrid with 64 B of fp32 per thread), on the H100
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
# ---- session 26, call 5 (H100): after the cluster/hybrid change and the 16-CTA condition (HEAD): backward plans, auto beside cluster_regs and block_hybrid at 1 GiB, the CUDA backward GPU tests; H200 check of the 16-bit widths the condition moves
cd .device/head && export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat ../commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
python3 - <<'PY' 2>&1 | tee $OUT/backward_auto_plans_$C.txt | grep -E "^(float32|bfloat16) +(24576|49152|73728|98304|131072) "
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
B="--min-bytes 1GiB --quiet --format markdown --layout long --pass bwd"
timeout 100 python3 -m comparison --dtype fp32 --cols 16384,20480,24576,28672,32768,36864,40960,49152,65536,98304,131072,262144 --backends cuda,triton --op softmax,log_softmax --variants auto $B --output $OUT/backward_auto_fp32_$C.md | tail -1
timeout 100 python3 -m comparison --dtype bf16,fp16 --cols 32768,40960,49152,57344,65536,73728,98304,131072,196608,262144 --backends cuda,triton --op softmax,log_softmax --variants auto $B --output $OUT/backward_auto_16bit_$C.md | tail -1
timeout 60 python3 -m comparison --dtype bf16 --cols 40960,57344,73728 --backends cuda --op softmax --variants cluster_regs,block_hybrid $B --output $OUT/backward_16bit_variants_$C.md | tail -1
grep -hE '^\| cuda/' $OUT/backward_auto_*_$C.md $OUT/backward_16bit_variants_$C.md | awk -F'|' '{print $2 "|" $4 "|" $7}' | paste - - - - | head -40
echo "bench done at $(el)s"
timeout 120 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 8 -m "not slow" tests/test_cuda_softmax.py tests/test_matrix.py \
  -k "auto_plan or (cuda and backward) or (cuda and gradient)" 2>&1 | grep -Ev '^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_backward_$C.log | tail -4
echo "all done at $(el)s"
# ---- session 27, call 1 (H100): tree 49bd73d (archived from the working tree before its commit; same tree), before = 234d3cf
# session 27, call 1 (H100): the Triton split exchange kept per stream (no per-call fill, direct path):
# split GPU tests; CUDA auto_plan tests (bc231e2); latency before (234d3cf) and after; Triton split memcheck; CUDA backward sanitizer
cd .device/head && export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat ../commit | tr '+' '_'); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
timeout 200 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 8 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py \
  -k "split or bound or side_stream or 2_to_the_31 or refusals" 2>&1 | grep -Ev '^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_triton_split_$C.log | tail -8
timeout 100 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_cuda_softmax.py -k "auto_plan" 2>&1 | tail -3 | tee $OUT/gpu_tests_cuda_auto_plan_$C.log
echo "tests done at $(el)s"
L="--latency --op softmax --cols 32768,131072,262144,1048576 --rows 1,4,16,64 --dtype fp32,bf16 --backends torch,triton --quiet --format markdown"
for t in ../base $PWD; do (cd $t && echo "== tree $t" && PYTHONPATH=$(pwd) timeout 150 python3 -m comparison $L --output $OUT/latency_$(basename $t).md | tail -1); done
echo "latency done at $(el)s"
timeout $(( 560 - $(el) )) python3 benchmarks/sanitize.py --backends triton --ops softmax,softmax_backward --dtypes fp32,bf16 --shapes 3x131072,2x262144,64x65536 --out $OUT/sanitize_triton_split_$C.log 2>&1 | tail -4
echo "triton memcheck done at $(el)s"
timeout $(( 590 - $(el) )) python3 benchmarks/sanitize.py --backends cuda --ops softmax_backward,log_softmax_backward --dtypes fp32,bf16 --out $OUT/sanitize_backward_$C.log 2>&1 | tail -6
echo "all done at $(el)s"
# ---- session 27, call 2 (H100)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
echo "commit $(cat .device/commit) on $(nvidia-smi --query-gpu=name --format=csv,noheader)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
bash benchmarks/install_peers.sh part1 2>&1 | tail -2
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
timeout 300 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider tests/test_triton_softmax_backward.py tests/test_triton_softmax.py -k "2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner' | tee $OUT/gpu_tests_triton_2_31_$(cat .device/commit).log | tail -4
echo "all done at $(el)s"
# ---- session 27, call 3 (H100)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
echo "commit $(cat .device/commit)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
bash benchmarks/install_peers.sh part2 2>&1 | tail -3; echo "peers at $(el)s"
for o in softmax log_softmax; do for d in fp32 bf16; do timeout $(( 575 - $(el) )) bash benchmarks/record.sh few_rows --op $o --dtype $d --out $OUT --quiet 2>&1 | tail -2; echo "few_rows $o $d at $(el)s"; done; done
# ---- session 27, call 4 (H100)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
timeout 150 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 6 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py \
  -k "split or spill or refusals or policy or auto" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_triton_$C.log | tail -5
echo "tests done at $(el)s"
timeout 170 python3 -m comparison --latency --op softmax --cols 524288,1048576 --rows 1,4,16,64 --dtype fp32,bf16 --backends torch,cuda,triton --variants auto,split,online --quiet --format markdown --output $OUT/wide_latency_$C.md | tail -1
echo "latency done at $(el)s"
B="--min-bytes 1GiB --quiet --format markdown --layout long"
timeout 150 python3 -m comparison --cols 524288,1048576 --dtype fp32,bf16,fp16 --op softmax --backends cuda,triton --variants auto,split,online $B --output $OUT/wide_fwd_$C.md | tail -1
timeout 100 python3 -m comparison --cols 262144,524288,1048576 --dtype fp32,bf16 --op softmax --pass bwd --backends cuda,triton --variants auto,split,tiled $B --output $OUT/wide_bwd_$C.md | tail -1
for f in $OUT/wide_fwd_$C.md $OUT/wide_bwd_$C.md; do grep -hE '^\| (cuda|triton)/' $f | awk -F'|' '{print $2 "|" $3 "|" $4 "|" $7 "|" $10}'; done
echo "all done at $(el)s"
# ---- session 27, call 5 (H100)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
timeout 200 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 6 tests/test_cuda_softmax.py tests/test_triton_softmax.py tests/test_triton_softmax_backward.py \
  -k "(auto or split or spill or policy or refusals or graph) and not 2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_$C.log | tail -5
echo "tests done at $(el)s"
timeout 150 python3 -m comparison --latency --op softmax,log_softmax --cols 524288,1048576 --rows 1,4,16,64 --dtype fp32,bf16 --backends torch,cuda,triton --quiet --format markdown --output $OUT/wide_latency_auto_$C.md | tail -1
echo "latency done at $(el)s"
B="--min-bytes 1GiB --quiet --format markdown --layout long --backends cuda,triton"
timeout 100 python3 -m comparison --cols 524288,1048576 --dtype fp32,bf16,fp16 --op softmax,log_softmax $B --output $OUT/wide_fwd_auto_$C.md | tail -1
timeout 80 python3 -m comparison --cols 524288,1048576 --dtype fp32,bf16 --op softmax --pass bwd $B --output $OUT/wide_bwd_auto_$C.md | tail -1
for f in $OUT/wide_fwd_auto_$C.md $OUT/wide_bwd_auto_$C.md; do grep -hE '^\| (cuda|triton)/' $f | awk -F'|' '{print $2 "|" $3 "|" $4 "|" $7 "|" $10}'; done
grep -E "^\| (cuda|triton)/" $OUT/wide_latency_auto_$C.md | awk -F'|' '{printf "%s|%s|%s|%s|%s|%s\n",$2,$3,$4,$5,$7,$9}' | head -70
echo "all done at $(el)s"
# ---- session 27, call 10 (H100)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
bash benchmarks/install_peers.sh part1 2>&1 | tail -1
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
timeout 200 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 6 tests/test_cuda_softmax.py tests/test_triton_softmax.py tests/test_triton_softmax_backward.py \
  -k "(auto or split or spill or policy or refusals or graph or bound or side_stream) and not 2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_$C.log | tail -3
timeout 100 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider tests/test_triton_softmax.py tests/test_triton_softmax_backward.py -k "2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner' | tee -a $OUT/gpu_tests_$C.log | tail -2
echo "all done at $(el)s"
# ---- session 27, call 11 (H100)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
echo "commit $(cat .device/commit)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
bash benchmarks/install_peers.sh part2 2>&1 | tail -1; echo "peers at $(el)s"
for o in softmax log_softmax; do for d in fp32 bf16; do timeout $(( 570 - $(el) )) bash benchmarks/record.sh few_rows --op $o --dtype $d --out $OUT --quiet 2>&1 | tail -1; echo "few_rows $o $d at $(el)s"; done; done
cd $OUT && tar czf few_rows.tgz */ && rm -rf */ && ls
# ---- session 27, call 12 (H100)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader) $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
timeout 90 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 6 tests/test_cuda_softmax.py tests/test_triton_softmax.py tests/test_triton_softmax_backward.py \
  -k "auto or policy or refusals" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_auto_$C.log | tail -2
echo "tests done at $(el)s"
timeout 120 python3 benchmarks/sanitize.py --backends triton --ops softmax,log_softmax,softmax_backward --dtypes fp32,bf16 --shapes 2x1048576,3x524288 --out $OUT/sanitize_triton_wide_$C.log 2>&1 | tail -3
echo "triton memcheck done at $(el)s"
timeout $(( 400 - $(el) )) python3 benchmarks/sanitize.py --backends cuda --ops softmax,log_softmax --dtypes fp32,bf16 --shapes 2x1048576,3x524288 --out $OUT/sanitize_cuda_wide_$C.log 2>&1 | tail -6
echo "all done at $(el)s"

# ---- session 28 ----
# session 28, call 1 (H100): few rows. CUDA auto rule 0b (a row over a cluster of ~N KB CTAs when rows < SMs) at N = 16, 32, 64 KB against the head before it (09cac61); Triton split cutting few rows into 16 KiB chunks (auto, fused, split) against the same base. Latency (graph / bench / loop us), softmax, fp32 and bf16, rows 1-128 x 16384-262144.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
C=$(cat .device/commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader) $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
ROOT=$PWD
for t in base c16 c64; do (cd .device/exp/$t && PYTHONPATH=$PWD TORCH_EXTENSIONS_DIR=/tmp/ext_$t python3 -c "from kernels_cuda import build; build.extension()" > /tmp/build_$t.log 2>&1) & done
TORCH_EXTENSIONS_DIR=/tmp/ext_new python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
wait; tail -n1 /tmp/build_*.log; echo "builds done at $(el)s"
SHAPE="--cols 16384,32768,65536,131072,262144 --rows 1,4,16,64,128 --dtype fp32,bf16 --op softmax --latency --format csv --quiet"
TORCH_EXTENSIONS_DIR=/tmp/ext_new python3 -m comparison $SHAPE --backends cuda,torch --output $OUT/cuda_c32.csv 2>&1 | tail -2; echo "c32 at $(el)s"
for t in base c16 c64; do (cd .device/exp/$t && PYTHONPATH=$PWD TORCH_EXTENSIONS_DIR=/tmp/ext_$t python3 -m comparison $SHAPE --backends cuda --output $OUT/cuda_$t.csv 2>&1 | tail -2); echo "$t at $(el)s"; done
TORCH_EXTENSIONS_DIR=/tmp/ext_new python3 -m comparison $SHAPE --backends triton --variants auto,fused,split --output $OUT/triton_new.csv 2>&1 | tail -2; echo "triton new at $(el)s"
(cd .device/exp/base && PYTHONPATH=$PWD TORCH_EXTENSIONS_DIR=/tmp/ext_base python3 -m comparison $SHAPE --backends triton --output $OUT/triton_base.csv 2>&1 | tail -2); echo "all done at $(el)s"

# session 28, call 2 (H100): stage the peers' wheels (part 1); the GPU tests of auto (CUDA rule 0b, Triton's few-row split) and the suites around them; compute-sanitizer (all four tools) over the CUDA forward variants at the few-row shapes rule 0b spreads (auto now a cluster of 2-16 CTAs), Triton memcheck at the shapes auto now sends to split
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader) $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
bash benchmarks/install_peers.sh part1 2>&1 | tail -2; echo "part1 staged at $(el)s"
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
timeout 300 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 8 tests/test_cuda_softmax.py tests/test_triton_softmax.py tests/test_api.py \
  -k "not 2_to_the_31 and not over_two_billion" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_few_rows_$C.log | tail -3
echo "tests done at $(el)s"
SH=1x131072,4x65536,16x32768,66x65536,1x262144,3x98304
timeout 150 python3 benchmarks/sanitize.py --backends triton --ops softmax,log_softmax --dtypes fp32,bf16 --shapes $SH --out $OUT/sanitize_triton_few_rows_$C.log 2>&1 | tail -2
echo "triton memcheck done at $(el)s"
timeout $(( 560 - $(el) )) python3 benchmarks/sanitize.py --backends cuda --ops softmax,log_softmax --dtypes fp32,bf16 --shapes $SH --out $OUT/sanitize_cuda_few_rows_$C.log 2>&1 | tail -6
echo "all done at $(el)s"

# session 28, call 3 (H100, warm after call 2): the peers' wheels part 2 and install; the few_rows record (softmax and log-softmax, fp32 and bf16) at 4c1838f with Quack and Liger beside
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader) $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
bash benchmarks/install_peers.sh part2 2>&1 | tail -2; source /tmp/site/peers.env; echo "peers at $(el)s"
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
for op in softmax log_softmax; do for dt in fp32 bf16; do timeout $(( 570 - $(el) )) bash benchmarks/record.sh few_rows --op $op --dtype $dt --out $OUT --quiet 2>&1 | tail -1; echo "$op $dt at $(el)s"; done; done
cd $OUT && tar czf few_rows_$C.tgz h100 && rm -rf h100; ls

# session 28, call 6 (H100): few rows of 16-128 KB, the graph time per call (20-call graphs): the head's rule 0b and Triton few-row split from rows over 64 KB (m64) against trees that start at 32 KB (m32) and 16 KB (m16)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
C=$(cat .device/commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader) $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
for t in m32 m16; do (cd .device/exp/$t && PYTHONPATH=$PWD TORCH_EXTENSIONS_DIR=/tmp/ext_$t python3 -c "from kernels_cuda import build; build.extension()" > /tmp/build_$t.log 2>&1) & done
TORCH_EXTENSIONS_DIR=/tmp/ext_m64 python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; wait; tail -qn1 /tmp/build_*.log; echo "builds done at $(el)s"
SHAPE="--cols 8192,16384,32768,65536 --rows 1,4,16,64 --dtype fp32,bf16 --op softmax --latency --format csv --quiet"
TORCH_EXTENSIONS_DIR=/tmp/ext_m64 python3 -m comparison $SHAPE --backends cuda,triton,torch --output $OUT/few_rows_min_m64.csv 2>&1 | tail -1; echo "m64 at $(el)s"
for t in m32 m16; do (cd .device/exp/$t && PYTHONPATH=$PWD TORCH_EXTENSIONS_DIR=/tmp/ext_$t timeout 200 python3 -m comparison $SHAPE --backends cuda,triton --output $OUT/few_rows_min_$t.csv 2>&1 | tail -1); echo "$t at $(el)s"; done

# session 28, call 7 (H100): stage the peers' wheels (part 1); the GPU tests of auto (CUDA rule 0b, Triton's few-row split) and the suites around them; compute-sanitizer (all four tools) over the CUDA forward variants at the few-row shapes rule 0b spreads (auto now a cluster of 2-16 CTAs), Triton memcheck at the shapes auto now sends to split
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader) $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
bash benchmarks/install_peers.sh part1 2>&1 | tail -2; echo "part1 staged at $(el)s"
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
timeout 200 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 8 tests/test_cuda_softmax.py tests/test_triton_softmax.py tests/test_api.py \
  -k "not 2_to_the_31 and not over_two_billion" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_few_rows_$C.log | tail -3
echo "tests done at $(el)s"
SH=1x16384,16x32768,2x24576
timeout 150 python3 benchmarks/sanitize.py --backends triton --ops softmax,log_softmax --dtypes fp32,bf16 --shapes $SH --out $OUT/sanitize_triton_few_rows_$C.log 2>&1 | tail -2
echo "triton memcheck done at $(el)s"
timeout $(( 560 - $(el) )) python3 benchmarks/sanitize.py --backends cuda --ops softmax,log_softmax --dtypes fp32,bf16 --shapes $SH --out $OUT/sanitize_cuda_few_rows_$C.log 2>&1 | tail -6
echo "all done at $(el)s"

# session 28, call 8 (H100, warm after call 7): the peers' wheels part 2 and install; the few_rows record (softmax and log-softmax, fp32 and bf16) at the head (graph time per call of a 20-call graph) with Quack and Liger beside
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader) $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
bash benchmarks/install_peers.sh part2 2>&1 | tail -2; source /tmp/site/peers.env; echo "peers at $(el)s"
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
for op in softmax log_softmax; do for dt in fp32 bf16; do timeout $(( 570 - $(el) )) bash benchmarks/record.sh few_rows --op $op --dtype $dt --out $OUT --quiet 2>&1 | tail -1; echo "$op $dt at $(el)s"; done; done
cd $OUT && tar czf few_rows_$C.tgz h100 && rm -rf h100; ls

# session 28, call 10 (H100): CUDA reductions, `vectorized` (auto) lanes taking 4 packs each and 16-bit rows to 2048 columns in a warp, against the head before (0270d0e): 1 GiB, % of copy, reduce_sum/reduce_max fp32/bf16 at 128-8192 columns with torch beside; the reduction tests; compute-sanitizer (four tools) over the CUDA reductions at narrow shapes
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader) $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
(cd .device/exp/rbase && PYTHONPATH=$PWD TORCH_EXTENSIONS_DIR=/tmp/ext_rbase python3 -c "from kernels_cuda import build; build.extension()" > /tmp/build_rbase.log 2>&1) &
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; wait; tail -1 /tmp/build_rbase.log; echo "builds done at $(el)s"
SWEEP="--cols 128,256,512,1024,2048,4096,8192 --dtype fp32,bf16 --op reduce_sum,reduce_max --min-bytes 1GiB --format markdown --quiet"
python3 -m comparison $SWEEP --backends cuda,triton,torch --output $OUT/reduce_narrow_$C.md 2>&1 | tail -1; echo "head at $(el)s"
(cd .device/exp/rbase && PYTHONPATH=$PWD TORCH_EXTENSIONS_DIR=/tmp/ext_rbase python3 -m comparison $SWEEP --backends cuda,torch --output $OUT/reduce_narrow_0270d0e.md 2>&1 | tail -1); echo "base at $(el)s"
timeout 150 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 8 tests/test_cuda_reduce.py tests/test_api.py -k "reduce or sum or max" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_reduce_$C.log | tail -3
echo "tests done at $(el)s"
timeout $(( 560 - $(el) )) python3 benchmarks/sanitize.py --backends cuda --ops reduce_sum,reduce_max --dtypes fp32,bf16 --shapes 5x128,3x264,7x2048,2x2056,1x4096 --out $OUT/sanitize_reduce_$C.log 2>&1 | tail -6
echo "all done at $(el)s"

# session 29, call 2 (H200): the new split_smem variant (forward and backward) against split, online / block_uncached and auto at 131072-1048576 columns, 1 GiB, % of copy; its GPU tests (matrix cases, variant table, views) first
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader) $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
timeout 200 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 8 tests/test_matrix.py tests/test_cuda_softmax.py -k "split_smem and not 2_to_the_31 and not over_two_billion" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_split_smem_$C.log | tail -15
echo "tests done at $(el)s"
W="--cols 131072,262144,524288,1048576 --dtype fp32,bf16 --op softmax --min-bytes 1GiB --quiet --format markdown --layout long"
timeout 200 python3 -m comparison $W --backends cuda,triton --variants auto,split,split_smem,online --output $OUT/split_smem_fwd_$C.md 2>&1 | tail -1; echo "fwd at $(el)s"
grep -E "^\| (cuda|triton)" $OUT/split_smem_fwd_$C.md | awk -F'|' '{print $2,$4,$7}'
timeout 200 python3 -m comparison $W --pass bwd --backends cuda,triton --variants auto,split_smem,block_uncached --output $OUT/split_smem_bwd_$C.md 2>&1 | tail -1; echo "bwd at $(el)s"
grep -E "^\| (cuda|triton)" $OUT/split_smem_bwd_$C.md | awk -F'|' '{print $2,$4,$7}'

# session 29, call 5 (H100): call 4's tests and measurements (auto with split_smem against the variants it chose before, 1 GiB, one run; few-row backward latency), then compute-sanitizer (memcheck, racecheck, synccheck, initcheck) over every CUDA variant, forward and backward, at 3x131072 and 2x262145 (split_smem in 4-17 parts) and their offset views
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader) $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
W="--cols 131072,262144,524288,1048576 --dtype fp32,bf16 --op softmax,log_softmax --min-bytes 1GiB --quiet --format markdown --layout long"
timeout 150 python3 -m comparison $W --backends cuda,triton --variants auto,split_smem,cluster_regs,online,split --output $OUT/wide_fwd_$C.md 2>&1 | tail -1; echo "fwd at $(el)s"
grep -E "^\| (cuda|triton)" $OUT/wide_fwd_$C.md | awk -F'|' '{printf "%s %s %s;", $2,$4,$7} END {print ""}'
timeout 150 python3 -m comparison $W --pass bwd --backends cuda,triton --variants auto,split_smem,cluster_regs,block_uncached --output $OUT/wide_bwd_$C.md 2>&1 | tail -1; echo "bwd at $(el)s"
grep -E "^\| (cuda|triton)" $OUT/wide_bwd_$C.md | awk -F'|' '{printf "%s %s %s;", $2,$4,$7} END {print ""}'
timeout 90 python3 -m comparison --latency --cols 262144,1048576 --rows 1,4,16,64 --dtype fp32,bf16 --op softmax --pass bwd --backends cuda,torch --variants auto,split_smem,cluster_regs,block_uncached --format markdown --quiet --output $OUT/latency_bwd_$C.md 2>&1 | tail -1; echo "latency at $(el)s"
timeout 150 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 6 tests/test_cuda_softmax.py tests/test_api.py tests/test_matrix.py -k "(not test_matrix or split_smem or (cuda and auto)) and not 2_to_the_31 and not over_two_billion" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_$C.log | tail -4
echo "tests done at $(el)s"
timeout $(( 580 - $(el) )) python3 benchmarks/sanitize.py --backends cuda --ops softmax,log_softmax,softmax_backward,log_softmax_backward --dtypes fp32,bf16 --shapes 3x131072,2x262145 --out $OUT/sanitize_split_smem_$C.log 2>&1 | tail -6
echo "all done at $(el)s"

# session 29, call 6: the backward's rule 2b refined (rows of y of 1 MB that a cluster holds go to split_smem only on GPUs of 30 GB/s of DRAM bandwidth per SM or more): the auto-plan tests, the CUDA suite, API and the matrix's cuda auto and split_smem cases with 2 workers (6 ran out of GPU memory on the H100), and backward auto at 262144-524288 columns
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader) $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
timeout 100 python3 -m comparison --cols 262144,524288 --dtype fp32,bf16 --op softmax --pass bwd --min-bytes 1GiB --quiet --format markdown --layout long --backends cuda --variants auto,split_smem,cluster_regs --output $OUT/bwd_1mb_$C.md 2>&1 | tail -1
grep -E "^\| cuda" $OUT/bwd_1mb_$C.md | awk -F'|' '{printf "%s %s %s;", $2,$4,$7} END {print ""}'; echo "bench at $(el)s"
timeout $(( 570 - $(el) )) python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 2 tests/test_cuda_softmax.py tests/test_api.py tests/test_matrix.py -k "(not test_matrix or split_smem or (cuda and auto)) and not 2_to_the_31 and not over_two_billion" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_$C.log | tail -6
echo "all done at $(el)s"

# session 29, call 7 (H100): split_smem's kernels after the RowPart refactor (the part each CTA handles, one helper for forward and backward): its tests (matrix cases, variant table, plans, auto) with 2 workers, and forward/backward at 1 GiB, 262144-1048576 fp32/bf16, against the figures of call 5
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
C=$(cat .device/commit); echo "commit $C on $(nvidia-smi --query-gpu=name --format=csv,noheader) $(date -u +%FT%TZ)"; start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; echo "build done at $(el)s"
timeout 100 python3 -m comparison --cols 262144,524288,1048576 --dtype fp32,bf16 --op softmax --pass fwd,bwd --min-bytes 1GiB --quiet --format markdown --layout long --backends cuda --variants auto,split_smem --output $OUT/split_smem_after_refactor_$C.md 2>&1 | tail -1
grep -E "^\| cuda" $OUT/split_smem_after_refactor_$C.md | awk -F'|' '{printf "%s %s %s;", $2,$4,$7} END {print ""}'; echo "bench at $(el)s"
timeout 300 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 2 tests/test_cuda_softmax.py tests/test_matrix.py -k "split_smem or auto_plan or auto_takes" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' | tee $OUT/gpu_tests_split_smem_$C.log | tail -4
echo "all done at $(el)s"

# session 29, call 13 (H100): call 12's script with SANITIZE=1
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
