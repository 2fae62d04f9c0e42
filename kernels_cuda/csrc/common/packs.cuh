// Element types and packs: fp32 <-> fp16/bf16 conversions, the run-time dtype dispatch,
// Pack<T, N> (N elements moved by one load or store of up to 16 bytes) with its
// cache-hinted loads and stores, the widest pack an input's alignment allows, and the
// word-level helpers that keep 16-bit values packed two per register.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "common/dtypes.cuh"

namespace sk {

// ---------------------------------------------------------------------------------
// Element types. Arithmetic is always fp32; torch builds extensions with
// __CUDA_NO_HALF_CONVERSIONS__, so conversions are explicit.
// ---------------------------------------------------------------------------------

__device__ __forceinline__ float to_float(float v) { return v; }
__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }

template <typename T> __device__ __forceinline__ T from_float(float v);
template <> __device__ __forceinline__ float from_float<float>(float v) { return v; }
template <> __device__ __forceinline__ __half from_float<__half>(float v) { return __float2half_rn(v); }
template <> __device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) {
  return __float2bfloat16_rn(v);
}

// Calls f(TypeTag<T>{}) for the element type T of a run-time dtype code (see DType):
// the one switch from codes to template instances.
template <typename T> struct TypeTag { using type = T; };

template <typename F>
decltype(auto) with_dtype(int64_t dtype, F&& f) {
  switch (dtype) {
    case DType::float32: return f(TypeTag<float>{});
    case DType::float16: return f(TypeTag<__half>{});
    case DType::bfloat16: return f(TypeTag<__nv_bfloat16>{});
    default: throw std::invalid_argument("unknown dtype code " + std::to_string(dtype));
  }
}

// ---------------------------------------------------------------------------------
// Packs: N consecutive elements moved with one load/store instruction of N*sizeof(T)
// bytes (16 = ld.global.v4.u32, the widest). The address must be aligned to the pack.
// ---------------------------------------------------------------------------------

template <typename T, int N>
struct alignas(sizeof(T) * N) Pack {
  static_assert(N >= 1 && (N & (N - 1)) == 0, "pack length must be a power of two");
  static_assert(sizeof(T) * N <= 16, "packs are at most 16 bytes");
  T v[N];
};

// The integer type of each pack size, for the cache-hinted load/store intrinsics.
template <int kBytes> struct PackWord;
template <> struct PackWord<16> { using type = uint4; };
template <> struct PackWord<8> { using type = uint2; };
template <> struct PackWord<4> { using type = unsigned int; };
template <> struct PackWord<2> { using type = unsigned short; };

// How a pack is moved (PTX ld/st cache operators).
//   kNormal    a plain access (ld / st.global, or shared memory): cached in L1 and L2.
//              Loads stay one vector instruction; a plain 16-byte store may be split
//              into 2- and 4-byte stores (ptxas did so for most 16-bit packs of the wide
//              rows' kernels), so outputs are stored with kPlainVector.
//   kGlobal    ld.global.cg / st.global.cg: L2 only. For a first read that a later
//              pass of the same block re-reads: L1 could not hold it anyway.
//   kStreaming ld.global.cs / st.global.cs: evict-first, always one instruction. For
//              a last read, so it does not push lines that are still to be re-read out
//              of L2. Global memory only.
//   kPlainVector  stores: st.global with no cache operator (the default policy, a weak
//              store) in inline assembly, so that each pack is one instruction; loads:
//              as kNormal. Global memory only.
enum class Cache { kNormal, kGlobal, kStreaming, kPlainVector };

