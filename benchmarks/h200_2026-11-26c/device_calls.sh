# Session 37 (2026-11-26): every device call's script, in order. Each ran from the repository root
# of a copy of the working tree (carry [".device"]); .device/commit held the commit named in each
# call's files; .device/base a git archive of the commit before the change (6ee8d08 for calls 3-4,
# 39eb6be for calls 6-7). Calls 1, 2, 4, 5, 7, 8, 9 ran on an H200, calls 3, 6 and 10 on an H100.

# .device/ba.sh (before/after of CUDA auto, used by calls 3, 4, 6, 7)
# before (.device/base, 6ee8d08) / after (the checkout) of CUDA auto, ROUNDS rounds.
export PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
root=$PWD; rev=$(cat .device/commit); tag=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
(cd .device/base && PYTHONPATH=$PWD python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1) &
(PYTHONPATH=$root python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1) &
wait
B="--min-bytes 1GiB --quiet --format csv --backends cuda --variants auto --cols $COLS --dtype $DTYPES --op ${OPS:-softmax}"
labels=""
for r in $(seq 1 ${ROUNDS:-2}); do
  for name in before after; do
    tree=$root; [ $name = before ] && tree=$root/.device/base
    for pass in ${PASSES//,/ }; do
      cd $tree && PYTHONPATH=$tree timeout 240 python3 -m comparison $B --pass $pass --output $OUT/${PREFIX:-store}_${tag}_${rev}_${pass}_${name}_r$r.csv | tail -1; cd $root
    done
    labels="$labels ${name}_r$r"
  done
done
for pass in ${PASSES//,/ }; do echo "== $pass"; python3 benchmarks/tuning/side_by_side.py $OUT ${PREFIX:-store}_${tag}_${rev}_${pass} $labels; done

# ---- call 1: .device/call1.sh
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
nvidia-smi --query-gpu=name,driver_version,clocks.max.mem --format=csv,noheader
COLS=65536,131072,262144 timeout 560 bash benchmarks/tuning/wide_store_experiment.sh 2>&1 | tee $OUT/wide_store_experiment.log | tail -60

# ---- call 2: .device/call2.sh
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 580 bash benchmarks/tuning/wide_store_experiment.sh > $OUT/wide_store_experiment.log 2>&1
tail -45 $OUT/wide_store_experiment.log
cd $OUT && tar czf wide_store_csv.tgz *.csv && rm -f *.csv

# ---- call 3: .device/call3.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
COLS=128,256,512,1024,2048,8192,32768,65536,131072,262144,524288,1048576 DTYPES=fp32,bf16 PASSES=fwd,bwd timeout 580 bash .device/ba.sh > $OUT/store_before_after.log 2>&1
tail -52 $OUT/store_before_after.log
cd $OUT && tar czf store_csv.tgz *.csv && rm -f *.csv

# ---- call 4: .device/call4.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
PREFIX=narrow COLS=128,256,512,1024 DTYPES=fp32,bf16,fp16 PASSES=fwd,bwd ROUNDS=2 timeout 330 bash .device/ba.sh > $OUT/store_narrow.log 2>&1
PREFIX=wide16 COLS=32768,131072,262144,1048576 DTYPES=fp16 PASSES=fwd,bwd ROUNDS=1 timeout 120 bash .device/ba.sh > $OUT/store_wide16.log 2>&1
PREFIX=wide_log COLS=32768,131072,262144,1048576 DTYPES=fp32,bf16 OPS=log_softmax PASSES=fwd ROUNDS=1 timeout 120 bash .device/ba.sh > $OUT/store_wide_log.log 2>&1
for f in store_narrow store_wide16 store_wide_log; do echo "#### $f"; grep -A100 "^== " $OUT/$f.log; done
cd $OUT && tar czf store_csv.tgz *.csv && rm -f *.csv

# ---- call 5: .device/call5.sh
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
G=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100); C=$(cat .device/commit)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 300 bash benchmarks/tuning/hybrid_small_experiment.sh > $OUT/hybrid_small_experiment.log 2>&1
tail -30 $OUT/hybrid_small_experiment.log
timeout 250 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_cuda_softmax.py 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $OUT/gpu_tests_cuda_store_${G}_$C.log; grep -E "passed|failed|FAILED|Error" $OUT/gpu_tests_cuda_store_${G}_$C.log | tail -8
cd $OUT && tar czf hybrid_small_csv.tgz *.csv && rm -f *.csv

# ---- call 6: .device/call6.sh
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
G=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100); C=$(cat .device/commit)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
PREFIX=pair COLS=32768,49152,65536,70000,131072 DTYPES=bf16,fp16 OPS=softmax,log_softmax PASSES=fwd ROUNDS=2 timeout 400 bash .device/ba.sh > $OUT/pair_before_after.log 2>&1
tail -4 $OUT/pair_before_after.log
python3 - $OUT <<'PY'
import csv, glob, sys, collections
rows = collections.defaultdict(dict)
for f in sorted(glob.glob(sys.argv[1] + "/pair_*.csv")):
    label = f.rsplit("_", 2)[-2] + "_" + f.rsplit("_", 1)[-1][:-4]
    for r in csv.DictReader(open(f)):
        rows[(r["op"], r["dtype"], int(r["cols"]))][label] = f"{float(r['pct_of_copy']):5.1f}{'' if r['ok'] == 'True' else ' FAIL'}"
