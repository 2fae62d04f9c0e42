// Scalar arithmetic every kernel shares: 64-bit index helpers, the NaN-propagating max,
// the one-instruction exp2, and the sum / max operators of the reductions.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

namespace sk {

// ---------------------------------------------------------------------------------
// 64-bit index helpers. Row offsets are row * stride in int64_t: tensors beyond 2^31
// elements are routine (a 1 GiB fp16 input alone has 2^29).
// ---------------------------------------------------------------------------------

__host__ __device__ __forceinline__ int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
__host__ __device__ __forceinline__ int64_t round_up(int64_t a, int64_t b) { return ceil_div(a, b) * b; }

// Smallest power of two >= v (v >= 1).
__host__ __device__ __forceinline__ int64_t next_pow2(int64_t v) {
  int64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

__device__ __forceinline__ int64_t global_thread_index() {
  return static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}

__device__ __forceinline__ int64_t global_thread_count() {
  return static_cast<int64_t>(gridDim.x) * blockDim.x;
}

// ---------------------------------------------------------------------------------
// Reduction operators
// ---------------------------------------------------------------------------------

constexpr unsigned kFullMask = 0xffffffffu;
constexpr float kLog2e = 1.4426950408889634f;

// max that propagates NaN (fmaxf drops it): a row holding NaN must reduce to NaN, as
// torch.amax and torch.softmax do. One FMNMX.NAN on sm_80+, three instructions before.
__device__ __forceinline__ float nan_max(float a, float b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  float r;
  asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
#else
  return (a != a || a > b) ? a : b;
#endif
}

// 2^x with one MUFU.EX2 (ex2.approx.ftz: relative error ~2^-22). Results below 2^-126
// flush to zero; exp2f would add a range check and two multiplies to keep them, and no
// softmax term that small changes an fp32 sum or exceeds any output tolerance.
// 2^-inf = 0, 2^NaN = NaN, 2^+inf = +inf, as the special-value rules need.
__device__ __forceinline__ float fast_exp2(float x) {
  float r;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}

struct SumOp {
  __device__ __forceinline__ float operator()(float a, float b) const { return a + b; }
  __device__ __forceinline__ static float identity() { return 0.0f; }
};

struct MaxOp {
  __device__ __forceinline__ float operator()(float a, float b) const { return nan_max(a, b); }
  __device__ __forceinline__ static float identity() { return -INFINITY; }
};

}  // namespace sk