// How the kernels store their outputs (y, dx): plain stores, one instruction per pack.
// H200, 1 GiB, % of copy, CUDA `auto`, streaming stores (st.global.cs) -> these, two
// rounds each (benchmarks/tuning/wide_store_experiment.sh, copy v4; benchmarks/
// h200_2026-11-26c/): forward fp32 2048 / 8192 / 65536 / 131072 / 262144 / 524288 96.4 /
// 97.1 / 93.3 / 91.8 / 88.8 / 84.8 -> 97.3 / 98.0 / 94.5 / 92.8 / 89.9 / 86.2, bf16 2048 /
// 8192 / 32768 / 262144 98.5 / 97.1 / 97.3 / 80.4 -> 99.2 / 98.3 / 98.1 / 81.0; backward
// within the rounds' spread but at bf16 262144 / 524288 (90.5 / 83.5-85.1 -> 91.3 /
// 85.5-85.7). H100, the package before / after (benchmarks/h100_2026-11-26c/store_*): even
// to 8192 columns, +0.2-0.7 from 32768 (fp32 131072 96.5 -> 97.1), the backward even but
// at split_smem's rows (kSplitSmemGradStore). Evict-first stores gain nothing here: a
// one-pass kernel re-reads nothing.
constexpr Cache kOutputStore = Cache::kPlainVector;