for k, v in sorted(rows.items()):
    print(*k, "  ".join(f"{a}={b}" for a, b in sorted(v.items())))
PY
timeout 150 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_cuda_softmax.py 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $OUT/gpu_tests_cuda_pair_${G}_$C.log; grep -E "passed|failed|FAILED|Error" $OUT/gpu_tests_cuda_pair_${G}_$C.log | tail -8
cd $OUT && tar czf pair_csv.tgz *.csv && rm -f *.csv

# ---- call 7: .device/call7.sh
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100); C=$(cat .device/commit)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
PREFIX=pair COLS=32768,49152,65536,70000,131072 DTYPES=bf16,fp16 OPS=softmax,log_softmax PASSES=fwd ROUNDS=2 timeout 330 bash .device/ba.sh > $OUT/pair_before_after.log 2>&1
python3 - $OUT <<'PY'
import csv, glob, sys, collections
rows = collections.defaultdict(dict)
for f in sorted(glob.glob(sys.argv[1] + "/pair_*.csv")):
    label = f.rsplit("_", 2)[-2] + "_" + f.rsplit("_", 1)[-1][:-4]
    for r in csv.DictReader(open(f)):
        rows[(r["op"], r["dtype"], int(r["cols"]))][label] = f"{float(r['pct_of_copy']):5.1f}{'' if r['ok'] == 'True' else ' FAIL'}"
for k, v in sorted(rows.items()):
    print(*k, "  ".join(f"{a}={b}" for a, b in sorted(v.items())))
PY
echo "elapsed $(el)"
timeout 100 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_cuda_softmax.py 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $OUT/gpu_tests_cuda_pair_${G}_$C.log; grep -E "passed|failed|FAILED|Error" $OUT/gpu_tests_cuda_pair_${G}_$C.log | tail -8
timeout $(( 420 - $(el) )) python3 benchmarks/sanitize.py --out $OUT/sanitize_block_hybrid_${G}_$C.log --backends cuda --variants block_hybrid,auto --dtypes fp32,bf16,fp16 --shapes 3x32768,3x65536,2x70000,2x131072 2>&1 | tail -8
echo "elapsed $(el)"
timeout $(( 590 - $(el) )) python3 benchmarks/sanitize.py --out $OUT/sanitize_memcheck_stores_${G}_$C.log --tools memcheck --backends cuda --dtypes fp32,bf16 2>&1 | tail -8
cd $OUT && tar czf pair_csv.tgz *.csv && rm -f *.csv

# ---- call 8: .device/call8.sh
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100); C=$(cat .device/commit)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 330 bash benchmarks/record.sh forward --dtype fp32,bf16 --cols 128,8192,32768,65536,131072,262144 --out $OUT --quiet 2>&1 | tail -3
echo "elapsed $(el)"
timeout $(( 580 - $(el) )) python3 -m comparison --cols 32000,50257,128256,151936,256000 --dtype fp32,bf16 --op softmax --pass fwd,bwd --backends cuda,triton,torch --variants auto --min-bytes 1GiB --quiet --format markdown --layout long --output $OUT/vocab_widths_${G}_$C.md 2>&1 | tail -2
grep -E "^\|" $OUT/vocab_widths_${G}_$C.md | cut -c1-150 | head -90
echo "elapsed $(el)"

# ---- call 9: .device/call9.sh
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100); C=$(cat .device/commit)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
V=auto,block_smem,block_uncached,online,cluster_regs,block_hybrid,split,split_smem,fused,tiled
for W in 50257 151936; do
timeout $(( 280 * (W == 50257 ? 1 : 2) - $(el) )) python3 -m comparison --cols $W --dtype fp32,bf16 --op softmax --pass fwd,bwd --backends cuda,triton --variants $V --min-bytes 1GiB --quiet --format csv --output $OUT/vocab_variants_${W}_${G}_$C.csv 2>&1 | tail -1
python3 - $OUT/vocab_variants_${W}_${G}_$C.csv <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(r["pass"], r["dtype"], r["cols"], f"{r['backend']}/{r['variant']}", r["pct_of_copy"][:5] or "-", r["ok"], (r.get("note") or "")[:60])
PY
echo "elapsed $(el)"
done

# ---- call 10: .device/call10.sh
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
G=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100); C=$(cat .device/commit)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 200 bash benchmarks/tuning/hybrid_any_k_experiment.sh > $OUT/hybrid_any_k_experiment.log 2>&1; tail -9 $OUT/hybrid_any_k_experiment.log
echo "elapsed $(el)"
timeout 100 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider -n 4 tests/test_cuda_softmax.py 2>&1 | grep -Ev 'PytestBenchmark|warner|^[.sFxXE]*\s*\[ *[0-9]+%\]$' > $OUT/gpu_tests_cuda_${G}_$C.log; grep -E "passed|failed|FAILED|Error" $OUT/gpu_tests_cuda_${G}_$C.log | tail -8
echo "elapsed $(el)"
timeout $(( 560 - $(el) )) bash benchmarks/record.sh forward --dtype fp32,bf16 --cols 128,8192,32768,65536,131072,262144 --out $OUT --quiet 2>&1 | tail -2
echo "elapsed $(el)"
cd $OUT && mkdir -p rec && for f in h100/forward-fp32-bf16-cols128-262144.*; do [ -f "$f" ] && cp "$f" rec/record_${C}_$(basename $f); done; rm -rf h100 h200; ls rec
