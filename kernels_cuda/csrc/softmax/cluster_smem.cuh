// cluster_smem (sm_90+): a cluster of K CTAs (2..16) per row; CTA k caches packs
// [k*slice, (k+1)*slice) in its shared memory while accumulating its online pair, a
// block reduction gives the CTA's pair, and the K pairs are exchanged through
// distributed shared memory: after cluster.sync() every warp reads the K pairs
// (lane k from CTA k) and merges them with shuffles. Then each CTA writes its slice.
// One read and one write of global memory for rows up to 16 x 227 KB, and for
// mid-wide rows smaller CTAs, so more of them stay resident per SM.
// The pair slot is double-buffered by row parity, so one cluster barrier per row
// suffices: a CTA rewrites slot p two rows later, after the next barrier, which no
// peer passes before it has finished reading slot p. A final barrier keeps every
// CTA alive until its peers are done reading its shared memory.
// Grid: K CTAs per row (one-shot).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <cooperative_groups.h>

#include "common/block_reduce.cuh"
#include "common/cluster.cuh"
#include "common/online.cuh"
#include "common/packs.cuh"
#include "common/row_scan.cuh"
#include "common/warp_reduce.cuh"
#include "softmax/geometry.cuh"

namespace sk {
namespace softmax {

// ---------------------------------------------------------------------------------
// Launch constants
// ---------------------------------------------------------------------------------

// cluster_smem: the smallest cluster whose per-CTA slice is at most this many bytes, so
// that three or more CTAs stay resident per SM (228 KB per SM on H100) and one CTA's
// reduction and write phases overlap another's loads.
// 32 KB measured better than 64 KB on an H200 (fp32 65536: 86.4% vs 83.6% of copy
// bandwidth; bf16 65536: 81.4% vs 80.0%).
constexpr int64_t kClusterSliceTargetBytes = 32 * 1024;
constexpr int kMinClusterSize = 2;

// ---------------------------------------------------------------------------------
// Forward kernel
// ---------------------------------------------------------------------------------

template <typename T, int N>
__global__ void __launch_bounds__(kMaxBlockThreads) softmax_cluster_smem_kernel(RowsArgs<T> a) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
  namespace cg = cooperative_groups;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  __shared__ OnlinePair exchange[2];
  T* cache = reinterpret_cast<T*>(smem_raw);
  cg::cluster_group cluster = cg::this_cluster();
  const int k_ctas = static_cast<int>(cluster.num_blocks());
  const int rank = static_cast<int>(cluster.block_rank());
  const int lane = threadIdx.x & 31;
  const int packs = static_cast<int>(a.cols / N);  // at most 16 slices of shared memory
  const int first = min(packs, rank * a.slice_packs);
  const int local = min(packs, first + a.slice_packs) - first;
  const int64_t n_clusters = gridDim.x / k_ctas;
  int parity = 0;
  for (int64_t row = blockIdx.x / k_ctas; row < a.rows; row += n_clusters, parity ^= 1) {
    const T* xr = a.x + row * a.x_stride + static_cast<int64_t>(first) * N;
    OnlinePair acc = scan_packs<Cache::kNormal, true, T, N>(xr, cache, local);
    acc = block_allreduce(acc, OnlineMergeOp());
    if (threadIdx.x == 0) exchange[parity] = acc;
    cluster.sync();
    OnlinePair all = online_empty();
    if (lane < k_ctas) all = *cluster.map_shared_rank(&exchange[parity], lane);
    all = warp_allreduce_static<32>(all, OnlineMergeOp());
    const RowNorm n = make_row_norm(all.m, all.d, a.log);
    write_packs<Cache::kNormal, kOutputStore, T, N>(cache, a.y + row * a.cols + static_cast<int64_t>(first) * N,
                                                      local, n, a.log);
  }
  cluster.sync();
#endif
}

// ---------------------------------------------------------------------------------
// Forward plan
// ---------------------------------------------------------------------------------

struct ClusterSmemFamily {
  template <typename T, int N> static const void* get() {
    return reinterpret_cast<const void*>(&softmax_cluster_smem_kernel<T, N>);
  }
};

template <typename T>
Plan plan_cluster_smem(const Problem& p) {
  Plan plan = new_plan(Variant::cluster_smem);
  if (device_properties(p.device).major < kClusterMinMajor) {
    plan.status = PlanStatus::needs_sm90;
    return plan;
  }
  const int pack = widest_pack<T>(p);
  const void* fn = kernel_for_pack<ClusterSmemFamily, T>(pack);
  const int64_t limit = opt_in_smem(fn, p.device, true);
  plan.pack = pack;
  plan.smem_limit = limit;
  // Each CTA keeps its slice in one shared-memory buffer.
  if (place_in_cluster<T>(plan, p, fn, limit, kMinClusterSize, kClusterSliceTargetBytes, 1, 16)) {
    const int64_t k = plan.cluster_size;
    plan.blocks = k * std::min<int64_t>(plan_rows(p), kMaxGridBlocks / k);  // one-shot, as one_shot_grid
  }
  return plan;
}

}  // namespace softmax
}  // namespace sk
