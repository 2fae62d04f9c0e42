#!/usr/bin/env bash
# One device call of tuning experiments: CUDA source variants built side by side (the
# extension name hashes the sources, so each copy gets its own build), Triton constants
# overridden per run. Writes $OUT/tune.txt. The session behind h200_tuning_2026-11-21.txt,
# kept as it ran (the source lines it edits and the constants it overrides may have moved since).
set -uo pipefail
out=${OUT:-benchmarks/out}; mkdir -p "$out"
export PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
root=$PWD
COLS=${COLS:-128,512,1024,4096,16384,32768,65536}
variant_copy() {  # name, sed script
  rm -rf /tmp/$1; mkdir -p /tmp/$1; cp -r "$root"/comparison "$root"/kernels_cuda "$root"/kernels_triton /tmp/$1/
  sed -i "$2" /tmp/$1/kernels_cuda/csrc/softmax.cu
}
variant_copy oneshot 's/std::min<int64_t>(work_blocks, sm_count \* std::max(resident, 1))/std::min<int64_t>(work_blocks, int64_t{1} << 30)/; s/plan.f\[kFieldBlocks\] = k \* std::min<int64_t>(rows, active);/plan.f[kFieldBlocks] = k * std::min<int64_t>(rows, (int64_t{1} << 30) \/ k);/'
variant_copy slice32 's/std::min<int64_t>(work_blocks, sm_count \* std::max(resident, 1))/std::min<int64_t>(work_blocks, int64_t{1} << 30)/; s/plan.f\[kFieldBlocks\] = k \* std::min<int64_t>(rows, active);/plan.f[kFieldBlocks] = k * std::min<int64_t>(rows, (int64_t{1} << 30) \/ k);/; s/kClusterSliceTargetBytes = 64 \* 1024/kClusterSliceTargetBytes = 32 * 1024/'
grep -c "1} << 30" /tmp/oneshot/kernels_cuda/csrc/softmax.cu
(
for v in "$root" /tmp/oneshot /tmp/slice32; do
  PYTHONPATH=$v python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -3 &
done; wait
CI="cuda/auto,cuda/warp_per_row,cuda/block_smem,cuda/cluster_smem,cuda/online"
PYTHONPATH=$root python3 $root/benchmarks/tuning/tune.py --label base --cols $COLS --impl $CI
PYTHONPATH=/tmp/oneshot python3 $root/benchmarks/tuning/tune.py --label oneshot --cols $COLS --impl $CI
PYTHONPATH=/tmp/slice32 python3 $root/benchmarks/tuning/tune.py --label slice32 --cols 16384,32768,65536 --impl cuda/cluster_smem
TI="triton/fused,triton/online"
PYTHONPATH=$root python3 $root/benchmarks/tuning/tune.py --label tbase --cols $COLS --impl $TI
PYTHONPATH=$root python3 $root/benchmarks/tuning/tune.py --label tnopersist --cols $COLS --impl $TI --set 'kernels_triton.softmax._persistent_grid=lambda k, u, rb, r, l: (u, r)'
PYTHONPATH=$root python3 $root/benchmarks/tuning/tune.py --label ttile32k --cols 128,512,1024,4096 --impl triton/fused --set kernels_triton.softmax.FUSED_TILE_BYTES=32768
PYTHONPATH=$root python3 $root/benchmarks/tuning/tune.py --label tl2full --cols 32768,65536,131072 --impl triton/online --set kernels_triton.softmax.ONLINE_L2_FRACTION=1.0
PYTHONPATH=$root python3 $root/benchmarks/tuning/tune.py --label tl2quart --cols 32768,65536,131072 --impl triton/online --set kernels_triton.softmax.ONLINE_L2_FRACTION=0.25
) 2>&1 | tee "$out/tune.txt"
