// Device and host primitives shared by the softmax and reduction kernels.
//
// Only CUDA runtime headers and the standard library: CI compiles these files with
// nvcc against a CPU-only torch, so nothing here may include torch, ATen or c10.
//
// Contents
//   SK_CUDA_CHECK          runtime-API error check that throws std::runtime_error
//   DeviceGuard            switch to a device for a scope, restore the previous one
//   device_properties()    per-device limits (SM count, shared memory), cached
//   ceil_div / round_up / next_pow2 / global_thread_index / global_thread_count
//   to_float / from_float  fp32 <-> float, __half, __nv_bfloat16 (round to nearest)
//   Pack<T, N>             aligned vector of N elements, 16 bytes or narrower,
//                          load_pack / store_pack with L1/L2 cache hints
//   nan_max, fast_exp2     NaN-propagating max; 2^x in one MUFU instruction
//   max_pack_elems()       widest pack that pointer, row stride and width allow
//   SumOp, MaxOp           reduction operators (MaxOp propagates NaN)
//   OnlinePair             the online-normalizer (max, sum of exp) state, its merge
//                          and its batch update; empty states merge safely
//   warp_allreduce*        __shfl_xor_sync butterfly: every lane of a group gets it
//   warp_reduce_down*      __shfl_down_sync: lane 0 of each group gets it
//   warp_reduce_tree       shared-memory tree inside a lane group (no shuffles)
//   block_allreduce        warp reduce, one value per warp to shared memory, final
//                          warp reduce; every thread gets the result
//   block_reduce_down      the same with __shfl_down_sync; thread 0 gets the result
//   block_allreduce_tree   the baseline shared-memory tree with __syncthreads per level
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

// Evaluates a CUDA runtime call once; on failure throws std::runtime_error naming the
// call, file and line (pybind11 turns it into a Python RuntimeError).
#define SK_CUDA_CHECK(expr)                                                           \
  do {                                                                                \
    const cudaError_t sk_err_ = (expr);                                               \
    if (sk_err_ != cudaSuccess) {                                                     \
      throw std::runtime_error(std::string(__FILE__) + ":" + std::to_string(__LINE__) + \
                               ": " #expr " failed: " + cudaGetErrorName(sk_err_) +   \
                               " (" + cudaGetErrorString(sk_err_) + ")");             \
    }                                                                                 \
  } while (0)

