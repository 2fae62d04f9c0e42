# Session 50 (2026-11-27): every device call's script, in order. Each ran from the
# repository root as `sed -n '/^## call N$/,/^## call N+1$/p' <this file> > /tmp/c.sh;
# OUT=$OUT bash /tmp/c.sh`, with the working tree and .device/ carried; results were
# copied into benchmarks/h200_2026-11-27g/ or benchmarks/h100_2026-11-27g/ by GPU.

## call 1
# session 50 call 1 (H200). Triton `split_oneshot` with each chunk's output written LAG
# tickets after its load, read again from L2 then (benchmarks/tuning/triton_oneshot_lagged.py):
# no program waits with its chunk in registers. Forward and backward, fp32 and bf16,
# 131072-1048576 columns, 1 GiB, beside the package's kernel.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
V=lag1,lag2,lag4,lag1_hints,res1,lag2_ba,lag2_ba_hints
timeout 330 python3 benchmarks/tuning/triton_oneshot_lagged.py --passes fwd --variants $V 2>&1 | tee $out/lagged_${tag}_$rev.txt
echo "fwd $(el)"
timeout $(( 580 - $(el) )) python3 benchmarks/tuning/triton_oneshot_lagged.py --passes bwd --variants $V 2>&1 | tee -a $out/lagged_${tag}_$rev.txt
echo "elapsed $(el)"

## call 2
# session 50 call 2 (H200). Call 1: the lagged output is far slower (68-82 forward, 62-76
# backward, against 86-96 and 89-101): the chunks read again miss L2 (LAG of the
# resident programs: 68 = two reads and a write from DRAM). Not taken. Here: rows of
# 17408-50304 columns, whose last `split_oneshot` chunk is mostly padding at 8192 units,
# in narrower chunks at the same 64 units a thread (4096: 2 warps, 2048: 1 warp, so more
# programs per SM and the same bytes held), beside Triton `auto` and `fused`.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
G="--geometries 8192x64,4096x64,2048x64 --baselines auto,fused --cols 17408,20480,24576,40960,50304 --dtypes fp32,bf16,fp16"
timeout 290 python3 benchmarks/tuning/triton_oneshot_geometry.py --passes fwd $G 2>&1 | tee $out/narrow_chunks_${tag}_$rev.txt
echo "fwd $(el)"
timeout $(( 580 - $(el) )) python3 benchmarks/tuning/triton_oneshot_geometry.py --passes bwd $G 2>&1 | tee -a $out/narrow_chunks_${tag}_$rev.txt
echo "elapsed $(el)"

## call 3
# session 50 call 3 (H200). Call 2: 16-bit rows held as pairs gain much in 4096-word
# chunks of 2 warps (fp32 rows do not): forward bf16 17408 / 20480 / 24576 / 40960 /
# 50304 72.0 / 81.0 / 90.0 / 93.6 / 90.5 -> 88.0 / 94.1 / 96.7 / 96.4 / 94.6, backward
# 85.4 / 92.7 / 97.4 / 99.8 / 99.1 -> 97.4 / 100.9 / 102.8 / 102.2 / 101.6, fp16 alike.
# Where does that stop: 16-bit rows of 65536-1048576 columns, 8192 against 4096 words.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
G="--geometries 8192x64,4096x64 --baselines auto --cols 32768,65536,98304,131072,262144,524288,1048576 --dtypes bf16,fp16"
timeout 290 python3 benchmarks/tuning/triton_oneshot_geometry.py --passes fwd $G 2>&1 | tee $out/pair_chunks_${tag}_$rev.txt
echo "fwd $(el)"
timeout $(( 580 - $(el) )) python3 benchmarks/tuning/triton_oneshot_geometry.py --passes bwd $G 2>&1 | tee -a $out/pair_chunks_${tag}_$rev.txt
echo "elapsed $(el)"

## call 4
# session 50 call 4 (H100). Call 3: at the widths where both fill their chunks (32768
# and powers of two past it) 8192 words stay ahead of 4096 or even, but for the fp16
# backward, ahead in 4096 from 65536 to 524288 (99.2 / 97.2 / 96.8 / 93.6 / 88.5 against
# 98.3 / 95.1 / 89.1 / 84.6 / 80.8, `auto`'s `split` 89.5 / 82.2 at 262144 / 524288).
# The H100's figures of calls 2 and 3.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
G="--geometries 8192x64,4096x64,2048x64 --baselines auto,fused --cols 17408,20480,24576,40960,50304 --dtypes fp32,bf16,fp16"
timeout 200 python3 benchmarks/tuning/triton_oneshot_geometry.py --passes fwd,bwd $G 2>&1 | tee $out/narrow_chunks_${tag}_$rev.txt
echo "narrow $(el)"
G="--geometries 8192x64,4096x64 --baselines auto --cols 32768,65536,98304,131072,262144,524288,1048576 --dtypes bf16,fp16"
timeout $(( 580 - $(el) )) python3 benchmarks/tuning/triton_oneshot_geometry.py --passes fwd,bwd $G 2>&1 | tee $out/pair_chunks_${tag}_$rev.txt
echo "elapsed $(el)"

