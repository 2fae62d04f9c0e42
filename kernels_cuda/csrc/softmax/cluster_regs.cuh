// cluster_regs: a row split over K CTAs (K = 1: a plain block; K = 2..16: a
// thread-block cluster, sm_90+), each of the G threads of a row slice keeping B bytes
// of it in registers (B a compile-time 32, 64 or 128: 8-32 fp32 or 16-64 fp16/bf16
// values, at most 32 registers of data), loaded as B/16 packs of 16 bytes (narrower
// when alignment demands), all in flight at once; slots past the slice hold -inf.
// Thread t of a slice holds packs t, t + G, ... (coalesced). Rows narrower than
// kRegsMinBlockBytes share a CTA: R = blockDim / G rows, one per G threads.
// Per thread one online pair (max m_t, sum of exp(x - m_t)); fp32 registers then take
// exp(x - m_t) (softmax: the output is one multiply by exp(m_t - m) / d) or x - m_t
// (log-softmax); fp16/bf16 stay packed, two values per register (their max is taken
// packed), and the sum and output passes convert them on the fly (RegSlice). The pairs
// of a slice are merged with ONE barrier (each warp's pair to shared memory, then every
// warp merges its slice's warp pairs with shuffles; warp_merge_pairs: max, one
// rescale, sum, cheaper than a merge per butterfly step). With K > 1 each CTA then
// sends its pair into slot [rank] of every peer's shared memory, each CTA waits until
// its K slots have landed (ClusterSlots: st.async counted on an mbarrier, no cluster
// barrier), and every warp merges its K local slots. No CTA touches a peer's shared
// memory after its sends, so none waits for its peers at exit. (Polling tagged 64-bit slots instead of the barrier measured the same on an
// H200: fp32 32768/65536 89.7/85.4% vs 90.4/86.2%, bf16 65536 88.8% vs 88.6%.) The
// exchange is what clusters cost: skipping it (wrong results, timing only) measured
// 96.5/97.8% (fp32 32768/65536) and 97.6% (bf16 65536), so the loss is each CTA
// waiting, registers held, for the slowest CTA of its cluster.
// One read and one write of global memory, no shared-memory row cache.
// Grid: one CTA (cluster) per R rows, one-shot, no loop in the kernel (a 2-D grid
// past kMaxGridBlocks).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <cooperative_groups.h>

#include "common/block_reduce.cuh"
#include "common/cluster.cuh"
#include "common/grad.cuh"
#include "common/online.cuh"
#include "common/packs.cuh"
#include "common/reg_slice.cuh"
#include "common/row_edges.cuh"
#include "softmax/geometry.cuh"

