#!/usr/bin/env bash
# What holds warp_per_row (auto's rule 0, rows up to 1024 columns) below the copy
# ceiling on an H200: fp32 / bf16 at 128 columns 95.6 / 85.8% of copy forward in the
# record of 2026-11-25 (benchmarks/h200/forward-fp32-bf16-cols128-262144.md), where
# Triton holds 97.2 / 99.0 and the same kernel 99.9 / 100.3 on an H100. The H200 has the
# H100's 132 SMs and 1.4x its DRAM bandwidth, so each SM must keep 1.4x the bytes in
# flight, or retire 1.4x the blocks per second: the kernel's one-shot grid gives each
# 128-thread block 32 rows (8 KB of a bf16 row of 128), so that GPU starts about two
# million blocks per SM per second. One device call of about six minutes, from the
# repository root on a GPU machine (results in $OUT, named by GPU and commit):
#
#   bash benchmarks/tuning/warp_rows_experiment.sh
#
# Copies of the package, each planning warp_per_row's grid (forward and backward) as
# SK_WARP_WAVES says: 0 = the checkout's one-shot grid (a block per 32 rows), W > 0 =
# at most W x (resident blocks per SM) x SMs blocks, each warp looping over its rows:
#   r4   the checkout's kWarpRowRows (4 rows per access on lanes of one pack)
#   r8   8 rows per access (twice the bytes in flight per lane, more registers)
#   st   r4 with plain stores of the output (the checkout's are streaming, st.global.cs)
#        in the fp32 rows' path (16-bit rows since 1ce9370 store through RegSlice: st2)
#   rsel rows per access on lanes of one pack from SK_WARP_R (1, 2, 4 or 8) instead
#        of kWarpRowRows
#        and, where SK_WARP_PACK16 is set, 16-bit forward rows of one pack per lane in
#        packs of at most that many elements (4: 8-byte packs, twice the lanes per row)
#   one  forward rows of 2-32 packs as one pack per lane on kWarpRowRows rows
#        (kWarpRowLanePacks16 and 32 at 1: the layout before 2026-11-26)
#   two16 fp32 rows only as one (kWarpRowLanePacks32 at 1)
#   lp2  16-bit rows at two packs per lane (kWarpRowLanePacks16 = 2)
#   t256 blocks of 256 threads (kWarpRowThreads)
#   st2  16-bit rows store their output the other way (kWarpRow16Store): streaming
#        stores since session 36 adopted plain ones, plain stores before (at 24fcae4
#        the copy made every RegSlice store plain, cluster_regs' and block_hybrid's too)
#   cs   RegSlice loads with ld.global.cs (evict-first) instead of plain loads
#   lb12 rsel with __launch_bounds__(128, 12): at most 40 registers, twelve blocks per SM
# RUNS (default "r4:0 r4:1 r4:4 r8:0 r8:4 st:0") lists copy:waves pairs, or
# copy:waves:rows[:pack16] for rsel and lb12 (e.g. "rsel:0:2", "rsel:0:8:4"). Every result is checked against
# float64 (python -m comparison), as always.
# Runs so far: at 911ec38 on an H200 the defaults (benchmarks/h200_2026-11-26/
# warp_rows_*_911ec38.md): capped grids lost everywhere (fp32 1024 forward 97.4 ->
# 93.2-94.3), r8 lost for 16-bit rows (bf16 128 85.6 -> 64.9: 127 registers), plain
# stores lost (bf16 128 73.9); then RUNS="rsel:0:1 rsel:0:2 rsel:0:4 lb12:0:2 lb12:0:4"
# with COLS=32,64,128,256,512 at de9563a (the checkout's 16-bit one-pack rows packed as
# loaded; h200_2026-11-26/warp_rows_*_de9563a.md): packed bf16 128 / 256 86.6 / 82.8
# (unpacked 85.6 / 81.8); rows per access 1 / 2 / 8: 68.8 / 78.2 / 84.7 at bf16 128, fp32
# 128 84.9 / 90.8 / 97.1 (4: 96.1); lb12 lost (fp32 128 86.0 at 4 rows). At c211a15
# (RUNS="r4:0 one:0 two16:0", PASSES=fwd, fp32/bf16/fp16 32-1024): two packs per lane
# won at every width of 2-32 packs, e.g. fp32 / bf16 / fp16 128 95.9 / 86.2 / 84.5 ->
# 100.2 / 94.8 / 89.2, bf16 256 82.2 -> 93.9. At 1ce9370 (RUNS="r4:0 lp4:0", 16-bit): four
# packs per lane won from 128 columns (fp16 128 / 512 89.1 / 92.5 -> 96.9 / 98.8) and
# lost at 32 / 64 (bf16 97.7 / 96.3 -> 65.0 / 80.1), which the checkout's
# kWarpRowMinGroupBytes now keeps at two; the copy lp4 became lp2 (two everywhere).
# At 24fcae4 on an H200 (RUNS="r4:0 t256:0 st2:0 cs:0", 16-bit, 64-256 columns): plain
# stores won (bf16 / fp16 128 95.1 / 97.0 -> 98.3 / 99.9), 256-thread blocks were mixed
# (bf16 128 96.4, 64 94.8), evict-first loads lost (bf16 128 88.7). Next: RUNS="r4:0
# st2:0" COLS=32,64,128,256,512,1024 DTYPES=bf16,fp16 on both GPUs.
# At b34a853 (session 36) that run, H200 and H100 (benchmarks/h200_2026-11-26b/,
# h100_2026-11-26b/warp_rows_*_b34a853.md): plain stores won on the H200 (bf16 128 95.2
# -> 98.4, fp16 128 97.1 -> 99.8) and were even or ahead on the H100 (bf16 128 98.6 ->
# 99.4): kWarpRow16Store is kNormal since, and st2 now measures streaming stores.
source "$(dirname "$0")/experiment_env.sh"
alt=${ALT:-/tmp/warp_rows_alt}
runs=${RUNS:-r4:0 r4:1 r4:4 r8:0 r8:4 st:0}
cols=${COLS:-128,256,512,1024}
dtypes=${DTYPES:-fp32,bf16}
echo "warp_rows_experiment at $rev on $gpu $(date -u +%FT%TZ): $runs"
rm -rf "$alt"
copies=$(for r in $runs; do echo "${r%%:*}"; done | sort -u)
for v in $copies; do
  mkdir -p "$alt/$v" && cp -r comparison kernels_cuda kernels_triton "$alt/$v"/
  python3 - "$alt/$v/kernels_cuda/csrc" "$v" <<'PY' || exit 1
