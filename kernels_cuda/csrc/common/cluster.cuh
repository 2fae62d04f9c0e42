// Thread-block clusters (sm_90+): the split cluster barrier and the exchange of the
// CTAs' online pairs (forward) and row sums (backward) through distributed shared memory
// (ClusterSlots).
#pragma once

#include <cooperative_groups.h>
#include <cstddef>
#include <cuda_runtime.h>

#include "common/async_copy.cuh"
#include "common/online.cuh"
#include "common/warp_reduce.cuh"

namespace sk {

// Clusters, distributed shared memory and TMA bulk copies need compute capability 9.0.
constexpr int kClusterMinMajor = 9;
constexpr int kMaxClusterSize = 16;  // non-portable: needs cudaFuncAttributeNonPortableClusterSizeAllowed

#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
__device__ __forceinline__ void cluster_arrive_relaxed() {
  asm volatile("barrier.cluster.arrive.relaxed.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void cluster_wait() { asm volatile("barrier.cluster.wait.aligned;\n" ::: "memory"); }
// The CTAs in this CTA's cluster (1 without a cluster launch) and this CTA's rank there,
// read from their special registers at each use.
__device__ __forceinline__ int cluster_ctas() {
  unsigned k;
  asm volatile("mov.u32 %0, %%cluster_nctarank;\n" : "=r"(k));
  return static_cast<int>(k);
}
__device__ __forceinline__ int cluster_rank() {
  unsigned r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
  return static_cast<int>(r);
}
#endif

// One row's exchange between the K CTAs of a cluster: slot [r] receives CTA r's value
// (an online pair forward, a row sum backward) and `landed` counts the bytes that have
// arrived. Each CTA sends its value to every peer with st.async, which completes its
// bytes on the peer's mbarrier, and then waits on its own mbarrier alone: no cluster
// barrier per row. A cluster barrier (barrier.cluster.arrive.release, as
// cooperative_groups' cluster.sync() emits it) makes every thread of every CTA execute
// MEMBAR.ALL.GPU first: H200, bf16 262144 `block_hybrid` over 4 CTAs (Nsight Compute,
// benchmarks/h200_2026-11-26i/ncu_*), warps stalled on that membar about as often as
// on their loads (1.57 against 1.48 cycles per issued instruction), and not at all with
// these slots. 1 GiB, CUDA `auto`, % of copy, cluster barrier -> these slots (with
// block_hybrid's buffers on 128-byte boundaries, async_copy.cuh), softmax:
//   H200 (benchmarks/h200_2026-11-26i/comparisons.txt, call 5): forward bf16 262144 /
//     524288 81.1 / 78.9 -> 91.1 / 88.1, fp32 262144 / 524288 90.0 / 86.3 -> 92.8 / 89.2;
//     backward bf16 65536 93.4 -> 102.8 (cluster_regs);
//   H100 (benchmarks/h100_2026-11-26i/comparisons.txt): forward bf16 262144 / 524288
//     94.7 / 92.8 -> 98.5 / 97.8, fp32 95.9 / 92.9 -> 97.9 / 96.1; backward bf16 65536 /
//     131072 99.3 / 98.6 -> 102.0 / 102.3.
// Kernels that exchange at several rows keep two of these, by row parity (a peer
// rewrites slot [r] of one only after this CTA sent its value for the next row, which it
// does after reading the slots); the phase of each is then (row index / 2) & 1.
template <typename V>
struct ClusterSlots {
  alignas(8) V slot[kMaxClusterSize];
  uint64_t landed;
};
// The phase parity of the `it`-th row's use of slots [it & 1] of such a pair.
__host__ __device__ __forceinline__ uint32_t cluster_slots_phase(int it) {
  return static_cast<uint32_t>(it >> 1) & 1;
}

#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
// Before the first exchange: thread 0 initialises the `count` slots' mbarriers, and every
// thread arrives on the cluster barrier; the matching cluster_wait() goes right before the
// first exchange. Peers send into this CTA only after that wait, i.e. once its mbarriers
// exist (a CTA's shared memory exists only while it runs).
template <typename V>
__device__ __forceinline__ void cluster_slots_init(ClusterSlots<V>* slots, int count) {
  if (threadIdx.x == 0) {
    for (int i = 0; i < count; ++i) mbarrier_init(&slots[i].landed, 1);
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  cluster_arrive_relaxed();
}

// The shared::cluster address of `p` in CTA `to` of this cluster.
__device__ __forceinline__ uint32_t peer_smem_addr(const void* p, unsigned to) {
  uint32_t addr;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(addr) : "r"(smem_addr(p)), "r"(to));
  return addr;
}

// st.async of this CTA's `v` into slot [from] of CTA `to`'s `slots`, completing its
// bytes on that CTA's mbarrier (one mapa: the slot and the mbarrier share a base).
template <typename V>
__device__ __forceinline__ void send_to_peer(ClusterSlots<V>& slots, V v, int from, unsigned to) {
  const uint32_t base = peer_smem_addr(&slots, to);
  const uint32_t slot = base + from * static_cast<uint32_t>(sizeof(V));
  const uint32_t landed = base + static_cast<uint32_t>(offsetof(ClusterSlots<V>, landed));
  if constexpr (sizeof(V) == sizeof(float)) {
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.f32 [%0], %1, [%2];\n" ::"r"(slot), "f"(v),
                 "r"(landed)
                 : "memory");
  } else {
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.f32 [%0], {%1, %2}, [%3];\n" ::"r"(slot),
                 "f"(v.m), "f"(v.d), "r"(landed)
                 : "memory");
  }
}

// This CTA's `v` into slot [rank] of each of the k CTAs of its cluster; returns once all
// k slots of this CTA have landed (`phase`: the parity of this use of `slots`). The
// caller passes k and rank (cluster_ctas(), cluster_rank()) from wherever it holds them.
template <typename V>
__device__ __forceinline__ const V* cluster_gather(ClusterSlots<V>& slots, V v, uint32_t phase, int k, int rank) {
  if (threadIdx.x == 0) mbarrier_arrive_expect_tx(&slots.landed, static_cast<uint32_t>(k * sizeof(V)));
  if (static_cast<int>(threadIdx.x) < k) send_to_peer(slots, v, rank, threadIdx.x);
  mbarrier_wait_parity(&slots.landed, phase);
  return slots.slot;
}

// The cluster's merged pair, from this CTA's `acc`: every warp merges the k slots.
__device__ __forceinline__ OnlinePair cluster_merge_pairs(ClusterSlots<OnlinePair>& slots, OnlinePair acc,
                                                          uint32_t phase, int k, int rank) {
  const OnlinePair* all = cluster_gather(slots, acc, phase, k, rank);
  const int lane = threadIdx.x & 31;
  return warp_merge_pairs(lane < k ? all[lane] : online_empty());
}

// The cluster's total of every CTA's `v` (the backward's row sums).
__device__ __forceinline__ float cluster_sum(ClusterSlots<float>& slots, float v, uint32_t phase, int k, int rank) {
  const float* all = cluster_gather(slots, v, phase, k, rank);
  const int lane = threadIdx.x & 31;
  return warp_allreduce_static<32>(lane < k ? all[lane] : 0.0f, SumOp());
}
#endif

}  // namespace sk