namespace sk {
namespace softmax {

// ---------------------------------------------------------------------------------
// Launch constants
// ---------------------------------------------------------------------------------

// cluster_regs: each thread keeps kRegsMinBytes32 (fp32) or kRegsMinBytes16 (fp16/bf16)
// bytes of its row in registers, or kRegsMaxBytes where that is what lets at most
// kRegsMaxThreads threads hold the slice, in at most kRegsMaxLoads loads (common/
// reg_slice.cuh: scalar fp32 packs hold 64 bytes, scalar fp16/bf16 packs 32). Measured
// on an H200 (1 GiB inputs, % of copy bandwidth, 2026-11-21): 32 bytes per thread ties
// with 64 for fp32 but loses for bf16 (2048/4096/8192: 84.3/84.6/80.2 vs
// 98.0/95.8/95.8: twice the threads, twice the reduction work per byte); 128 bytes ties
// with 64 (bf16 4096/16384: 97.0/95.9 vs 95.8/97.5). __launch_bounds__ keeps 2-4 blocks
// of kRegsMaxThreads resident per SM (regs_min_blocks), so that the compiler re-derives
// cheap values (addresses, conversions) instead of holding them. Rows past
// kRegsMaxThreads x kRegsMaxBytes (64 KB) are split over the smallest cluster (2..16
// CTAs, sm_90) whose slices fit (rows up to 1 MB; 64 KB without clusters). Rows
// narrower than kRegsMinBlockBytes share a CTA (a power of two of them) so that each
// CTA moves at least that much: 4 KB CTAs measured slow (bf16 2048 with 4 KB per CTA:
// 84%); 16 KB measured no better than 8 KB.
constexpr int kRegsMinBytes32 = 64;
constexpr int kRegsMinBytes16 = 64;
constexpr int kRegsMaxBytes = 128;
constexpr int kRegsMaxThreads = 512;
constexpr int64_t kRegsMinBlockBytes = 8 * 1024;
// A row up to kRegsWideThreads x kRegsMaxBytes (128 KB) still goes to ONE CTA, of 1024
// threads, rather than to a cluster: with the whole row's loads in flight, one such CTA
// per SM keeps the memory pipe as busy as several smaller ones, and it waits for no
// peer. Measured on an H200 (1 GiB, % of copy): fp32 32768 98.3 vs 90.5 for a 2-CTA
// cluster of 512 threads; bf16 65536 95.2 vs 88.4. Clusters of 1024-thread CTAs lose
// (fp32 65536: 84.4 vs 87.0 for 4 x 512), so clusters keep kRegsMaxThreads.
constexpr int kRegsWideThreads = 1024;
// Registers per thread that __launch_bounds__ holds the kernel to (32, 40 or 64: 4, 3 or
// 2 blocks of 512 threads per SM) for B bytes per thread in packs of N elements of
// `elem` bytes; fp16/bf16 need a few more registers (conversions), narrow packs more
// still (an address per pack: 16 scalar fp32 packs spill 52 bytes at 40 registers since
// exp(x - m) takes a subtract and a multiply, online.cuh). The tightest bounds that
// ptxas meets without spilling.
constexpr int regs_budget(int elem, int n, int bytes) {
  return elem == 4 && n > 1 && bytes <= 32   ? 32
         : elem == 4 && n == 1 && bytes > 32 ? 64
         : (n * elem >= 8 || elem == 4) && bytes <= 64 ? 40
                                                        : 64;
}
// Rows read in three parts (edges: common/row_edges.cuh) need more than 40 registers:
// at 40 those instances spilled 4-8 bytes (ptxas sm_90); they take 48 (two 512-thread
// CTAs per SM instead of three).
constexpr int regs_min_blocks(int elem, int n, int bytes, int threads, bool edges = false) {
  const int budget = regs_budget(elem, n, bytes);
  return std::max(1, 65536 / ((edges && budget == 40 ? 48 : budget) * threads));
}

// 16-bit rows past one kRegsMaxThreads CTA (over 64 KB), on GPUs of
// kRegsUnpackMinSmBandwidth or more of DRAM bandwidth per SM: clusters of any size K
// (2-16, the smallest whose slices fit: rows to 512 KB; to 960 KB with packs in shared
// memory too, kRegsUnpackMaxSmemPacks) of CTAs of kRegsUnpackThreads,
// kRegsUnpackMidThreads or kRegsUnpackMinThreads threads (unpack_shape picks), each
// thread loading kRegsUnpackBytes of the row in 16-byte packs and holding them as fp32
// (softmax_cluster_unpacked_kernel: 64 values, each exp computed once, where packed
// values take every exp twice), kRegsUnpackSmThreads threads per SM. This is
// QuACK's shape for these rows (4 CTAs of 256 threads at bf16 65536, 8 at 131072). The
// H200's MUFU pipe was 49-63% busy on the packed 16-bit forward (Nsight Compute, benchmarks/
// h200_2026-11-26i/ncu_*), where a second CTA per SM must load while the first computes.
// benchmarks/tuning/quack_shape_experiment.cu (H200, 1 GiB, % of copy, session 61 call
// 54, benchmarks/h200_2026-11-28/quack_shape_h200_b6b160a.txt) took QuACK's shape apart:
// bf16 65536 / 131072 / 262144 97.5 / 96.8 / 91.7 with packs loaded to registers and
// exps kept, 94.2 / 92.4 / 86.2 with every exp computed twice, 88.1 / 88.3 / 85.5 with
// the packs staged through shared memory by cp.async as QuACK does; CTAs of 512 threads
// (one per SM at 128 registers) 77.7 / 71.8 / 70.1. `auto` in the same call (block_hybrid)
// 94.0 / 93.9 / 90.8.
constexpr int kRegsUnpackThreads = 256;
constexpr int kRegsUnpackMidThreads = 192;
constexpr int kRegsUnpackMinThreads = 128;
constexpr int kRegsUnpackBytes = 128;
constexpr int kRegsUnpackSmThreads = 768;  // 3, 4 or 6 CTAs per SM: 80 registers (ptxas sm_90: no spills)
// Where the register-only shape fills under kRegsUnpackSmemBusyNum / kRegsUnpackSmemBusyDen
// of the GPU's CTA slots with co-resident clusters (or none serves the row), each thread
// may also hold up to kRegsUnpackMaxSmemPacks packs (16 bytes of the row) as fp32 in
// shared memory (kSmem below), in the shape with the most clusters co-resident: fewer
// CTAs a row, so more rows in flight. H200, 1 GiB, % of copy, softmax / log-softmax,
// register-only -> with shared memory (benchmarks/h200_2026-11-28/
// smem_compare_h200_74ab011.txt, session 63 call 70): bf16 151936 83.5 / 82.4 -> 93.0 /
// 89.5 (5 CTAs of 256 threads, 7 packs each in shared memory, 69 clusters against 10 CTAs'
// 30), 200000 82.7 / 81.6 -> 91.6 / 88.0 (9 CTAs of 192 threads against 13 of 256), fp16
// alike. 8 packs (192 KB a SM) lost 6-10 points wherever taken (bf16 65536 98.2 -> 90.8,
// 262144 92.0 -> 86.4, same call): the L1 that shared memory leaves (28 KB of 256) is
// where the loads in flight land, and too little of it throttles them; 7 (168 KB) leave
// 60 KB. Shapes that fill the GPU well keep registers only (65536-131072 lost with
// shared memory in that call, at 2-4 CTAs), and so do those whose shape with shared
// memory fills no more CTA slots: bf16 262144 over 16 CTAs (21 clusters, 336 CTAs) lost
// 91.8 / 90.8 -> 89.7 / 89.8 over 9 with 7 packs each in shared memory (37 clusters, 333
// CTAs; smemland_compare_h200_faf70b6.txt, call 71), where every width whose CTA slots
// filled more gained: bf16 151936 / 153600 / 163840 / 180224 / 200000 / 229376 83.5 /
// 84.2 / 88.4 / 89.6 / 82.6 / 86.4 -> 93.8 / 95.6 / 95.1 / 94.7 / 92.4 / 95.1 (log-softmax
// 94.0 / 96.2 / 95.7 / 94.6 / 92.6 / 95.8), fp16 alike; 393216 (block_hybrid before)
// 81.2 -> 86.8.
constexpr int kRegsUnpackMaxSmemPacks = 7;
constexpr int kRegsUnpackSmemBatch = 4;       // packs loaded at once, converted, their exps stored
constexpr int kRegsUnpackSmemPackBytes = 32;  // 8 values as fp32
constexpr int kRegsUnpackSmemBusyNum = 7;
constexpr int kRegsUnpackSmemBusyDen = 8;
constexpr int64_t kRegsUnpackMinSmBandwidth = int64_t{30} * 1000 * 1000 * 1000;
// ...where each CTA's slice is whole (kRegsUnpackThreads x kRegsUnpackBytes), or nearly
// whole in wide rows (below). H200, 1 GiB, % of copy, softmax / log-softmax,
// block_hybrid (`auto` before) -> these clusters (benchmarks/h200_2026-11-28/
// unpack3_compare_*_h200_94bd42b.txt, call 58): whole slices bf16 65536 / 81920 / 98304 /
// 131072 / 196608 94.0 / 83.6 / 89.7 / 93.7 / 84.1 -> 97.7 / 96.2 / 97.5 / 96.6 / 92.8
// (log-softmax alike), slices 93-94% full (bf16 139264 / 151936) 87.2 / 75.0 -> 88.4 /
// 83.5, but 90% full (bf16 73728, 5 CTAs) 94.7 / 95.5 -> 91.6 / 90.4 and 75-81% full
// (36872 / 40000, 3 CTAs) mixed: softmax +3.3 / +3.7, log-softmax -2.0 / -2.6 (fp16
// 40000 alike).
// Rows whose slices are not whole take them only past kRegsUnpackPartialMinRowBytes (two
// of block_hybrid's 144 KB pair CTAs, which hold such rows well: bf16 139264, 9 slices 94%
// full, softmax / log-softmax 87.9 / 94.4 -> 88.5 / 87.3, call 59), and at least
// kRegsUnpackMinFill / kRegsUnpackMinFillOf full (bf16 / fp16 151936, 10 slices 93% full:
// 75.1 / 79.0 -> 83.5 / 82.5 and 76.3 / 79.3 -> 84.2 / 83.6, call 59). Whole slices
// measured a gain at every width from 49152 to 262144 in both calls.
constexpr int64_t kRegsUnpackMinFill = 29;
constexpr int64_t kRegsUnpackMinFillOf = 32;
constexpr int64_t kRegsUnpackPartialMinRowBytes = 288 * 1024;
// CTAs of 192 and 128 threads (session 62) made more widths' slices whole or nearly:
// bf16 73728 in 6 whole slices of 192 threads against 5 of 256 90% full; and in rows to
// kRegsUnpackNarrowMaxRowBytes (one block_hybrid CTA's) slices kRegsUnpackNarrowMinFill /
// kRegsUnpackMinFillOf full or more: bf16 40000 in 5 slices of 128 threads 98% full.
// H200, 1 GiB, % of copy, softmax / log-softmax, `auto` before -> after (benchmarks/
// h200_2026-11-28/width_compare_*_h200_043a75d.txt, call 64): bf16 73728 95.4 / 95.6 ->
// 98.1 / 97.8, 40000 87.6 / 93.3 -> 98.3 / 98.1, fp16 alike. Where slices are not whole
// between the two bounds, block_hybrid's pair CTAs hold the rows as well or better (every
// fill taken, call 63: 128256, 8 slices 98% full, 94.0 / 93.4 -> 93.8 / 93.0; 139264, 9
// of 94%, 88.0 / 94.9 -> 87.4 / 86.7). Shapes with shared memory in fewer CTAs hold them
// better (unpack_slices_nearly_full).
constexpr int64_t kRegsUnpackNarrowMinFill = 31;
constexpr int64_t kRegsUnpackNarrowMaxRowBytes = 144 * 1024;

// ---------------------------------------------------------------------------------
// Forward kernel
// ---------------------------------------------------------------------------------

// kEdges: rows read as head, whole packs and tail (common/row_edges.cuh).
template <typename T, int N, int B, int kThreads, bool kEdges = false>
__global__ void __launch_bounds__(kThreads, regs_min_blocks(sizeof(T), N, B, kThreads, kEdges))
    softmax_cluster_regs_kernel(RowsArgs<T> a) {
  __shared__ OnlinePair warp_pairs[kThreads / 32];
  int k_ctas = 1;
  int rank = 0;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
  namespace cg = cooperative_groups;
  cg::cluster_group cluster = cg::this_cluster();
  k_ctas = static_cast<int>(cluster.num_blocks());  // 1 without a cluster launch
  rank = static_cast<int>(cluster.block_rank());
#endif
  // One unit of R rows per CTA (per cluster): a 2-D grid when there are more units than
  // one grid dimension takes; the CTAs of a cluster share the unit, so they return (or
  // not) together.
  const int G = a.group_width;   // threads per row slice, a multiple of 32
  const int R = blockDim.x / G;  // rows per CTA (1 when K > 1)
  const int64_t unit = static_cast<int64_t>(blockIdx.y) * (gridDim.x / k_ctas) + blockIdx.x / k_ctas;
  if (unit >= ceil_div(a.rows, static_cast<int64_t>(R))) return;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
  // Slot [rank]: the pair of the cluster's CTA `rank`, sent there by that CTA. Peers send
  // only after this barrier's wait, i.e. once we have started (a CTA's shared memory
  // exists only while it runs). Arrived now, waited on just before the first send, long
  // after every peer has arrived.
  __shared__ ClusterSlots<OnlinePair> exchange;
  if (k_ctas > 1) cluster_slots_init(&exchange, 1);
#endif
  const int g = threadIdx.x / G;
  const int t = threadIdx.x - g * G;
  const int64_t row = unit * R + g;
  // kEdges: the row's whole packs start at column `head`; its edges go to the threads
  // 0 .. count - 1 of its group in the cluster's first CTA.
  const int head = kEdges ? row_head<T, N>(a.x + row * a.x_stride, a.cols) : 0;
  const int packs = static_cast<int>(kEdges ? edge_body<N>(a.cols) : a.cols / N);  // rows of at most 1 MB
  const int first = min(packs, rank * a.slice_packs);
  const int local = row < a.rows ? min(packs, first + a.slice_packs) - first : 0;  // last CTA: rows may not exist
  const int64_t first_col = head + static_cast<int64_t>(first) * N;
  RegSlice<T, N, B> s;
  s.load(a.x + row * a.x_stride + first_col, t, G, local);
  OnlinePair acc = s.reduce(a.log, t, G, local);
  if constexpr (kEdges) {
    if (row < a.rows && rank == 0) {
      const T* xr = a.x + row * a.x_stride;
      acc = online_fold(acc, edge_value(xr, RowEdges<T, N>(xr, a.cols), t));
    }
  }
  acc = slice_merge_pairs(acc, warp_pairs, g, G);
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
  if (k_ctas > 1) {  // the exchange of the K pairs
    cluster_wait();
    acc = cluster_merge_pairs(exchange, acc, 0, k_ctas, rank);
    // Each CTA may exit as soon as its slice is written: no final cluster barrier,
    // unlike cluster_smem, which reads its peers' slots.
  }
#endif
  if constexpr (kEdges) {
    if (row >= a.rows) return;
    const RowNorm n = make_row_norm(acc.m, acc.d, a.log);
    if (local > 0) s.write(a.y + row * a.cols + first_col, t, G, local, n, a.log);
    if (rank == 0) {
      const int64_t r = rematerialize(row);
      write_edge<T, N>(a.x + r * a.x_stride, a.y + r * a.cols, a.cols, t, n, a.log);
    }
  } else {
    if (local == 0) return;
    s.write(a.y + row * a.cols + first_col, t, G, local, make_row_norm(acc.m, acc.d, a.log), a.log);
  }
}

// The unpacked kernel's packs held as words of two 16-bit values: a pack loaded into its
// four words where `here`, else four words of -inf (whose exps are 0).
template <typename T, int N>
__device__ __forceinline__ void load_words(unsigned (&w)[4], const T* src, bool here) {
  w[0] = w[1] = w[2] = w[3] = neg_inf_word<T>();
  if (here) {
    const Pack<T, N> r = load_pack<Cache::kNormal, T, N>(src);
    memcpy(w, &r, sizeof(r));
  }
}

// Value i (0-7) of a pack held as words.
template <typename T>
__device__ __forceinline__ float word_value(const unsigned (&w)[4], int i) {
  return half_word_to_float(w[i / 2], i % 2 == 1, static_cast<T*>(nullptr));
}

// The maximum of R packs held as words (NaN-propagating; exact, so taken on the words
// before any is converted).
template <typename T, int R>
__device__ __forceinline__ float words_max(const unsigned (&w)[R][4]) {
  unsigned mw = w[0][0];
#pragma unroll
  for (int j = 0; j < R; ++j) {
#pragma unroll
    for (int h = 0; h < 4; ++h) mw = max2_nan(mw, w[j][h], static_cast<T*>(nullptr));
  }
  return nan_max(half_word_to_float(mw, false, static_cast<T*>(nullptr)),
                 half_word_to_float(mw, true, static_cast<T*>(nullptr)));
}

// The unpacked clusters (G threads a CTA, kRegsUnpackWidths): one row per cluster, CTA `rank` taking
// packs [rank x slice_packs, ...) of it, thread t packs t, t + G, ... of that slice, all
// loaded before any is converted to fp32. Its own kernel rather than an instance of
// softmax_cluster_regs_kernel: that one, with its rows-per-CTA geometry, per-pack bounds
// and the mode chosen per value, measured 82.0% of copy at bf16 65536 against this
// shape's 97.8 in the same harness (benchmarks/h200_2026-11-28/
// quack_shape2_h200_6fa9f10.txt). Here the slice's bounds and the mode are branched on
// once per CTA (kFull, kLog), and the width G is compiled in (the packs' offsets immediate).
// kSmem: each thread also holds S more packs (S: the slice's packs per thread past the P
// in registers, at most kRegsUnpackMaxSmemPacks) as fp32 in dynamic shared memory that
// only it reads, so that fewer CTAs hold a row. They are loaded, converted and their exps
// taken kRegsUnpackSmemBatch packs at a time, each batch against its own maximum (one
// pair per batch), while the register packs' loads are in flight. Layout: float4 planes
// [pack s][half][thread], each access a warp's contiguous 512 bytes (no bank conflicts).
template <typename T, int G, bool kFull, bool kLog, bool kSmem = false>
__global__ void __launch_bounds__(G, kRegsUnpackSmThreads / G) softmax_cluster_unpacked_kernel(RowsArgs<T> a) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
  constexpr int N = 16 / static_cast<int>(sizeof(T));
  constexpr int P = kRegsUnpackBytes / 16;
  constexpr int SB = kRegsUnpackSmemBatch;
  constexpr int kBatches = kSmem ? (kRegsUnpackMaxSmemPacks + SB - 1) / SB : 0;
  __shared__ OnlinePair warp_pairs[G / 32];
  __shared__ ClusterSlots<OnlinePair> exchange;
  extern __shared__ float4 held[];
  const int k = cluster_ctas();
  // One row per cluster (a 2-D grid past kMaxGridBlocks): its CTAs return together.
  const int64_t row = static_cast<int64_t>(blockIdx.y) * (gridDim.x / k) + blockIdx.x / k;
  if (row >= a.rows) return;
  cluster_slots_init(&exchange, 1);
  const int64_t packs = a.cols / N;
  const int64_t first = min(packs, static_cast<int64_t>(cluster_rank()) * a.slice_packs);
  const int t = threadIdx.x;
  const int local = static_cast<int>(min(packs, first + a.slice_packs) - first);
  // Packs per thread held in shared memory (the same in every CTA of the launch).
  const int S = kSmem ? max(0, (a.slice_packs + G - 1) / G - P) : 0;
  // Which of this thread's packs lie in the slice (bit p: pack t + p * G); kFull: all.
  unsigned in = (1u << P) - 1;
  if constexpr (!kFull) {
    in = 0;
#pragma unroll
    for (int p = 0; p < P; ++p) in |= (t + p * G < local ? 1u : 0u) << p;
  }
  const T* xr = a.x + row * a.x_stride + first * N;
  // kWords: the packs kept as words of two values (-inf past the slice) and converted as
  // needed: log-softmax needs no fp32 copy (its output is (x - row max) - log(sum)), and
  // with shared memory (kSmem) 16-bit halves held through the batches below would spill.
  constexpr bool kWords = kSmem || kLog;
  Pack<T, N> q[kWords ? 1 : P];    // !kWords: the packs as loaded
  unsigned qw[kWords ? P : 1][4];  // kWords: the same as words
#pragma unroll
  for (int p = 0; p < P; ++p) {
    if constexpr (kWords) {
      load_words<T, N>(qw[p], xr + (t + p * G) * N, in & (1u << p));
    } else {
      if (in & (1u << p)) q[p] = load_pack<Cache::kNormal, T, N>(xr + (t + p * G) * N);
    }
  }
  // The shared-memory packs: batch b's maximum, and the pair of all batches, kept in
  // shared memory too (the register packs' exps need every register: log-softmax's spilled).
  __shared__ float batch_max[kBatches > 0 ? kBatches : 1][G];
  __shared__ OnlinePair batch_pair[kSmem ? G : 1];
  OnlinePair held_pair = online_empty();
#pragma unroll
  for (int b = 0; b < kBatches; ++b) {
    if (b * SB >= S) continue;
    // The batch as words of two values, -inf where a pack lies past the slice (its exps
    // 0, never read back); the maximum taken on the words (exact, no conversions).
    unsigned w[SB][4];
#pragma unroll
    for (int j = 0; j < SB; ++j) {
      const int idx = t + (P + b * SB + j) * G;
      load_words<T, N>(w[j], xr + static_cast<int64_t>(idx) * N, b * SB + j < S && (kFull || idx < local));
    }
    const float mb = words_max<T>(w);
    const float sh = mb == -INFINITY ? 0.0f : mb;
    float db = 0.0f;
#pragma unroll
    for (int j = 0; j < SB; ++j) {
      if (b * SB + j >= S) break;  // past the shared memory's S packs a thread
      float f[N];
#pragma unroll
      for (int i = 0; i < N; ++i) {
        const float x = word_value<T>(w[j], i);
        const float e = exp_term(x, sh);
        db += e;
        f[i] = kLog ? x : e;
      }
      const int s = b * SB + j;
      held[(2 * s) * G + t] = make_float4(f[0], f[1], f[2], f[3]);
      held[(2 * s + 1) * G + t] = make_float4(f[4], f[5], f[6], f[7]);
    }
    batch_max[b][t] = mb;
    held_pair = online_merge(held_pair, {mb, db});
  }
  if constexpr (kSmem) batch_pair[t] = held_pair;
  // The thread's pair, relative to its own maximum (0 for a thread of only -inf); the
  // registers then hold exp(x - m) (softmax).
  float v[kLog ? 1 : P * N];
  float m;
  if constexpr (kWords) {
    m = words_max<T>(qw);
  } else {
#pragma unroll
    for (int p = 0; p < P; ++p) {
#pragma unroll
      for (int i = 0; i < N; ++i) v[p * N + i] = (in & (1u << p)) ? to_float(q[p].v[i]) : -INFINITY;
    }
    m = v[0];
#pragma unroll
    for (int i = 1; i < P * N; ++i) m = nan_max(m, v[i]);
  }
  const float shift = m == -INFINITY ? 0.0f : m;
  float d = 0.0f;
#pragma unroll
  for (int i = 0; i < P * N; ++i) {
    float x;
    if constexpr (kWords) {
      x = word_value<T>(qw[i / N], i % N);
    } else {
      x = v[i];
    }
    const float e = exp_term(x, shift);
    d += e;
    if constexpr (!kLog) v[i] = e;
  }
  const OnlinePair own = kSmem ? online_merge({m, d}, batch_pair[t]) : OnlinePair{m, d};
  OnlinePair acc = slice_merge_pairs(own, warp_pairs, 0, G);
  cluster_wait();
  acc = cluster_merge_pairs(exchange, acc, 0, k, cluster_rank());
  const RowNorm n = make_row_norm(acc.m, acc.d, kLog);
  const float scale = kLog ? 0.0f : exp_term(m, n.m) * n.c;
  T* yr = a.y + rematerialize(row) * a.cols + first * N;
#pragma unroll
  for (int p = 0; p < P; ++p) {
    if (in & (1u << p)) {
      float f[N];
#pragma unroll
      for (int i = 0; i < N; ++i) {
        if constexpr (kLog) {
          f[i] = (word_value<T>(qw[p], i) - n.m) - n.c;
        } else {
          f[i] = v[p * N + i] * scale;
        }
      }
      store_pack<kOutputStore, T, N>(yr + (t + p * G) * N, pack_from_float<T, N>(f));
    }
  }
#pragma unroll
  for (int b = 0; b < kBatches; ++b) {
    if (b * SB >= S) continue;
    const float sb = kLog ? 0.0f : exp_term(batch_max[b][t], n.m) * n.c;
#pragma unroll
    for (int j = 0; j < SB; ++j) {
      const int s = b * SB + j;
      const int idx = t + (P + s) * G;
      if (s >= S || (!kFull && idx >= local)) continue;
      const float4 lo = held[(2 * s) * G + t];
      const float4 hi = held[(2 * s + 1) * G + t];
      const float e[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
      float f[N];
#pragma unroll
      for (int i = 0; i < N; ++i) f[i] = kLog ? (e[i] - n.m) - n.c : e[i] * sb;
      store_pack<kOutputStore, T, N>(yr + static_cast<int64_t>(idx) * N, pack_from_float<T, N>(f));
    }
  }
#endif
}

// ---------------------------------------------------------------------------------
// Forward plan
// ---------------------------------------------------------------------------------

// cluster_regs instantiates only the bytes per thread that plan_cluster_regs can pick: from
// kRegsMinBytes32 / kRegsMinBytes16 up to what kRegsMaxLoads packs hold (at most
// kRegsMaxBytes; scalar fp16/bf16 packs: 32 only), with __launch_bounds__ for
// kRegsMaxThreads, plus kRegsMaxBytes with bounds for kRegsWideThreads (max_threads >
// kRegsMaxThreads): 23 kernels, and the same again of 16-byte packs for rows read in
// three parts (kEdges: 9 more).
template <typename T, int N, bool kEdges>
const void* cluster_regs_instance(int bytes_per_thread, int max_threads) {
  constexpr int kMax = std::min(kRegsMaxBytes, kRegsMaxLoads * N * static_cast<int>(sizeof(T)));
  constexpr int kMin = std::min(sizeof(T) == 4 ? kRegsMinBytes32 : kRegsMinBytes16, kMax);
  constexpr int R = kRegsMaxThreads;
  if (max_threads > R) {  // the one wide shape: kRegsWideThreads threads of kRegsMaxBytes
    if constexpr (kMax == kRegsMaxBytes) {
      if (bytes_per_thread == kRegsMaxBytes) {
        return reinterpret_cast<const void*>(
            &softmax_cluster_regs_kernel<T, N, kRegsMaxBytes, kRegsWideThreads, kEdges>);
      }
    }
  } else {
    switch (bytes_per_thread) {
      case 32:
        if constexpr (kMin <= 32) return reinterpret_cast<const void*>(&softmax_cluster_regs_kernel<T, N, 32, R, kEdges>);
        break;
      case 64:
        if constexpr (kMin <= 64 && kMax >= 64) {
          return reinterpret_cast<const void*>(&softmax_cluster_regs_kernel<T, N, 64, R, kEdges>);
        }
        break;
      case 128:
        if constexpr (kMax >= 128) return reinterpret_cast<const void*>(&softmax_cluster_regs_kernel<T, N, 128, R, kEdges>);
        break;
      default:
        break;
    }
  }
  throw std::runtime_error("cluster_regs: no kernel for " + std::to_string(bytes_per_thread) +
                           " bytes per thread and packs of " + std::to_string(N));
}

// edges: rows read in three parts (realigned plans, whose packs are always 16 bytes).
template <typename T, int N>
const void* cluster_regs_kernel(int bytes_per_thread, int max_threads, bool edges) {
  if constexpr (N * sizeof(T) == 16) {
    if (edges) return cluster_regs_instance<T, N, true>(bytes_per_thread, max_threads);
  }
  return cluster_regs_instance<T, N, false>(bytes_per_thread, max_threads);
}

// The most bytes per thread in at most kRegsMaxLoads packs: scalar packs (each in a
// register of its own, with its own address) would otherwise spill.
inline int cluster_regs_max_bytes(int pack_bytes) {
  int bytes = kRegsMaxBytes;
  while (bytes > 32 && bytes > kRegsMaxLoads * pack_bytes) bytes /= 2;
  return bytes;
}

struct ClusterRegsFamily {
  template <typename T, int N> static const void* get(int bytes_per_thread, int max_threads, bool edges) {
    return cluster_regs_kernel<T, N>(bytes_per_thread, max_threads, edges);
  }
};

// The unpacked clusters' kernel (16-bit values in 16-byte packs, rows whole packs wide)
// of G threads a CTA; full: every slice whole; smem: packs held in shared memory too.
template <typename T, int G, bool kSmem>
const void* cluster_regs_unpacked_instance(bool full, bool log) {
  if (full) {
    return log ? reinterpret_cast<const void*>(&softmax_cluster_unpacked_kernel<T, G, true, true, kSmem>)
               : reinterpret_cast<const void*>(&softmax_cluster_unpacked_kernel<T, G, true, false, kSmem>);
  }
  return log ? reinterpret_cast<const void*>(&softmax_cluster_unpacked_kernel<T, G, false, true, kSmem>)
             : reinterpret_cast<const void*>(&softmax_cluster_unpacked_kernel<T, G, false, false, kSmem>);
}

// The CTA widths instantiated: compile-time, as the pack addresses' offsets must be (a
// run-time width cost 2-3 points of the softmax at 65536-262144, call 63).
// kRegsUnpackWholeThreads (two CTAs per SM) only where its slices are whole, in rows to
// 512 KB, and last, so that a tie keeps a narrower shape: bf16 196608 in 8 such slices
// (30 clusters co-resident against 12 slices of 256 threads' 28) 92.8 / 91.6 -> 94.3 /
// 93.7, 49152 in 2 97.7 / 97.7 -> 97.9 / 98.0; slices 92-95% full lost (163840 / 180224,
// 7 / 8 CTAs: 88.4 / 89.8 -> 85.9 / 89.0), and so did 73728 in 3 against 6 of 192 threads
// with as many clusters (98.2 / 97.9 -> 95.8 / 94.6; benchmarks/h200_2026-11-28/
// w384_compare_h200_6122dbd.txt, call 66, H200, 1 GiB, softmax / log-softmax). As landed
// (whole384_compare_h200_79ee5ab.txt, call 68, two rounds): 196608 92.8 / 91.3 -> 94.3 /
// 93.6 (fp16 93.2 / 92.2 -> 94.3 / 93.2), 49152 97.6 / 97.6 -> 97.9 / 98.1, the rest within 0.2.
constexpr int kRegsUnpackWholeThreads = 384;
constexpr int kRegsUnpackWidths[] = {kRegsUnpackThreads, kRegsUnpackMidThreads, kRegsUnpackMinThreads,
                                     kRegsUnpackWholeThreads};

// Whether K CTAs of `threads` hold a row of `packs` 16-byte packs in whole slices: the
// kernel's kFull.
constexpr bool unpack_slices_whole(int64_t packs, int k, int threads, int smem_packs = 0) {
  return packs == int64_t{k} * threads * (kRegsUnpackBytes / 16 + smem_packs);
}

template <typename T, bool kSmem>
const void* cluster_regs_unpacked_width(int threads, bool full, bool log) {
  if constexpr (sizeof(T) != 2) {  // 16-bit rows only (cluster_regs_unpacks): no fp32 instances
    throw std::runtime_error("cluster_regs: unpacked clusters hold 16-bit rows only");
  } else {
    switch (threads) {
      case kRegsUnpackThreads: return cluster_regs_unpacked_instance<T, kRegsUnpackThreads, kSmem>(full, log);
      case kRegsUnpackWholeThreads:
        return cluster_regs_unpacked_instance<T, kRegsUnpackWholeThreads, kSmem>(full, log);
      case kRegsUnpackMidThreads: return cluster_regs_unpacked_instance<T, kRegsUnpackMidThreads, kSmem>(full, log);
      case kRegsUnpackMinThreads: return cluster_regs_unpacked_instance<T, kRegsUnpackMinThreads, kSmem>(full, log);
      default: throw std::runtime_error("cluster_regs: no unpacked kernel of " + std::to_string(threads) + " threads");
    }
  }
}

// smem_packs > 0: the instance that holds packs in shared memory too.
template <typename T>
const void* cluster_regs_unpacked_kernel(int threads, bool full, bool log, int smem_packs = 0) {
  return smem_packs > 0 ? cluster_regs_unpacked_width<T, true>(threads, full, log)
                        : cluster_regs_unpacked_width<T, false>(threads, full, log);
}

// Dynamic shared memory of an unpacked cluster's CTA.
constexpr int64_t unpack_smem_bytes(int threads, int smem_packs) {
  return int64_t{threads} * smem_packs * kRegsUnpackSmemPackBytes;
}

// Whether the unpacked clusters serve rows of this dtype, pack and reading on this GPU.
template <typename T>
bool cluster_regs_unpacks(const Problem& p, int pack, bool realigned) {
  if constexpr (sizeof(T) != 2) {
    return false;
  } else {
    const DeviceProperties device = device_properties(p.device);
    return device.major >= kClusterMinMajor && pack * static_cast<int>(sizeof(T)) == 16 && !realigned &&
           device.dram_bytes_per_sm_s() >= kRegsUnpackMinSmBandwidth;
  }
}

// The unpacked clusters' shape for a row of `packs` 16-byte packs: K CTAs of `threads`,
// each thread holding smem_packs of them in shared memory past its registers' share.
struct UnpackShape {
  int k = 0;  // 0: no shape holds the row
  int threads = 0;
  int clusters = 0;  // co-resident on the GPU
  int smem_packs = 0;
  double busy = 0;  // the share of the GPU's CTA slots its co-resident clusters fill
};

// Whether K slices of at most per_cta packs, for a row of `packs` 16-byte packs, are
// full enough (kRegsUnpackMinFill, kRegsUnpackNarrowMinFill).
inline bool unpack_slices_full_enough(int64_t packs, int k, int64_t per_cta) {
  const int64_t slice = ceil_div(packs, k);
  const int64_t row_bytes = packs * 16;
  return slice == per_cta ||
         (row_bytes > kRegsUnpackPartialMinRowBytes && slice * kRegsUnpackMinFillOf >= per_cta * kRegsUnpackMinFill) ||
         (row_bytes <= kRegsUnpackNarrowMaxRowBytes &&
          slice * kRegsUnpackMinFillOf >= per_cta * kRegsUnpackNarrowMinFill);
}

// Whether K slices of at most per_cta packs are kRegsUnpackMinFill / kRegsUnpackMinFillOf
// full: what unpack_shape asks of shapes with shared memory, in rows of any width, where
// no shape of fuller slices (unpack_slices_full_enough), register-only or not, holds the
// row, if their co-resident clusters fill kRegsUnpackSmemBusyNum / kRegsUnpackSmemBusyDen
// of the GPU's CTA slots. They took 119 of the 225 bf16 widths from 64 to 288 KB (step
// 1 KB) from block_hybrid. H200, 1 GiB, % of copy, softmax / log-softmax, bf16 (fp16
// alike), mean of two rounds, benchmarks/h200_2026-11-28/nearly{,2}_compare_* (session
// 64, calls 74-75), `auto` before -> after: 34304 82.5 / 86.7 -> 97.8 / 98.0, 37888 85.3
// / 89.7 -> 97.2 / 97.2, 43520 90.8 / 96.5 -> 97.8 / 97.8, 61952 94.8 / 94.2 -> 97.6 /
// 97.8, 74240 79.7 / 83.0 -> 97.9 / 97.9, 81408 84.0 / 88.2 -> 97.3 / 97.8, 86528 85.7 /
// 90.8 -> 95.5 / 95.8, 100000 87.8 / 93.6 -> 97.7 / 98.0, 120000 93.4 / 92.7 -> 96.7 /
// 96.7, 128256 (Llama-3's vocabulary) 94.0 / 93.3 -> 97.0 / 97.4; mixed at 47104 (93.3 /
// 97.5 -> 97.3 / 97.2) and 139264 (88.5 / 94.8 -> 93.1 / 92.8: block_hybrid's softmax
// computes each exp twice, its log-softmax once). Where 7/8 of the slots were not filled
// they lost (call 73, a first cut without that bound: 139264 in 5 CTAs of 256 threads, 87%
// of the slots, log-softmax 94.3 -> 91.5), and so did nearly full shapes with more clusters
// where fuller ones serve (call 74: 78848 in 3 CTAs of 256 threads, 124 clusters, 97.8 ->
// 96.5 against 7 whole CTAs of 128, 101 clusters; call 76, nearly3_compare_*, the shape
// with the most clusters of both kinds: 41472-78848 lost 0.2-1.3, 112640 gained 0.5-0.8,
// 96768 and 124416 within 0.3).
inline bool unpack_slices_nearly_full(int64_t packs, int k, int64_t per_cta) {
  return ceil_div(packs, k) * kRegsUnpackMinFillOf >= per_cta * kRegsUnpackMinFill;
}

// One shape of `threads` in clusters of k, with its clusters co-resident (0: none).
template <typename T>
UnpackShape unpack_candidate(const Problem& p, int64_t packs, int threads, int k, int smem_packs) {
  const bool whole = unpack_slices_whole(packs, k, threads, smem_packs);
  const void* fn = cluster_regs_unpacked_kernel<T>(threads, whole, false, smem_packs);
  const int64_t smem = unpack_smem_bytes(threads, smem_packs);
  if (smem > 0) {
    if (smem > opt_in_smem(fn, p.device, true)) return {};
  } else {
    allow_large_clusters(fn, p.device);
  }
  const int clusters = clusters_resident(fn, p.device, threads, smem, k);
  const int per_sm = resident_blocks(fn, p.device, threads, smem);
  const double slots = static_cast<double>(device_properties(p.device).sm_count) * std::max(per_sm, 1);
  return {k, threads, clusters, smem_packs, clusters * k / slots};
}

// Of kRegsUnpackWidths' CTAs, each with the smallest cluster K (2-16) that holds the row
// in slices full enough, the one with the most clusters co-resident on the GPU: one row
// per cluster, so the most bytes of rows in flight (a tie keeps the earlier width).
// Narrower CTAs make some widths' slices whole (bf16 73728: 6 of 192 threads) or nearly
// (40000: 5 of 128 threads, 98% full). Where that shape fills the GPU's CTA slots poorly
// (kRegsUnpackSmemBusyNum), or none serves, the same with shared memory: of every width
// and K (2-16) whose threads need at most kRegsUnpackMaxSmemPacks packs in shared memory
// past their registers, in slices as full as above (or, where no shape of slices that
// full serves, nearly full and filling the CTA slots well: unpack_slices_nearly_full), the
// most clusters co-resident.
template <typename T>
UnpackShape unpack_shape(const Problem& p, int64_t packs, int max_k) {
  constexpr int64_t per_thread = kRegsUnpackBytes / 16;
  UnpackShape best;
  for (const int threads : kRegsUnpackWidths) {
    const int64_t per_cta = threads * per_thread;
    const int k = static_cast<int>(std::max<int64_t>(2, ceil_div(packs, per_cta)));
    if (k > max_k || !unpack_slices_full_enough(packs, k, per_cta)) continue;
    const bool whole = unpack_slices_whole(packs, k, threads);
    if (threads == kRegsUnpackWholeThreads &&
        (!whole || packs > int64_t{max_k} * kRegsUnpackThreads * per_thread)) {
      continue;
    }
    const UnpackShape c = unpack_candidate<T>(p, packs, threads, k, 0);
    if (c.clusters > best.clusters) best = c;
  }
  if (best.k > 0 && best.busy * kRegsUnpackSmemBusyDen >= kRegsUnpackSmemBusyNum) return best;
  // Shapes with packs in shared memory too: K CTAs, each thread the packs past its
  // registers' share of a slice; the one with the most clusters co-resident, taken only
  // where it fills more of the GPU's CTA slots than the register-only shape.
  UnpackShape held, nearly;
  for (const int threads : kRegsUnpackWidths) {
    for (int k = 2; k <= max_k; ++k) {
      const int64_t slice = ceil_div(packs, k);
      const int64_t smem_packs = std::max<int64_t>(0, ceil_div(slice, threads) - per_thread);
      if (smem_packs == 0 || smem_packs > kRegsUnpackMaxSmemPacks) continue;
      const int64_t per_cta = threads * (per_thread + smem_packs);
      const bool full_enough = unpack_slices_full_enough(packs, k, per_cta);
      if (!full_enough && !(best.k == 0 && unpack_slices_nearly_full(packs, k, per_cta))) continue;
      if (threads == kRegsUnpackWholeThreads && !unpack_slices_whole(packs, k, threads, static_cast<int>(smem_packs))) {
        continue;
      }
      const UnpackShape c = unpack_candidate<T>(p, packs, threads, k, static_cast<int>(smem_packs));
      if (!full_enough && c.busy * kRegsUnpackSmemBusyDen < kRegsUnpackSmemBusyNum) continue;
      UnpackShape& into = full_enough ? held : nearly;
      if (c.clusters > into.clusters) into = c;
    }
  }
  if (held.k == 0) held = nearly;
  return held.k > 0 && (best.k == 0 || held.busy > best.busy) ? held : best;
}

// min_cluster > 1 (auto's few-rows rule): the row over at least that many CTAs, even
// where fewer hold it.
template <typename T>
Plan plan_cluster_regs(const Problem& p, int min_cluster = 1) {
  constexpr int kElem = static_cast<int>(sizeof(T));
  Plan plan = new_plan(Variant::cluster_regs);
  // Shapes in order: one CTA of up to kRegsMaxThreads threads; where the GPU takes them
  // (cluster_regs_unpacks), the unpacked clusters (unpack_shape; not for auto's
  // few-rows rule, which spreads rows wider, nor for rows read in three parts); one CTA
  // of up to kRegsWideThreads (kRegsMaxBytes each); then clusters of 2..16 CTAs (sm_90)
  // of up to kRegsMaxThreads. The first whose slices fit, with the fewest bytes per
  // thread that fit; the next when that shape cannot be resident.
  struct Shape {
    int k;
    int max_threads;
    bool unpack = false;
    int smem_packs = 0;  // unpack: packs per thread held in shared memory
  };
  const int max_k = device_properties(p.device).major >= kClusterMinMajor ? kMaxClusterSize : 1;
  const int pack = realigned_pack<T>(p, plan.realigned);
  const int64_t rows = plan_rows(p);
  const int64_t packs = std::max<int64_t>(p.cols / pack, 1);
  const int pack_bytes = pack * kElem;
  const int max_bytes = cluster_regs_max_bytes(pack_bytes);
  plan.pack = pack;
  std::vector<Shape> shapes = {{1, kRegsMaxThreads}};
  if (min_cluster == 1 && cluster_regs_unpacks<T>(p, pack, plan.realigned != 0)) {
    const UnpackShape u = unpack_shape<T>(p, packs, max_k);
    if (u.k > 0) shapes.push_back({u.k, u.threads, true, u.smem_packs});
  }
  shapes.push_back({1, kRegsWideThreads});
  for (int k = 2; k <= max_k; k *= 2) shapes.push_back({k, kRegsMaxThreads});
  bool fits = false;
  for (const Shape& shape : shapes) {
    const int k = shape.k;
    const int max_threads = shape.max_threads;
    if (k < min_cluster) continue;
    const bool wide = max_threads == kRegsWideThreads;
    const int64_t slice = ceil_div(packs, k);
    const int64_t slice_bytes = slice * pack_bytes;
    // The unpacked clusters' bytes of the row per thread: in registers, and in shared memory.
    int bytes = shape.unpack ? kRegsUnpackBytes + 16 * shape.smem_packs
                : wide       ? kRegsMaxBytes
                             : std::min(kElem == 4 ? kRegsMinBytes32 : kRegsMinBytes16, max_bytes);
    if (!shape.unpack && bytes > max_bytes) continue;
    while (!shape.unpack && bytes < max_bytes && slice_bytes > static_cast<int64_t>(max_threads) * bytes) bytes *= 2;
    if (slice_bytes > static_cast<int64_t>(max_threads) * bytes) continue;
    fits = true;
    // The unpacked clusters' CTAs have the threads unpack_shape chose, some of them maybe
    // idle in a slice not whole.
    const int group = shape.unpack ? max_threads
                                   : static_cast<int>(round_up(ceil_div(slice, bytes / pack_bytes), 32));
    int rows_per_block = 1;
    while (k == 1 && rows_per_block < rows && rows_per_block * slice_bytes < kRegsMinBlockBytes &&
           2 * rows_per_block * group <= max_threads) {
      rows_per_block *= 2;
    }
    const int threads = rows_per_block * group;
    const bool full = shape.unpack && unpack_slices_whole(packs, k, max_threads, shape.smem_packs);
    const void* fn = shape.unpack ? cluster_regs_unpacked_kernel<T>(max_threads, full, false, shape.smem_packs)
                                  : kernel_for_pack<ClusterRegsFamily, T>(pack, bytes, max_threads, plan.realigned != 0);
    const int64_t smem = shape.unpack ? unpack_smem_bytes(max_threads, shape.smem_packs) : 0;
    if (smem > 0) opt_in_smem(fn, p.device, true);
    const int resident = resident_blocks(fn, p.device, threads, smem);
    int active = 0;
    if (k > 1) {
      allow_large_clusters(fn, p.device);
      active = clusters_resident(fn, p.device, threads, smem, k);
    }
    if (resident == 0 || (k > 1 && active == 0)) continue;
    plan.kernel = fn;
    plan.threads = threads;
    plan.cluster_size = k;
    plan.cols_per_thread = bytes / kElem;
    plan.group_width = group;
    plan.rows_per_access = rows_per_block;
    plan.resident_per_sm = resident;
    plan.active_clusters = active;
    plan.unpacked = shape.unpack;
    plan.smem_bytes = smem;
    if (shape.unpack) {
      plan.log_kernel = cluster_regs_unpacked_kernel<T>(max_threads, full, true, shape.smem_packs);
      if (smem > 0) plan.smem_limit = opt_in_smem(plan.log_kernel, p.device, true);
      allow_large_clusters(plan.log_kernel, p.device);
    }
    // One-shot: a CTA (a cluster) per unit of rows_per_block rows, with no loop in the
    // kernel (loop state would cost registers): units past kMaxGridBlocks / k go
    // to the grid's y dimension.
    const int64_t units = ceil_div(rows, rows_per_block);
    const int64_t units_x = std::min<int64_t>(units, kMaxGridBlocks / k);
    plan.blocks = k * units_x;
    plan.grid_y = ceil_div(units, units_x);
    return plan;
  }
  // The largest shape tried, for why_unsupported.
  plan.threads = kRegsMaxThreads;
  plan.cluster_size = max_k;
  plan.cols_per_thread = max_bytes / kElem;
  plan.status = fits ? PlanStatus::cluster_not_resident : PlanStatus::row_exceeds_registers;
  return plan;
}

// ---------------------------------------------------------------------------------
// Backward launch constants
// ---------------------------------------------------------------------------------

// The backward keeps B bytes of y AND B of dy per thread (GradSlice), so a CTA's
// registers hold half the row they hold forward. Shapes, tried in order (plan below):
//   one CTA of kGradRegsThreads threads, two resident per SM (64 registers), with 32 or
//     more bytes of each as the cap allows (fp32 rows up to 8192, 16-bit 16384), narrow
//     rows sharing a CTA as forward (kRegsMinBlockBytes of each tensor per CTA);
//   one CTA of kGradRegsWideThreads threads (64 registers) at the cap (fp32 16384,
//     16-bit 32768): the forward's one-CTA-per-row lesson;
//   clusters of 2-16 CTAs of kGradRegsSmallThreads threads, four resident per SM (64
//     registers), 32 to 64 bytes of each: rows up to 16 x 256 x 64 B = 256 KB of each
//     tensor (fp32 65536, 16-bit 131072);
//   clusters of 2-16 CTAs of kGradRegsThreads threads, two resident per SM, up to 64
//     bytes of each (rows up to 512 KB of each), only where the next shape's CTAs would
//     not be full (fewer than kGradRegsThreads threads);
//   clusters of 2-16 CTAs of kGradRegsThreads threads, one resident per SM (up to 128
//     registers), 64 to 128 bytes of each: rows up to 16 x 512 x 128 B = 1 MB of each
//     tensor (fp32 262144, 16-bit 524288).
// Why several CTAs per SM: a CTA of a cluster waits, registers held, for its slowest
// peer, and with one CTA per SM nothing overlaps that wait. 1 GiB, % of copy, clusters
// of one 512-thread CTA per SM -> of four 256-thread CTAs per SM (2026-11-24,
// benchmarks/tuning/cluster_backward_experiment.sh; benchmarks/h100_2026-11-24/,
// benchmarks/h200_2026-11-24/): fp32 49152 H100 92.2 -> 99.5, H200 74.9 -> 95.7; fp32
// 65536 98.0 -> 99.5, 84.0 -> 91.3; bf16 98304 92.3 -> 98.4, 74.5 -> 90.1; bf16 131072
// 98.3 -> 99.2, 84.0 -> 90.3. Two 512-thread CTAs per SM: fp32 98304 88.5 -> 98.6 (H100),
// 73.6 -> 90.5 (H200), where the one-per-SM CTAs have 384 threads; with full 512-thread
// CTAs they lose (fp32 131072 96.3 -> 94.7, 81.4 -> 81.3; bf16 262144 96.5 -> 93.7,
// 81.8 -> 79.4), hence the condition.
constexpr int kGradRegsThreads = 512;
constexpr int kGradRegsWideThreads = 1024;
constexpr int kGradRegsSmallThreads = 256;
constexpr int kGradRegsMinBytes = 32;
// ...except 16-bit rows that would take more than half a kGradRegsThreads CTA at
// kGradRegsMinBytes (rows of more than 8 KB: bf16/fp16 8192, one row per 512-thread
// CTA): they start at this many bytes, half the threads per row (the plan's fills_cta).
// 1 GiB, softmax backward, % of copy (benchmarks/tuning/grad_regs_bytes_experiment.sh):
// H200 (benchmarks/h200_2026-11-26/grad_regs_*_911ec38.md) bf16 / fp16 8192 96.1 / 95.9
// -> 102.4 / 102.4 (fp32 8192, 64 B per thread already, 102.5); the H100 loses a little
// (benchmarks/h100_2026-11-26/grad_regs_*_c1a4789.md: 102.7 -> 101.5, both above the
// copy); narrower 16-bit rows lost half a point at 64 B on the H200 (2048 / 4096: 103.0
// / 102.9 -> 102.5 / 102.4), hence the bound.
constexpr int kGradRegsMinBytes16 = 64;
constexpr int kGradRegsClusterMinBytes = 64;

// The most bytes of each tensor a thread keeps without spilling, for packs of
// pack_bytes (ptxas, sm_90, tests/test_cuda_compile.py's gate): at 64 registers fp32
// takes up to 8 loads per tensor (scalar packs at 16 spill); 16-bit values need
// conversion temporaries, so up to 4 loads, or 8 of at most 4 bytes (8-byte packs at 8
// loads spill 44-48 bytes, 4-byte packs at 16 spill 52-68); at 128 registers
// kRegsMaxLoads loads of either, at most 128 bytes (rows read in three parts alike: their
// edges' term and output are calls of their own, common/row_edges.cuh), but 16-bit
// values in 8-byte packs (misaligned views) 8 loads: fp16 at 16 spilled 8-12 bytes once
// the cluster exchange waited on an mbarrier (ClusterSlots).
constexpr int grad_regs_cap(int elem, int pack_bytes, bool one_per_sm) {
  if (one_per_sm) return std::min(128, (elem == 2 && pack_bytes == 8 ? 8 : kRegsMaxLoads) * pack_bytes);
  if (elem == 4) return std::min(64, 8 * pack_bytes);
  return std::min(64, std::max(4 * pack_bytes, std::min(32, 8 * pack_bytes)));
}

// ---------------------------------------------------------------------------------
// Backward kernel: the forward's split (K CTAs, G threads per row slice, R rows per
// CTA, one-shot grid) with one float per row instead of a pair: each thread's part of
// the sum, ONE barrier for the slice (slice_sum), and with K > 1 the CTAs' sums
// exchanged through distributed shared memory (cluster_sum). One read of y and dy, one
// write of dx.
// ---------------------------------------------------------------------------------

// kEdges: rows read as head, whole packs and tail (common/row_edges.cuh).
template <typename T, int N, int B, int kThreads, int kMinBlocks, bool kEdges = false>
__global__ void __launch_bounds__(kThreads, kMinBlocks) softmax_backward_cluster_regs_kernel(GradArgs<T> a) {
  __shared__ float warp_sums[kThreads / 32];
  int k_ctas = 1;
  int rank = 0;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
  namespace cg = cooperative_groups;
  cg::cluster_group cluster = cg::this_cluster();
  k_ctas = static_cast<int>(cluster.num_blocks());  // 1 without a cluster launch
  rank = static_cast<int>(cluster.block_rank());
#endif
  const int G = a.group_width;
  const int R = blockDim.x / G;
  const int64_t unit = static_cast<int64_t>(blockIdx.y) * (gridDim.x / k_ctas) + blockIdx.x / k_ctas;
  if (unit >= ceil_div(a.rows, static_cast<int64_t>(R))) return;  // the whole cluster returns together
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
  // Slot [rank]: the sum of the cluster's CTA `rank`. Peers send into it only after
  // waiting on this arrival (this CTA's shared memory exists once it runs).
  __shared__ ClusterSlots<float> exchange;
  if (k_ctas > 1) cluster_slots_init(&exchange, 1);
#endif
  const int g = threadIdx.x / G;
  const int t = threadIdx.x - g * G;
  const int64_t row = unit * R + g;
  // kEdges: the row's whole packs start at column `head`; its edges go to the threads
  // 0 .. count - 1 of its group in the cluster's first CTA, prefetched here and read
  // after the packs' sum.
  const int head = kEdges ? row_head<T, N>(a.y + row * a.y_stride, a.cols) : 0;
  const int packs = static_cast<int>(kEdges ? edge_body<N>(a.cols) : a.cols / N);
  const int first = min(packs, rank * a.slice_packs);
  const int local = row < a.rows ? min(packs, first + a.slice_packs) - first : 0;
  const int64_t offset = head + static_cast<int64_t>(first) * N;
  const bool edges = kEdges && row < a.rows && rank == 0;
  if (edges) {
    prefetch_edge<T, N>(a.y + row * a.y_stride, a.cols, t);
    prefetch_edge<T, N>(a.dy + row * a.dy_stride, a.cols, t);
  }
  GradSlice<T, N, B> s;
  s.load(a.y + row * a.y_stride + offset, a.dy + row * a.dy_stride + offset, t, G, local);
  float part = s.sum(a.log);
  if (edges) part += edge_grad_term_apart<T, N>(a.y + row * a.y_stride, a.dy + row * a.dy_stride, a.cols, t, a.log);
  float total = slice_sum(part, warp_sums, g, G);
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
  if (k_ctas > 1) {
    cluster_wait();
    total = cluster_sum(exchange, total, 0, k_ctas, rank);
  }
#endif
  if constexpr (kEdges) {
    if (row >= a.rows) return;
    if (local > 0) s.write(a.dx + row * a.cols + offset, t, G, local, total, a.log);
    if (rank == 0) {
      const int64_t r = rematerialize(row);
      write_edge_grad<T, N>(a.y + r * a.y_stride, a.dy + r * a.dy_stride, a.dx + r * a.cols, a.cols, t, total,
                            a.log);
    }
  } else {
    if (local == 0) return;
    s.write(a.dx + row * a.cols + offset, t, G, local, total, a.log);
  }
}

// ---------------------------------------------------------------------------------
// Backward plan
// ---------------------------------------------------------------------------------

// The instances the plan can pick, no others: for each bound (four 256-thread or two
// 512-thread CTAs per SM, one 1024-thread CTA, one 512-thread CTA per SM) the bytes per
// thread from the shape's smallest (kGradRegsMinBytes, the cap, kGradRegsClusterMinBytes)
// to its cap; the same of 16-byte packs for rows read in three parts (kEdges).
template <typename T, int N, int kThreads, int kMinBlocks, bool kEdges>
const void* cluster_regs_backward_instance(int bytes) {
  constexpr int kElem = static_cast<int>(sizeof(T));
  constexpr bool kOnePerSm = kMinBlocks == 1 && kThreads == kGradRegsThreads;
  constexpr int kCap = grad_regs_cap(kElem, N * kElem, kOnePerSm);
  constexpr int kLo = kOnePerSm ? std::min(kGradRegsClusterMinBytes, kCap)
                                : (kThreads == kGradRegsWideThreads ? kCap : std::min(kGradRegsMinBytes, kCap));
  switch (bytes) {
    case 16:
      if constexpr (kLo <= 16 && 16 <= kCap)
        return reinterpret_cast<const void*>(
            &softmax_backward_cluster_regs_kernel<T, N, 16, kThreads, kMinBlocks, kEdges>);
      break;
    case 32:
      if constexpr (kLo <= 32 && 32 <= kCap)
        return reinterpret_cast<const void*>(
            &softmax_backward_cluster_regs_kernel<T, N, 32, kThreads, kMinBlocks, kEdges>);
      break;
    case 64:
      if constexpr (kLo <= 64 && 64 <= kCap)
        return reinterpret_cast<const void*>(
            &softmax_backward_cluster_regs_kernel<T, N, 64, kThreads, kMinBlocks, kEdges>);
      break;
    case 128:
      if constexpr (kLo <= 128 && 128 <= kCap)
        return reinterpret_cast<const void*>(
            &softmax_backward_cluster_regs_kernel<T, N, 128, kThreads, kMinBlocks, kEdges>);
      break;
    default:
      break;
  }
  throw std::runtime_error("cluster_regs backward: no kernel for " + std::to_string(bytes) + " bytes per thread, " +
                           std::to_string(kThreads) + " threads and packs of " + std::to_string(N));
}

template <typename T, int N, bool kEdges>
const void* cluster_regs_backward_bound(int bytes, int bound) {
  if (bound == 4) return cluster_regs_backward_instance<T, N, kGradRegsSmallThreads, 4, kEdges>(bytes);
  if (bound == 2) return cluster_regs_backward_instance<T, N, kGradRegsThreads, 2, kEdges>(bytes);
  if (bound == kGradRegsWideThreads) {
    return cluster_regs_backward_instance<T, N, kGradRegsWideThreads, 1, kEdges>(bytes);
  }
  return cluster_regs_backward_instance<T, N, kGradRegsThreads, 1, kEdges>(bytes);
}

// The four bounds a shape names: 4 = four 256-thread CTAs per SM, 2 = two 512-thread
// CTAs per SM, 1024 = one 1024-thread CTA, 1 = one 512-thread CTA per SM. edges: rows
// read in three parts (realigned plans, of 16-byte packs).
template <typename T, int N>
const void* cluster_regs_backward_kernel(int bytes, int bound, bool edges) {
  if constexpr (N * sizeof(T) == 16) {
    if (edges) return cluster_regs_backward_bound<T, N, true>(bytes, bound);
  }
  return cluster_regs_backward_bound<T, N, false>(bytes, bound);
}

struct ClusterRegsBackwardFamily {
  template <typename T, int N> static const void* get(int bytes, int bound, bool edges) {
    return cluster_regs_backward_kernel<T, N>(bytes, bound, edges);
  }
};

template <typename T>
Plan plan_cluster_regs_backward(const Problem& p) {
  constexpr int kElem = static_cast<int>(sizeof(T));
  Plan plan = new_plan(Variant::cluster_regs);
  const int max_k = device_properties(p.device).major >= kClusterMinMajor ? kMaxClusterSize : 1;
  const int pack = realigned_pack<T>(p, plan.realigned);
  const bool edges = plan.realigned != 0;
  const int64_t rows = plan_rows(p);
  const int64_t packs = std::max<int64_t>(p.cols / pack, 1);
  const int pack_bytes = pack * kElem;
  plan.pack = pack;
  struct Shape {
    int k, threads, bound, min_bytes, cap;
  };
  // Bytes per thread and threads per row (group) of a shape, or {0, 0} where the row
  // does not fit it.
  const auto geometry = [&](const Shape& shape) -> std::pair<int, int> {
    const int64_t slice_bytes = ceil_div(packs, shape.k) * pack_bytes;
    int bytes = shape.min_bytes;
    while (bytes < shape.cap && slice_bytes > static_cast<int64_t>(shape.threads) * bytes) bytes *= 2;
    if (slice_bytes > static_cast<int64_t>(shape.threads) * bytes) return {0, 0};
    return {bytes, static_cast<int>(round_up(ceil_div(ceil_div(packs, shape.k), bytes / pack_bytes), 32))};
  };
  const int cap_two = grad_regs_cap(kElem, pack_bytes, false);
  const int cap_one = grad_regs_cap(kElem, pack_bytes, true);
  const int min_two = std::min(kGradRegsMinBytes, cap_two);
  const int min_one = std::min(kGradRegsClusterMinBytes, cap_one);
  const bool fills_cta = kElem == 2 && packs * pack_bytes > int64_t{kGradRegsThreads} * kGradRegsMinBytes / 2;
  const int min_cta = fills_cta ? std::min(kGradRegsMinBytes16, cap_two) : min_two;
  std::vector<Shape> shapes = {{1, kGradRegsThreads, 2, min_cta, cap_two},
                               {1, kGradRegsWideThreads, kGradRegsWideThreads, cap_two, cap_two}};
  for (int k = 2; k <= max_k; k *= 2) shapes.push_back({k, kGradRegsSmallThreads, 4, min_two, cap_two});
  // Two CTAs per SM only where the first one-per-SM cluster that holds the row would
  // leave its CTAs short of kGradRegsThreads threads (see the measurements above).
  int one_per_sm_threads = 0;
  for (int k = 2; k <= max_k && one_per_sm_threads == 0; k *= 2) {
    one_per_sm_threads = geometry({k, kGradRegsThreads, 1, min_one, cap_one}).second;
  }
  if (one_per_sm_threads < kGradRegsThreads) {
    for (int k = 2; k <= max_k; k *= 2) shapes.push_back({k, kGradRegsThreads, 2, min_two, cap_two});
  }
  for (int k = 2; k <= max_k; k *= 2) shapes.push_back({k, kGradRegsThreads, 1, min_one, cap_one});
  bool fits = false;
  for (const Shape& shape : shapes) {
    const auto [bytes, group] = geometry(shape);
    if (bytes == 0) continue;
    fits = true;
    const int64_t slice_bytes = ceil_div(packs, shape.k) * pack_bytes;
    int rows_per_block = 1;
    while (shape.k == 1 && rows_per_block < rows && rows_per_block * slice_bytes < kRegsMinBlockBytes &&
           2 * rows_per_block * group <= shape.threads) {
      rows_per_block *= 2;
    }
    const int threads = rows_per_block * group;
    const void* fn = kernel_for_pack<ClusterRegsBackwardFamily, T>(pack, bytes, shape.bound, edges);
    const int resident = resident_blocks(fn, p.device, threads, 0);
    int active = 0;
    if (shape.k > 1) {
      allow_large_clusters(fn, p.device);
      active = clusters_resident(fn, p.device, threads, 0, shape.k);
    }
    if (resident == 0 || (shape.k > 1 && active == 0)) continue;
    plan.kernel = fn;
    plan.threads = threads;
    plan.cluster_size = shape.k;
    plan.cols_per_thread = bytes / kElem;
    plan.group_width = group;
    plan.rows_per_access = rows_per_block;
    plan.resident_per_sm = resident;
    plan.active_clusters = active;
    const int64_t units = ceil_div(rows, rows_per_block);
    const int64_t units_x = std::min<int64_t>(units, kMaxGridBlocks / shape.k);
    plan.blocks = shape.k * units_x;
    plan.grid_y = ceil_div(units, units_x);
    return plan;
  }
  plan.threads = kGradRegsThreads;
  plan.cluster_size = max_k;
  plan.cols_per_thread = cap_one / kElem;
  plan.status = fits ? PlanStatus::cluster_not_resident : PlanStatus::row_exceeds_registers;
  return plan;
}

}  // namespace softmax
}  // namespace sk