import sys
csrc, variant = sys.argv[1:]
path = f"{csrc}/softmax/warp_per_row.cuh"
s = open(path).read()
fwd = "one_shot_grid(plan, p.device, fn, kWarpRowThreads, ceil_div(rows, rows_per_block), 0);"
bwd = "one_shot_grid(plan, p.device, fn, kWarpRowThreads, ceil_div(rows, (kWarpRowThreads / group) * rows_per_access), 0);"
cap = ("\n  if (const char* w = std::getenv(\"SK_WARP_WAVES\")) {\n"
       "    const int64_t waves = std::atoll(w);\n"
       "    if (waves > 0) plan.blocks = std::min<int64_t>(plan.blocks, waves * plan.resident_per_sm * device_properties(p.device).sm_count);\n"
       "  }")
rows_line = "constexpr int kWarpRowRows = 4;"
store = "store_pack<Cache::kStreaming, T, N>(yr + col"
assert fwd in s and bwd in s and rows_line in s and store in s, "warp_per_row.cuh changed: update this experiment's patch"
s = s.replace(fwd, fwd + cap).replace(bwd, bwd + cap).replace("#include <cstdint>", "#include <cstdint>\n#include <cstdlib>")
if variant in ("rsel", "lb12"):
    pick = "    if (rows_per_access == kWarpRowRows) return Kernels::template get<T, N, C, kWarpRowRows>();"
    assert pick in s
    s = s.replace(pick, "".join(f"    if (rows_per_access == {r}) return Kernels::template get<T, N, C, {r}>();\n" for r in (2, 4, 8)))
    fr = "const int rows_per_access = needed == pack && rows > 1 ? kWarpRowRows : 1;"
    assert s.count(fr) == 2
    wp = "  const int pack = widest_pack<T>(p);\n  const int64_t rows = plan_rows(p);\n  const int64_t packs = std::max<int64_t>(p.cols / pack, 1);\n  int64_t lane_packs"
    assert wp in s
    s = s.replace(wp, wp.replace("  const int pack = widest_pack<T>(p);",
        "  int pack = widest_pack<T>(p);\n"
        "  if (sizeof(T) == 2 && std::getenv(\"SK_WARP_PACK16\") && p.cols / pack <= 32) pack = std::min(pack, std::atoi(std::getenv(\"SK_WARP_PACK16\")));"))
    s = s.replace(fr, "const int rows_per_access = needed == pack && rows > 1 ? std::atoi(std::getenv(\"SK_WARP_R\") ? std::getenv(\"SK_WARP_R\") : \"4\") : 1;")
    if variant == "lb12":
        lb = "__launch_bounds__(kWarpRowThreads) softmax_warp_per_row_kernel"
        assert lb in s
        s = s.replace(lb, "__launch_bounds__(kWarpRowThreads, 12) softmax_warp_per_row_kernel")
