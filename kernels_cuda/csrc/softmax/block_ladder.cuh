// The block-per-row ladder: smem_tree, coalesced and warp_shuffle. Scalar accesses,
// three passes over global memory (max, sum, output): 3 reads + 1 write per element.
// Grid: one block per row (one-shot).
//   smem_tree     (kCoalesced = false, kShuffle = false): thread t owns the contiguous
//                 chunk [t*chunk, (t+1)*chunk): a warp's 32 loads hit 32 different
//                 cache lines; reduction through a shared-memory tree.
//   coalesced     (true, false): element t, t+blockDim, ...: one line per warp load.
//   warp_shuffle  (true, true): the same with block_allreduce (shuffles, 2 barriers
//                 instead of log2(blockDim) + 1).
// All three are latency-bound on scalar loads and the three passes.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

#include "common/block_reduce.cuh"
#include "common/math.cuh"
#include "common/online.cuh"
#include "common/packs.cuh"
#include "softmax/geometry.cuh"

namespace sk {
namespace softmax {

// ---------------------------------------------------------------------------------
// Launch constants
// ---------------------------------------------------------------------------------

// The tree reduction halves the active threads per level: a power of two.
constexpr int kLadderThreads = 256;

// ---------------------------------------------------------------------------------
// Forward kernel
// ---------------------------------------------------------------------------------

template <typename T, bool kCoalesced, bool kShuffle>
__global__ void __launch_bounds__(kLadderThreads) softmax_ladder_kernel(RowsArgs<T> a) {
  __shared__ float scratch[kShuffle ? 1 : kLadderThreads];
  const int64_t cols = a.cols;
  int64_t begin, end, step;
  if constexpr (kCoalesced) {
    begin = threadIdx.x;
    end = cols;
    step = blockDim.x;
  } else {
    const int64_t chunk = ceil_div(cols, blockDim.x);
    begin = min(cols, threadIdx.x * chunk);
    end = min(cols, begin + chunk);
    step = 1;
  }
  auto reduce = [&](float v, auto op) {
    if constexpr (kShuffle) {
      return block_allreduce(v, op);
    } else {
      return block_allreduce_tree(v, op, scratch);
    }
  };
  for (int64_t row = blockIdx.x; row < a.rows; row += gridDim.x) {
    const T* xr = a.x + row * a.x_stride;
    T* yr = a.y + row * cols;
    float m = -INFINITY;
    for (int64_t c = begin; c < end; c += step) m = nan_max(m, to_float(xr[c]));
    m = reduce(m, MaxOp());
    float d = 0.0f;
    for (int64_t c = begin; c < end; c += step) d += exp_term(to_float(xr[c]), m);
    d = reduce(d, SumOp());
    const RowNorm n = make_row_norm(m, d, a.log);
    for (int64_t c = begin; c < end; c += step) yr[c] = from_float<T>(normalize(to_float(xr[c]), n, a.log));
  }
}

// ---------------------------------------------------------------------------------
// Forward plan
// ---------------------------------------------------------------------------------

template <typename T>
const void* ladder_kernel(int64_t variant) {
  switch (variant) {
    case Variant::smem_tree: return reinterpret_cast<const void*>(&softmax_ladder_kernel<T, false, false>);
    case Variant::coalesced: return reinterpret_cast<const void*>(&softmax_ladder_kernel<T, true, false>);
    default: return reinterpret_cast<const void*>(&softmax_ladder_kernel<T, true, true>);
  }
}

// `variant`: smem_tree, coalesced or warp_shuffle.
template <typename T>
Plan plan_block_ladder(const Problem& p, int64_t variant) {
  Plan plan = new_plan(variant);
  one_shot_grid(plan, p.device, ladder_kernel<T>(variant), kLadderThreads, plan_rows(p), 0);
  return plan;
}

}  // namespace softmax
}  // namespace sk
