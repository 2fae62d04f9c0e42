# Session 53 (2026-11-28): the exact commands of each device call, run from the checkout
# root as `sed -n '/^## call N$/,/^## call N+1$/p' <this file> > /tmp/c.sh; OUT=$OUT bash /tmp/c.sh`.

## call 1
# session 53 call 1 (H100; call 2 runs it on the H200). Aligned rows just past a power of
# two pad Triton `fused`'s tile to the next one (bf16 1040 in a 2048-wide tile: H100
# 87.0-96.4, session 52). Here the tile as two parts, half the padded block and a tail
# (`softmax_fused.plain_parts`), in three geometries (rows a tile x factor, warps /
# divisor), against the padded tile (off), at widths that pad 1.5-50%.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
M=kernels_triton.softmax_fused
f=$out/plain_tail_fwd_${tag}_$rev.txt; : > $f
for cfg in off/1/2 on/1/2 on/1/1 on/2/2 off/1/2; do
  IFS=/ read on rf wd <<< "$cfg"
  blocks=$([ $on = on ] && echo '{2:(32,65536),4:(32,65536)}' || echo '{}')
  for op in softmax log_softmax; do
    dt=$([ $op = softmax ] && echo bf16,fp16,fp32 || echo bf16,fp32)
    timeout 150 python3 benchmarks/tuning/tune.py --op $op --cols 520,1040,1100,1536,2080,3072,6144,12288 --dtype $dt --impl triton/fused \
      --set "$M.FUSED_PLAIN_TAIL_BLOCKS=$blocks" --set $M.FUSED_PLAIN_TAIL_ROWS_FACTOR=$rf --set $M.FUSED_PLAIN_TAIL_WARPS_DIVISOR=$wd \
      --label "$on/r$rf/d$wd" 2>&1 | grep -v Warn | tee -a $f
  done
  echo "cfg $cfg $(el)"
  [ $(el) -gt 480 ] && break
done
echo "elapsed $(el)"

## call 2
# session 53 call 2 (H100; call 3 runs it on the H200). Call 1 (H100): the padded tile
# trails at 16-bit 520 / 1040 / 2080 (bf16 89.4 / 95.3 / 98.5, log-softmax 86.2 / 87.0 /
# 96.3) and nowhere else measured (fp32 99.5-100.2; 1536-12288 99-100.8); the two parts
# at 4 warps (on/r1/d2, 95 registers: ptxas spills it under a cap of 80) gain at 520
# (95.2 / 94.3) and lose at 1040 / 2080. Here: the 16-bit small tile (16 KiB at 16 a
# thread, FUSED_SMALL_TILES_16BIT) on padded rows too (`_fills_small_tile` for any width
# in its bounds: 520, 1040, 1536), with and without the two parts, and the two parts at
# 16 values a thread (r1/d1: 8 warps, r2/d1: twice the rows over 16 warps).
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
M=kernels_triton.softmax_fused
f=$out/plain_tail2_fwd_${tag}_$rev.txt; : > $f
dts=$([ $tag = h200 ] && echo bf16,fp16,fp32 || echo bf16,fp16)
for cfg in off/1/2/pow2 off/1/2/any on/1/1/pow2 on/2/1/pow2 on/1/2/any off/1/2/pow2; do
  IFS=/ read on rf wd fill <<< "$cfg"
  blocks=$([ $on = on ] && echo '{2:(32,65536),4:(32,65536)}' || echo '{}')
  fills=(); [ $fill = any ] && fills=(--set "$M._fills_small_tile=lambda c,b: b[0]<=c<=b[1]")
  for op in softmax log_softmax; do
    timeout 150 python3 benchmarks/tuning/tune.py --op $op --cols 520,1040,1536,2080,3072,4160 --dtype $dts --impl triton/fused \
      --set "$M.FUSED_PLAIN_TAIL_BLOCKS=$blocks" --set $M.FUSED_PLAIN_TAIL_ROWS_FACTOR=$rf --set $M.FUSED_PLAIN_TAIL_WARPS_DIVISOR=$wd \
      "${fills[@]}" --label "$on/r$rf/d$wd/$fill" 2>&1 | grep -v Warn | tee -a $f
  done
  echo "cfg $cfg $(el)"
  [ $(el) -gt 500 ] && break
done
echo "elapsed $(el)"

## call 3
# session 53 call 3 (H200). Call 2 (H100): the two parts at 4 warps (on/r1/d2) gain
# at 520 (bf16 89.4 -> 95.1, log-softmax 86.2 -> 94.3, fp16 alike) and in bf16
# log-softmax at 1040 (87.0 -> 91.4), and lose elsewhere (softmax 1040 95.3 -> 89.1, 1536
# 100.3 -> 95.5); r1/d1 and r2/d1 lose more, and the small tile on padded rows loses at
# 1040 / 1536 (80.4 / 93.9). Here the padded tile, r1/d2 and r1/d1 on the H200, narrow
# rows (136, 264: blocks of 256 / 512) too, fp32 beside.
source benchmarks/tuning/experiment_env.sh
export PYTHONPATH=$root
start=$(date +%s); el() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
M=kernels_triton.softmax_fused
f=$out/plain_tail3_fwd_${tag}_$rev.txt; : > $f
for cfg in off/1/2 on/1/2 on/1/1 off/1/2; do
  IFS=/ read on rf wd <<< "$cfg"
  blocks=$([ $on = on ] && echo '{2:(32,65536),4:(32,65536)}' || echo '{}')
  for op in softmax log_softmax; do
    timeout 150 python3 benchmarks/tuning/tune.py --op $op --cols 136,264,520,1040,1100,1536,2080,4160 --dtype bf16,fp16,fp32 --impl triton/fused \
      --set "$M.FUSED_PLAIN_TAIL_BLOCKS=$blocks" --set $M.FUSED_PLAIN_TAIL_ROWS_FACTOR=$rf --set $M.FUSED_PLAIN_TAIL_WARPS_DIVISOR=$wd \
      --label "$on/r$rf/d$wd" 2>&1 | grep -v Warn | tee -a $f
  done
  echo "cfg $cfg $(el)"
  [ $(el) -gt 500 ] && break
done
echo "elapsed $(el)"

## call 4
