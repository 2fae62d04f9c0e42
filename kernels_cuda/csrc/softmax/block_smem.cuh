// block_smem (OneFlow's shared-memory path). One block per row; while loading the row
// into dynamic shared memory (raw dtype: an fp16 row of twice the width fits) each
// thread keeps its online (max, sum); ONE block reduction of the pair; the output pass
// reads shared memory. One read and one write of global memory.
// Each thread reads back only the packs it stored, so no barrier guards the cache.
// Block size: the largest of 128..1024 that keeps as many blocks resident as 128
// threads do (occupancy_block). Grid: one block per row (one-shot).
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

// Elements one cached row of the backward takes in shared memory: the width rounded up
// to 16 bytes, so that dy's copy starts 16-byte aligned behind y's.
__host__ __device__ __forceinline__ int64_t backward_smem_cols(int64_t cols, int elem) {
  return round_up(cols, 16 / elem);
}

// ---------------------------------------------------------------------------------
// Forward kernel
// ---------------------------------------------------------------------------------

template <typename T, int N>
__global__ void __launch_bounds__(kMaxBlockThreads) softmax_block_smem_kernel(RowsArgs<T> a) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  T* cache = reinterpret_cast<T*>(smem_raw);
  const int packs = static_cast<int>(a.cols / N);  // the row fits in shared memory
  for (int64_t row = blockIdx.x; row < a.rows; row += gridDim.x) {
    const T* xr = a.x + row * a.x_stride;
    OnlinePair acc = scan_packs<Cache::kNormal, true, T, N>(xr, cache, packs);
    acc = block_allreduce(acc, OnlineMergeOp());
    const RowNorm n = make_row_norm(acc.m, acc.d, a.log);
    write_packs<Cache::kNormal, kOutputStore, T, N>(cache, a.y + row * a.cols, packs, n, a.log);
  }
}

// ---------------------------------------------------------------------------------
// Forward plan
// ---------------------------------------------------------------------------------

struct BlockSmemFamily {
  template <typename T, int N> static const void* get() {
    return reinterpret_cast<const void*>(&softmax_block_smem_kernel<T, N>);
  }
};

// A block per row with `smem` bytes of dynamic shared memory (forward: the row;
// backward: the rows of y and dy): OneFlow's block size for that, on a one-shot grid, or
// row_exceeds_smem past the opt-in limit.
inline Plan plan_smem_blocks(Plan plan, const Problem& p, const void* fn, int pack, int64_t smem) {
  plan.pack = pack;
  plan.smem_bytes = smem;
  plan.smem_limit = opt_in_smem(fn, p.device, false);
  const int threads = smem <= plan.smem_limit ? occupancy_block(fn, p.device, smem).first : 0;
  if (threads == 0) {
    plan.status = PlanStatus::row_exceeds_smem;
    return plan;
  }
  one_shot_grid(plan, p.device, fn, threads, plan_rows(p), smem);
  return plan;
}

template <typename T>
Plan plan_block_smem(const Problem& p) {
  constexpr int kElem = static_cast<int>(sizeof(T));
  const int pack = widest_pack<T>(p);
  return plan_smem_blocks(new_plan(Variant::block_smem), p, kernel_for_pack<BlockSmemFamily, T>(pack), pack,
                          round_up(std::max<int64_t>(p.cols, 1) * kElem, 16));
}

// ---------------------------------------------------------------------------------
// Backward kernel: the rows of y and dy cached in shared memory while each thread forms
// its part of the sum (2 x the row's bytes: fp32 rows up to ~28 K columns in 227 KB),
// ONE block reduction, the output pass from shared memory (each thread its own packs:
// no barrier). Two reads and one write of global memory.
// ---------------------------------------------------------------------------------

template <typename T, int N>
__global__ void __launch_bounds__(kMaxBlockThreads) softmax_backward_block_smem_kernel(GradArgs<T> a) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  const int packs = static_cast<int>(a.cols / N);  // the rows fit in shared memory
  T* ys = reinterpret_cast<T*>(smem_raw);
  T* gs = ys + backward_smem_cols(a.cols, static_cast<int>(sizeof(T)));
  for (int64_t row = blockIdx.x; row < a.rows; row += gridDim.x) {
    const T* yr = a.y + row * a.y_stride;
    const T* gr = a.dy + row * a.dy_stride;
    float s = grad_sum_packs<Cache::kNormal, true, T, N>(yr, gr, ys, gs, packs, a.log);
    s = block_allreduce(s, SumOp());
    grad_write_packs<Cache::kNormal, T, N>(ys, gs, a.dx + row * a.cols, packs, s, a.log);
  }
}

// ---------------------------------------------------------------------------------
// Backward plan
// ---------------------------------------------------------------------------------

struct BlockSmemBackwardFamily {
  template <typename T, int N> static const void* get() {
    return reinterpret_cast<const void*>(&softmax_backward_block_smem_kernel<T, N>);
  }
};

template <typename T>
Plan plan_block_smem_backward(const Problem& p) {
  constexpr int kElem = static_cast<int>(sizeof(T));
  const int pack = widest_pack<T>(p);
  return plan_smem_blocks(new_plan(Variant::block_smem), p, kernel_for_pack<BlockSmemBackwardFamily, T>(pack), pack,
                          2 * backward_smem_cols(std::max<int64_t>(p.cols, 1), kElem) * kElem);
}

}  // namespace softmax
}  // namespace sk
