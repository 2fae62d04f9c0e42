#!/usr/bin/env bash
# Triton's odd-width rows read as head, whole 16-byte vectors and tail
# (kernels_triton/row_edges.py; `fused` and `split`, forward and backward): the GPU tests
# of those rows, then triton and torch `auto` at odd and aligned widths, 1 GiB inputs, %
# of the same run's copy, this checkout against an older tree. One device call of about
# five minutes, from the repository root on a GPU machine (results in $OUT, named by GPU
# and commit):
#
#   BASE=/path/to/older/tree bash benchmarks/tuning/triton_odd_widths_check.sh
#
# BASE holds comparison/, kernels_cuda/ and kernels_triton/ of the tree before the change
# (e.g. `git archive bf2a6d4 comparison kernels_cuda kernels_triton | tar -x -C DIR`);
# without it only this checkout is measured. Before the change (H200, f807507,
# benchmarks/h200_2026-11-26d/odd_widths_h200_f807507.csv) triton `auto` forward bf16
# 197 / 1025 / 3001 / 50257 measured 25.2 / 46.3 / 48.3 / 51.6, fp32 50257 76.7; backward
# bf16 1025 / 50257 69.1 / 46.8; aligned widths 95-98.
set -uo pipefail
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
out=$(realpath -m "${OUT:-benchmarks/out}")
mkdir -p "$out"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$gpu" in *H200*) tag=h200 ;; *H100*) tag=h100 ;; *) tag=$(echo "$gpu" | tr -c 'A-Za-z0-9\n' '_' | tr 'A-Z' 'a-z') ;; esac
rev=$(cat .device/commit 2>/dev/null || git rev-parse --short HEAD 2>/dev/null || echo unknown)
start=$(date +%s)
el() { echo "elapsed $(( $(date +%s) - start )) s"; }
echo "triton_odd_widths_check at $rev on $gpu, triton $(python3 -c 'import triton; print(triton.__version__)'), $(date -u +%FT%TZ)"

# 1. The odd rows' tests, compiled: plans (EDGES, `realigned`), agreement with float64 in
# every layout (contiguous, row stride padded by a vector, one element in) through fused,
# split and auto, split groups that exchange at 50257 and 70001 columns, the forced
# exchanges, and the compiled plans' spills (odd rows both ways).
workers=""
python3 -c "import xdist" 2>/dev/null && workers="-n $(( $(nproc) / 2 > 1 ? $(nproc) / 2 : 1 ))"
timeout 170 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider $workers \
  tests/test_triton_softmax.py tests/test_triton_softmax_backward.py \
  -k "odd_rows or every_part_published or forced_grids_and_exchanges or do_not_spill" \
  > "$out/triton_odd_tests_${tag}_$rev.log" 2>&1
grep -E "passed|failed|FAILED|Error" "$out/triton_odd_tests_${tag}_$rev.log" | tail -8
el

# 2. auto at 1 GiB: this checkout (triton and torch), then BASE (triton).
cmd=(python3 -m comparison --cols 197,1025,3001,50257,70001,32768,65536 --dtype fp32,bf16 --op softmax
     --pass fwd,bwd --variants auto --min-bytes 1GiB --quiet --format csv)
after="$out/triton_odd_${tag}_$rev.csv"
before="$out/triton_odd_${tag}_base.csv"
timeout 210 "${cmd[@]}" --backends triton,torch --output "$after" 2>&1 | tail -1
el
if [ -n "${BASE:-}" ]; then
  (cd "$BASE" && PYTHONPATH=$BASE timeout 150 "${cmd[@]}" --backends triton --output "$before" 2>&1 | tail -1)
  el
fi
python3 - "$after" "$before" <<'PY'
import csv, os, sys
# One line per (pass, dtype, width): triton auto before / after, torch, and the check's verdict.
rows = {}
for label, path in (("after", sys.argv[1]), ("before", sys.argv[2])):
    if not os.path.exists(path):
        continue
    for r in csv.DictReader(open(path)):
        if r.get("pct_of_copy"):
            key = (r["pass"], r["dtype"], int(r["cols"]))
            name = "torch" if r["backend"] == "torch" else f"{r['backend']}_{label}"
            ok = "" if r["ok"] in ("True", "ok") else " (check failed)"
            rows.setdefault(key, {})[name] = f"{float(r['pct_of_copy']):5.1f}{ok}"
print("pass dtype    cols  triton before / after  torch  (% of copy)")
for (pss, dtype, cols), cells in sorted(rows.items()):
    print(f"{pss:4s} {dtype:5s} {cols:7d}  {cells.get('triton_before', '  -  ')} / {cells.get('triton_after', '  -  ')}"
          f"  {cells.get('torch', '  -  ')}")
PY
