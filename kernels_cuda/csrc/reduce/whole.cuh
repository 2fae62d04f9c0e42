// Sum or max of a whole contiguous tensor, deterministic: a fixed grid of blocks that
// each write one fp32 partial, then one block that reduces the partials in a fixed
// order: the same bits every run, no floating-point atomics.
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

// Stage 1: 512-thread blocks, as many as stay resident (4 per SM: 2048 threads). Stage 2
// reduces the partials with one block of up to 1024 threads.
constexpr int kWholeThreads = 512;

// The largest grid plan_whole returns: the fp32 partials the caller allocates.
inline int64_t whole_max_grid(int sm_count) { return sm_count * kMaxThreadsPerSm / kWholeThreads; }

// ---------------------------------------------------------------------------------
// Kernels
// ---------------------------------------------------------------------------------

// Whole tensor, stage 1. Grid: fixed by the plan; the threads of all blocks stride
// over the packs together, each block writes one fp32 partial. The n % N elements
// after the last whole pack belong to block 0 (a fixed owner: deterministic).
template <typename T, typename Op, Method M, int N>
__global__ void __launch_bounds__(kMaxThreads)
reduce_partials_kernel(const T* __restrict__ x, float* __restrict__ partials, int64_t n) {
  const int64_t n_packs = n / N;
  float v = thread_reduce<T, N>(x, n_packs, sk::global_thread_index(), sk::global_thread_count(), Op());
  const int64_t tail = n - n_packs * N;
  if (blockIdx.x == 0 && threadIdx.x < tail) v = Op()(v, sk::to_float(x[n_packs * N + threadIdx.x]));
  v = block_combine<M>(v, Op());
  if (threadIdx.x == 0) partials[blockIdx.x] = v;
}

// Whole tensor, stage 2: one block; thread t folds partials t, t + blockDim.x, ... in
// that order, then the block combines them: the same order on every run.
template <typename T, typename Op, Method M>
__global__ void __launch_bounds__(kMaxThreads)
reduce_finish_kernel(const float* __restrict__ partials, T* __restrict__ out, int64_t n_partials) {
  float v = Op::identity();
  for (int64_t i = threadIdx.x; i < n_partials; i += blockDim.x) v = Op()(v, partials[i]);
  v = block_combine<M>(v, Op());
  if (threadIdx.x == 0) *out = sk::from_float<T>(v);
}

// ---------------------------------------------------------------------------------
// Plan
// ---------------------------------------------------------------------------------

inline Plan plan_whole(const Problem& p, int64_t variant, int sm_count) {
  Plan plan;
  plan.variant = resolve_variant(variant);
  plan.pack = pack_width(p, plan.variant);
  plan.layout = Layout::grid_then_one_block;
  plan.threads = kWholeThreads;
  plan.grid = std::max<int64_t>(1, std::min(sk::ceil_div(p.cols, plan.threads * plan.pack), whole_max_grid(sm_count)));
  plan.finish_threads = std::min<int64_t>(kMaxThreads, std::max<int64_t>(32, sk::next_pow2(plan.grid)));
  return plan;
}

}  // namespace sk_reduce
