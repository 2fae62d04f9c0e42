// The backward of softmax and log-softmax, per element and per thread: what each
// element adds to its row's sum, its output once the sum is known, and the two-tensor
// pack walkers and register slices that the backward kernels of every path share.
//
//   softmax:      s = sum(dy * y),  dx = y * (dy - s)
//   log-softmax:  s = sum(dy),      dx = dy - exp(y) * s
//
// Everything is fp32 whatever the I/O dtype (the chain rule evaluated in fp16/bf16 is
// what made the unfused torch-op gradient worse than torch's own). Special values
// follow the arithmetic, as torch's backward does: a NaN in y or dy makes the row's sum,
// and so the row, NaN; exp(-inf) = 0 leaves dx = dy where log-softmax's y is -inf.
// Padding slots hold +0 in y and dy, which adds nothing to either sum.
#pragma once

#include <cuda_runtime.h>

#include <cstring>
#include <type_traits>

#include "common/math.cuh"
#include "common/packs.cuh"

namespace sk {

__device__ __forceinline__ float grad_term(float y, float g, bool log) { return log ? g : y * g; }

// exp(y) for fp32 is expf (a few ulp at any |y|), not fast_exp2(y * log2e): rounding
// y * log2e scales the error by |y| ulps, and fp32 log-softmax outputs reach |y| ~ 100,
// where that put the gradient at 3x torch's own error. 16-bit values take fast_exp2: exp
// underflows below y = -104 (|t| < 150), so its error stays under 77 fp32 ulps of exp(y),
// 2^-17.7 relative, 1/100 of an fp16 ulp and 1/800 of a bf16 ulp of the term exp(y) * s.
// expf's range reduction is not free where an SM's phases run one after another: bf16
// log-softmax backward with it, H200, 1 GiB, block_hybrid's clusters, 196608 / 262144
// columns: 92.2 / 93.2% of copy against fp16's 101.1 / 100.9 (benchmarks/h200_2026-11-27/
// r1a_*); in the 64-register cluster_regs backward it also spilled (fp16, 36 bytes).
template <typename T>
__device__ __forceinline__ float grad_exp(float y) {
  if constexpr (sizeof(T) == 2) {
    return fast_exp2(y * kLog2e);
  } else {
    return expf(y);
  }
}

template <typename T>
__device__ __forceinline__ float grad_out(float y, float g, float s, bool log) {
  return log ? g - grad_exp<T>(y) * s : y * (g - s);
}

// ---------------------------------------------------------------------------------
// Block-strided walks over the packs of a row of y and dy (block_smem and
// block_uncached backward): each thread takes packs threadIdx.x, + blockDim.x, ...,
// kGradUnroll of each tensor per step, all loads issued before the first use.
// ---------------------------------------------------------------------------------

// Two tensors: kGradUnroll * 2 packs (64 bytes with 16-byte packs) in flight per
// thread, as many bytes as the forward walkers' four, in the registers a 1024-thread
// block allows (64 per thread, no spills; with 4 the smem kernels spill).
constexpr int kGradUnroll = 2;

// Packs base, base + step, ... (the kGradUnroll of them below `packs`) of y and g, every
// load issued before any value is used.
template <Cache kLoad, typename T, int N, typename I>
__device__ __forceinline__ void grad_load_packs(const T* y, const T* g, I base, I step, I packs,
                                                HeldPack<T, N> (&py)[kGradUnroll], HeldPack<T, N> (&pg)[kGradUnroll]) {
#pragma unroll
  for (int u = 0; u < kGradUnroll; ++u) {
    const I i = base + u * step;
    if (i < packs) {
      py[u] = load_held<kLoad, T, N>(y + i * N);
      pg[u] = load_held<kLoad, T, N>(g + i * N);
    }
  }
}

// This thread's part of the row's sum over packs [0, packs); with kToSmem the packs of
// both tensors are also copied to `ys` / `gs` (same offsets) for the output pass.
template <Cache kLoad, bool kToSmem, typename T, int N, typename I>
__device__ __forceinline__ float grad_sum_packs(const T* y, const T* g, T* ys, T* gs, I packs, bool log) {
  float s = 0.0f;
  const I step = blockDim.x;
  for (I base = threadIdx.x; base < packs; base += step * kGradUnroll) {
    HeldPack<T, N> py[kGradUnroll], pg[kGradUnroll];
    grad_load_packs<kLoad, T, N>(y, g, base, step, packs, py, pg);
#pragma unroll
    for (int u = 0; u < kGradUnroll; ++u) {
      const I i = base + u * step;
      if (i < packs) {
        if constexpr (kToSmem) {
          store_pack<Cache::kNormal, T, N>(ys + i * N, held_pack(py[u]));
          store_pack<Cache::kNormal, T, N>(gs + i * N, held_pack(pg[u]));
        }
#pragma unroll
        for (int k = 0; k < N; ++k) s += grad_term(held_value(py[u], k), held_value(pg[u], k), log);
      }
    }
  }
  return s;
}

// The output pass: dx[i] = grad_out(y[i], g[i], s) for this thread's packs (y and g in
// global or shared memory), dx stored as kStore says.
template <Cache kLoad, typename T, int N, Cache kStore = kOutputStore, typename I>
__device__ __forceinline__ void grad_write_packs(const T* y, const T* g, T* dx, I packs, float s, bool log) {
  const I step = blockDim.x;
  for (I base = threadIdx.x; base < packs; base += step * kGradUnroll) {
    HeldPack<T, N> py[kGradUnroll], pg[kGradUnroll];
    grad_load_packs<kLoad, T, N>(y, g, base, step, packs, py, pg);
#pragma unroll
    for (int u = 0; u < kGradUnroll; ++u) {
      const I i = base + u * step;
      if (i < packs) {
        float f[N];
#pragma unroll
        for (int k = 0; k < N; ++k) f[k] = grad_out<T>(held_value(py[u], k), held_value(pg[u], k), s, log);
        store_pack<kStore, T, N>(dx + i * N, pack_from_float<T, N>(f));
      }
    }
  }
}

// ---------------------------------------------------------------------------------
// GradSlice: one thread's share of a row slice of y and dy in registers (backward
// warp_per_row and cluster_regs): B bytes of each, as P packs of N, pack p from column
// (t + p * G) * N of the slice. Values stay in the 32-bit words they were loaded as
// (two 16-bit values per word; a 2-byte pack in the low half of one), converted on each
// use: as separate 16-bit registers they would double the count (and spill).
// ---------------------------------------------------------------------------------

__device__ __forceinline__ float word_value(unsigned w, bool hi, float*) { return __uint_as_float(w); }
__device__ __forceinline__ float word_value(unsigned w, bool hi, __nv_bfloat16*) {
  return half_word_to_float(w, hi, static_cast<__nv_bfloat16*>(nullptr));
}
__device__ __forceinline__ float word_value(unsigned w, bool hi, __half*) {
  return half_word_to_float(w, hi, static_cast<__half*>(nullptr));
}

template <typename T, int N, int B>
struct GradSlice {
  static constexpr int kPackBytes = N * static_cast<int>(sizeof(T));
  static constexpr int P = B / kPackBytes;
  static_assert(P >= 1 && P * kPackBytes == B, "whole packs per thread");
  static constexpr int W = kPackBytes >= 4 ? kPackBytes / 4 : 1;                        // words per pack
  static constexpr int kPerWord = kPackBytes >= 4 ? 4 / static_cast<int>(sizeof(T)) : 1;  // values per word
  unsigned y[P * W];
  unsigned g[P * W];

