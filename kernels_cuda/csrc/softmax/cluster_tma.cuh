// cluster_tma (sm_90+): persistent clusters of K CTAs (1..16), each cluster taking
// rows c, c + n_clusters, ...; CTA k owns packs [k*slice, (k+1)*slice) of every row.
// The slice of the NEXT row is requested before the current one is reduced: one
// thread issues a TMA bulk copy (cp.async.bulk, global -> shared memory) into the
// other of kTmaStages buffers, completing on that buffer's mbarrier. So while a CTA
// reduces, waits for its cluster's exchange and writes its output, its next input is
// already in flight: cluster_smem and cluster_regs (one-shot grids, synchronous
// loads) have nothing in flight while they wait for their slowest peer.
// The exchange is cluster_regs': each CTA sends its pair into slot [rank] of every
// peer and waits until its own K slots have landed (ClusterSlots); slots are double-
// buffered by row parity (a peer rewrites slot p two rows later, after this CTA sent
// its pair for the row between, which it does only after reading slot p).
// Bulk copies need 16-byte aligned addresses and sizes, i.e. 16-byte packs; 4- and
// 8-byte packs (misaligned views, odd widths) use cp.async per pack instead (same
// buffers and order), 2-byte packs a synchronous copy (no overlap).
// Grid: the resident clusters (cudaOccupancyMaxActiveClusters), at most one per row.
// Slower than the one-shot cluster_regs on an H200 (the prefetch does not buy back the
// wait for peers), so `auto` does not use it.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <cooperative_groups.h>

#include "common/async_copy.cuh"
#include "common/block_reduce.cuh"
#include "common/cluster.cuh"
#include "common/online.cuh"
#include "common/packs.cuh"
#include "common/row_scan.cuh"
#include "softmax/geometry.cuh"

namespace sk {
namespace softmax {

// ---------------------------------------------------------------------------------
// Launch constants
// ---------------------------------------------------------------------------------

// cluster_tma: slices of at most this many bytes (the smallest cluster, 1..16 CTAs, that
// gets there), each CTA holding kTmaStages of them in shared memory: one being reduced
// and written while the next row's slice arrives. 32 KB x 2 stages = 64 KB per CTA,
// three CTAs per SM.
constexpr int64_t kTmaSliceTargetBytes = 32 * 1024;
constexpr int kTmaStages = 2;
// 16-byte packs: one TMA bulk copy per slice (true) or cp.async per pack (false, as
// 4- and 8-byte packs always do).
constexpr bool kTmaBulk = true;

// ---------------------------------------------------------------------------------
// Forward kernel
// ---------------------------------------------------------------------------------

template <typename T, int N>
__global__ void __launch_bounds__(kMaxBlockThreads) softmax_cluster_tma_kernel(RowsArgs<T> a) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
  constexpr int kPackBytes = N * static_cast<int>(sizeof(T));
  constexpr bool kBulk = kTmaBulk && kPackBytes == 16;
  constexpr bool kAsync = !kBulk && kPackBytes >= 4;
  namespace cg = cooperative_groups;
  extern __shared__ __align__(kTmaBufferAlign) unsigned char smem_raw[];
  __shared__ __align__(8) uint64_t full[kTmaStages];
  __shared__ ClusterSlots<OnlinePair> exchange[2];  // by row parity
  cg::cluster_group cluster = cg::this_cluster();
  const int k_ctas = static_cast<int>(cluster.num_blocks());
  const int rank = static_cast<int>(cluster.block_rank());
  const int packs = static_cast<int>(a.cols / N);  // at most 16 slices of shared memory
  const int first = min(packs, rank * a.slice_packs);
  const int local = min(packs, first + a.slice_packs) - first;
  const uint32_t slice_bytes = static_cast<uint32_t>(local) * N * sizeof(T);
  const int64_t stage_bytes = round_up(static_cast<int64_t>(a.slice_packs) * N * sizeof(T), kTmaBufferAlign);
  auto buffer = [&](int s) { return reinterpret_cast<T*>(smem_raw + s * stage_bytes); };
  const int64_t n_clusters = gridDim.x / k_ctas;
  const int64_t first_row = blockIdx.x / k_ctas;

