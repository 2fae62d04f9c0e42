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
