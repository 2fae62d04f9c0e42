// The block-strided pack walkers of the block-per-row kernels: each thread visits packs
// threadIdx.x, + blockDim.x, ... of a row (coalesced), kScanUnroll packs per step so that
// kScanUnroll loads are in flight at once, and either folds them into its online pair
// (optionally copying them to shared memory), its max, its sum of exp, or writes their
// outputs. I is the in-row index type: int where the row fits in shared memory (fewer
// registers, more resident blocks), int64_t in the kernels that serve any width.
#pragma once

#include <cuda_runtime.h>

#include <cmath>

#include "common/math.cuh"
#include "common/online.cuh"
#include "common/packs.cuh"

namespace sk {

// Packs each thread loads before using the first: kScanUnroll * 16 bytes in flight per
// thread, enough to cover DRAM latency at half occupancy.
constexpr int kScanUnroll = 4;

// The walk every pass shares: this thread's packs first, first + step, ... of `packs`
// packs at src, kUnroll at a time. Each step issues its kUnroll loads before any is
// used, then hands them to use(base, p): p[u] is pack base + u * step where that is
// below `packs` (the other slots are unset). max_packs, sum_exp_packs and the
// reductions' thread_reduce walk with it.
template <Cache kLoad, int kUnroll, typename T, int N, typename I, typename Use>
__device__ __forceinline__ void for_each_pack_batch(const T* src, I first, I step, I packs, Use&& use) {
  for (I base = first; base < packs; base += step * kUnroll) {
    Pack<T, N> p[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const I i = base + u * step;
      if (i < packs) p[u] = load_pack<kLoad, T, N>(src + i * N);
    }
    use(base, p);
  }
}

// The maximum of the packs of a batch, as scan_packs folds them in: value by value, or,
// for 16-bit words (sm_80+), two values at a time (exact) and converted once at the end.
template <typename T, int N, bool kWords = kWordPacks<T, N>>
struct BatchMax {
  float m = -INFINITY;
  __device__ __forceinline__ void add(const HeldPack<T, N>& p) {
#pragma unroll
    for (int k = 0; k < N; ++k) m = nan_max(m, held_value(p, k));
  }
  __device__ __forceinline__ float value() const { return m; }
};
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
template <typename T, int N>
struct BatchMax<T, N, true> {
  unsigned w = neg_inf_word<T>();
  __device__ __forceinline__ void add(const PackWords<T, N>& p) {
#pragma unroll
    for (int j = 0; j < N / 2; ++j) w = max2_nan(w, p.w[j], static_cast<T*>(nullptr));
  }
  __device__ __forceinline__ float value() const {
    return nan_max(half_word_to_float(w, false, static_cast<T*>(nullptr)),
                   half_word_to_float(w, true, static_cast<T*>(nullptr)));
  }
};
#endif

// This thread's online (max, sum) over packs [0, packs) of `src`; with kToSmem the packs
// are also copied to `smem` (same offsets), so the output pass can read them from there.
// Only the raw packs stay live (converted for the sum, and for the max unless they are
// 16-bit words, whose max is taken two values at a time): the 16-byte fp16/bf16
// batches would otherwise need 32 more registers.
// It spells out the walk of for_each_pack_batch instead of calling it: through the
// walker ptxas orders the pair's initialisation differently (same registers, other
// SASS) in 48 of the kernels that scan with it, which were tuned as they are.
template <Cache kLoad, bool kToSmem, typename T, int N, typename I>
__device__ __forceinline__ OnlinePair scan_packs(const T* src, T* smem, I packs) {
  OnlinePair acc = online_empty();
  const I step = blockDim.x;
  for (I base = threadIdx.x; base < packs; base += step * kScanUnroll) {
    HeldPack<T, N> p[kScanUnroll];
#pragma unroll
    for (int u = 0; u < kScanUnroll; ++u) {
      const I i = base + u * step;
      if (i < packs) p[u] = load_held<kLoad, T, N>(src + i * N);
    }
    BatchMax<T, N> batch;
#pragma unroll
    for (int u = 0; u < kScanUnroll; ++u) {
      const I i = base + u * step;
      if (i < packs) {
        if constexpr (kToSmem) store_pack<Cache::kNormal, T, N>(smem + i * N, held_pack(p[u]));
        batch.add(p[u]);
      }
    }
    const float batch_max = batch.value();
    acc = online_accumulate(acc, batch_max, [&](float m) {
      float d = 0.0f;
#pragma unroll
      for (int u = 0; u < kScanUnroll; ++u) {
        if (base + u * step < packs) {
#pragma unroll
          for (int k = 0; k < N; ++k) d += exp_term(held_value(p[u], k), m);
        }
      }
      return d;
    });
  }
  return acc;
}

// This thread's max over packs [0, packs) of `src`.
template <Cache kLoad, typename T, int N, typename I>
__device__ __forceinline__ float max_packs(const T* src, I packs) {
  float m = -INFINITY;
  const I step = blockDim.x;
  for_each_pack_batch<kLoad, kScanUnroll, T, N>(src, static_cast<I>(threadIdx.x), step, packs, [&](I base, const auto& p) {
#pragma unroll
    for (int u = 0; u < kScanUnroll; ++u) {
      if (base + u * step < packs) {
#pragma unroll
        for (int k = 0; k < N; ++k) m = nan_max(m, to_float(p[u].v[k]));
      }
    }
  });
  return m;
}

// This thread's sum of exp(x - m) over packs [0, packs) of `src`, given the row max m.
template <Cache kLoad, typename T, int N, typename I>
__device__ __forceinline__ float sum_exp_packs(const T* src, I packs, float m) {
  float d = 0.0f;
  const I step = blockDim.x;
  for_each_pack_batch<kLoad, kScanUnroll, T, N>(src, static_cast<I>(threadIdx.x), step, packs, [&](I base, const auto& p) {
#pragma unroll
    for (int u = 0; u < kScanUnroll; ++u) {
      if (base + u * step < packs) {
#pragma unroll
        for (int k = 0; k < N; ++k) d += exp_term(to_float(p[u].v[k]), m);
      }
    }
  });
  return d;
}

// Output pass: dst[i] = normalize(src[i]) for this thread's packs (src global or shared).
// Its own walk too, not for_each_pack_batch: through the walker ptxas schedules
// cluster_smem's 1- and 2-element-pack instances differently (same registers).
// kWords: 16-bit packs held as words (HeldPack); block_uncached's 1024-thread bf16
// instance, which reads them from global memory, spilled 8 bytes so (sm_90, 64
// registers) and holds them as elements.
template <Cache kLoad, Cache kStore, typename T, int N, bool kWords = true, typename I>
__device__ __forceinline__ void write_packs(const T* src, T* dst, I packs, const RowNorm& n,
                                            bool log) {
  const I step = blockDim.x;
  for (I base = threadIdx.x; base < packs; base += step * kScanUnroll) {
    HeldPack<T, N, kWords> p[kScanUnroll];
#pragma unroll
    for (int u = 0; u < kScanUnroll; ++u) {
      const I i = base + u * step;
      if (i < packs) p[u] = load_held<kLoad, T, N, kWords>(src + i * N);
    }
#pragma unroll
    for (int u = 0; u < kScanUnroll; ++u) {
      const I i = base + u * step;
      if (i < packs) {
        float f[N];
#pragma unroll
        for (int k = 0; k < N; ++k) f[k] = held_value(p[u], k);
#pragma unroll
        for (int k = 0; k < N; ++k) f[k] = normalize(f[k], n, log);
        store_pack<kStore, T, N>(dst + i * N, pack_from_float<T, N>(f));
      }
    }
  }
}

}  // namespace sk