  if (threadIdx.x == 0) {
#pragma unroll
    for (int s = 0; s < kTmaStages; ++s) mbarrier_init(&full[s], 1);
    // Make the initialised barriers visible to the async proxy (the bulk copies).
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();
  // Peers send into our exchange slots only after waiting on this arrival, i.e. once
  // this CTA runs (its shared memory exists only then); waited on before the first send.
  if (k_ctas > 1) cluster_slots_init(exchange, 2);

  // Requests this CTA's slice of `row` into buffer s. Bulk: one thread, asynchronous,
  // completing on full[s]. Otherwise every thread copies synchronously (the caller's
  // next __syncthreads makes it visible).
  auto request = [&](int64_t row, int s) {
    const T* src = a.x + row * a.x_stride + static_cast<int64_t>(first) * N;
    if constexpr (kBulk) {
      if (threadIdx.x == 0 && slice_bytes > 0) {
        // Order this CTA's earlier reads of the buffer (generic proxy) before the copy.
        asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
        mbarrier_arrive_expect_tx(&full[s], slice_bytes);
        bulk_copy_to_shared(buffer(s), src, slice_bytes, &full[s]);
      }
    } else {
      copy_own_packs_to_shared<T, N>(buffer(s), src, local);
    }
  };

#pragma unroll
  for (int s = 0; s + 1 < kTmaStages; ++s) {
    const int64_t row = first_row + s * n_clusters;
    if (row < a.rows) request(row, s);
    // One commit group per stage, empty or not, so that wait_group counts rows.
    if constexpr (kAsync) asm volatile("cp.async.commit_group;\n" ::: "memory");
  }
  int it = 0;
  for (int64_t row = first_row; row < a.rows; row += n_clusters, ++it) {
    const int s = it % kTmaStages;
    const int parity = it & 1;
    // This thread's asynchronous copies of the current row have landed (the only group
    // in flight with two stages; with more, all but the newest kTmaStages - 2).
    if constexpr (kAsync) asm volatile("cp.async.wait_group %0;\n" ::"n"(kTmaStages - 2) : "memory");
    // Every thread is done with the buffer that the request below overwrites (it held
    // the previous row), and every thread's copies into the current one are complete.
    __syncthreads();
    const int64_t ahead = row + (kTmaStages - 1) * n_clusters;
    if (ahead < a.rows) request(ahead, (it + kTmaStages - 1) % kTmaStages);
    if constexpr (kAsync) asm volatile("cp.async.commit_group;\n" ::: "memory");
    if constexpr (kBulk) {
      if (slice_bytes > 0) mbarrier_wait_parity(&full[s], static_cast<uint32_t>((it / kTmaStages) & 1));
    }
    OnlinePair acc = scan_packs<Cache::kNormal, false, T, N>(buffer(s), static_cast<T*>(nullptr), local);
    acc = block_allreduce(acc, OnlineMergeOp());
    if (k_ctas > 1) {
      if (it == 0) cluster_wait();
      acc = cluster_merge_pairs(exchange[parity], acc, cluster_slots_phase(it), k_ctas, rank);
    }
    const RowNorm n = make_row_norm(acc.m, acc.d, a.log);
    write_packs<Cache::kNormal, kOutputStore, T, N>(
        buffer(s), a.y + row * a.cols + static_cast<int64_t>(first) * N, local, n, a.log);
  }
  // No final cluster barrier: every send into this CTA's slots has landed (it waited for
  // them), and it never reads a peer's shared memory. (The grid has at most one cluster
  // per row, so every CTA loops at least once and its arrival is waited on.)
#endif
}

// ---------------------------------------------------------------------------------
// Forward plan
// ---------------------------------------------------------------------------------

struct ClusterTmaFamily {
  template <typename T, int N> static const void* get() {
    return reinterpret_cast<const void*>(&softmax_cluster_tma_kernel<T, N>);
  }
};

template <typename T>
Plan plan_cluster_tma(const Problem& p) {
  Plan plan = new_plan(Variant::cluster_tma);
  if (device_properties(p.device).major < kClusterMinMajor) {
    plan.status = PlanStatus::needs_sm90;
    return plan;
  }
  const int pack = widest_pack<T>(p);
  const void* fn = kernel_for_pack<ClusterTmaFamily, T>(pack);
  const int64_t limit = opt_in_smem(fn, p.device, true);
  plan.pack = pack;
  plan.smem_limit = limit;
  // From one CTA (a plain block) up; kTmaStages buffers of the slice per CTA.
  if (place_in_cluster<T>(plan, p, fn, limit, 1, kTmaSliceTargetBytes, kTmaStages, kTmaBufferAlign)) {
    // Persistent: the resident clusters, but no more than there are rows (every CTA
    // must take a row, see the kernel).
    plan.blocks = plan.cluster_size * std::min<int64_t>(plan_rows(p), plan.active_clusters);
  }
  return plan;
}

}  // namespace softmax
}  // namespace sk
