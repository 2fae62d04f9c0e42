// Thread-block clusters (sm_90+): the split cluster barrier and the exchange of the
// CTAs' online pairs (forward) and row sums (backward) through distributed shared memory.
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "common/online.cuh"
#include "common/warp_reduce.cuh"

namespace sk {

// Clusters, distributed shared memory and TMA bulk copies need compute capability 9.0.
constexpr int kClusterMinMajor = 9;
constexpr int kMaxClusterSize = 16;  // non-portable: needs cudaFuncAttributeNonPortableClusterSizeAllowed

#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
__device__ __forceinline__ void cluster_arrive_release() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void cluster_wait() { asm volatile("barrier.cluster.wait.aligned;\n" ::: "memory"); }

// The cluster's merged pair, from this CTA's `acc`: thread j stores it into slot [rank]
// of CTA j's `slots` (map_shared_rank), one cluster barrier (release/acquire) publishes
// them, and every warp merges the K local slots. Every store into a CTA's slots comes
// before a barrier it passes, so no CTA needs its peers after the call returns.
__device__ __forceinline__ OnlinePair cluster_merge_pairs(cooperative_groups::cluster_group& cluster,
                                                          OnlinePair* slots, OnlinePair acc) {
  const int k_ctas = static_cast<int>(cluster.num_blocks());
  if (static_cast<int>(threadIdx.x) < k_ctas) {
    *cluster.map_shared_rank(&slots[cluster.block_rank()], static_cast<int>(threadIdx.x)) = acc;
  }
  cluster.sync();
  const int lane = threadIdx.x & 31;
  return warp_merge_pairs(lane < k_ctas ? slots[lane] : online_empty());
}

// The cluster's total of every CTA's `v` (the backward's row sums), exchanged the same
// way: slot [rank] of every peer, one cluster barrier, every warp adds the K slots.
__device__ __forceinline__ float cluster_sum(cooperative_groups::cluster_group& cluster, float* slots, float v) {
  const int k_ctas = static_cast<int>(cluster.num_blocks());
  if (static_cast<int>(threadIdx.x) < k_ctas) {
    *cluster.map_shared_rank(&slots[cluster.block_rank()], static_cast<int>(threadIdx.x)) = v;
  }
  cluster.sync();
  const int lane = threadIdx.x & 31;
  return warp_allreduce_static<32>(lane < k_ctas ? slots[lane] : 0.0f, SumOp());
}
#endif

}  // namespace sk