if variant in ("one", "two16", "lp2"):
    bits_to = {"one": {"16": 1, "32": 1}, "two16": {"32": 1}, "lp2": {"16": 2}}[variant]
    for bits, lane_packs in bits_to.items():
        flag = next(f"constexpr int kWarpRowLanePacks{bits} = {n};" for n in (2, 4)
                    if f"constexpr int kWarpRowLanePacks{bits} = {n};" in s)
        s = s.replace(flag, f"constexpr int kWarpRowLanePacks{bits} = {lane_packs};")
if variant == "t256":
    t = "constexpr int kWarpRowThreads = 128;"
    assert t in s
    s = s.replace(t, "constexpr int kWarpRowThreads = 256;")
if variant == "st2":
    kinds = ("kStreaming", "kNormal")
    shipped = next(k for k in kinds if f"constexpr Cache kWarpRow16Store = Cache::{k};" in s)
    other = kinds[1 - kinds.index(shipped)]
    s = s.replace(f"constexpr Cache kWarpRow16Store = Cache::{shipped};", f"constexpr Cache kWarpRow16Store = Cache::{other};")
if variant == "cs":
    rpath = f"{csrc}/common/reg_slice.cuh"
    r = open(rpath).read()
    line = "load_pack<Cache::kNormal, T, N>(xr + i * N)"
    assert line in r, "reg_slice.cuh changed: update this experiment's patch"
    r = r.replace(line, line.replace("kNormal", "kStreaming"))
    open(rpath, "w").write(r)
if variant == "r8":
    s = s.replace(rows_line, "constexpr int kWarpRowRows = 8;")
if variant == "st":
    s = s.replace(store, "store_pack<Cache::kNormal, T, N>(yr + col")
    gpath = f"{csrc}/common/grad.cuh"
    g = open(gpath).read()
    dx = "store_pack<Cache::kStreaming, T, N>(dx + i * N"
    assert dx in g, "grad.cuh changed: update this experiment's patch"
    open(gpath, "w").write(g.replace(dx, "store_pack<Cache::kNormal, T, N>(dx + i * N"))
open(path, "w").write(s)
PY
done
build_trees $(for v in $copies; do echo "$alt/$v"; done)
B="--min-bytes 1GiB --quiet --format markdown --layout long --op softmax --pass ${PASSES:-fwd,bwd} --backends cuda"
for r in $runs; do
  IFS=: read -r v w rpa p16 <<< "$r"
  cd "$alt/$v" && env ${p16:+SK_WARP_PACK16=$p16} SK_WARP_R=${rpa:-4} SK_WARP_WAVES=$w PYTHONPATH=$alt/$v timeout 150 python3 -m comparison --cols $cols --dtype $dtypes $B \
    --variants warp_per_row --output "$out/warp_rows_${v}_w${w}${rpa:+_r$rpa}${p16:+_p$p16}_${tag}_$rev.md" | tail -1
  cd "$root"
done
for f in "$out"/warp_rows_*.md; do
  echo "== $(basename "$f")"
  grep -E "^(###|\| cuda/)" "$f" | awk -F'|' '/^###/ {print; next} {printf "%s %s %s %s\n", $2, $4, $7, $10}'
done
