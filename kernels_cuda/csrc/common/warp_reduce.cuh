// Warp-level reductions: shuffles over power-of-two lane groups (xor butterfly, down
// tree), the shared-memory tree that uses no shuffles, and the merge of the 32 lanes'
// online pairs.
#pragma once

#include <cuda_runtime.h>

#include <cmath>

#include "common/math.cuh"
#include "common/online.cuh"

namespace sk {

// ---------------------------------------------------------------------------------
// Warp shuffles. Every lane of the warp must call these (full mask); a "group" is a
// power-of-two run of `width` lanes that reduces on its own.
// ---------------------------------------------------------------------------------

template <typename T>
__device__ __forceinline__ T shfl_xor(T v, int lane_mask, int width) {
  return __shfl_xor_sync(kFullMask, v, lane_mask, width);
}
__device__ __forceinline__ OnlinePair shfl_xor(OnlinePair v, int lane_mask, int width) {
  return {__shfl_xor_sync(kFullMask, v.m, lane_mask, width),
          __shfl_xor_sync(kFullMask, v.d, lane_mask, width)};
}

template <typename T>
__device__ __forceinline__ T shfl_down(T v, unsigned delta, int width) {
  return __shfl_down_sync(kFullMask, v, delta, width);
}
__device__ __forceinline__ OnlinePair shfl_down(OnlinePair v, unsigned delta, int width) {
  return {__shfl_down_sync(kFullMask, v.m, delta, width),
          __shfl_down_sync(kFullMask, v.d, delta, width)};
}

// Butterfly over groups of `width` lanes (a power of two <= 32, known at run time):
// log2(width) steps, every lane of the group ends with the group's result.
template <typename T, typename Op>
__device__ __forceinline__ T warp_allreduce(T v, Op op, int width = 32) {
  for (int offset = width >> 1; offset > 0; offset >>= 1) v = op(v, shfl_xor(v, offset, width));
  return v;
}

// The same with the group width known at compile time (fully unrolled).
template <int kWidth, typename T, typename Op>
__device__ __forceinline__ T warp_allreduce_static(T v, Op op) {
  static_assert(kWidth >= 1 && kWidth <= 32 && (kWidth & (kWidth - 1)) == 0, "width: power of two <= 32");
#pragma unroll
  for (int offset = kWidth >> 1; offset > 0; offset >>= 1) v = op(v, shfl_xor(v, offset, kWidth));
  return v;
}

// Tree with __shfl_down_sync: only the first lane of each group holds the result
// (the other lanes hold partial values).
template <typename T, typename Op>
__device__ __forceinline__ T warp_reduce_down(T v, Op op, int width = 32) {
  for (int offset = width >> 1; offset > 0; offset >>= 1) v = op(v, shfl_down(v, offset, width));
  return v;
}

template <int kWidth, typename T, typename Op>
__device__ __forceinline__ T warp_reduce_down_static(T v, Op op) {
  static_assert(kWidth >= 1 && kWidth <= 32 && (kWidth & (kWidth - 1)) == 0, "width: power of two <= 32");
#pragma unroll
  for (int offset = kWidth >> 1; offset > 0; offset >>= 1) v = op(v, shfl_down(v, offset, kWidth));
  return v;
}

// Shared-memory tree inside each group of `width` lanes (a power of two <= 32), no
// shuffles: the baseline counterpart of warp_allreduce. `scratch` is this warp's 32
// slots (lane i uses scratch[i]). Every lane of the group gets the group's result.
// Synchronises with __syncwarp, so every lane of the warp must call it.
template <typename T, typename Op>
__device__ __forceinline__ T warp_reduce_tree(T v, Op op, T* scratch, int width = 32) {
  const int lane = threadIdx.x & 31;
  const int member = lane & (width - 1);
  scratch[lane] = v;
  __syncwarp();
  for (int active = width >> 1; active > 0; active >>= 1) {
    // Members [0, active) read slots [active, 2*active), which nobody writes this level.
    if (member < active) scratch[lane] = op(scratch[lane], scratch[lane + active]);
    __syncwarp();
  }
  const T out = scratch[lane - member];
  __syncwarp();  // the caller may reuse scratch right away
  return out;
}

// The merge of the 32 lanes' online pairs, in every lane (bitwise the same in each: the
// butterflies combine the same values in the same order): the warp maximum first, then
// each lane's sum rescaled to it once, then a plain sum. One exp per lane in all,
// instead of two exps and a branch per butterfly step (warp_allreduce of
// OnlineMergeOp). Special values as online_merge: lanes of only -inf ((-inf, 0)) add 0;
// if every lane saw only -inf the result is (-inf, 0); a NaN or +inf maximum makes the
// sum NaN (through the lane that holds it, whose d is NaN).
__device__ __forceinline__ OnlinePair warp_merge_pairs(OnlinePair v) {
  const float m = warp_allreduce_static<32>(v.m, MaxOp());
  const float scale = m == -INFINITY ? 0.0f : exp_term(v.m, m);
  return {m, warp_allreduce_static<32>(v.d * scale, SumOp())};
}

// The same over groups of `width` lanes (a power of two, known at run time): every lane
// gets its group's pair.
__device__ __forceinline__ OnlinePair group_merge_pairs(OnlinePair v, int width) {
  const float m = warp_allreduce(v.m, MaxOp(), width);
  const float scale = m == -INFINITY ? 0.0f : exp_term(v.m, m);
  return {m, warp_allreduce(v.d * scale, SumOp(), width)};
}

}  // namespace sk
