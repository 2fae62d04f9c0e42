// RegSlice: one thread's share of a row slice held in registers, the building block of
// the register-resident paths (cluster_regs, block_hybrid, and 16-bit warp_per_row rows
// of several packs per lane): load all its packs at once, reduce them to the thread's
// online pair, write the outputs.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "common/math.cuh"
#include "common/online.cuh"
#include "common/packs.cuh"

namespace sk {

// A thread's slice is at most this many packs: scalar packs (each in a register of its
// own, with its own address) would otherwise spill. So scalar fp32 packs hold 64 bytes
// per thread and scalar fp16/bf16 packs 32 (cluster_regs_max_bytes, hybrid_bytes).
constexpr int kRegsMaxLoads = 16;

// One thread's share of a row slice in registers (cluster_regs, block_hybrid, 16-bit
// warp_per_row): B bytes (C values of T, P packs of N, pack p from column (t + p * G) * N
// of the slice). fp32 values are overwritten in place with what the output pass needs;
// packed fp16/bf16 values stay as loaded (converting them would double their
// registers). Slots past the slice hold -inf.
template <typename T, int N, int B>
struct RegSlice {
  static constexpr int C = B / static_cast<int>(sizeof(T));  // values per thread
  static_assert(C % N == 0, "whole packs per thread");
  static constexpr int P = C / N;
  static constexpr bool kInPlace = sizeof(T) == sizeof(float);
  using Word = typename PackWord<sizeof(T) * N>::type;
  static constexpr int kWordsPerPack = Words<Word>::kCount;
  static constexpr bool kTwoPerWord = N * sizeof(T) >= 4;
  using Slot = std::conditional_t<kInPlace, float, unsigned>;
  static constexpr int kSlots = kInPlace ? C : P * kWordsPerPack;

  Slot v[kSlots];
  float m;  // this thread's maximum (after reduce)

  // Value k of pack p (alt: the other instruction form, see half_word_to_float).
  __device__ __forceinline__ float value(int p, int k, bool alt) const {
    if constexpr (kInPlace) {
      return v[p * N + k];
    } else {
      const unsigned w = v[p * kWordsPerPack + k / 2];
      const bool hi = kTwoPerWord && (k & 1);
      return alt ? half_word_to_float<true>(w, hi, static_cast<T*>(nullptr))
                 : half_word_to_float<false>(w, hi, static_cast<T*>(nullptr));
    }
  }

  // Packs t, t + G, ... of the `local` packs at xr. All P loads are independent, so
  // they are issued back to back (P in flight) and nothing here waits for them.
  __device__ __forceinline__ void load(const T* xr, int t, int G, int local) {
#pragma unroll
    for (int p = 0; p < P; ++p) {
      const int i = t + p * G;
      if (i < local) {
        const Pack<T, N> q = load_pack<Cache::kNormal, T, N>(xr + i * N);
        if constexpr (kInPlace) {
#pragma unroll
          for (int k = 0; k < N; ++k) v[p * N + k] = q.v[k];
        } else {
          Words<Word>::split(*reinterpret_cast<const Word*>(&q), &v[p * kWordsPerPack]);
        }
      } else {
        if constexpr (kInPlace) {
#pragma unroll
          for (int k = 0; k < N; ++k) v[p * N + k] = -INFINITY;
        } else {
#pragma unroll
          for (int j = 0; j < kWordsPerPack; ++j) v[p * kWordsPerPack + j] = neg_inf_word<T>();
        }
      }
    }
  }

  // This thread's online pair (m, sum of exp(x - m)), m kept for write(). Exponents are
  // relative to the thread's own maximum; a thread that saw only -inf uses 0 instead
  // (its terms are then exp(-inf) = 0, its pair the empty (-inf, 0)). fp32 slots then
  // hold exp(x - m) (softmax) or x - m (log-softmax): both modes overwrite them, so the
  // compiler cannot keep the loaded values alive as well.
  __device__ __forceinline__ OnlinePair reduce(bool log) { return reduce_packs<false>(log, 0, 0, 0); }

