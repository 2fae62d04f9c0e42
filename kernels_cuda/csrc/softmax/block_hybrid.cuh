// block_hybrid (sm_90+): one CTA of kHybridThreads threads per row, for rows wider
// than one CTA's registers: packs [0, R) of the row in registers (RegSlice,
// hybrid_bytes() per thread: R = threads x that), packs [R, end) in dynamic shared
// memory. Thread 0 requests the shared-memory part with kHybridPieces TMA bulk copies
// (an mbarrier each counts its bytes; each piece is reduced as soon as it lands)
// before any register load is issued, so the whole row (up to ~290 KB) is in flight at
// once: one such CTA per SM moves as many bytes as several smaller ones would, and,
// unlike a cluster, waits for no peer (the 1024-thread cluster_regs CTA measured the
// same effect). block_smem, by contrast, stages its row through registers a few packs
// at a time. 4- and 8-byte packs (misaligned views) use cp.async per pack, 2-byte packs
// a synchronous copy; every thread then reads back only the packs it copied itself.
// Forward rows that one CTA of kHybridSmallThreads holds (to kHybridSmallSliceBytes)
// take such CTAs, two per SM, one row each, on GPUs of kHybridPairMinSmBandwidth or more
// of DRAM bandwidth per SM, and wider rows clusters of them there (kHybridSmallThreads
// says why).
// A row past one CTA goes to a cluster of K CTAs (2-16, the size that keeps the most
// CTAs resident among those whose slices fit, rows up to ~4.6 MB; forward, 16-bit rows
// and, on those GPUs, fp32 rows: 512-thread CTAs, two per SM, slices of at most
// kHybridSmallSliceBytes, while 16 of them hold the row, else 1024-thread ones;
// backward: 512-thread CTAs while 16 of them (fp32) or kHybridGradPairMax16BitCluster
// (16-bit) hold the row, else 1024), CTA k taking
// packs [k*slice, (k+1)*slice) of the row in the same way: each CTA's pair (sum,
// backward) is sent into every peer's shared memory by st.async, each CTA waiting on its
// own mbarrier only (HybridCluster, ClusterSlots). Each CTA still has its whole slice in
// flight at once, and there are few CTAs to wait for: unlike cluster_regs' clusters of
// 64 KB CTAs, this is Quack's shape (a few CTAs of 128 KB each per row).
// One read and one write of global memory.
// Grid: one CTA (cluster) per row (one-shot; the loop only runs past kMaxGridBlocks).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>

#include "common/async_copy.cuh"
#include "common/block_reduce.cuh"
#include "common/cluster.cuh"
#include "common/grad.cuh"
#include "common/online.cuh"
#include "common/packs.cuh"
#include "common/reg_slice.cuh"
#include "common/row_edges.cuh"
#include "common/row_scan.cuh"
#include "softmax/geometry.cuh"

