# Session 46 (2026-11-27): every device call's script, in order. Each ran from the
# repository root on the GPU machine (PYTHONPATH=., results under $OUT), with the tree
# named in its header (.device/commit holds the commit; .device/<name> are patched
# copies of it, built beside the checkout).

## call 1
# session 46 call 1 (H200): split_hybrid (block_hybrid's slices over any number of CTAs
# exchanging through global memory, 035c831) first on a GPU: its plans at the wide rows,
# its tests, then forward and backward at 262144-1048576 columns, fp32 and bf16, 1 GiB,
# against block_hybrid and auto; .device/t1024 is the same tree with one 1024-thread
# CTA per SM tried first (two 512-thread ones: the checkout).
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root" "$root/.device/t1024" 2>&1
echo "build $(el)"
python3 - <<'PY'
import torch, kernels_cuda.softmax as s
for dt in (torch.bfloat16, torch.float32):
    for cols in (262144, 524288, 1048576):
        x = torch.empty(2, cols, device="cuda", dtype=dt)
        for op, kw in (("softmax", {}), ("softmax_backward", {"dy": x})):
            p = s.plan(x, op, "split_hybrid", **kw)
            print(str(dt)[6:], cols, op, {k: p[k] for k in ("status", "threads", "split", "resident_per_sm", "smem_bytes", "cols_per_thread")})
PY
timeout 150 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_cuda_softmax.py -k "split_hybrid" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_split_hybrid_${tag}.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_split_hybrid_${tag}.log | tail -12
echo "tests $(el)"
for pass in fwd bwd; do
  (cd $root && timeout 170 python3 -m comparison --cols 262144,524288,1048576 --dtype fp32,bf16 --op softmax --pass $pass --backends cuda \
    --variants auto,block_hybrid,split_hybrid --min-bytes 1GiB --quiet --format csv --output $out/sh_${tag}_${pass}_checkout.csv | tail -1)
  (cd $root/.device/t1024 && PYTHONPATH=$root/.device/t1024 timeout 90 python3 -m comparison --cols 262144,524288,1048576 --dtype fp32,bf16 --op softmax --pass $pass --backends cuda \
    --variants split_hybrid --min-bytes 1GiB --quiet --format csv --output $out/sh_${tag}_${pass}_t1024.csv | tail -1)
  echo "$pass $(el)"
done
python3 - "$out" "$tag" <<'PY'
import csv, sys, glob, os
out, tag = sys.argv[1], sys.argv[2]
for f in sorted(glob.glob(f"{out}/sh_{tag}_*.csv")):
    for r in csv.DictReader(open(f)):
        print(os.path.basename(f)[:-4], r.get("pass"), r.get("dtype"), r.get("cols"), r.get("variant"), r.get("pct_of_copy") or r.get("pct_copy"), r.get("ok"), r.get("note", "")[:60])
PY
echo "elapsed $(el)"

## call 2
# session 46 call 2 (H100, a3bda6c): split_hybrid on the H100, and auto's new rules (2c
# forward, 1a' backward: split_hybrid where block_hybrid's clusters of one CTA per SM
# leave over a tenth of the SMs idle, and backward rows past 16 CTAs): the plans, the
# CUDA softmax test file's split_hybrid and auto tests, then forward and backward at
# 524288, 1048576 and 2097152 (fp32) columns, 1 GiB, auto against block_hybrid,
# split_hybrid and the variants auto took before (split_smem, split); .device/t1024 (the
# split_hybrid of 035c831 with one 1024-thread CTA per SM first) beside it.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root" "$root/.device/t1024" 2>&1
echo "build $(el)"
python3 - <<'PY'
import torch, kernels_cuda.softmax as s
for dt in (torch.bfloat16, torch.float32):
    for cols in (262144, 524288, 1048576, 2097152):
        x = torch.empty(1, cols, device="cuda", dtype=dt).expand(264, cols)  # plans read shape and strides
        for op, kw in (("softmax", {}), ("softmax_backward", {"dy": x})):
            h = s.plan(x, op, "block_hybrid", **kw); g = s.plan(x, op, "split_hybrid", **kw); a = s.plan(x, op, "auto", **kw)
            print(str(dt)[6:], cols, op, "hybrid", h["status"], h["threads"], h["cluster_size"], h["active_clusters"], "| split_hybrid", g["status"], g["threads"], g["split"], "| auto", a["variant"], a["reason_code"])
PY
timeout 200 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_cuda_softmax.py -k "split_hybrid or auto" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_auto_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_auto_${tag}_$rev.log | tail -12
echo "tests $(el)"
(cd $root && timeout 150 python3 -m comparison --cols 524288,1048576 --dtype fp32,bf16 --op softmax --pass fwd --backends cuda \
    --variants auto,block_hybrid,split_hybrid --min-bytes 1GiB --quiet --format csv --output $out/sh_${tag}_fwd_checkout.csv | tail -1)
