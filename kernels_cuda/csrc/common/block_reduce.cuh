// Block-level reductions built on the warp reductions: every thread gets the result
// (two barriers), thread 0 gets it (the shfl_down form), the baseline shared-memory
// tree, and the merge of a row slice's online pairs with one barrier.
#pragma once

#include <cuda_runtime.h>

#include "common/online.cuh"
#include "common/warp_reduce.cuh"

namespace sk {

// ---------------------------------------------------------------------------------
// Block reductions: blockDim.x must be a multiple of 32 (at most 1024) and every
// thread of the block must call them. Op needs operator() and a static identity().
// ---------------------------------------------------------------------------------

// Every thread gets the result. Two barriers; safe to call back to back: a thread can
// only overwrite the per-warp slots after the second barrier of the previous call,
// which warp 0 passes only after it has read them.
template <typename T, typename Op>
__device__ __forceinline__ T block_allreduce(T v, Op op) {
  __shared__ T warp_vals[32];
  __shared__ T result;
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int n_warps = blockDim.x >> 5;
  v = warp_allreduce_static<32>(v, op);
  if (lane == 0) warp_vals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    T w = lane < n_warps ? warp_vals[lane] : Op::identity();
    w = warp_allreduce_static<32>(w, op);
    if (lane == 0) result = w;
  }
  __syncthreads();
  return result;
}

// Thread 0 gets the result (the __shfl_down_sync form). Ends with a barrier so that
// the next call cannot overwrite the per-warp slots before warp 0 has read them.
template <typename T, typename Op>
__device__ __forceinline__ T block_reduce_down(T v, Op op) {
  __shared__ T warp_vals[32];
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int n_warps = blockDim.x >> 5;
  v = warp_reduce_down_static<32>(v, op);
  if (lane == 0) warp_vals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < n_warps ? warp_vals[lane] : Op::identity();
    v = warp_reduce_down_static<32>(v, op);
  }
  __syncthreads();
  return v;
}

// The baseline: a shared-memory tree halving the active threads per level, with a
// barrier at each of the log2(blockDim.x) levels. blockDim.x must be a power of two and
// `scratch` must hold blockDim.x values. Every thread gets the result.
template <typename T, typename Op>
__device__ __forceinline__ T block_allreduce_tree(T v, Op op, T* scratch) {
  const int tid = threadIdx.x;
  scratch[tid] = v;
  __syncthreads();
  for (int active = blockDim.x >> 1; active > 0; active >>= 1) {
    if (tid < active) scratch[tid] = op(scratch[tid], scratch[tid + active]);
    __syncthreads();
  }
  const T out = scratch[0];
  __syncthreads();  // scratch is reused by the caller's next reduction
  return out;
}

// The pair of a row slice of G threads (G a multiple of 32, slice g of the CTA): warp
// butterflies, one pair per warp into warp_pairs, one barrier, then every warp merges
// the pairs of its slice's G / 32 warps (warp_merge_pairs: max, one rescale, sum,
// cheaper than a merge per butterfly step).
__device__ __forceinline__ OnlinePair slice_merge_pairs(OnlinePair acc, OnlinePair* warp_pairs, int g, int G) {
  const int lane = threadIdx.x & 31;
  acc = warp_merge_pairs(acc);
  if (lane == 0) warp_pairs[threadIdx.x >> 5] = acc;
  __syncthreads();
  const int group_warps = G >> 5;
  return warp_merge_pairs(lane < group_warps ? warp_pairs[g * group_warps + lane] : online_empty());
}

// The sum over the G threads of slice g of the CTA (G a multiple of 32; the backward's
// row sums, as slice_merge_pairs for the forward's pairs): warp butterflies, one value
// per warp into warp_sums, one barrier, every warp adds its slice's G / 32 warps.
__device__ __forceinline__ float slice_sum(float v, float* warp_sums, int g, int G) {
  const int lane = threadIdx.x & 31;
  v = warp_allreduce_static<32>(v, SumOp());
  if (lane == 0) warp_sums[threadIdx.x >> 5] = v;
  __syncthreads();
  const int group_warps = G >> 5;
  return warp_allreduce_static<32>(lane < group_warps ? warp_sums[g * group_warps + lane] : 0.0f, SumOp());
}

}  // namespace sk
