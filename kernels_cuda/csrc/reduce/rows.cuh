// Sum or max of each row. Rows up to kWarpRowMaxCols (vectorized: kWarpRowMaxPacks) get
// a group of 1-32 lanes each (a warp from 32 packs up, several rows per warp below:
// OneFlow's thread-group path; vectorized lanes take kUnroll packs each); wider rows get
// a block each. Both grids are persistent. Each reads cols per row and
// writes one value.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/math.cuh"
#include "common/packs.cuh"
#include "reduce/combine.cuh"
#include "reduce/plan.cuh"

namespace sk_reduce {

// ---------------------------------------------------------------------------------
// Launch constants
// ---------------------------------------------------------------------------------

// A warp per row up to this width (OneFlow's warp path ends at 1024 too): 32 fp32 values
// per lane at most, a single shuffle tree and no __syncthreads per row. Wider rows get a
// block each, so that more loads are in flight per row and the shuffle tree is amortised
// over more elements.
constexpr int64_t kWarpRowMaxCols = 1024;
// `vectorized` (auto) gives each lane of a row's group up to kUnroll packs, all loaded
// before any is added, so narrow rows keep as many bytes in flight per warp as wide ones
// (one 16-byte pack per lane, as OneFlow's groups take, left 128-column rows at 56% of
// copy on an H200: the warp's 512 bytes per step too few to cover DRAM latency), and
// keeps rows up to this many packs in a warp (two batches of kUnroll per lane: fp32 1024
// columns as before, 16-bit 2048, which a block per row served at 81%). H100, 1 GiB, %
// of copy (benchmarks/h100_2026-11-24/reduce_narrow_{0270d0e,7ac7684}.md): 128 columns
// fp32 / bf16 74-77 / 63-65 -> 100 / 96, bf16 256 61-63 -> 101, bf16 2048 95-96 -> 103.
constexpr int64_t kWarpRowMaxPacks = 32 * 2 * kUnroll;
// Warp-per-row blocks: 4 warps, i.e. 4 rows (or 128 / group rows) per block per step.
constexpr int kWarpRowThreads = 128;
// Block per row: about this many loads (packs) per thread per row; the block grows with
// the width from 128 to 1024 threads, so a wide row keeps 1024 threads busy.
constexpr int64_t kBlockRowPacksPerThread = 4;
constexpr int kBlockRowMinThreads = 128;

// ---------------------------------------------------------------------------------
// Kernels
// ---------------------------------------------------------------------------------

// Narrow rows: a group of `group` lanes per row (a power of two <= 32, as many lanes
// as the row has packs): a warp per row from 32 packs up, several rows per warp below
// (OneFlow's thread-group path). Grid: persistent; the block's groups take rows
// base, base + 1, ... and step by all the grid's groups. Whole blocks loop together
// (the shuffles need every lane), so a group past the last row only idles.
// Reads cols per row, writes one value.
template <typename T, typename Op, Method M, int N>
__global__ void __launch_bounds__(kMaxThreads)
reduce_rows_warp_kernel(const T* __restrict__ x, T* __restrict__ out, int64_t rows, int64_t cols,
                        int64_t row_stride, int group) {
  const int member = threadIdx.x & (group - 1);
  const int64_t groups_per_block = blockDim.x / group;
  const int64_t n_packs = cols / N;
  for (int64_t base = blockIdx.x * groups_per_block; base < rows; base += gridDim.x * groups_per_block) {
    const int64_t row = base + threadIdx.x / group;
    float v = Op::identity();
    if (row < rows) v = thread_reduce<T, N>(x + row * row_stride, n_packs, member, group, Op());
    v = group_combine<M>(v, Op(), group);
    if (member == 0 && row < rows) out[row] = sk::from_float<T>(v);
  }
}

// Wide rows: a block per row. Grid: persistent; block b takes rows b, b + gridDim.x, ...
template <typename T, typename Op, Method M, int N>
__global__ void __launch_bounds__(kMaxThreads)
reduce_rows_block_kernel(const T* __restrict__ x, T* __restrict__ out, int64_t rows, int64_t cols,
                         int64_t row_stride) {
  const int64_t n_packs = cols / N;
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    float v = thread_reduce<T, N>(x + row * row_stride, n_packs, threadIdx.x, blockDim.x, Op());
    v = block_combine<M>(v, Op());
    if (threadIdx.x == 0) out[row] = sk::from_float<T>(v);
  }
}

// ---------------------------------------------------------------------------------
// Plan
// ---------------------------------------------------------------------------------

inline Plan plan_rows(const Problem& p, int64_t variant, int sm_count) {
  Plan plan;
  plan.variant = resolve_variant(variant);
  plan.pack = pack_width(p, plan.variant);
  const int64_t resident_threads = sm_count * kMaxThreadsPerSm;
  int64_t units;
  const bool batched = plan.variant == Variant::vectorized;
  const int64_t packs = sk::ceil_div(p.cols, plan.pack);
  if (p.cols <= kWarpRowMaxCols || (batched && packs <= kWarpRowMaxPacks)) {
    // One lane per pack (vectorized: per kUnroll packs) up to a warp: narrower rows share
    // a warp.
    plan.group = std::min<int64_t>(32, sk::next_pow2(sk::ceil_div(packs, batched ? kUnroll : 1)));
    plan.threads = kWarpRowThreads;
    units = sk::ceil_div(p.rows, plan.threads / plan.group);  // rows one block takes per step
    plan.layout = Layout::warp_per_row;
  } else {
    const int64_t per_thread = plan.pack * kBlockRowPacksPerThread;
    plan.threads = std::min<int64_t>(kMaxThreads,
                                     std::max<int64_t>(kBlockRowMinThreads, sk::next_pow2(sk::ceil_div(p.cols, per_thread))));
    plan.group = plan.threads;
    units = p.rows;
    plan.layout = Layout::block_per_row;
  }
  plan.grid = std::max<int64_t>(1, std::min(units, resident_threads / plan.threads));
  return plan;
}

}  // namespace sk_reduce
