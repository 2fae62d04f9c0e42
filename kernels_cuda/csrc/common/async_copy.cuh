// Asynchronous copies from global to shared memory (sm_90+): mbarriers, TMA bulk copies
// (cp.async.bulk, completing bytes on an mbarrier) and Ampere-style cp.async per pack.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "common/packs.cuh"

namespace sk {

// Slice buffers start on 128-byte boundaries (bulk copies need 16) relative to the
// dynamic shared memory, whose own start is only 16-byte aligned: see plan_variant in
// softmax.cu for why the kernels' __align__(kTmaBufferAlign) does not take effect.
constexpr int64_t kTmaBufferAlign = 128;
// nvcc starts the dynamic shared memory right after the static (16-byte aligned,
// whatever its declaration asks: softmax.cu says why), so a kernel that wants its bulk
// copies' buffers on kTmaBufferAlign boundaries starts them at the first one
// (tma_aligned) and its plan asks for this many bytes more. Where they land matters:
// block_hybrid's buffers 32 bytes past a boundary (544 B of static shared memory), then
// 48 (560 B, with ClusterSlots), then on it: H200, 1 GiB, `auto` forward fp32 65536
// (one CTA per row) 94.3 -> 88.5 -> 95.2, bf16 131072 89.8 -> 86.4 -> 90.0, fp32
// 262144 90.0 -> 85.6 -> 92.8 (benchmarks/h200_2026-11-26i/comparisons.txt, call 5).
constexpr int64_t kTmaAlignSlack = kTmaBufferAlign - 16;

#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
// The first kTmaBufferAlign boundary of shared memory at or after `p`.
__device__ __forceinline__ unsigned char* tma_aligned(unsigned char* p) {
  return p + ((0u - smem_addr(p)) & static_cast<uint32_t>(kTmaBufferAlign - 1));
}
__device__ __forceinline__ void mbarrier_init(uint64_t* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_addr(bar)), "r"(count) : "memory");
}
// The barrier will complete once `bytes` have arrived (and this one arrival is counted).
__device__ __forceinline__ void mbarrier_arrive_expect_tx(uint64_t* bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_addr(bar)), "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void mbarrier_wait_parity(uint64_t* bar, uint32_t parity) {
  asm volatile(
      "{\n"
      ".reg .pred done;\n"
      "WAIT:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra WAIT;\n"
      "}\n" ::"r"(smem_addr(bar)),
      "r"(parity)
      : "memory");
}
// Ampere-style asynchronous copy of one 4-, 8- or 16-byte pack (completion: a commit
// group, waited for with cp.async.wait_group).
template <int kBytes>
__device__ __forceinline__ void async_copy_pack(void* dst, const void* src) {
  if constexpr (kBytes == 16) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem_addr(dst)), "l"(src) : "memory");
  } else {
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(smem_addr(dst)), "l"(src), "n"(kBytes)
                 : "memory");
  }
}
// Packs threadIdx.x, + blockDim.x, ... of `count` packs from global `src` to shared `dst`,
// each by the thread that will read it back: cp.async for 4-16 byte packs (complete
// after this thread's cp.async.wait), a synchronous copy for 2-byte packs.
template <typename T, int N>
__device__ __forceinline__ void copy_own_packs_to_shared(T* dst, const T* src, int count) {
  constexpr int kPackBytes = N * static_cast<int>(sizeof(T));
  for (int i = threadIdx.x; i < count; i += blockDim.x) {
    if constexpr (kPackBytes >= 4) {
      async_copy_pack<kPackBytes>(dst + i * N, src + i * N);
    } else {
      store_pack<Cache::kNormal, T, N>(dst + i * N, load_pack<Cache::kNormal, T, N>(src + i * N));
    }
  }
}
// `bytes` (a multiple of 16) from global `src` to this CTA's shared `dst`, both 16-byte
// aligned; completes `bytes` transactions on `bar`.
__device__ __forceinline__ void bulk_copy_to_shared(void* dst, const void* src, uint32_t bytes, uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(
          smem_addr(dst)),
      "l"(src), "r"(bytes), "r"(smem_addr(bar))
      : "memory");
}
#endif

}  // namespace sk
