// How threads combine their partial results, in the four variants' ways: each thread
// over its share of the packs (thread_reduce), then a group of lanes or a block, by
// xor butterfly, down tree or shared-memory tree (Method).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "common/block_reduce.cuh"
#include "common/math.cuh"
#include "common/packs.cuh"
#include "common/row_scan.cuh"
#include "common/warp_reduce.cuh"
#include "reduce/plan.cuh"

namespace sk_reduce {

using sk::Cache;
using sk::Pack;

// Packs each thread loads before it adds any of them: four loads in flight per thread
// (64 bytes with 16-byte packs) to cover DRAM latency; also four independent fp32
// accumulators, which shortens the dependent-add chains of sums.
constexpr int kUnroll = 4;

// How a group of threads combines its per-thread values.
enum class Method { kXor, kDown, kTree };

// One thread's share of `n_packs` packs at `p`: packs first, first + step, ... (so
// consecutive threads read consecutive packs: coalesced). The input is read once, so
// loads are evict-first (ld.global.cs) and do not push reusable lines out of L2.
template <typename T, int N, typename Op>
__device__ __forceinline__ float thread_reduce(const T* __restrict__ p, int64_t n_packs,
                                               int64_t first, int64_t step, Op op) {
  float acc[kUnroll];
#pragma unroll
  for (int u = 0; u < kUnroll; ++u) acc[u] = Op::identity();
  sk::for_each_pack_batch<Cache::kStreaming, kUnroll, T, N>(p, first, step, n_packs, [&](int64_t i, const auto& v) {
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      if (i + u * step < n_packs) {
#pragma unroll
        for (int k = 0; k < N; ++k) acc[u] = op(acc[u], sk::to_float(v[u].v[k]));
      }
    }
  });
  float r = acc[0];
#pragma unroll
  for (int u = 1; u < kUnroll; ++u) r = op(r, acc[u]);
  return r;
}

// Shared scratch for the smem_tree method: one float per thread of the largest block.
// Only instantiated (and only allocated) by kernels that use Method::kTree.
__device__ __forceinline__ float* tree_scratch() {
  __shared__ float scratch[kMaxThreads];
  return scratch;
}

// The value of each group of `width` lanes (a power of two <= 32); valid in the group's
// first lane (kXor: in all of its lanes). Every lane of the warp must call it.
template <Method M, typename Op>
__device__ __forceinline__ float group_combine(float v, Op op, int width) {
  if constexpr (M == Method::kXor) {
    return sk::warp_allreduce(v, op, width);
  } else if constexpr (M == Method::kDown) {
    return sk::warp_reduce_down(v, op, width);
  } else {
    return sk::warp_reduce_tree(v, op, tree_scratch() + (threadIdx.x & ~31u), width);
  }
}

// A block's value; valid in thread 0. Each form ends with a barrier, so it can be
// called again (next row) right away.
template <Method M, typename Op>
__device__ __forceinline__ float block_combine(float v, Op op) {
  if constexpr (M == Method::kXor) {
    return sk::block_allreduce(v, op);
  } else if constexpr (M == Method::kDown) {
    return sk::block_reduce_down(v, op);
  } else {
    return sk::block_allreduce_tree(v, op, tree_scratch());
  }
}

}  // namespace sk_reduce
