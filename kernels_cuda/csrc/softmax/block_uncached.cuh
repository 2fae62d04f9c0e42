// block_uncached (OneFlow's fallback): one block per row, three vectorised passes over
// global memory (max, sum, output); any width: 3 reads + 1 write per element. The first
// two passes load with .cg (L2 only) and the last with .cs (evict first), outputs are
// stored .cs, so the lines the later passes re-read are the last to leave L2.
// online: the same with max and sum fused into one pass (online normalizer): two reads
// and one write. `auto` falls back to it when nothing on chip holds the row.
// Block size: enough threads for ~kPacksPerThread packs each, 128..1024. Grid: one
// block per row (one-shot).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "common/block_reduce.cuh"
#include "common/grad.cuh"
#include "common/online.cuh"
#include "common/packs.cuh"
#include "common/row_scan.cuh"
#include "softmax/geometry.cuh"

namespace sk {
namespace softmax {

// ---------------------------------------------------------------------------------
// Launch constants
// ---------------------------------------------------------------------------------

// block_uncached / online: block size so that each thread handles about this many packs
// per pass (more threads only add reduction cost; fewer leave too little in flight),
// halved while fewer than kMinResidentBlocks blocks fit per SM: with a single block the
// SM idles during the block's reductions. (Fewer, larger blocks also mean fewer rows in
// flight, so the online kernel's second read of a row is more likely to hit L2.)
constexpr int64_t kPacksPerThread = 8;
constexpr int kMinResidentBlocks = 2;

// ---------------------------------------------------------------------------------
// Forward kernels
// ---------------------------------------------------------------------------------

template <typename T, int N>
__global__ void __launch_bounds__(kMaxBlockThreads) softmax_block_uncached_kernel(RowsArgs<T> a) {
  const int64_t packs = a.cols / N;
  for (int64_t row = blockIdx.x; row < a.rows; row += gridDim.x) {
    const T* xr = a.x + row * a.x_stride;
    const float m = block_allreduce(max_packs<Cache::kGlobal, T, N>(xr, packs), MaxOp());
    const float d = block_allreduce(sum_exp_packs<Cache::kGlobal, T, N>(xr, packs, m), SumOp());
    const RowNorm n = make_row_norm(m, d, a.log);
    write_packs<Cache::kStreaming, kOutputStore, T, N, false>(xr, a.y + row * a.cols, packs, n, a.log);
  }
}

template <typename T, int N>
__global__ void __launch_bounds__(kMaxBlockThreads) softmax_online_kernel(RowsArgs<T> a) {
  const int64_t packs = a.cols / N;
  for (int64_t row = blockIdx.x; row < a.rows; row += gridDim.x) {
    const T* xr = a.x + row * a.x_stride;
    OnlinePair acc = scan_packs<Cache::kGlobal, false, T, N>(xr, nullptr, packs);
    acc = block_allreduce(acc, OnlineMergeOp());
    const RowNorm n = make_row_norm(acc.m, acc.d, a.log);
    write_packs<Cache::kStreaming, kOutputStore, T, N>(xr, a.y + row * a.cols, packs, n, a.log);
  }
}

// ---------------------------------------------------------------------------------
// Forward plan
// ---------------------------------------------------------------------------------

struct BlockUncachedFamily {
  template <typename T, int N> static const void* get() {
    return reinterpret_cast<const void*>(&softmax_block_uncached_kernel<T, N>);
  }
};
struct OnlineFamily {
  template <typename T, int N> static const void* get() {
    return reinterpret_cast<const void*>(&softmax_online_kernel<T, N>);
  }
};

// `variant`: block_uncached or online.
template <typename T>
Plan plan_block_uncached(const Problem& p, int64_t variant) {
  Plan plan = new_plan(variant);
  const int pack = widest_pack<T>(p);
  const void* fn = variant == Variant::online ? kernel_for_pack<OnlineFamily, T>(pack)
                                              : kernel_for_pack<BlockUncachedFamily, T>(pack);
  const int64_t packs = p.cols / pack;
  int threads = static_cast<int>(std::clamp<int64_t>(
      next_pow2(ceil_div(std::max<int64_t>(packs, 1), kPacksPerThread)), kMinBlockThreads, kMaxBlockThreads));
  while (threads > kMinBlockThreads && resident_blocks(fn, p.device, threads, 0) < kMinResidentBlocks) {
    threads >>= 1;
  }
  plan.pack = pack;
  one_shot_grid(plan, p.device, fn, threads, plan_rows(p), 0);
  return plan;
}

// ---------------------------------------------------------------------------------
// Backward kernel: any width. Pass 1 reads y and dy (.cg: L2 only) for the row's sum,
// one block reduction, pass 2 reads them again (.cs: the last use) and writes dx. Two
// to four reads and one write: the second read comes from L2 while the rows in flight
// fit it.
// ---------------------------------------------------------------------------------

template <typename T, int N>
__global__ void __launch_bounds__(kMaxBlockThreads) softmax_backward_block_uncached_kernel(GradArgs<T> a) {
  const int64_t packs = a.cols / N;
  for (int64_t row = blockIdx.x; row < a.rows; row += gridDim.x) {
    const T* yr = a.y + row * a.y_stride;
    const T* gr = a.dy + row * a.dy_stride;
    float s = grad_sum_packs<Cache::kGlobal, false, T, N>(yr, gr, static_cast<T*>(nullptr),
                                                           static_cast<T*>(nullptr), packs, a.log);
    s = block_allreduce(s, SumOp());
    grad_write_packs<Cache::kStreaming, T, N>(yr, gr, a.dx + row * a.cols, packs, s, a.log);
  }
}

// ---------------------------------------------------------------------------------
// Backward plan: the forward's block sizing
// ---------------------------------------------------------------------------------

struct BlockUncachedBackwardFamily {
  template <typename T, int N> static const void* get() {
    return reinterpret_cast<const void*>(&softmax_backward_block_uncached_kernel<T, N>);
  }
};

template <typename T>
Plan plan_block_uncached_backward(const Problem& p) {
  Plan plan = new_plan(Variant::block_uncached);
  const int pack = widest_pack<T>(p);
  const void* fn = kernel_for_pack<BlockUncachedBackwardFamily, T>(pack);
  const int64_t packs = p.cols / pack;
  int threads = static_cast<int>(std::clamp<int64_t>(
      next_pow2(ceil_div(std::max<int64_t>(packs, 1), kPacksPerThread)), kMinBlockThreads, kMaxBlockThreads));
  while (threads > kMinBlockThreads && resident_blocks(fn, p.device, threads, 0) < kMinResidentBlocks) {
    threads >>= 1;
  }
  plan.pack = pack;
  one_shot_grid(plan, p.device, fn, threads, plan_rows(p), 0);
  return plan;
}

}  // namespace softmax
}  // namespace sk