## call 5
# session 50 call 5 (H200; call 6 runs the same block on an H100). Calls 2-4 as committed
# (softmax_oneshot.chunk_units: 4096-word chunks for pairs that pad less in them, on the
# H200 at any fill and on the H100 where 8192-word chunks are at most 60 % full, and for
# the fp16 backward; softmax_policy: the bf16 rows past 16384 that pad `fused`'s tile and
# the fp16 softmax backward to 524288 on the H200). The Triton GPU test files; Triton
# `auto` before (68a5dc1's kernels_triton, carried in .device/before) and after, 16-bit,
# softmax and log-softmax, both passes, at 17408-50304, and the fp16 backward at
# 65536-1048576.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 250 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py \
  -k "not more_than_2_to_the_31 or split_oneshot" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_triton_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_triton_${tag}_$rev.log | tail -12
echo "tests $(el)"
rm -rf /tmp/before && cp -r $root /tmp/before && rm -rf /tmp/before/kernels_triton && cp -r $root/.device/before/kernels_triton /tmp/before/
compare_trees narrow fwd,bwd 1 "--cols 17408,20480,24576,40960,50304 --dtype bf16,fp16 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" $root /tmp/before
echo "narrow $(el)"
compare_trees fp16wide bwd 1 "--cols 65536,131072,262144,524288,1048576 --dtype fp16 --op softmax,log_softmax --backends triton --variants auto --min-bytes 1GiB --quiet --format csv" $root /tmp/before
echo "elapsed $(el)"

## call 6
# session 50 call 6 (H100): call 5's block, on an H100, at the commit that adds this note. Call 5 (H200, 6f4fd6e):
# 417 passed; `auto` forward 0.1-15.5 higher at every width, dtype and op; backward up to
# 9.6 higher, but for the log-softmax backward at 24576-50304 (0.3-0.8 lower) and its
# fp16 rows of 65536-1048576 (0.4-5.7 lower): since then the log-softmax backward
# takes 4096-word chunks only where 8192-word ones would be at most 5/8 full, on every
# GPU (softmax_oneshot.chunk_units, which `launch_params` now asks with the op).

## call 7
# session 50 call 7 (H200; call 8 runs the same block on an H100), at the final rule:
# call 6 (H100, 5f6e529): 417 passed; `auto` fp16 17408 forward 93.4 -> 98.8, backward
# 98.5 -> 101.5, the fp16 softmax backward at 1048576 90.3 -> 97.4; the log-softmax in
# 4096 words 0.5-1.0 lower at 17408-20480 (forward fp16 20480, backward fp16), so the
# H100 keeps 8192 words there (ONESHOT_NARROW_FILL 0.6, and the log-softmax backward
# narrows on `fast_sm` GPUs alone). The Triton GPU test files; compute-sanitizer
# memcheck over Triton `split_oneshot` and `auto` at the widths that take 4096-word
# chunks; `auto` at calls 5-6's widths.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 230 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py \
  -k "not more_than_2_to_the_31 or split_oneshot" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_triton_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_triton_${tag}_$rev.log | tail -12
echo "tests $(el)"
timeout 200 python3 benchmarks/sanitize.py --out $out/sanitize_narrow_${tag}_$rev.log --backends triton --variants split_oneshot,auto \
  --dtypes bf16,fp16 --ops softmax,log_softmax,softmax_backward,log_softmax_backward --shapes 8x17408,6x20480,4x50304,3x262144,2x1048576 \
  > $out/sanitize_narrow_${tag}_$rev.summary 2>&1; echo "sanitize rc $? at $(el)" >> $out/sanitize_narrow_${tag}_$rev.summary; tail -4 $out/sanitize_narrow_${tag}_$rev.summary
timeout $(( 540 - $(el) )) python3 -m comparison --cols 17408,20480,24576,40960,50304 --dtype bf16,fp16 --op softmax,log_softmax --pass fwd,bwd \
  --backends triton --variants auto --min-bytes 1GiB --quiet --format csv --output $out/final_narrow_${tag}_$rev.csv 2>&1 | tail -1
timeout $(( 590 - $(el) )) python3 -m comparison --cols 65536,131072,262144,524288,1048576 --dtype fp16 --op softmax,log_softmax --pass bwd \
  --backends triton --variants auto --min-bytes 1GiB --quiet --format csv --output $out/final_fp16wide_${tag}_$rev.csv 2>&1 | tail -1