  __device__ __forceinline__ static void load_words(const T* src, unsigned* dst) {
    using Word = typename PackWord<kPackBytes>::type;
    const Word w = *reinterpret_cast<const Word*>(src);
    if constexpr (kPackBytes >= 4) {
      memcpy(dst, &w, sizeof(w));
    } else {
      dst[0] = w;
    }
  }

  // Pack i (this thread's p-th) of the `local` packs at r into `words` (y or g); +0 in
  // every dtype past them.
  __device__ __forceinline__ static void load_pack(const T* r, unsigned* words, int p, int i, int local) {
    if (i < local) {
      load_words(r + i * N, &words[p * W]);
    } else {
#pragma unroll
      for (int j = 0; j < W; ++j) words[p * W + j] = 0u;
    }
  }

  // Packs t, t + G, ... of the `local` packs at yr and gr: all 2P loads issued back to
  // back, nothing waits for them here.
  __device__ __forceinline__ void load(const T* yr, const T* gr, int t, int G, int local) {
#pragma unroll
    for (int p = 0; p < P; ++p) {
      load_pack(yr, y, p, t + p * G, local);
      load_pack(gr, g, p, t + p * G, local);
    }
  }

  // The same packs of one tensor at r into `words` (y or g): the log-softmax's sum needs
  // dy alone, so y's loads may be issued after it.
  __device__ __forceinline__ static void load_one(const T* r, unsigned* words, int t, int G, int local) {
#pragma unroll
    for (int p = 0; p < P; ++p) load_pack(r, words, p, t + p * G, local);
  }

  __device__ __forceinline__ static float value(const unsigned* words, int j, int h) {
    return word_value(words[j], h == 1, static_cast<T*>(nullptr));
  }

  // This thread's part of the row's sum (two chains: half the dependent adds).
  __device__ __forceinline__ float sum(bool log) const {
    float s0 = 0.0f, s1 = 0.0f;
#pragma unroll
    for (int j = 0; j < P * W; ++j) {
#pragma unroll
      for (int h = 0; h < kPerWord; ++h) {
        const float term = grad_term(value(y, j, h), value(g, j, h), log);
        if ((j * kPerWord + h) & 1) {
          s1 += term;
        } else {
          s0 += term;
        }
      }
    }
    return s0 + s1;
  }

  // dx of packs t, t + G, ... at xr, given the row's sum s.
  __device__ __forceinline__ void write(T* xr, int t, int G, int local, float s, bool log) const {
#pragma unroll
    for (int p = 0; p < P; ++p) {
      const int i = t + p * G;
      if (i < local) {
        float f[N];
#pragma unroll
        for (int k = 0; k < N; ++k) {
          const int j = p * W + k / kPerWord;
          f[k] = grad_out<T>(value(y, j, k % kPerWord), value(g, j, k % kPerWord), s, log);
        }
        store_pack<kOutputStore, T, N>(xr + i * N, pack_from_float<T, N>(f));
      }
    }
  }
};

}  // namespace sk