(cd $root && timeout 60 python3 -m comparison --cols 2097152 --dtype fp32 --op softmax --pass fwd --backends cuda \
    --variants auto,split_hybrid,split_smem --min-bytes 1GiB --quiet --format csv --output $out/sh_${tag}_fwd2m_checkout.csv | tail -1)
(cd $root && timeout 150 python3 -m comparison --cols 524288,1048576 --dtype fp32,bf16 --op softmax --pass bwd --backends cuda \
    --variants auto,block_hybrid,split_hybrid,split --min-bytes 1GiB --quiet --format csv --output $out/sh_${tag}_bwd_checkout.csv | tail -1)
echo "checkout $(el)"
for pass in fwd bwd; do
  (cd $root/.device/t1024 && PYTHONPATH=$root/.device/t1024 timeout 70 python3 -m comparison --cols 524288,1048576 --dtype fp32,bf16 --op softmax --pass $pass --backends cuda \
    --variants split_hybrid --min-bytes 1GiB --quiet --format csv --output $out/sh_${tag}_${pass}_t1024.csv | tail -1)
done
echo "t1024 $(el)"
python3 - "$out" "$tag" <<'PY'
import csv, sys, glob, os
out, tag = sys.argv[1], sys.argv[2]
for f in sorted(glob.glob(f"{out}/sh_{tag}_*.csv")):
    for r in csv.DictReader(open(f)):
        pct = r.get("pct_of_copy")
        print(os.path.basename(f)[:-4], r["pass"], r["dtype"], r["cols"], r["variant"], f"{float(pct):.1f}" if pct else "-", r["ok"], r.get("note", "")[:50])
PY
echo "elapsed $(el)"

## call 3
# session 46 call 3 (H200): main's head (rule 2c also past 16 CTAs): the CUDA softmax
# test file and the Triton backward's; compute-sanitizer's four tools over split_hybrid
# (every op, default shapes), then over split_hybrid, split, block_hybrid and auto at 2 x
# 1048576 (the 256-thread split backward, block_hybrid's busiest-size forward clusters,
# split_hybrid's 29-47 CTAs); auto against the variants at the widest rows.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
echo "build $(el)"
timeout 170 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_cuda_softmax.py tests/test_triton_softmax_backward.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_${tag}_$rev.log | tail -12
echo "tests $(el)"
(cd $root && timeout 90 python3 -m comparison --cols 1048576,2097152 --dtype fp32 --op softmax --pass fwd --backends cuda \
    --variants auto,split_hybrid,split_smem --min-bytes 1GiB --quiet --format csv --output $out/sh2_${tag}_fwd_checkout.csv | tail -1)
(cd $root && timeout 60 python3 -m comparison --cols 524288,1048576 --dtype fp32 --op softmax --pass bwd --backends cuda \
    --variants auto,split_hybrid --min-bytes 1GiB --quiet --format csv --output $out/sh2_${tag}_bwd_checkout.csv | tail -1)
python3 - "$out" "$tag" <<'PY'
import csv, sys, glob, os
out, tag = sys.argv[1], sys.argv[2]
for f in sorted(glob.glob(f"{out}/sh2_{tag}_*.csv")):
    for r in csv.DictReader(open(f)):
        pct = r.get("pct_of_copy")
        print(os.path.basename(f)[:-4], r["pass"], r["dtype"], r["cols"], r["variant"], f"{float(pct):.1f}" if pct else "-", r["ok"], r.get("note", "")[:50])
PY
echo "bench $(el)"
timeout 200 python3 benchmarks/sanitize.py --out $out/sanitize_split_hybrid_${tag}_$rev.log --backends cuda --variants split_hybrid \
  > $out/sanitize_split_hybrid_${tag}_$rev.summary 2>&1; echo "sanitize rc $? at $(el)" >> $out/sanitize_split_hybrid_${tag}_$rev.summary
grep -E "cases under|errors|ERROR|RAISED|rc |plain run" $out/sanitize_split_hybrid_${tag}_$rev.summary | tail -8
timeout $(( 595 - $(el) )) python3 benchmarks/sanitize.py --out $out/sanitize_wide_${tag}_$rev.log --backends cuda --variants split_hybrid,split,block_hybrid,auto \
  --dtypes fp32,bf16 --shapes 2x1048576 > $out/sanitize_wide_${tag}_$rev.summary 2>&1; echo "sanitize rc $? at $(el)" >> $out/sanitize_wide_${tag}_$rev.summary