namespace sk {

// ---------------------------------------------------------------------------------
// Host helpers
// ---------------------------------------------------------------------------------

// Makes `device` current for the lifetime of the guard and restores the previous
// device afterwards, so launchers serve tensors on any GPU without side effects.
class DeviceGuard {
 public:
  explicit DeviceGuard(int device) {
    SK_CUDA_CHECK(cudaGetDevice(&previous_));
    if (device != previous_) SK_CUDA_CHECK(cudaSetDevice(device));
  }
  ~DeviceGuard() {
    int current = -1;
    if (cudaGetDevice(&current) == cudaSuccess && current != previous_) cudaSetDevice(previous_);
  }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_ = 0;
};

// Limits that launch heuristics need, queried once per device.
struct DeviceProperties {
  int major = 0;
  int minor = 0;
  int sm_count = 0;
  int max_threads_per_sm = 0;
  int smem_per_block_optin = 0;  // dynamic + static shared memory one block may opt into
  int smem_per_sm = 0;
};

// Thread-safe; the caller does not need to make `device` current. Returned by value:
// a reference into the cache could dangle when another thread adds a device.
inline DeviceProperties device_properties(int device) {
  static std::mutex mutex;
  static std::vector<DeviceProperties> cache;  // sm_count == 0: not queried yet
  if (device < 0) throw std::runtime_error("device_properties: negative device index");
  std::lock_guard<std::mutex> lock(mutex);
  if (static_cast<size_t>(device) >= cache.size()) cache.resize(device + 1);
  DeviceProperties& p = cache[device];
  if (p.sm_count == 0) {
    DeviceProperties q;
    SK_CUDA_CHECK(cudaDeviceGetAttribute(&q.major, cudaDevAttrComputeCapabilityMajor, device));
    SK_CUDA_CHECK(cudaDeviceGetAttribute(&q.minor, cudaDevAttrComputeCapabilityMinor, device));
    SK_CUDA_CHECK(cudaDeviceGetAttribute(&q.max_threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device));
    SK_CUDA_CHECK(cudaDeviceGetAttribute(&q.smem_per_block_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    SK_CUDA_CHECK(cudaDeviceGetAttribute(&q.smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
    SK_CUDA_CHECK(cudaDeviceGetAttribute(&q.sm_count, cudaDevAttrMultiProcessorCount, device));
    p = q;
  }
  return p;
}

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
// Element types. Arithmetic is always fp32; torch builds extensions with
// __CUDA_NO_HALF_CONVERSIONS__, so conversions are explicit.
// ---------------------------------------------------------------------------------

// dtype codes shared with the Python launchers.
enum DType : int64_t { kFloat32 = 0, kFloat16 = 1, kBFloat16 = 2 };

inline int dtype_size(int64_t dtype) {
  switch (dtype) {
    case kFloat32: return 4;
    case kFloat16: return 2;
    case kBFloat16: return 2;
    default: throw std::runtime_error("unknown dtype code " + std::to_string(dtype));
  }
}

__device__ __forceinline__ float to_float(float v) { return v; }
__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }

template <typename T> __device__ __forceinline__ T from_float(float v);
template <> __device__ __forceinline__ float from_float<float>(float v) { return v; }
template <> __device__ __forceinline__ __half from_float<__half>(float v) { return __float2half_rn(v); }
template <> __device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) {
  return __float2bfloat16_rn(v);
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
//              into four scalar stores when loads sit in between, so results that
//              are not re-read are better stored with kStreaming.
//   kGlobal    ld.global.cg / st.global.cg: L2 only. For a first read that a later
//              pass of the same block re-reads: L1 could not hold it anyway.
//   kStreaming ld.global.cs / st.global.cs: evict-first, always one instruction. For
//              a last read and for outputs, so they do not push lines that are still
//              to be re-read out of L2. Global memory only.
enum class Cache { kNormal, kGlobal, kStreaming };

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

// ---------------------------------------------------------------------------------
// Reduction operators
// ---------------------------------------------------------------------------------

constexpr unsigned kFullMask = 0xffffffffu;
constexpr float kLog2e = 1.4426950408889634f;
constexpr float kLn2 = 0.6931471805599453f;

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
// Warp shuffles. Every lane of the warp must call these (full mask); a "group" is a
// power-of-two run of `width` lanes that reduces on its own.
// ---------------------------------------------------------------------------------

template <typename T>
__device__ __forceinline__ T shfl_xor(T v, int lane_mask, int width) {
  return __shfl_xor_sync(kFullMask, v, lane_mask, width);
}
__device__ __forceinline__ OnlinePair shfl_xor(OnlinePair v, int lane_mask, int width) {
  return {__shfl_xor_sync(kFullMask, v.m, lane_mask, width),
          __shfl_xor_sync(kFullMask, v.d, lane_mask, width)};
}

template <typename T>
__device__ __forceinline__ T shfl_down(T v, unsigned delta, int width) {
  return __shfl_down_sync(kFullMask, v, delta, width);
}
__device__ __forceinline__ OnlinePair shfl_down(OnlinePair v, unsigned delta, int width) {
  return {__shfl_down_sync(kFullMask, v.m, delta, width),
          __shfl_down_sync(kFullMask, v.d, delta, width)};
}

// Butterfly over groups of `width` lanes (a power of two <= 32, known at run time):
// log2(width) steps, every lane of the group ends with the group's result.
template <typename T, typename Op>
__device__ __forceinline__ T warp_allreduce(T v, Op op, int width = 32) {
  for (int offset = width >> 1; offset > 0; offset >>= 1) v = op(v, shfl_xor(v, offset, width));
  return v;
}

// The same with the group width known at compile time (fully unrolled).
template <int kWidth, typename T, typename Op>
__device__ __forceinline__ T warp_allreduce_static(T v, Op op) {
  static_assert(kWidth >= 1 && kWidth <= 32 && (kWidth & (kWidth - 1)) == 0, "width: power of two <= 32");
#pragma unroll
  for (int offset = kWidth >> 1; offset > 0; offset >>= 1) v = op(v, shfl_xor(v, offset, kWidth));
  return v;
}

// Tree with __shfl_down_sync: only the first lane of each group holds the result
// (the other lanes hold partial values).
template <typename T, typename Op>
__device__ __forceinline__ T warp_reduce_down(T v, Op op, int width = 32) {
  for (int offset = width >> 1; offset > 0; offset >>= 1) v = op(v, shfl_down(v, offset, width));
  return v;
}

template <int kWidth, typename T, typename Op>
__device__ __forceinline__ T warp_reduce_down_static(T v, Op op) {
  static_assert(kWidth >= 1 && kWidth <= 32 && (kWidth & (kWidth - 1)) == 0, "width: power of two <= 32");
#pragma unroll
  for (int offset = kWidth >> 1; offset > 0; offset >>= 1) v = op(v, shfl_down(v, offset, kWidth));
  return v;
}

// Shared-memory tree inside each group of `width` lanes (a power of two <= 32), no
// shuffles: the baseline counterpart of warp_allreduce. `scratch` is this warp's 32
// slots (lane i uses scratch[i]). Every lane of the group gets the group's result.
// Synchronises with __syncwarp, so every lane of the warp must call it.
template <typename T, typename Op>
__device__ __forceinline__ T warp_reduce_tree(T v, Op op, T* scratch, int width = 32) {
  const int lane = threadIdx.x & 31;
  const int member = lane & (width - 1);
  scratch[lane] = v;
  __syncwarp();
  for (int active = width >> 1; active > 0; active >>= 1) {
    // Members [0, active) read slots [active, 2*active), which nobody writes this level.
    if (member < active) scratch[lane] = op(scratch[lane], scratch[lane + active]);
    __syncwarp();
  }
  const T out = scratch[lane - member];
  __syncwarp();  // the caller may reuse scratch right away
  return out;
}

// ---------------------------------------------------------------------------------
// Block reductions: blockDim.x must be a multiple of 32 (at most 1024) and every
// thread of the block must call them. Op needs operator() and a static identity().
// ---------------------------------------------------------------------------------

// Every thread gets the result. Two barriers; safe to call back to back: a thread can
// only overwrite the per-warp slots after the second barrier of the previous call,
// which warp 0 passes only after it has read them.
template <typename T, typename Op>
__device__ __forceinline__ T block_allreduce(T v, Op op) {
  __shared__ T warp_vals[32];
  __shared__ T result;
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int n_warps = blockDim.x >> 5;
  v = warp_allreduce_static<32>(v, op);
  if (lane == 0) warp_vals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    T w = lane < n_warps ? warp_vals[lane] : Op::identity();
    w = warp_allreduce_static<32>(w, op);
    if (lane == 0) result = w;
  }
  __syncthreads();
  return result;
}

// Thread 0 gets the result (the __shfl_down_sync form). Ends with a barrier so that
// the next call cannot overwrite the per-warp slots before warp 0 has read them.
template <typename T, typename Op>
__device__ __forceinline__ T block_reduce_down(T v, Op op) {
  __shared__ T warp_vals[32];
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int n_warps = blockDim.x >> 5;
  v = warp_reduce_down_static<32>(v, op);
  if (lane == 0) warp_vals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < n_warps ? warp_vals[lane] : Op::identity();
    v = warp_reduce_down_static<32>(v, op);
  }
  __syncthreads();
  return v;
}

// The baseline: a shared-memory tree halving the active threads per level, with a
// barrier at each of the log2(blockDim.x) levels. blockDim.x must be a power of two and
// `scratch` must hold blockDim.x values. Every thread gets the result.
template <typename T, typename Op>
__device__ __forceinline__ T block_allreduce_tree(T v, Op op, T* scratch) {
  const int tid = threadIdx.x;
  scratch[tid] = v;
  __syncthreads();
  for (int active = blockDim.x >> 1; active > 0; active >>= 1) {
    if (tid < active) scratch[tid] = op(scratch[tid], scratch[tid + active]);
    __syncthreads();
  }
  const T out = scratch[0];
  __syncthreads();  // scratch is reused by the caller's next reduction
  return out;
}

}  // namespace sk

// ---------------------------------------------------------------------------------
// Appended: a cheaper warp merge of online pairs.
// ---------------------------------------------------------------------------------

namespace sk {

// The merge of the 32 lanes' online pairs, in every lane (bitwise the same in each: the
// butterflies combine the same values in the same order): the warp maximum first, then
// each lane's sum rescaled to it once, then a plain sum. One exp per lane in all,
// instead of two exps and a branch per butterfly step (warp_allreduce of
// OnlineMergeOp). Special values as online_merge: lanes of only -inf ((-inf, 0)) add 0;
// if every lane saw only -inf the result is (-inf, 0); a NaN or +inf maximum makes the
// sum NaN (through the lane that holds it, whose d is NaN).
__device__ __forceinline__ OnlinePair warp_merge_pairs(OnlinePair v) {
  const float m = warp_allreduce_static<32>(v.m, MaxOp());
  const float scale = m == -INFINITY ? 0.0f : fast_exp2(scaled_max(v.m) - scaled_max(m));
  return {m, warp_allreduce_static<32>(v.d * scale, SumOp())};
}

}  // namespace sk
