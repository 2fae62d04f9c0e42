// naive: one thread per output element; each re-reads its whole row for the max and
// again for the sum (quadratic traffic, served from L1/L2 after the first thread):
// cols x 2 reads + 1 write per element. It exists to show why reductions matter.
// Grid: one thread per element (one-shot; the grid-stride loop covers grids past 2^30
// blocks).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "common/math.cuh"
#include "common/online.cuh"
#include "common/packs.cuh"
#include "softmax/geometry.cuh"

namespace sk {
namespace softmax {

// ---------------------------------------------------------------------------------
// Launch constants
// ---------------------------------------------------------------------------------

constexpr int kNaiveThreads = 256;
// naive re-reads its row once per output element; beyond this width a 1 GiB input takes
// minutes, so the variant refuses.
constexpr int64_t kNaiveMaxCols = 4096;

// ---------------------------------------------------------------------------------
// Forward kernel
// ---------------------------------------------------------------------------------

template <typename T>
__global__ void __launch_bounds__(kNaiveThreads) softmax_naive_kernel(RowsArgs<T> a) {
  const int64_t total = a.rows * a.cols;
  for (int64_t i = global_thread_index(); i < total; i += global_thread_count()) {
    const int64_t row = i / a.cols;
    const int64_t col = i - row * a.cols;
    const T* xr = a.x + row * a.x_stride;
    float m = -INFINITY;
    for (int64_t j = 0; j < a.cols; ++j) m = nan_max(m, to_float(xr[j]));
    // Compensated (Kahan) summation: a plain fp32 chain over thousands of terms drifts
    // past the fp32 tolerance (its error grows with the chain length, and the row's
    // largest term, exp(0) = 1, sets the rounding step of every later add). Without
    // fast-math nvcc keeps the compensation. The traffic stays naive.
    float d = 0.0f;
    float lost = 0.0f;
    for (int64_t j = 0; j < a.cols; ++j) {
      const float term = exp_term(to_float(xr[j]), m) - lost;
      const float next = d + term;
      lost = (next - d) - term;
      d = next;
    }
    const RowNorm n = make_row_norm(m, d, a.log);
    a.y[i] = from_float<T>(normalize(to_float(xr[col]), n, a.log));
  }
}

// ---------------------------------------------------------------------------------
// Forward plan
// ---------------------------------------------------------------------------------

template <typename T>
Plan plan_naive(const Problem& p) {
  Plan plan = new_plan(Variant::naive);
  if (p.cols > kNaiveMaxCols) {
    plan.status = PlanStatus::too_wide_for_naive;
    return plan;
  }
  one_shot_grid(plan, p.device, reinterpret_cast<const void*>(&softmax_naive_kernel<T>), kNaiveThreads,
                ceil_div(plan_rows(p) * std::max<int64_t>(p.cols, 1), kNaiveThreads), 0);
  return plan;
}

}  // namespace softmax
}  // namespace sk