grep -E "cases under|errors|ERROR|RAISED|rc |plain run" $out/sanitize_wide_${tag}_$rev.summary | tail -8
echo "elapsed $(el)"

## call 4
# session 46 call 4 (H200): the checkout's (cab1932) auto and split_hybrid tests; split_hybrid
# with a third CTA shape tried first, four
# 256-thread CTAs per SM (16 KB of the row in registers, slices to 72 KB; backward
# unbounded), in .device/q256 (4380113 patched), against the checkout's split_hybrid
# (two 512-thread CTAs per SM first) and auto: forward and backward, fp32 and bf16,
# 262144-1048576 columns, 1 GiB, two rounds.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build_trees "$root" "$root/.device/q256" 2>&1
echo "build $(el)"
# The checkout (cab1932: rule 2c by waves of CTAs): the auto and split_hybrid tests.
timeout 120 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_cuda_softmax.py -k "split_hybrid or auto" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_auto_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_auto_${tag}_$rev.log | tail -12
echo "tests $(el)"
(cd $root/.device/q256 && PYTHONPATH=$root/.device/q256 python3 - <<'PY'
import torch, kernels_cuda.softmax as s
for dt in (torch.bfloat16, torch.float32):
    for cols in (262144, 524288, 1048576):
        x = torch.empty(1, cols, device="cuda", dtype=dt).expand(264, cols)
        for op, kw in (("softmax", {}), ("softmax_backward", {"dy": x})):
            g = s.plan(x, op, "split_hybrid", **kw)
            print("q256", str(dt)[6:], cols, op, g["status"], g["threads"], g["split"], g["resident_per_sm"], g["smem_bytes"])
PY
)
compare_trees q256_${tag} fwd,bwd 2 "--cols 262144,524288,1048576 --dtype fp32,bf16 --op softmax --backends cuda --variants split_hybrid --min-bytes 1GiB --quiet --format csv" \
  "$root" "$root/.device/q256" 2>&1 | tail -30
echo "elapsed $(el)"

## call 5
# session 46 call 5 (H100): main's head: the CUDA softmax test file and the Triton
# backward's; where the wide rows stand (both backends' auto, forward and backward, fp32
# and bf16, 1 GiB, the command of session 45's standing); compute-sanitizer's four tools
# over split_hybrid (every op, default shapes).
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
echo "build $(el)"
timeout 150 python3 -m pytest -q -rfE --tb=short -p no:cacheprovider -n 8 tests/test_cuda_softmax.py tests/test_triton_softmax_backward.py -k "not more_than_2_to_the_31" 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $out/gpu_tests_${tag}_$rev.log; grep -E "passed|failed|FAILED|Error" $out/gpu_tests_${tag}_$rev.log | tail -12
echo "tests $(el)"
for pass in fwd bwd; do
  timeout 150 python3 -m comparison --cols 131072,262144,524288,1048576 --dtype fp32,bf16 --op softmax --pass $pass \
    --backends cuda,triton --variants auto --min-bytes 1GiB --quiet --format markdown --layout long --output $out/wide_standing_${pass}_${tag}_$rev.md 2>&1 | tail -1
done
grep -hE "^### |^\| (cuda|triton)/auto" $out/wide_standing_*_${tag}_$rev.md | awk -F'|' '/###/{print; next}{print $2,$4,$7}'
echo "bench $(el)"
timeout $(( 595 - $(el) )) python3 benchmarks/sanitize.py --out $out/sanitize_split_hybrid_${tag}_$rev.log --backends cuda --variants split_hybrid \
  > $out/sanitize_split_hybrid_${tag}_$rev.summary 2>&1; echo "sanitize rc $? at $(el)" >> $out/sanitize_split_hybrid_${tag}_$rev.summary
grep -E "cases under|errors|ERROR|RAISED|rc |plain run" $out/sanitize_split_hybrid_${tag}_$rev.summary | tail -8
echo "elapsed $(el)"

## call 6
# session 46 call 6 (H200): where the wide rows stand at main's head (call 5's
# comparison on the H200). NOT RUN: the session's device time was spent after call 5.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1
echo "build $(el)"
for pass in fwd bwd; do
  timeout 150 python3 -m comparison --cols 131072,262144,524288,1048576 --dtype fp32,bf16 --op softmax --pass $pass \
    --backends cuda,triton --variants auto --min-bytes 1GiB --quiet --format markdown --layout long --output $out/wide_standing_${pass}_${tag}_$rev.md 2>&1 | tail -1
done
grep -hE "^### |^\| (cuda|triton)/auto" $out/wide_standing_*_${tag}_$rev.md | awk -F'|' '/###/{print; next}{print $2,$4,$7}'
echo "elapsed $(el)"