python3 -c "import csv,sys; [print(r['op'], r['pass'], r['dtype'], r['cols'], r['variant'], r['pct_of_copy'], r['ok']) for f in sys.argv[1:] for r in csv.DictReader(open(f)) if r.get('pct_of_copy')]" $out/final_*_${tag}_$rev.csv
echo "elapsed $(el)"

## call 8
# session 50 call 8 (H100): call 7's block, on an H100.

## call 9
# session 50 call 9 (H100). Call 8: the H100's bf16 log-softmax backward at 17408 in
# `fused` (what `auto` runs there) at 86.9, 97.4 at 20480: that backward's `fused`,
# `split_oneshot` (8192 words there) and `auto` at 16400-28672 columns, with the softmax
# backward beside it.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 300 python3 -m comparison --cols 16400,17408,18432,20480,24576,28672 --dtype bf16 --op softmax,log_softmax --pass bwd \
  --backends triton --variants auto,fused,split_oneshot --min-bytes 1GiB --quiet --format csv --output $out/logbwd_${tag}_$rev.csv 2>&1 | tail -1
python3 -c "import csv,sys; [print(r['op'], r['pass'], r['dtype'], r['cols'], r['variant'], r['pct_of_copy'], r['ok']) for f in sys.argv[1:] for r in csv.DictReader(open(f)) if r.get('pct_of_copy')]" $out/logbwd_${tag}_$rev.csv
echo "elapsed $(el)"

## call 10
# session 50 call 10 (H100). Call 9: the H100's bf16 log-softmax backward in `fused`
# 87.6 / 87.5 / 90.4 / 97.3 at 16400 / 17408 / 18432 / 20480 against `split_oneshot`'s
# 101.8-102.4; `auto` takes it there since (softmax_policy.AUTO_ONESHOT_PADDED: rows
# filling at most 5/8 of `fused`'s tile, every GPU). The policy's GPU tests, and `auto`
# at call 9's widths.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 230 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_triton_softmax.py tests/test_triton_softmax_backward.py \
  -k "auto or oneshot or threshold or policy" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_policy_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_policy_${tag}_$rev.log | tail -12
timeout 200 python3 -m comparison --cols 16400,17408,18432,20480,24576 --dtype bf16 --op log_softmax --pass bwd \
  --backends triton --variants auto --min-bytes 1GiB --quiet --format csv --output $out/logbwd_auto_${tag}_$rev.csv 2>&1 | tail -1
python3 -c "import csv,sys; [print(r['op'], r['pass'], r['dtype'], r['cols'], r['variant'], r['pct_of_copy'], r['ok']) for f in sys.argv[1:] for r in csv.DictReader(open(f)) if r.get('pct_of_copy')]" $out/logbwd_auto_${tag}_$rev.csv
echo "elapsed $(el)"

## call 11
# session 50 call 11 (H100). Call 10: 90 passed, and test_gpu_more_than_2_to_the_31_elements[auto]
# (which its -k took in, unlike the calls before) out of memory beside seven other
# workers' tests (-n 8 on one 80 GB GPU). That test alone, as the other calls run it.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
timeout 300 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider tests/test_triton_softmax.py tests/test_triton_softmax_backward.py \
  -k "more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_2to31_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_2to31_${tag}_$rev.log | tail -6

## call 12
# session 50 calls 12-14 (H200, one warm machine): the peers' wheels in three parts
# (benchmarks/install_peers.sh: the working tree is now about 21 MB, so two parts no
# longer fit the 64 MiB a call carries), then the forward, widest-forward and backward
# records with every peer (torch, torch.compile, Liger-Kernel, Quack), softmax, fp32 and
# bf16, 128-1048576 columns, 1 GiB. Call 12, carry .whl/part1:
bash benchmarks/install_peers.sh part1 2>&1 | tail -1

## call 13
# session 50 call 13 (the same H200), carry .whl/part2:
bash benchmarks/install_peers.sh part2 2>&1 | tail -1

## call 14
# session 50 call 14 (the same H200), carry .whl/part3:
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
bash benchmarks/install_peers.sh part3 2>&1 | tail -2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .device/commit
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
echo "built $(el)"
timeout $(( 590 - $(el) )) bash benchmarks/record.sh forward,forward_wide,backward --dtype fp32,bf16 --op softmax \
  --cols 128,8192,32768,65536,131072,262144,524288,1048576 --out $OUT --quiet 2>&1 | tail -4
echo "elapsed $(el)"

## call 15
# session 50 calls 15-17 (H100, one warm machine): calls 12-14's blocks, on an H100.
# Call 14's files are in h200_2026-11-27g/record/ (its forward_wide .md did not come back
# from the device: written from the JSON afterwards, which the file says).

## call 18