namespace sk {
namespace softmax {

// ---------------------------------------------------------------------------------
// Launch constants
// ---------------------------------------------------------------------------------

// block_hybrid: CTAs of kHybridThreads threads, each keeping hybrid_bytes() of the row
// in registers (64 bytes in at most kRegsMaxLoads packs: 64 KB per CTA for 16-byte
// packs; 32 bytes for 4-byte packs); the rest of the row, up to the opt-in shared memory
// (227 KB on H100/H200), in shared memory. Rows up to ~290 KB in one CTA: fp32 65536
// (256 KB), bf16 131072.
constexpr int kHybridThreads = 1024;
// The shared-memory part arrives as this many bulk copies, each on its own mbarrier, so
// that the CTA reduces each piece as it lands instead of after the last one (with one
// CTA per SM, compute after the last byte is time with nothing in flight).
constexpr int kHybridPieces = 4;
// 4-byte packs (misaligned views) keep 32 bytes, 8 loads: at 16 loads (16 addresses)
// the cluster exchange (HybridCluster) pushed the fp32 kernel past 64 registers (12
// bytes spilled, ptxas sm_90).
constexpr int hybrid_bytes(int pack_bytes) { return pack_bytes == 4 ? 32 : std::min(64, kRegsMaxLoads * pack_bytes); }

// The shared-memory part of a row (smem_packs packs) as kHybridPieces bulk copies of
// `size` packs each (the last shorter, maybe empty); without bulk copies (narrower
// packs) one piece of all of them.
struct HybridPieces {
  int size;
  int smem_packs;
  __device__ __forceinline__ HybridPieces(int smem, bool bulk)
      : size(bulk ? ceil_div(smem, kHybridPieces) : smem), smem_packs(smem) {}
  __device__ __forceinline__ int count(int c) const { return max(0, min(size, smem_packs - c * size)); }
  __device__ __forceinline__ int64_t first(int c) const { return static_cast<int64_t>(c) * size; }
};

#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
// One mbarrier per piece, made visible to the async proxy before any copy uses it.
__device__ __forceinline__ void init_piece_barriers(uint64_t (&full)[kHybridPieces]) {
  if (threadIdx.x == 0) {
#pragma unroll
    for (int c = 0; c < kHybridPieces; ++c) mbarrier_init(&full[c], 1);
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();
}
#endif

// A row past one CTA goes to a cluster of K CTAs (plan_hybrid_block): the smallest power
// of two whose slices hold at most this many bytes of the row (forward; of y, backward)
// and fit one CTA each.
constexpr int64_t kHybridClusterSliceBytes = int64_t{1} << 30;
// The forward's clusters for 16-bit rows: CTAs of kHybridSmallThreads threads (held to 64
// registers, 32 KB of the row in them), two per SM, slices of at most
// kHybridSmallSliceBytes (what two CTAs' shared memory per SM leaves: 32 KB of registers
// + up to ~112 KB). A 16-bit slice has twice the values of an fp32 one of the same bytes,
// so its CTA computes twice as long after its last byte lands; a second CTA per SM keeps
// the SM's loads going meanwhile. H100, 1 GiB, % of copy, one 1024-thread CTA per SM ->
// two 512-thread ones (benchmarks/h100_2026-11-25/hybrid_cluster_*_t512_h100_3993eb3.md):
// bf16 262144 / 524288 / 1048576 92.0 / 88.4 / 87.1 -> 94.5 / 92.4 / 88.6 (log-softmax
// 93.1 / 90.1 / 88.1 -> 94.8 / 92.9 / 89.0); fp32 lost (262144 95.4 -> 94.6, 524288 92.2
// -> 87.5: twice the CTAs per row, 16 at 524288), and so did the backward.
// On GPUs of kHybridPairMinSmBandwidth or more of DRAM bandwidth per SM the same CTAs,
// one per row, take the 16-bit rows that one of them holds (to 144 KB: bf16 65536), two
// per SM, where one 1024-thread CTA per SM took them: the SM's second CTA loads while
// the first reduces and computes its exps, which with one CTA per SM run with nothing in
// flight, and the more bytes per second an SM must move, the more that costs. 1 GiB, %
// of copy, softmax / log-softmax forward, one 1024-thread CTA per SM -> two 512-thread
// ones (benchmarks/tuning/hybrid_small_experiment.sh, copy s1):
//   H200 (37 GB/s per SM; benchmarks/h200_2026-11-26c/hybrid_small_*): block_hybrid bf16
//     65536 74.1 / 76.6 -> 94.6 / 94.6, fp16 74.5 / 76.4 -> 96.0 / 95.8 (32768 74.0 ->
//     82.6; cluster_regs holds those rows at 97), against `auto`'s cluster_regs bf16 93.0 /
//     94.4, fp16 92.5 / 92.7; rows of 256 KB (bf16 131072) as a cluster of two such CTAs
//     lost to one 1024-thread CTA then (84.6 against 89.9; no longer, below);
//   H100 (25 GB/s per SM; benchmarks/h100_2026-11-26c/pair_*_24b4ade*), `auto` before ->
//     with the pair: bf16 49152 / 65536 99.5 / 99.1 -> 99.3 / 98.6, fp16 99.5 / 99.1 ->
//     99.1 / 98.2 (log-softmax alike), 70000 mixed (bf16 96.5 -> 98.3, log-softmax fp16
//     99.3 -> 98.0): one CTA per SM keeps up there.
// On those GPUs the 16-bit rows past one such CTA that one 1024-thread CTA would hold
// (144-290 KB: bf16 73728-145000) take clusters of 2-3 of them instead, two per SM, as
// wider 16-bit rows already did: the SM's second CTA loads while the first computes, and
// since the clusters exchange their pairs without a cluster barrier (ClusterSlots,
// session 43) a row's two CTAs cost less than that overlap gains. H200, 1 GiB, % of copy,
// `auto` one 1024-thread CTA -> a cluster of 512-thread CTAs (benchmarks/
// h200_2026-11-27/pairk_*): softmax bf16 81920 / 98304 / 114688 / 131072 / 139264 79.3 /
// 84.8 / 88.8 / 89.9 / 84.6 -> 83.6 / 89.9 / 93.1 / 93.6 / 86.6, fp16 80.6 / 85.7 / 90.0
// / 91.2 / 87.3 -> 85.1 / 91.1 / 95.3 / 96.3 / 92.6, log-softmax bf16 83.1-93.0 ->
// 87.5-95.3, fp16 84.2-93.9 -> 89.2-97.0; rows that were clusters already (151936,
// 262144) unchanged. (Before session 43's exchange a cluster of two such CTAs lost at
// bf16 131072: 84.6 against 89.9.)
constexpr int kHybridSmallThreads = 512;
// fp32 rows take the same CTAs on those GPUs, one per row to 144 KB (fp32 36864) and in
// clusters of them past it while 16 hold the row (to ~2.3 MB: fp32 589824), as 16-bit
// rows do: H200, 1 GiB, % of copy, two rounds, `auto` softmax (log-softmax alike) one
// 1024-thread CTA per SM -> two 512-thread ones (benchmarks/h200_2026-11-27/p32_*):
// 40000 / 49152 / 65536 97.2 / 96.4 / 95.2 -> 97.6 / 96.9 / 96.2, 131072 / 196608 /
// 262144 (4 / 6 / 8 CTAs) 94.0 / 94.7 / 93.0 -> 96.2 / 96.1 / 95.4, 98304 96.4 -> 96.2.
// Past 8 CTAs, fp32 rows kept clusters of 1024-thread CTAs until session 68: 524288 over
// 15 pair CTAs had lost then (89.7 -> 87.2), before clusters took the size that keeps
// the most CTAs resident (plan_hybrid_block); over 16 (14 clusters, 224 CTAs) they gain:
// H200, 1 GiB, % of copy, block_hybrid softmax / log-softmax, 8 CTAs of 1024 threads ->
// 16 of 512 (benchmarks/h200_2026-11-28/fk_compare_h200_97a4689.txt, call 99): 393216
// 89.7 / 89.7 -> 94.9 / 95.1, 524288 89.5 / 89.3 -> 93.5 / 93.4 (12 of 512 at 393216:
// 93.9 / 94.7; 12 at 524288 take 1024-thread CTAs: 62.5 / 62.3).
constexpr int64_t kHybridSmallSliceBytes = 144 * 1024;
constexpr int64_t kHybridPairMinSmBandwidth = int64_t{30} * 1000 * 1000 * 1000;

// The kernels' exchanges, defined where the device code needs them.
struct HybridCluster;
struct HybridGlobal;  // softmax/split_hybrid.cuh

// A CTA's slice of each of its rows, from Exchange::rank() (HybridCluster, HybridGlobal):
// packs [first, first + packs) of a row of row_packs.
template <typename Exchange>
struct HybridSlice {
  int64_t row_packs;
  int slice_packs;

  __device__ __forceinline__ int64_t first() const {
    const int64_t want = static_cast<int64_t>(Exchange::rank()) * slice_packs;
    return want < row_packs ? want : row_packs;
  }
  // Packs in this CTA's slice (0 for a CTA past the row's end).
  __device__ __forceinline__ int packs() const {
    const int64_t start = first();
    return static_cast<int>((start + slice_packs < row_packs ? start + slice_packs : row_packs) - start);
  }
  __device__ __forceinline__ int64_t first_col(int n) const { return first() * n; }
};

#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
// The cluster of a block_hybrid CTA (K = 1 without a cluster launch): its slice of
// every row (packs [first, first + packs)), its rows (every CTA of a cluster takes the
// same ones), and the exchange of the K CTAs' pairs (forward) or sums (backward)
// through two ClusterSlots by row parity (common/cluster.cuh): a peer rewrites slot p
// two rows later, after this CTA sent its value for the row between, which every
// thread's barrier in that row's block reduction orders after its reads of slot p.
// It holds no state: the rank and K are read from their special registers at each use
// (volatile reads, not kept in registers across the row), since the scalar-pack
// kernels' registers are full (fp32 packs of 1 spilled 12 bytes with them held).
// The kernels take the exchange as a template argument: split_hybrid's (HybridGlobal,
// softmax/split_hybrid.cuh) has the same members over global memory.
struct HybridCluster : HybridSlice<HybridCluster> {
  // The exchange's shared memory (V: OnlinePair forward, float backward).
  template <typename V>
  struct Shared {
    ClusterSlots<V> slots[2];  // by row parity
  };

  static __device__ __forceinline__ int k_ctas() { return cluster_ctas(); }
  static __device__ __forceinline__ int rank() { return cluster_rank(); }
  // `shared`: the exchange's two ClusterSlots, initialised here.
  template <typename Args, typename V>
  __device__ __forceinline__ HybridCluster(const Args& a, int64_t packs_in_row, Shared<V>& shared)
      : HybridSlice<HybridCluster>{packs_in_row, a.slice_packs} {
    if (k_ctas() > 1 && first_row() < a.rows) cluster_slots_init(shared.slots, 2);
  }
  __device__ __forceinline__ int64_t first_row() const { return blockIdx.x / k_ctas(); }
  __device__ __forceinline__ int64_t row_step() const { return gridDim.x / k_ctas(); }
  __device__ __forceinline__ OnlinePair merge(Shared<OnlinePair>& shared, OnlinePair acc, int it, int64_t) const {
    if (it == 0) cluster_wait();
    return cluster_merge_pairs(shared.slots[it & 1], acc, cluster_slots_phase(it), k_ctas(), rank());
  }
  __device__ __forceinline__ float sum(Shared<float>& shared, float v, int it, int64_t) const {
    if (it == 0) cluster_wait();
    return cluster_sum(shared.slots[it & 1], v, cluster_slots_phase(it), k_ctas(), rank());
  }
};
#endif

// ---------------------------------------------------------------------------------
// Forward kernel
// ---------------------------------------------------------------------------------

// kEdges: rows read as head, whole packs and tail (common/row_edges.cuh); the cluster's
// first CTA takes the edges.
// Exchange: HybridCluster (block_hybrid), or HybridGlobal (split_hybrid).
template <typename T, int N, int kThreads, bool kEdges = false, typename Exchange = HybridCluster>
__global__ void __launch_bounds__(kThreads, kHybridThreads / kThreads) softmax_block_hybrid_kernel(RowsArgs<T> a) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
  constexpr int kPackBytes = N * static_cast<int>(sizeof(T));
  constexpr int B = hybrid_bytes(kPackBytes);
  constexpr bool kBulk = kPackBytes == 16;
  constexpr bool kAsync = !kBulk && kPackBytes >= 4;
  extern __shared__ __align__(kTmaBufferAlign) unsigned char smem_raw[];
  T* cache = reinterpret_cast<T*>(tma_aligned(smem_raw));
  __shared__ __align__(8) uint64_t full[kHybridPieces];
  __shared__ OnlinePair warp_pairs[kThreads / 32];
  __shared__ typename Exchange::template Shared<OnlinePair> exchange;
  // kEdges: every row's whole packs (as many in each) start at its column `head`.
  const Exchange cl(a, kEdges ? edge_body<N>(a.cols) : a.cols / N, exchange);
  const int G = blockDim.x;
  const int t = threadIdx.x;
  const int reg_packs = min(cl.packs(), G * (B / kPackBytes));
  const int smem_packs = cl.packs() - reg_packs;
  const HybridPieces pieces(smem_packs, kBulk);
  if constexpr (kBulk) init_piece_barriers(full);
  int it = 0;
  for (int64_t row = cl.first_row(); row < a.rows; row += cl.row_step(), ++it) {
    const int head = kEdges ? row_head<T, N>(a.x + row * a.x_stride, a.cols) : 0;
    const int64_t first_col = head + cl.first_col(N);
    const T* xr = a.x + row * a.x_stride + first_col;
    const T* xs = xr + static_cast<int64_t>(reg_packs) * N;
    // Every thread is done with the previous row's cache and warp_pairs (read after
    // slice_merge_pairs' barrier; rewritten below).
    if (it > 0) __syncthreads();
    if constexpr (kBulk) {
      if (t == 0) {
        // Order this CTA's earlier reads of the cache (generic proxy) before the copies.
        asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#pragma unroll
        for (int c = 0; c < kHybridPieces; ++c) {
          const uint32_t bytes = static_cast<uint32_t>(pieces.count(c)) * kPackBytes;
          if (bytes == 0) continue;
          mbarrier_arrive_expect_tx(&full[c], bytes);
          bulk_copy_to_shared(cache + pieces.first(c) * N, xs + pieces.first(c) * N, bytes, &full[c]);
        }
      }
    } else {
      copy_own_packs_to_shared<T, N>(cache, xs, smem_packs);
    }
    RegSlice<T, N, B> s;
    s.load(xr, t, G, reg_packs);
    OnlinePair acc = s.reduce(a.log);
    if constexpr (kEdges) {
      if (cl.rank() == 0) {
        const T* x0 = a.x + row * a.x_stride;
        acc = online_fold(acc, edge_value(x0, RowEdges<T, N>(x0, a.cols), t));
      }
    }
    if constexpr (kBulk) {
#pragma unroll
      for (int c = 0; c < kHybridPieces; ++c) {
        const int count = pieces.count(c);
        if (count == 0) continue;
        mbarrier_wait_parity(&full[c], static_cast<uint32_t>(it & 1));
        acc = online_merge(acc, scan_packs<Cache::kNormal, false, T, N>(cache + pieces.first(c) * N,
                                                                          static_cast<T*>(nullptr), count));
      }
    } else {
      if constexpr (kAsync) asm volatile("cp.async.wait_all;\n" ::: "memory");
      // Thread t scans (and later writes) cache packs t, t + G, ...: exactly the packs
      // it copied itself.
      acc = online_merge(acc, scan_packs<Cache::kNormal, false, T, N>(cache, static_cast<T*>(nullptr), smem_packs));
    }
    acc = slice_merge_pairs(acc, warp_pairs, 0, G);
    if (cl.k_ctas() > 1) acc = cl.merge(exchange, acc, it, row);
    const RowNorm n = make_row_norm(acc.m, acc.d, a.log);
    T* yr = a.y + row * a.cols + first_col;
    s.write(yr, t, G, reg_packs, n, a.log);
    write_packs<Cache::kNormal, kOutputStore, T, N>(cache, yr + static_cast<int64_t>(reg_packs) * N,
                                                      smem_packs, n, a.log);
    if constexpr (kEdges) {
      if (cl.rank() == 0) {
        const int64_t r = rematerialize(row);
        write_edge<T, N>(a.x + r * a.x_stride, a.y + r * a.cols, a.cols, t, n, a.log);
      }
    }
  }
#endif
}

// ---------------------------------------------------------------------------------
// Forward plan
// ---------------------------------------------------------------------------------

// Rows read in three parts (edges) have instances of their own, of 16-byte packs only.
// Exchange: HybridCluster (block_hybrid), HybridGlobal (split_hybrid's SplitHybridFamily).
template <typename Exchange>
struct HybridFamily {
  template <typename T, int N, bool kEdges> static const void* instance(int threads) {
    if (threads == kHybridSmallThreads) {
      return reinterpret_cast<const void*>(&softmax_block_hybrid_kernel<T, N, kHybridSmallThreads, kEdges, Exchange>);
    }
    return reinterpret_cast<const void*>(&softmax_block_hybrid_kernel<T, N, kHybridThreads, kEdges, Exchange>);
  }
  template <typename T, int N> static const void* get(int threads, bool edges) {
    if constexpr (N * sizeof(T) == 16) {
      if (edges) return instance<T, N, true>(threads);
    }
    return instance<T, N, false>(threads);
  }
};
using BlockHybridFamily = HybridFamily<HybridCluster>;

// A cluster shape of block_hybrid: its kernel, its threads, the most bytes of the row one
// of its CTAs takes, and the CTAs it needs resident per SM.
struct HybridShape {
  const void* fn;
  int threads;
  int64_t slice_bytes;
  int min_resident;
  int max_cluster = kMaxClusterSize;  // the most CTAs of this shape per row
};

// One CTA of `pair`'s shape per row where one holds the row with pair->min_resident CTAs
// per SM (forward rows on GPUs of fast SMs; nullptr: none), else, without `pair`, one
// CTA of kHybridThreads per row (sm_90) where it holds the row, else a cluster of K
// CTAs of the first of `shapes` that serves it (each CTA a slice of ceil(packs / K)
// packs), each thread keeping `bytes` of each row it holds in registers; the packs past
// the registers' share go to shared memory, smem_bytes(packs left) in all. K: the
// smallest (2 to the lesser of max_cluster and the shape's max_cluster, of any size)
// whose slices hold at most the shape's slice_bytes of the row and fit with the shape's
// min_resident CTAs per SM. Any size,
// not the next power of two: a row just past what K CTAs hold takes K + 1 CTAs, each
// with a large slice, where one CTA per SM needs its slice large (1 GiB, % of copy,
// powers of two -> any size, benchmarks/tuning/hybrid_any_k_experiment.sh: H100
// 2026-11-26, fp32 151936 / 196608 84.3 / 91.1 -> 90.6 / 95.8 over 3 CTAs where 4 took
// them, bf16 82.3 / 89.2 -> 86.7 / 93.4, benchmarks/h100_2026-11-26c/hybrid_any_k_*; H200
// `auto` before / after, two rounds, benchmarks/h200_2026-11-26d/anyk_*: fp32 151936 /
// 196608 / 327680 74.9 / 83.6 / 75.7 -> 83.3 / 90.4 / 85.9 over 3, 3 and 5 CTAs, bf16
// 66.1 / 74.5 / 66.9 -> 73.5 / 80.1 / 78.3). Among the sizes from that smallest K to the
// most allowed, the one that keeps the most CTAs resident at once (K x the clusters
// co-scheduled; a tie keeps the smaller K): the GPCs' SMs bound how many clusters fit,
// so a larger K can fit as many of them. H200, 1 GiB, % of copy, `auto` smallest K ->
// busiest (benchmarks/tuning/hybrid_busy_sms_experiment.sh, benchmarks/h200_2026-11-27b/
// hybrid_busy_*): forward fp32 1048576 76.9 -> 81.2 (15 -> 16 CTAs, 7 clusters: 105 ->
// 112 SMs), bf16 76.1 -> 82.1 (15 -> 16 512-thread CTAs, 14 clusters), backward bf16
// 1048576 82.8 -> 83.8; 524288 unchanged (its smallest K, 8, is the busiest);
// row_exceeds_smem where no shape's max_cluster CTAs hold the row, cluster_not_resident
// where no such cluster can be co-scheduled. The forward and backward plans differ only
// in the kernels, the bytes per thread and what the packs left cost in shared memory.
template <typename T, typename SmemBytes>
Plan plan_hybrid_block(const Problem& p, const void* one_fn, std::initializer_list<HybridShape> shapes, int pack,
                       int bytes, SmemBytes smem_bytes, int max_cluster, const HybridShape* pair = nullptr) {
  constexpr int kElem = static_cast<int>(sizeof(T));
  Plan plan = new_plan(Variant::block_hybrid);
  const int64_t packs = std::max<int64_t>(p.cols / pack, 1);
  const int64_t per_thread = bytes / (pack * kElem);
  const auto slice_smem = [&](int k, int threads) {
    return smem_bytes(std::max<int64_t>(ceil_div(packs, k) - threads * per_thread, 0));
  };
  plan.pack = pack;
  plan.cols_per_thread = bytes / kElem;
  plan.threads = kHybridThreads;
  if (pair != nullptr) {
    const int64_t smem = slice_smem(1, pair->threads);
    const int64_t limit = opt_in_smem(pair->fn, p.device, false);
    if (smem <= limit && resident_blocks(pair->fn, p.device, pair->threads, smem) >= pair->min_resident) {
      plan.smem_limit = limit;
      one_shot_grid(plan, p.device, pair->fn, pair->threads, std::min(plan_rows(p), kMaxGridBlocks), smem);
      return plan;
    }
  }
  plan.smem_limit = opt_in_smem(one_fn, p.device, false);
  plan.smem_bytes = slice_smem(1, kHybridThreads);
  // With `pair`, rows past one pair CTA go to clusters of pair CTAs, not to one
  // 1024-thread CTA per SM (kHybridSmallThreads says why).
  if (pair == nullptr && plan.smem_bytes <= plan.smem_limit &&
      resident_blocks(one_fn, p.device, kHybridThreads, plan.smem_bytes) > 0) {
    // One CTA per row; a grid-stride loop only past kMaxGridBlocks CTAs.
    one_shot_grid(plan, p.device, one_fn, kHybridThreads, std::min(plan_rows(p), kMaxGridBlocks), plan.smem_bytes);
    return plan;
  }
  plan.status = PlanStatus::row_exceeds_smem;
  if (max_cluster < 2) return plan;
  bool fits = false;
  for (const HybridShape& shape : shapes) {
    const int64_t limit = opt_in_smem(shape.fn, p.device, false);
    int k = 2;
    const int most = std::min(max_cluster, shape.max_cluster);
    while (k < most && ceil_div(packs, k) * pack * kElem > shape.slice_bytes) ++k;
    Plan best = plan;
    for (; k <= most && ceil_div(packs, k) * pack * kElem <= shape.slice_bytes; ++k) {
      const int64_t smem = slice_smem(k, shape.threads);
      plan.threads = shape.threads;
      plan.smem_limit = limit;
      plan.cluster_size = k;
      plan.smem_bytes = smem;
      if (smem > limit || resident_blocks(shape.fn, p.device, shape.threads, smem) < shape.min_resident) continue;
      fits = true;
      allow_large_clusters(shape.fn, p.device);
      plan.active_clusters = clusters_resident(shape.fn, p.device, shape.threads, smem, k);
      if (plan.active_clusters == 0) continue;
      // The size that keeps the most CTAs resident at once (see above).
      if (best.status == PlanStatus::ok && k * plan.active_clusters <= best.cluster_size * best.active_clusters) {
        continue;
      }
      plan.status = PlanStatus::ok;
      one_shot_grid(plan, p.device, shape.fn, shape.threads, k * std::min(plan_rows(p), kMaxGridBlocks / k), smem);
      best = plan;
    }
    if (best.status == PlanStatus::ok) return best;
  }
  plan.status = fits ? PlanStatus::cluster_not_resident : PlanStatus::row_exceeds_smem;
  return plan;
}

// block_hybrid needs TMA bulk copies (sm_90): the plan that says so on an older GPU.
inline Plan hybrid_needs_sm90() {
  Plan plan = new_plan(Variant::block_hybrid);
  plan.status = PlanStatus::needs_sm90;
  return plan;
}

template <typename T>
Plan plan_block_hybrid(const Problem& p) {
  constexpr int kElem = static_cast<int>(sizeof(T));
  if (device_properties(p.device).major < kClusterMinMajor) return hybrid_needs_sm90();
  int64_t realigned = 0;
  const int pack = realigned_pack<T>(p, realigned);
  const void* fn = kernel_for_pack<BlockHybridFamily, T>(pack, kHybridThreads, realigned != 0);
  const HybridShape one_per_sm{fn, kHybridThreads, kHybridClusterSliceBytes, 1};
  // Two 512-thread CTAs per SM: on GPUs of kHybridPairMinSmBandwidth per SM one per row
  // where one holds the row and clusters of them past it, elsewhere the 16-bit rows past
  // one 1024-thread CTA; clusters while kMaxClusterSize of them hold the row (to ~2.3 MB),
  // 1024-thread CTAs past that.
  const bool pairs = device_properties(p.device).dram_bytes_per_sm_s() >= kHybridPairMinSmBandwidth;
  const HybridShape two_per_sm{kernel_for_pack<BlockHybridFamily, T>(pack, kHybridSmallThreads, realigned != 0),
                               kHybridSmallThreads, kHybridSmallSliceBytes, 2};
  const auto smem_bytes = [&](int64_t left) { return left > 0 ? round_up(left * pack * kElem, 16) + kTmaAlignSlack : 0; };
  const int bytes = hybrid_bytes(pack * kElem);
  Plan plan = kElem == 2 || pairs
                  ? plan_hybrid_block<T>(p, fn, {two_per_sm, one_per_sm}, pack, bytes, smem_bytes, kMaxClusterSize,
                                         pairs ? &two_per_sm : nullptr)
                  : plan_hybrid_block<T>(p, fn, {one_per_sm}, pack, bytes, smem_bytes, kMaxClusterSize);
  plan.realigned = realigned;
  return plan;
}

// ---------------------------------------------------------------------------------
// Backward launch constants
// ---------------------------------------------------------------------------------

// The backward keeps hybrid_grad_bytes() of y AND of dy per thread in registers
// (GradSlice; with 16-byte packs 64 KB of each per 1024-thread CTA for fp32, 32 KB for
// 16-bit values) and the rest of both rows in shared memory (227 KB on sm_90): rows up
// to fp32 ~45 K and 16-bit ~74 K columns, one CTA per SM with both rows in flight.
// Where it stands: between the one-CTA register backward (fp32 16384) and the clusters, the widths where
// block_smem stages both rows through registers a few packs at a time (fp32 to ~28 K)
// and 2-CTA clusters wait for each other (fp32 32768: 89.4% of copy on an H200,
// 2026-11-23, benchmarks/h200/backward-fp32-cols128-262144.md).
// Bytes of each per thread: 64 for 4-byte values (16 + 16 registers of the 64 a
// 1024-thread CTA has; no spills under ptxas), 32 for 16-bit ones (their packs of 8
// spill at 64: conversion temporaries). fp32 20480-32768, 1 GiB, % of copy, 64 against
// 32 bytes: H100 101.1-99.2 against 97.7-94.4, H200 100.2-97.5 against 94.4-91.8
// (2026-11-24, benchmarks/tuning/hybrid_backward_experiment.sh's question, results in
// benchmarks/h100_2026-11-24/ and benchmarks/h200_2026-11-24/hybrid_b64_*.md).
// Rows read in three parts (edges: common/row_edges.cuh) keep 16-bit values to one
// 16-byte pack of each: with the edges' dx inlined, 32 bytes spilled 32 bytes in the bf16
// instance (16 measured: benchmarks/h200_2026-11-26d/edges2_*, h100_2026-11-26d/edges2_*).
// With that dx a call of its own (write_edge_grad) 32 bytes no longer spill: not yet
// measured.
constexpr int hybrid_grad_bytes(int elem, int pack_bytes, bool edges = false) {
  return elem == 4 ? std::min(64, 8 * pack_bytes) : std::min(edges ? 16 : 32, 4 * pack_bytes);
}

// The backward's clusters: CTAs of kHybridSmallThreads threads, two per SM, while at
// most kMaxClusterSize of them hold the row (fp32: to ~1.4 MB of y) or
// kHybridGradPairMax16BitCluster (16-bit: to ~576 KB), else of kHybridThreads, one per SM:
// one CTA of an SM loads while the other sums, waits for its peers and writes. H200,
// 1 GiB, % of copy, softmax backward, two rounds, one 1024-thread CTA per SM -> two
// 512-thread ones (benchmarks/h200_2026-11-27b/bp512_*): fp32 131072 / 262144 99.5 / 96.1
// -> 101.3 / 98.4 (8 and 16 CTAs), bf16 131072 / 262144 100.5 / 100.9 -> 101.7 / 101.0
// (4 and 8 CTAs), but bf16 524288 over 16 of them lost (99.2 -> 94.9; 14 clusters, 112
// SMs, against 15 of 8 1024-thread CTAs).
constexpr int kHybridGradPairMax16BitCluster = 8;

// ---------------------------------------------------------------------------------
// Backward kernel: packs [0, R) of the rows of y and dy in registers, [R, end) of
// both in shared memory (y's part, then dy's at a 16-byte boundary), requested by
// thread 0 as kHybridPieces pairs of bulk copies (one mbarrier per pair) before the
// register loads; each piece is summed as it lands, ONE block reduction, then the
// output pass from registers and shared memory. One read of y and dy, one write of dx.
// Misaligned views (4- and 8-byte packs: cp.async, 2-byte: synchronous copies) read
// back only the packs each thread copied, as forward.
// ---------------------------------------------------------------------------------

__host__ __device__ __forceinline__ int64_t hybrid_grad_dy_offset(int64_t smem_packs, int pack_bytes) {
  return round_up(smem_packs * pack_bytes, int64_t{16});
}

// The dynamic shared memory a CTA asks for `smem_packs` packs of y and of dy (dy's at
// hybrid_grad_dy_offset), with the slack that puts the bulk copies' buffer on 128 bytes.
inline int64_t hybrid_grad_smem_bytes(int64_t smem_packs, int pack_bytes) {
  return smem_packs > 0 ? 2 * hybrid_grad_dy_offset(smem_packs, pack_bytes) + kTmaAlignSlack : 0;
}

#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
// Thread 0: the row's packs past the registers' (yr, gr: their first) requested into ys
// and gs as the pairs of bulk copies `pieces` cuts them in, pair c completing on full[c].
template <typename T, int N>
__device__ __forceinline__ void request_grad_pieces(T* ys, T* gs, const T* yr, const T* gr,
                                                    const HybridPieces& pieces, uint64_t* full) {
  constexpr int kPackBytes = N * static_cast<int>(sizeof(T));
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#pragma unroll
  for (int c = 0; c < kHybridPieces; ++c) {
    const uint32_t bytes = static_cast<uint32_t>(pieces.count(c)) * kPackBytes;
    if (bytes == 0) continue;
    const int64_t off = pieces.first(c) * N;
    mbarrier_arrive_expect_tx(&full[c], 2 * bytes);
    bulk_copy_to_shared(ys + off, yr + off, bytes, &full[c]);
    bulk_copy_to_shared(gs + off, gr + off, bytes, &full[c]);
  }
}

// `sum` plus this thread's part of the sum over those packs, each pair added as it lands
// (`it`: the CTA's row count so far, the barriers' phase).
template <typename T, int N>
__device__ __forceinline__ float add_grad_pieces(float sum, const T* ys, const T* gs, const HybridPieces& pieces,
                                                 uint64_t* full, int it, bool log) {
#pragma unroll
  for (int c = 0; c < kHybridPieces; ++c) {
    const int count = pieces.count(c);
    if (count == 0) continue;
    mbarrier_wait_parity(&full[c], static_cast<uint32_t>(it & 1));
    const int64_t off = pieces.first(c) * N;
    sum += grad_sum_packs<Cache::kNormal, false, T, N>(ys + off, gs + off, static_cast<T*>(nullptr),
                                                      static_cast<T*>(nullptr), count, log);
  }
  return sum;
}
#endif

// kEdges: rows read as head, whole packs and tail (common/row_edges.cuh), as forward.
// kThreads: kHybridThreads (one CTA per SM) or kHybridSmallThreads (two), 64 registers
// a thread either way.
// Exchange: HybridCluster (block_hybrid), or HybridGlobal (split_hybrid).
template <typename T, int N, bool kEdges = false, int kThreads = kHybridThreads, typename Exchange = HybridCluster>
__global__ void __launch_bounds__(kThreads, kHybridThreads / kThreads)
    softmax_backward_block_hybrid_kernel(GradArgs<T> a) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
  constexpr int kPackBytes = N * static_cast<int>(sizeof(T));
  constexpr int B = hybrid_grad_bytes(static_cast<int>(sizeof(T)), kPackBytes, kEdges);
  constexpr bool kBulk = kPackBytes == 16;
  constexpr bool kAsync = !kBulk && kPackBytes >= 4;
  extern __shared__ __align__(kTmaBufferAlign) unsigned char smem_raw[];
  __shared__ __align__(8) uint64_t full[kHybridPieces];
  __shared__ typename Exchange::template Shared<float> exchange;
  // kEdges: every row's whole packs (as many in each) start at its column `head`.
  const Exchange cl(a, kEdges ? edge_body<N>(a.cols) : a.cols / N, exchange);
  const int G = blockDim.x;
  const int t = threadIdx.x;
  const int reg_packs = min(cl.packs(), G * (B / kPackBytes));
  const int smem_packs = cl.packs() - reg_packs;
  // Rows read in three parts keep the buffers where nvcc puts them: the aligned base,
  // a computed pointer where smem_raw's is a constant, spilled 16 bytes there (bf16).
  unsigned char* const smem = kEdges ? smem_raw : tma_aligned(smem_raw);
  T* ys = reinterpret_cast<T*>(smem);
  T* gs = reinterpret_cast<T*>(smem + hybrid_grad_dy_offset(smem_packs, kPackBytes));
  const HybridPieces pieces(smem_packs, kBulk);
  if constexpr (kBulk) init_piece_barriers(full);
  int it = 0;
  for (int64_t row = cl.first_row(); row < a.rows; row += cl.row_step(), ++it) {
    const int64_t first_col = (kEdges ? row_head<T, N>(a.y + row * a.y_stride, a.cols) : 0) + cl.first_col(N);
    const bool edges = kEdges && cl.rank() == 0;
    if (edges) {
      prefetch_edge<T, N>(a.y + row * a.y_stride, a.cols, t);
      prefetch_edge<T, N>(a.dy + row * a.dy_stride, a.cols, t);
    }
    const T* yr = a.y + row * a.y_stride + first_col;
    const T* gr = a.dy + row * a.dy_stride + first_col;
    const int64_t first_smem = static_cast<int64_t>(reg_packs) * N;
    if constexpr (kBulk) {
      if (it > 0) __syncthreads();  // every thread is done with the previous row's cache
      if (t == 0) request_grad_pieces<T, N>(ys, gs, yr + first_smem, gr + first_smem, pieces, full);
    } else {
      copy_own_packs_to_shared<T, N>(ys, yr + first_smem, smem_packs);
      copy_own_packs_to_shared<T, N>(gs, gr + first_smem, smem_packs);
    }
    GradSlice<T, N, B> s;
    s.load(yr, gr, t, G, reg_packs);
    float sum = s.sum(a.log);
    if (edges) sum += edge_grad_term<T, N>(a.y + row * a.y_stride, a.dy + row * a.dy_stride, a.cols, t, a.log);
    if constexpr (kBulk) {
      sum = add_grad_pieces<T, N>(sum, ys, gs, pieces, full, it, a.log);
    } else {
      if constexpr (kAsync) asm volatile("cp.async.wait_all;\n" ::: "memory");
      sum += grad_sum_packs<Cache::kNormal, false, T, N>(ys, gs, static_cast<T*>(nullptr), static_cast<T*>(nullptr),
                                                        smem_packs, a.log);
    }
    sum = block_allreduce(sum, SumOp());
    if (cl.k_ctas() > 1) sum = cl.sum(exchange, sum, it, row);
    T* xr = a.dx + row * a.cols + first_col;
    s.write(xr, t, G, reg_packs, sum, a.log);
    grad_write_packs<Cache::kNormal, T, N>(ys, gs, xr + first_smem, smem_packs, sum, a.log);
    if constexpr (kEdges) {
      if (cl.rank() == 0) {
        const int64_t r = rematerialize(row);
        write_edge_grad<T, N>(a.y + r * a.y_stride, a.dy + r * a.dy_stride, a.dx + r * a.cols, a.cols, t, sum,
                              a.log);
      }
    }
  }
#endif
}

// ---------------------------------------------------------------------------------
// Backward plan
// ---------------------------------------------------------------------------------

template <typename Exchange>
struct HybridBackwardFamily {
  template <typename T, int N, bool kEdges> static const void* instance(int threads) {
    if (threads == kHybridSmallThreads) {
      return reinterpret_cast<const void*>(
          &softmax_backward_block_hybrid_kernel<T, N, kEdges, kHybridSmallThreads, Exchange>);
    }
    return reinterpret_cast<const void*>(&softmax_backward_block_hybrid_kernel<T, N, kEdges, kHybridThreads, Exchange>);
  }
  template <typename T, int N> static const void* get(int threads, bool edges) {
    if constexpr (N * sizeof(T) == 16) {
      if (edges) return instance<T, N, true>(threads);
    }
    return instance<T, N, false>(threads);
  }
};
using BlockHybridBackwardFamily = HybridBackwardFamily<HybridCluster>;

// max_cluster 1: one CTA per row (the backward's auto asks this).
template <typename T>
Plan plan_block_hybrid_backward(const Problem& p, int max_cluster = kMaxClusterSize) {
  constexpr int kElem = static_cast<int>(sizeof(T));
  if (device_properties(p.device).major < kClusterMinMajor) return hybrid_needs_sm90();
  int64_t realigned = 0;
  const int pack = realigned_pack<T>(p, realigned);
  const void* fn = kernel_for_pack<BlockHybridBackwardFamily, T>(pack, kHybridThreads, realigned != 0);
  const HybridShape one_per_sm{fn, kHybridThreads, kHybridClusterSliceBytes, 1};
  // Clusters of two 512-thread CTAs per SM first (kHybridGradPairMax16BitCluster says
  // why and how far), then of one 1024-thread CTA per SM.
  const HybridShape two_per_sm{kernel_for_pack<BlockHybridBackwardFamily, T>(pack, kHybridSmallThreads, realigned != 0),
                               kHybridSmallThreads, kHybridClusterSliceBytes, 2,
                               kElem == 2 ? kHybridGradPairMax16BitCluster : kMaxClusterSize};
  const auto smem_bytes = [&](int64_t left) { return hybrid_grad_smem_bytes(left, pack * kElem); };
  const int bytes = hybrid_grad_bytes(kElem, pack * kElem, realigned != 0);
  Plan plan = plan_hybrid_block<T>(p, fn, {two_per_sm, one_per_sm}, pack, bytes, smem_bytes, max_cluster);
  plan.realigned = realigned;
  return plan;
}

}  // namespace softmax
}  // namespace sk