// Weak global stores of one instruction per pack (kPlainVector).
__device__ __forceinline__ void store_plain_vector(uint4* p, uint4 v) {
  asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};\n" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
               : "memory");
}
__device__ __forceinline__ void store_plain_vector(uint2* p, uint2 v) {
  asm volatile("st.global.v2.b32 [%0], {%1, %2};\n" ::"l"(p), "r"(v.x), "r"(v.y) : "memory");
}
__device__ __forceinline__ void store_plain_vector(unsigned int* p, unsigned int v) {
  asm volatile("st.global.b32 [%0], %1;\n" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ void store_plain_vector(unsigned short* p, unsigned short v) {
  asm volatile("st.global.b16 [%0], %1;\n" ::"l"(p), "h"(v) : "memory");
}

template <Cache kCache, typename T, int N>
__device__ __forceinline__ Pack<T, N> load_pack(const T* p) {
  using W = typename PackWord<sizeof(T) * N>::type;
  const W* w = reinterpret_cast<const W*>(p);
  W raw;
  if constexpr (kCache == Cache::kGlobal) {
    raw = __ldcg(w);
  } else if constexpr (kCache == Cache::kStreaming) {
    raw = __ldcs(w);
  } else {
    raw = *w;
  }
  Pack<T, N> out;
  *reinterpret_cast<W*>(&out) = raw;
  return out;
}

template <Cache kCache, typename T, int N>
__device__ __forceinline__ void store_pack(T* p, const Pack<T, N>& v) {
  using W = typename PackWord<sizeof(T) * N>::type;
  W* w = reinterpret_cast<W*>(p);
  const W raw = *reinterpret_cast<const W*>(&v);
  if constexpr (kCache == Cache::kGlobal) {
    __stcg(w, raw);
  } else if constexpr (kCache == Cache::kStreaming) {
    __stcs(w, raw);
  } else if constexpr (kCache == Cache::kPlainVector) {
    store_plain_vector(w, raw);
  } else {
    *w = raw;
  }
}

template <typename T, int N>
__device__ __forceinline__ void unpack(const Pack<T, N>& p, float (&out)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) out[i] = to_float(p.v[i]);
}

template <typename T, int N>
__device__ __forceinline__ Pack<T, N> pack_from_float(const float (&in)[N]) {
  Pack<T, N> p;
  if constexpr (sizeof(T) == 2 && N % 2 == 0) {
    // Two values per conversion (cvt.rn.f16x2.f32 / cvt.rn.bf16x2.f32), low half first.
    using T2 = std::conditional_t<std::is_same_v<T, __half>, __half2, __nv_bfloat162>;
#pragma unroll
    for (int i = 0; i < N; i += 2) {
      T2 pair;
      if constexpr (std::is_same_v<T, __half>) {
        pair = __floats2half2_rn(in[i], in[i + 1]);
      } else {
        pair = __floats2bfloat162_rn(in[i], in[i + 1]);
      }
      memcpy(&p.v[i], &pair, sizeof(pair));
    }
  } else {
#pragma unroll
    for (int i = 0; i < N; ++i) p.v[i] = from_float<T>(in[i]);
  }
  return p;
}

// Widest pack (in elements, a power of two, at most 16 bytes) usable for rows of `cols`
// elements at `ptr` with `row_stride` elements between rows: every row start must be
// aligned to the pack and the width must divide into whole packs (a partial pack at
// the end of the tensor could read past its allocation). With a single row the stride
// never applies. Pass every pointer the kernel will touch (e.g. input and output).
inline int max_pack_elems(int elem_size, std::initializer_list<uint64_t> ptrs,
                          std::initializer_list<int64_t> row_strides, int64_t rows, int64_t cols) {
  for (int n = 16 / elem_size; n > 1; n >>= 1) {
    const uint64_t bytes = static_cast<uint64_t>(n) * elem_size;
    bool ok = cols % n == 0;
    for (uint64_t p : ptrs) ok = ok && p % bytes == 0;
    if (rows > 1) {
      for (int64_t s : row_strides) ok = ok && s % n == 0;
    }
    if (ok) return n;
  }
  return 1;
}

// Widest pack (elements, at most 16 bytes) for rows read as head, whole packs and tail
// (common/row_edges.cuh): every row of every tensor must start at the same offset from
// a boundary of the pack's bytes, so that one split of the row serves them all. `rows_at`
// holds each tensor's first row and its row stride (elements); with a single row the
// strides never apply. The width does not matter (the tail takes what is left).
inline int realigned_pack_elems(int elem_size, std::initializer_list<std::pair<uint64_t, int64_t>> rows_at,
                                int64_t rows) {
  for (int n = 16 / elem_size; n > 1; n >>= 1) {
    const uint64_t bytes = static_cast<uint64_t>(n) * elem_size;
    const auto& first = *rows_at.begin();
    bool ok = true;
    for (const auto& [ptr, stride] : rows_at) {
      ok = ok && ptr % bytes == first.first % bytes;
      if (rows > 1) ok = ok && static_cast<uint64_t>(stride - first.second) * elem_size % bytes == 0;
    }
    if (ok) return n;
  }
  return 1;
}

// ---------------------------------------------------------------------------------
// 16-bit values kept packed: two per 32-bit word as loaded (RegSlice)
// ---------------------------------------------------------------------------------

// Packed fp16/bf16 values are kept as the 32-bit words they were loaded as, two values
// per word (one for scalar packs), and converted with integer/half instructions on
// each use. Reading them through Pack<T, N> elements instead lets the compiler split
// the words into 16-bit pieces and hold each in a register of its own.
template <typename W> struct Words;
template <> struct Words<uint4> {
  static constexpr int kCount = 4;
  __device__ __forceinline__ static void split(const uint4& w, unsigned* out) {
    out[0] = w.x; out[1] = w.y; out[2] = w.z; out[3] = w.w;
  }
};
template <> struct Words<uint2> {
  static constexpr int kCount = 2;
  __device__ __forceinline__ static void split(const uint2& w, unsigned* out) { out[0] = w.x; out[1] = w.y; }
};
template <> struct Words<unsigned int> {
  static constexpr int kCount = 1;
  __device__ __forceinline__ static void split(unsigned w, unsigned* out) { out[0] = w; }
};
template <> struct Words<unsigned short> {
  static constexpr int kCount = 1;
  __device__ __forceinline__ static void split(unsigned short w, unsigned* out) { out[0] = w; }
};

// The 16-bit value in the low (hi = false) or high half of a word, as fp32. kAlt picks
// a different instruction for the same result (bf16: a byte permute instead of a shift
// or mask; fp16: the same conversion of the other half after a funnel shift): the
// output pass uses it so that the compiler cannot keep the sum pass's conversions
// alive until then (which would double the registers) but converts again.
template <bool kAlt = false>
__device__ __forceinline__ float half_word_to_float(unsigned w, bool hi, __nv_bfloat16*) {
  if constexpr (kAlt) return __uint_as_float(__byte_perm(w, 0u, hi ? 0x3244u : 0x1044u));
  return __uint_as_float(hi ? (w & 0xffff0000u) : (w << 16));
}
template <bool kAlt = false>
__device__ __forceinline__ float half_word_to_float(unsigned w, bool hi, __half*) {
  if constexpr (kAlt) return __half2float(__ushort_as_half(static_cast<unsigned short>(__funnelshift_r(w, w, hi ? 16 : 0))));
  return __half2float(__ushort_as_half(static_cast<unsigned short>(hi ? w >> 16 : w)));
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
// Elementwise NaN-propagating max of two words of two 16-bit values (exact, so the row
// maximum needs no conversions).
__device__ __forceinline__ unsigned max2_nan(unsigned a, unsigned b, __nv_bfloat16*) {
  unsigned r;
  asm("max.NaN.bf16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
__device__ __forceinline__ unsigned max2_nan(unsigned a, unsigned b, __half*) {
  unsigned r;
  asm("max.NaN.f16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
#endif

// A pack of 16-bit values, two per word, held as the 32-bit words it was loaded as
// (HeldPack): the block-strided walkers (common/row_scan.cuh) load a batch of packs
// under a bounds check, and held as Pack<T, N> elements each 16-bit value of a
// conditionally loaded pack took a byte permute of its own before its conversion
// (sm_90 SASS of block_hybrid's scan: 8 PRMT per 16-byte pack, then a shift per value
// for the max and another for the sum). As words, a value is one instruction from its
// word, and the batch's maximum is taken two values at a time without converting.
template <typename T, int N>
struct PackWords {
  static_assert(sizeof(T) == 2 && N >= 2, "two 16-bit values per word");
  static constexpr int kCount = N / 2;
  unsigned w[kCount];
};

template <typename T, int N>
constexpr bool kWordPacks = sizeof(T) == 2 && N >= 2;
// kWords = false: held as elements whatever the type (a caller whose registers ptxas
// spilled as words).
template <typename T, int N, bool kWords = true>
using HeldPack = std::conditional_t<kWords && kWordPacks<T, N>, PackWords<T, N>, Pack<T, N>>;

template <Cache kCache, typename T, int N, bool kWords = true>
__device__ __forceinline__ HeldPack<T, N, kWords> load_held(const T* p) {
  if constexpr (kWords && kWordPacks<T, N>) {
    const Pack<T, N> q = load_pack<kCache, T, N>(p);
    PackWords<T, N> out;
    memcpy(out.w, &q, sizeof(out.w));
    return out;
  } else {
    return load_pack<kCache, T, N>(p);
  }
}
template <typename T, int N>
__device__ __forceinline__ float held_value(const Pack<T, N>& p, int k) { return to_float(p.v[k]); }
template <typename T, int N>
__device__ __forceinline__ float held_value(const PackWords<T, N>& p, int k) {
  return half_word_to_float(p.w[k / 2], (k & 1) != 0, static_cast<T*>(nullptr));
}
template <typename T, int N>
__device__ __forceinline__ const Pack<T, N>& held_pack(const Pack<T, N>& p) { return p; }
template <typename T, int N>
__device__ __forceinline__ Pack<T, N> held_pack(const PackWords<T, N>& p) {
  Pack<T, N> out;
  memcpy(&out, p.w, sizeof(p.w));
  return out;
}

// Two 16-bit -inf in one word.
template <typename T>
__device__ __forceinline__ unsigned neg_inf_word() {
  static_assert(sizeof(T) == 2, "16-bit element types only");
  const T ninf = from_float<T>(-INFINITY);
  unsigned short bits;
  memcpy(&bits, &ninf, sizeof(bits));
  return bits | (static_cast<unsigned>(bits) << 16);
}

}  // namespace sk