  // As reduce(log), for the packs t, t + G, ... of `local` that load() read: the packs
  // past the slice (-inf, terms of 0) are skipped rather than summed. A CTA whose row
  // groups are rounded up to whole warps holds slots that no column fills (cluster_regs,
  // bf16 2080: 260 packs on 96 threads of four packs, 384 slots), and for 16-bit rows
  // each slot's exp is a quarter of the work per byte that fp32 rows do; warps whose
  // packs all lie past the slice branch over those exps. cluster_regs' forward, 1 GiB,
  // % of copy, `auto` before -> after, two rounds alike (benchmarks/h200_2026-11-28/
  // skip_compare_{h200_49d6625,h100_f6a1264}.txt): H200 softmax bf16 2080 / 2560 / 4160
  // 79.4 / 92.1 / 88.9 -> 83.2 / 93.4 / 90.4 (log-softmax 2080 87.4 -> 88.8), other
  // widths and fp32 within 0.3; H100 within 0.1. (Same registers for the aligned 16-bit
  // instance these rows take: 40.)
  __device__ __forceinline__ OnlinePair reduce(bool log, int t, int G, int local) {
    return reduce_packs<true>(log, t, G, local);
  }

 private:
  template <bool kSkipPast>
  __device__ __forceinline__ OnlinePair reduce_packs(bool log, int t, int G, int local) {
    m = -INFINITY;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if constexpr (!kInPlace) {
      // Packed max (max.NaN.bf16x2 / .f16x2); scalar packs use the low halves only.
      unsigned mw = v[0];
#pragma unroll
      for (int j = 1; j < kSlots; ++j) mw = max2_nan(mw, v[j], static_cast<T*>(nullptr));
      m = half_word_to_float(mw, false, static_cast<T*>(nullptr));
      if constexpr (kTwoPerWord) m = nan_max(m, half_word_to_float(mw, true, static_cast<T*>(nullptr)));
    } else
#endif
    {
#pragma unroll
      for (int p = 0; p < P; ++p) {
#pragma unroll
        for (int k = 0; k < N; ++k) m = nan_max(m, value(p, k, false));
      }
    }
    const bool empty = m == -INFINITY;
    const float shift = empty ? 0.0f : m;
    float d = 0.0f;
#pragma unroll
    for (int p = 0; p < P; ++p) {
      if (kSkipPast && t + p * G >= local) continue;
#pragma unroll
      for (int k = 0; k < N; ++k) {
        const float x = value(p, k, false);
        const float e = exp_term(x, shift);
        d += e;
        if constexpr (kInPlace) v[p * N + k] = log ? x - shift : e;
      }
    }
    return OnlinePair{m, d};
  }

 public:
  // The output of packs t, t + G, ... at yr, given the row's constants n.
  // fp32 softmax: exp(x - m_t) * exp(m_t - m) / d, where the factor is 0 for a thread
  // of only -inf (exp(-inf - m)) unless the row's maximum is -inf or NaN too: then
  // it is NaN, as every output of such a row must be. fp32 log-softmax:
  // ((x - m_t) + (m_t - m)) - log d, exactly (x - m) - log d in the thread that holds
  // the maximum; a row of only -inf gets -inf + inf = NaN.
  // kStore: kOutputStore (plain, one instruction per pack) unless the caller measured
  // otherwise.
  template <Cache kStore = kOutputStore>
  __device__ __forceinline__ void write(T* yr, int t, int G, int local, const RowNorm& n, bool log) const {
    const float shift = m == -INFINITY ? 0.0f : m;
    const float scale = log ? shift - n.m : exp_term(m, n.m) * n.c;
#pragma unroll
    for (int p = 0; p < P; ++p) {
      const int i = t + p * G;
      if (i < local) {
        float f[N];
#pragma unroll
        for (int k = 0; k < N; ++k) {
          const float x = value(p, k, true);
          if constexpr (kInPlace) {
            f[k] = log ? (x + scale) - n.c : x * scale;
          } else {
            f[k] = normalize(x, n, log);
          }
        }
        store_pack<kStore, T, N>(yr + i * N, pack_from_float<T, N>(f));
      }
    }
  }
};

}  // namespace sk
