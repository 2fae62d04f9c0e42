// The online normalizer of softmax: the (max, sum of exp) state of a partial row, its
// merges, and the per-row constants the output pass normalises with.
#pragma once

#include <cuda_runtime.h>

#include <cmath>

#include "common/math.cuh"

namespace sk {

// ---------------------------------------------------------------------------------
// Online normalizer (Milakov & Gimelshein): the state of a partial row is its maximum
// m and d = sum(exp(x - m)); two states merge as
//     m = max(m1, m2),  d = d1 * exp(m1 - m) + d2 * exp(m2 - m).
// The merge is associative, so threads, warps, blocks and clusters combine states in
// any order.
//
// exp is evaluated as fast_exp2(x * log2e - m_s) with m_s = m * log2e rounded once
// (scaled_max): one FMA and one MUFU.EX2 per element. Every exponent of a row uses the
// same m_s, so the rounding of m_s scales all terms by the same 2^delta and cancels in
// x / sum; partial sums stay consistent because m_s is always computed the same way
// (__fmul_rn is never contracted into a neighbouring add).
//
// Special values follow plain arithmetic, as torch does: a NaN or +inf anywhere makes
// d NaN; a row of only -inf ends as (-inf, 0) and its outputs become NaN. The state of
// a thread that saw no elements is (-inf, 0); merging two such states must give
// (-inf, 0), never the NaN that exp(-inf - -inf) would produce.
// ---------------------------------------------------------------------------------

struct OnlinePair {
  float m;  // running maximum
  float d;  // sum of exp(x - m)
};

__device__ __forceinline__ float scaled_max(float m) { return __fmul_rn(m, kLog2e); }

__device__ __forceinline__ OnlinePair online_empty() { return {-INFINITY, 0.0f}; }

__device__ __forceinline__ OnlinePair online_merge(OnlinePair a, OnlinePair b) {
  const float m = nan_max(a.m, b.m);
  // Both sides saw nothing but -inf (or nothing at all): their d are 0, keep (-inf, 0).
  if (m == -INFINITY) return {m, a.d + b.d};
  const float ms = scaled_max(m);
  return {m, a.d * fast_exp2(scaled_max(a.m) - ms) + b.d * fast_exp2(scaled_max(b.m) - ms)};
}

// Folds a batch of values into a state with one rescale for the whole batch (not one
// per value). `batch_max` is the batch's maximum (nan_max; -inf for an empty batch) and
// sum_exp(ms) must return the batch's sum of exp2(fma(x, kLog2e, -ms)). Taking a functor
// lets callers keep the batch in its raw (packed fp16/bf16) form, converting on the fly.
template <typename SumExp>
__device__ __forceinline__ OnlinePair online_accumulate(OnlinePair acc, float batch_max, SumExp&& sum_exp) {
  const float m = nan_max(acc.m, batch_max);
  if (m == -INFINITY) return acc;  // only -inf so far: exp(-inf - -inf) would be NaN
  const float ms = scaled_max(m);
  return {m, acc.d * fast_exp2(scaled_max(acc.m) - ms) + sum_exp(ms)};
}

// The same for K values in registers; slots with nothing to add hold -inf.
template <int K>
__device__ __forceinline__ OnlinePair online_accumulate(OnlinePair acc, const float (&v)[K]) {
  float batch_max = v[0];
#pragma unroll
  for (int k = 1; k < K; ++k) batch_max = nan_max(batch_max, v[k]);
  return online_accumulate(acc, batch_max, [&](float ms) {
    float d = 0.0f;
#pragma unroll
    for (int k = 0; k < K; ++k) d += fast_exp2(fmaf(v[k], kLog2e, -ms));
    return d;
  });
}

struct OnlineMergeOp {
  __device__ __forceinline__ OnlinePair operator()(OnlinePair a, OnlinePair b) const {
    return online_merge(a, b);
  }
  __device__ __forceinline__ static OnlinePair identity() { return online_empty(); }
};

// ---------------------------------------------------------------------------------
// The output pass. Every kernel computes, per row, m = max(x), d = sum(exp(x - m)) and
// then
//     softmax:      exp(x - m) * (1 / d)            (one reciprocal per row)
//     log-softmax:  (x - m) - log(d)
// in fp32 whatever the I/O dtype. Log-softmax subtracts m itself and corrects log(d)
// for the rounding of m_s, so outputs near 0 keep full precision even for |x| ~ 1e4.
// ---------------------------------------------------------------------------------

// Per-row constants of the output pass.
struct RowNorm {
  float m;   // row maximum
  float ms;  // scaled_max(m)
  float c;   // softmax: 1 / d; log-softmax: log(sum(exp(x - m)))
};

__device__ __forceinline__ RowNorm make_row_norm(float m, float d, bool log) {
  RowNorm n;
  n.m = m;
  n.ms = scaled_max(m);
  if (log) {
    // d = 2^delta * sum(exp(x - m)) with delta = m*log2e - m_s (exact with an FMA).
    n.c = logf(d) - fmaf(m, kLog2e, -n.ms) * kLn2;
  } else {
    n.c = 1.0f / d;
  }
  return n;
}

__device__ __forceinline__ float exp_term(float x, float ms) { return fast_exp2(fmaf(x, kLog2e, -ms)); }

__device__ __forceinline__ float normalize(float x, const RowNorm& n, bool log) {
  return log ? (x - n.m) - n.c : exp_term(x, n.ms) * n.c;
}

}  // namespace sk
