// split: a row cut into `split` chunks, each held in the registers of its own CTA; the
// CTAs of a row exchange their chunk's online pair through global memory and wait for
// each other, with no cluster: rows of any width up to one chunk per resident CTA.
//
// Why, beside cluster_regs: a cluster has at most 16 CTAs, so a 1 MB row (fp32 262144)
// needs 64 KB per CTA and one or two CTAs per SM, every CTA of an SM held by the same
// cluster barrier; the H100 measured cluster_regs at 90.9 / 83.3 % of copy (fp32
// 131072 / 262144) where Triton's `split` (this design, kernels_triton/softmax_split.py)
// reached 95.7 / 92.7 (benchmarks/h100_2026-11-23b/wide_rows_base.csv). Here chunks
// are 16 KB (32 values per thread: fp32 128 threads, 16-bit 256), four CTAs per SM, each CTA of a
// different row group, so while one waits for its slowest partner the others load.
//
// Grid: persistent, `groups` x `split` CTAs, all resident at once (a cooperative
// launch, which the driver refuses rather than leave a CTA waiting for one that cannot
// start): CTA b is chunk b % split of rows g, g + groups, ... (g = b / split). Per row,
// each CTA
//   1. reduces its chunk (loaded the row before) to a pair (slice_merge_pairs: one
//      barrier);
//   2. thread 0 publishes the pair as one 64-bit word (|d| bits high, m bits low: never
//      negative) into slot [row][part] of the workspace, which the launch set to all
//      ones (-1: "not yet") just before;
//   3. requests its chunk of the NEXT row (a second RegSlice), so that loads are in
//      flight through the wait below (requested before step 1, every width measured
//      lower: kSplitGatherBatchedRegs says where);
//   4. warp 0 polls the row's `split` slots until none is negative, merges them, and
//      hands the row's pair to the CTA (a second barrier);
//   5. writes its chunk of the output.
// Each element is read once and written once; the workspace is 8 bytes per chunk of
// every row (rows x split words), fresh per call so that nothing waits on a stale word.
// split = 1 (rows up to one chunk) is a persistent one-CTA-per-row kernel with the next
// row in flight, no workspace.
//
// The backward (below the forward's plan) holds chunks of y and dy alike, exchanges one
// fp32 sum per chunk and requests the next row's chunks between publishing and gathering;
// `auto` takes it for the backward's wide rows (softmax/auto.cuh, rule 1b).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/block_reduce.cuh"
#include "common/grad.cuh"
#include "common/online.cuh"
#include "common/reg_slice.cuh"
#include "common/row_edges.cuh"
#include "softmax/geometry.cuh"

namespace sk {
namespace softmax {

// ---------------------------------------------------------------------------------
// Launch constants
// ---------------------------------------------------------------------------------

// Chunks of kSplitChunkBytes (16 KB: Triton's split measured 16 KB fp32 chunks best on
// an H200, 89.8 vs 89.0 / 86.8 for 32 / 64 KB), kSplitValues values per thread as
// Triton's (fp32: 128 threads of 128 bytes; 16-bit: 256 of 64), fewer where narrow
// packs cap the bytes per thread (kRegsMaxLoads loads: scalar fp32 64 bytes, scalar
// 16-bit 32, in 256 threads); 32 KB chunks (256 threads of 128 bytes) when the row has
// more 16 KB chunks than CTAs fit the GPU at once. The H100 measured the first form,
// 256 threads of 64 bytes for fp32 too, at 82.2 / 78.9 % of copy at fp32 131072 /
// 262144 where Triton's split gave 95.8 / 91.8 (its bf16, same geometry as Triton's:
// 90.3 / 79.5 against 89.7 / 83.1; benchmarks/h100_2026-11-23b/split_first_form.md);
// Triton's geometry for fp32 changed nothing (81.2 / 78.4 against 95.3 / 92.4,
// split_triton_geometry.md), so the gap is not the chunk's shape; nor is the second
// barrier with warp 0 polling alone: every warp polling, no hand-off (as Triton's
// programs do) was slower, 73.8 / 70.1 against 82.5 / 79.2
// (benchmarks/h100_2026-11-23c/split_poll_*.csv). Much of the gap was the gather (one
// slot per lane at a time) and requesting the next row before the reduction:
// kSplitGatherBatchedRegs has the figures since. At many rows `auto`'s forward keeps
// block_hybrid's clusters, ahead at every width measured; it takes split for few rows
// past 1 MB (auto.cuh, rule 5).
// __launch_bounds__ keeps four CTAs per SM (two slices in registers: 128-thread CTAs
// may use 128 registers, 256-thread ones 64), three where a slice takes more than 8
// loads (an address per pack: 16 scalar fp32 packs per slice spill 164 bytes at 64
// registers, sm_90 ptxas), two for 256 threads of 128 bytes.
constexpr int kSplitChunkBytes = 16 * 1024;
constexpr int kSplitValues = 32;
constexpr int kSplitWideThreads = 256;  // also the most threads a split CTA has
constexpr int kSplitWideBytes = 128;
// Threads of the 16 KB shape for `bytes` per thread (the 32 KB shape: kSplitWideThreads).
constexpr int split_threads(int bytes) { return std::min(kSplitWideThreads, kSplitChunkBytes / bytes); }
constexpr int split_min_blocks(int bytes, int threads, int pack_bytes) {
  return threads * bytes > kSplitChunkBytes ? 2 : bytes / pack_bytes > 8 ? 3 : 4;
}
// Warp 0 gathers the row's pairs four slots per lane at a time (gather_parts_pair) in
// kernels of at least kSplitGatherBatchedRegs registers per thread or of fewer than
// kSplitGatherBatchedMaxLoads loads per slice, one at a time (gather_row_pair) in the
// others, where four more 64-bit words spill (16-bit 8-byte packs at 64 registers: 8
// bytes; scalar fp32 at 80: 56; sm_90 ptxas). H100, 1 GiB, % of copy, softmax forward split, one slot -> four, and the next
// row's chunk requested after the pair is published rather than before the chunk is
// reduced (benchmarks/h100_2026-11-25/split_forward_gather_*_h100_97a4279.md): fp32
// 131072 / 262144 / 524288 / 1048576 82.1 / 79.6 / 70.4 / 56.2 -> 92.6 / 88.0 / 81.7 /
// 70.2, bf16 90.5 / 79.8 / 75.6 / 68.6 -> 90.3 / 89.4 / 85.6 / 80.7 (four slots before
// the late request: 90.7 / 85.3 / 77.9 / 65.3 and 89.5 / 87.4 / 80.7 / 76.2).
constexpr int kSplitGatherBatchedRegs = 96;
constexpr int kSplitGatherBatchedMaxLoads = 8;

// ---------------------------------------------------------------------------------
// The exchange through global memory
// ---------------------------------------------------------------------------------

// A pair as one word: |d|'s bits high (the sign cleared, so a NaN sum too publishes a
// non-negative word), m's bits low.
__device__ __forceinline__ unsigned long long pair_word(OnlinePair p) {
  return (static_cast<unsigned long long>(__float_as_uint(fabsf(p.d))) << 32) | __float_as_uint(p.m);
}
__device__ __forceinline__ OnlinePair word_pair(unsigned long long w) {
  return {__uint_as_float(static_cast<unsigned>(w)), __uint_as_float(static_cast<unsigned>(w >> 32))};
}
// One 64-bit access each, so a reader sees the whole pair or the "not yet" word: the
// publish an atomic exchange at GPU scope (performed at L2), the polls volatile loads
// (from L2, never this SM's L1), as Triton's split kernels exchange
// (kernels_triton/softmax_split.py, softmax_oneshot.py). A relaxed store and relaxed
// loads at GPU scope (st/ld.relaxed.gpu), which these replace, made every row's wait
// longer. H200, 1 GiB, % of copy, relaxed -> these: a backward of Triton's split_oneshot
// geometry, nothing else changed (benchmarks/h200_2026-11-28/form3_compare_h200_b032535.txt,
// forms 6 and 8 of benchmarks/tuning/backward_split_regs_experiment.patch), fp32 131072 /
// 524288 softmax 87.8 / 79.1 -> 100.9 / 98.3, log-softmax 86.4 / 77.3 -> 100.5 / 95.8;
// `auto` (xchg_compare_h200_c1a9d9c.txt), forward fp32 1048576 86.4 -> 93.3, backward
// fp32 1048576 82.4 -> 91.5, bf16 1048576 87.9 -> 97.8.
// The exchange's destination register takes the replaced "not yet" word, which is dropped.
__device__ __forceinline__ void publish_word(unsigned long long* slot, unsigned long long w) {
  unsigned long long replaced;
  asm volatile("atom.relaxed.gpu.global.exch.b64 %0, [%1], %2;\n" : "=l"(replaced) : "l"(slot), "l"(w) : "memory");
}
__device__ __forceinline__ unsigned long long read_word(const unsigned long long* slot) {
  unsigned long long w;
  asm volatile("ld.volatile.global.b64 %0, [%1];\n" : "=l"(w) : "l"(slot) : "memory");
  return w;
}

// Warp 0: the merged pair of the row's `split` slots, each polled until published.
__device__ __forceinline__ OnlinePair gather_row_pair(const unsigned long long* slots, int split) {
  const int lane = threadIdx.x & 31;
  OnlinePair acc = online_empty();
  for (int j = lane; j < split; j += 32) {
    unsigned long long w = read_word(slots + j);
    while (static_cast<long long>(w) < 0) w = read_word(slots + j);
    acc = online_merge(acc, word_pair(w));
  }
  return warp_merge_pairs(acc);
}

// Warp 0's walk over a row's `split` slots: lane l takes slots l, l + 32, ..., reading
// kGatherBatch of them before it polls (64 parts are one round trip to L2 per lane, not
// two in turn), re-reading the unpublished ones until none is left, then hands each
// word to use(word) in slot order (split_smem; the forward split where registers allow,
// gather_row_pair one slot at a time elsewhere: kSplitGatherBatchedRegs).
constexpr int kGatherBatch = 4;
template <typename Use>
__device__ __forceinline__ void gather_slots(const unsigned long long* slots, int split, Use&& use) {
  const int lane = threadIdx.x & 31;
  for (int base = lane; base < split; base += 32 * kGatherBatch) {
    unsigned long long w[kGatherBatch];
#pragma unroll
    for (int u = 0; u < kGatherBatch; ++u) w[u] = base + 32 * u < split ? read_word(slots + base + 32 * u) : 0ull;
    bool pending = true;
    while (pending) {
      pending = false;
#pragma unroll
      for (int u = 0; u < kGatherBatch; ++u) {
        if (static_cast<long long>(w[u]) < 0) {
          w[u] = read_word(slots + base + 32 * u);
          pending = true;
        }
      }
    }
#pragma unroll
    for (int u = 0; u < kGatherBatch; ++u) {
      if (base + 32 * u < split) use(w[u]);
    }
  }
}

__device__ __forceinline__ OnlinePair gather_parts_pair(const unsigned long long* slots, int split) {
  OnlinePair acc = online_empty();
  gather_slots(slots, split, [&](unsigned long long w) { acc = online_merge(acc, word_pair(w)); });
  return warp_merge_pairs(acc);
}


// split_smem's backward sums: one fp32 per part in the low half of a 64-bit word whose
// high half is 0 (never the "not yet" word), added in slot order, so every CTA of a row
// gets the same sum.
__device__ __forceinline__ unsigned long long sum_word(float s) {
  return static_cast<unsigned long long>(__float_as_uint(s));
}
// split's backward publishes its sum into the low half of its slot as 32 bits (a NaN
// as the canonical 0x7fffffff), so the all-ones half left by the launch's fill still
// means "not yet", and warp 0 gathers kGatherBatch 32-bit halves per lane at a time:
// four 64-bit words per lane spilled 16 bytes at the kernel's register cap, and fewer
// slots at a time cost the widest rows their speed (H100, 1 GiB, softmax backward, %
// of copy, fp32 / bf16 1048576, four slots 76.3 / 90.5, two 68.7 / 86.5, one 63.3 /
// 86.0; benchmarks/h100_2026-11-25/split_backward_gather_b*_h100_ef48e62.md). Polling
// with every thread of the CTA, one slot each, measured lower still (fp32 131072 /
// 262144 94.5 / 87.6 against 98.9 / 97.6; split_backward_forms_*_h100_5449b8d.md).
constexpr unsigned kSumNotYet = 0xffffffffu;
// The exchange's instructions as publish_word's and read_word's.
__device__ __forceinline__ void publish_sum(unsigned long long* slot, float s) {
  const unsigned bits = isnan(s) ? 0x7fffffffu : __float_as_uint(s);
  unsigned replaced;
  asm volatile("atom.relaxed.gpu.global.exch.b32 %0, [%1], %2;\n" : "=r"(replaced) : "l"(slot), "r"(bits) : "memory");
}
__device__ __forceinline__ unsigned read_sum_bits(const unsigned long long* slot) {
  unsigned w;
  asm volatile("ld.volatile.global.b32 %0, [%1];\n" : "=r"(w) : "l"(slot) : "memory");
  return w;
}
// Warp 0: the row's sum from its `split` slots, in slot order within each lane: the loop
// of gather_slots over 32-bit halves. (One template for both widths compiled gather_slots'
// 64-bit users, the forward split and split_smem, to other code than was measured, so
// the two stay apart.)
__device__ __forceinline__ float gather_row_sum(const unsigned long long* slots, int split) {
  const int lane = threadIdx.x & 31;
  float s = 0.0f;
  for (int base = lane; base < split; base += 32 * kGatherBatch) {
    unsigned w[kGatherBatch];
#pragma unroll
    for (int u = 0; u < kGatherBatch; ++u) w[u] = base + 32 * u < split ? read_sum_bits(slots + base + 32 * u) : 0u;
    bool pending = true;
    while (pending) {
      pending = false;
#pragma unroll
      for (int u = 0; u < kGatherBatch; ++u) {
        if (w[u] == kSumNotYet) {
          w[u] = read_sum_bits(slots + base + 32 * u);
          pending = true;
        }
      }
    }
#pragma unroll
    for (int u = 0; u < kGatherBatch; ++u) {
      if (base + 32 * u < split) s += __uint_as_float(w[u]);
    }
  }
  return warp_allreduce_static<32>(s, SumOp());
}
__device__ __forceinline__ float gather_parts_sum(const unsigned long long* slots, int split) {
  float s = 0.0f;
  gather_slots(slots, split, [&](unsigned long long w) { s += __uint_as_float(static_cast<unsigned>(w)); });
  return warp_allreduce_static<32>(s, SumOp());
}

// The part of every row of its group that CTA blockIdx.x handles, split CTAs per row
// (split_smem's parts, the backward's chunks here): part `index`, packs [first, first +
// local) of rows blockIdx.x / split, + groups, ... (local is 0 for parts past the row's
// end; rows of at most 2^31 - 1 packs).
struct RowPart {
  int index;
  int first;
  int local;
  int64_t groups;
  __device__ __forceinline__ int64_t offset(int n) const { return static_cast<int64_t>(first) * n; }
};
__device__ __forceinline__ RowPart row_part(int split, int64_t packs, int slice_packs) {
  RowPart r;
  r.index = static_cast<int>(blockIdx.x % split);
  r.groups = gridDim.x / split;
  r.first = static_cast<int>(min(packs, static_cast<int64_t>(r.index) * slice_packs));
  r.local = min(static_cast<int>(packs) - r.first, slice_packs);
  return r;
}

// ---------------------------------------------------------------------------------
// Forward kernel
// ---------------------------------------------------------------------------------

// One row of the loop: `cur` holds this CTA's chunk (packs [first, first + local)) of
// `row`, loaded the row before; `next` receives its chunk of row + groups.
// parity: which of the double-buffered shared slots this row uses (a warp may reach row
// + 1 while another still reads row's slots; row + 2 rewrites them only after the
// barriers of row + 1).
// kEdges: rows read as head, whole packs and tail (common/row_edges.cuh), as the
// backward's (split_grad_row): each row's chunk moved by its head, the first part's
// threads 0 .. count - 1 holding their edge value from a load a row ahead (-inf in the
// other threads), folded into their pair and written after the wait. From the fold to
// the write the value waits in this thread's slot of `edge_slots` (shared memory), so
// that only one edge value is in registers at a time: two (this row's and the next's,
// both held across the wait) spilled 4 bytes in the fp32 instances of 128 registers.
template <bool kGatherBatched, bool kEdges, typename T, int N, int B>
__device__ __forceinline__ void split_row(const RowsArgs<T>& a, RegSlice<T, N, B>& cur, RegSlice<T, N, B>& next,
                                          float& edge, float* edge_slots, int64_t row, int64_t groups, int first,
                                          int local, OnlinePair* warp_pairs, OnlinePair& row_pair) {
  const int t = threadIdx.x;
  const int G = blockDim.x;
  const int64_t next_row = row + groups;
  OnlinePair part = cur.reduce(a.log);
  if constexpr (kEdges) {
    part = online_fold(part, edge);
    if (t < kMaxRowEdges) edge_slots[t] = edge;
  }
  OnlinePair acc = slice_merge_pairs(part, warp_pairs, 0, G);
  // Chunk blockIdx.x % split, recomputed here: passed in from the kernel instead, it
  // stays live through the loads in flight (ptxas: up to 5 more registers).
  if (a.split > 1 && t == 0) publish_word(a.slots + row * a.split + blockIdx.x % a.split, pair_word(acc));
  const int64_t next_offset =
      static_cast<int64_t>(first) * N + row_head_if<kEdges, T, N>(a.x + next_row * a.x_stride, a.cols);
  next.load(a.x + next_row * a.x_stride + next_offset, t, G, next_row < a.rows ? local : 0);
  if constexpr (kEdges) {
    if (blockIdx.x % a.split == 0 && next_row < a.rows) edge = held_edge_value<T, N>(a.x + next_row * a.x_stride, a.cols, t);
  }
  if (a.split > 1) {
    const unsigned long long* slots = a.slots + row * a.split;
    if (t < 32) {
      const OnlinePair p = kGatherBatched ? gather_parts_pair(slots, a.split) : gather_row_pair(slots, a.split);
      if (t == 0) row_pair = p;
    }
    __syncthreads();
    acc = row_pair;
  }
  const int64_t r = kEdges ? rematerialize(row) : row;
  if (local > 0) {
    const int64_t offset = static_cast<int64_t>(first) * N + row_head_if<kEdges, T, N>(a.x + r * a.x_stride, a.cols);
    cur.write(a.y + r * a.cols + offset, t, G, local, make_row_norm(acc.m, acc.d, a.log), a.log);
  }
  if constexpr (kEdges) {
    if (blockIdx.x % a.split == 0 && t < kMaxRowEdges) {
      const RowEdges<T, N> row_edges(a.x + r * a.x_stride, a.cols);
      if (t < row_edges.count()) {
        row_edges.store(a.y + r * a.cols, t, normalize(edge_slots[t], make_row_norm(acc.m, acc.d, a.log), a.log));
      }
    }
  }
}

template <typename T, int N, int B, int kThreads, bool kEdges = false>
__global__ void __launch_bounds__(kThreads, split_min_blocks(B, kThreads, N * static_cast<int>(sizeof(T))))
    softmax_split_kernel(RowsArgs<T> a) {
  constexpr int kPackBytes = N * static_cast<int>(sizeof(T));
  constexpr bool kGatherBatched = 65536 / (kThreads * split_min_blocks(B, kThreads, kPackBytes)) >=
                                      kSplitGatherBatchedRegs ||
                                  B / kPackBytes < kSplitGatherBatchedMaxLoads;
  __shared__ OnlinePair warp_pairs[2][kThreads / 32];
  __shared__ OnlinePair row_pair[2];
  const int split = a.split;
  const int part = static_cast<int>(blockIdx.x % split);
  const int64_t groups = gridDim.x / split;
  // rows of at most 2^31 - 1 packs
  const int packs = static_cast<int>(kEdges ? edge_body<N>(a.cols) : a.cols / N);
  const int first = static_cast<int>(min(static_cast<int64_t>(packs), static_cast<int64_t>(part) * a.slice_packs));
  const int local = min(packs - first, a.slice_packs);  // 0 for chunks past the row's end
  int64_t row = blockIdx.x / split;
  // The edge values between their fold and their write (kEdges; one slot per thread).
  __shared__ float edge_slots[kEdges ? kMaxRowEdges : 1];
  float edge = -INFINITY;
  if (kEdges && part == 0 && row < a.rows) edge = held_edge_value<T, N>(a.x + row * a.x_stride, a.cols, threadIdx.x);
  RegSlice<T, N, B> s0, s1;
  const int64_t offset = static_cast<int64_t>(first) * N + row_head_if<kEdges, T, N>(a.x + row * a.x_stride, a.cols);
  s0.load(a.x + row * a.x_stride + offset, threadIdx.x, blockDim.x, row < a.rows ? local : 0);
  // Unrolled by two so that the two slices swap roles without a register copy (a copy
  // would wait for the next row's loads before this row is written).
  while (row < a.rows) {
    split_row<kGatherBatched, kEdges>(a, s0, s1, edge, edge_slots, row, groups, first, local, warp_pairs[0], row_pair[0]);
    row += groups;
    if (row >= a.rows) break;
    split_row<kGatherBatched, kEdges>(a, s1, s0, edge, edge_slots, row, groups, first, local, warp_pairs[1], row_pair[1]);
    row += groups;
  }
}

// ---------------------------------------------------------------------------------
// Forward plan
// ---------------------------------------------------------------------------------

// The instances the plan can pick (split_shapes): for each element size and pack, its
// 16 KB shape and, where packs allow 128 bytes per thread, the 32 KB one; edges: rows
// read in three parts (realigned plans, whose packs are 16 bytes).
template <typename T, int N, bool kEdges>
const void* split_instance(int bytes, int threads) {
  constexpr int kMax = std::min(kSplitWideBytes, kRegsMaxLoads * N * static_cast<int>(sizeof(T)));
  constexpr int kFirst = std::min(kMax, kSplitValues * static_cast<int>(sizeof(T)));
  constexpr int kFirstThreads = split_threads(kFirst);
  if (bytes == kFirst && threads == kFirstThreads) {
    return reinterpret_cast<const void*>(&softmax_split_kernel<T, N, kFirst, kFirstThreads, kEdges>);
  }
  if constexpr (kMax == kSplitWideBytes) {
    if (bytes == kSplitWideBytes && threads == kSplitWideThreads) {
      return reinterpret_cast<const void*>(&softmax_split_kernel<T, N, kSplitWideBytes, kSplitWideThreads, kEdges>);
    }
  }
  throw std::runtime_error("split: no kernel for " + std::to_string(bytes) + " bytes per thread, " +
                           std::to_string(threads) + " threads and packs of " + std::to_string(N));
}

template <typename T, int N>
const void* split_kernel(int bytes, int threads, bool edges) {
  if constexpr (N * sizeof(T) == 16) {
    if (edges) return split_instance<T, N, true>(bytes, threads);
  }
  return split_instance<T, N, false>(bytes, threads);
}

struct SplitFamily {
  template <typename T, int N> static const void* get(int bytes, int threads, bool edges) {
    return split_kernel<T, N>(bytes, threads, edges);
  }
};

// Places a row of `packs` packs of `pack_bytes` in chunks of `threads` x `bytes` per
// thread, one CTA of kernel fn each (forward and backward): the plan's split, threads
// (the chunk's packs in whole warps) and residency; true with the grid, as many row
// groups as fit the GPU at once (at most one per row), and the exchange's workspace
// where every chunk of a row is resident at once, false (too many chunks) where not.
inline bool place_split_chunks(Plan& plan, const Problem& p, const void* fn, int64_t packs, int pack_bytes,
                               int bytes, int threads) {
  const int64_t rows = plan_rows(p);
  const int64_t chunk_packs = static_cast<int64_t>(threads) * (bytes / pack_bytes);
  const int64_t split = ceil_div(packs, chunk_packs);
  const int64_t slice = ceil_div(packs, split);
  const int group = static_cast<int>(round_up(ceil_div(slice, bytes / pack_bytes), 32));
  const int resident = resident_blocks(fn, p.device, group, 0);
  const int64_t capacity = static_cast<int64_t>(resident) * device_properties(p.device).sm_count;
  plan.split = split;
  plan.threads = group;
  plan.resident_per_sm = resident;
  if (split > capacity || split > INT32_MAX) return false;
  plan.kernel = fn;
  plan.group_width = group;
  plan.blocks = std::min(rows, capacity / split) * split;
  plan.workspace_bytes = split > 1 ? rows * split * static_cast<int64_t>(sizeof(unsigned long long)) : 0;
  return true;
}

template <typename T>
Plan plan_split(const Problem& p) {
  constexpr int kElem = static_cast<int>(sizeof(T));
  Plan plan = new_plan(Variant::split);
  const int pack = realigned_pack<T>(p, plan.realigned);
  const bool edges = plan.realigned != 0;
  const int64_t packs = std::max<int64_t>(p.cols / pack, 1);
  const int pack_bytes = pack * kElem;
  const int max_bytes = std::min(kSplitWideBytes, kRegsMaxLoads * pack_bytes);
  const int first = std::min(max_bytes, kSplitValues * kElem);
  plan.pack = pack;
  // (bytes per thread, threads): the 16 KB chunk, then the 32 KB one (wider chunks, fewer
  // CTAs).
  std::vector<std::pair<int, int>> shapes = {{first, split_threads(first)}};
  if (max_bytes == kSplitWideBytes) shapes.emplace_back(kSplitWideBytes, kSplitWideThreads);
  for (const auto& [bytes, threads] : shapes) {
    plan.cols_per_thread = bytes / kElem;
    const void* fn = kernel_for_pack<SplitFamily, T>(pack, bytes, threads, edges);
    if (place_split_chunks(plan, p, fn, packs, pack_bytes, bytes, threads)) return plan;
  }
  plan.status = PlanStatus::too_many_chunks;
  return plan;
}

// ---------------------------------------------------------------------------------
// Backward kernel: the forward's design with y and dy (Triton's split backward,
// kernels_triton/softmax_split.py): each CTA holds its chunk of y and of dy in registers
// (GradSlice), publishes its part of the row's sum (publish_sum), requests its chunks of the
// next row, and only then waits for the row's other parts. Each of y and dy read once,
// dx written once.
//
// The next row's chunks are requested after the part is published: requested before the
// sum is computed (the forward's order), the H100 measured every width lower (1 GiB, %
// of copy, fp32 131072 / 262144 / 524288 / 1048576 98.3 / 97.5 / 92.0 / 75.7 after,
// 90.6 / 84.9 / 75.8 / 58.6 before; bf16 95.8 / 93.7 / 89.5 / 74.3 and 81.3 / 76.4 / 71.5
// / 60.8; benchmarks/h100_2026-11-25/split_backward_{late,early}_h100_689e5c9.md).
// ---------------------------------------------------------------------------------

// Chunks of kSplitGradBytes bytes of each tensor per thread and kSplitGradThreads
// threads: 16 KB of y and 16 KB of dy per CTA, three CTAs per SM (about 170 registers:
// two rows of both in flight), as Triton's fp32 backward, which measured 99.4 / 99.5 % of
// copy at 131072 / 262144 columns on the H100 (benchmarks/h100/backward-fp32-bf16-cols128-
// 262144.md). Narrow packs hold fewer bytes per thread (kRegsMaxLoads loads of each
// tensor) in up to kSplitWideThreads threads (16-bit scalars: 32 B x 256 threads, chunks
// of half the values, so twice as many).
constexpr int kSplitGradBytes = 128;
constexpr int kSplitGradThreads = 128;

// CTAs resident per SM that __launch_bounds__ asks for, so that ptxas keeps both rows'
// chunks in registers: a thread holds 4 x its GradSlice words (y and dy of two rows:
// one register per 4 bytes, or per pack where packs are narrower) and about 40 more,
// 48 with more than 8 loads of each tensor (an address each; at 40, fp32 8-byte packs
// spill 12 bytes and 16-bit scalar ones 232, sm_90 ptxas).
template <typename T, int N, int B>
constexpr int split_grad_min_blocks(int threads) {
  constexpr int kPackBytes = N * static_cast<int>(sizeof(T));
  constexpr int kLoads = B / kPackBytes;
  constexpr int kWords = 4 * (kPackBytes >= 4 ? B / 4 : kLoads);
  return std::max(1, 65536 / (threads * (kWords + (kLoads > 8 ? 48 : 40))));
}
// Bytes of each tensor per thread for packs of pack_bytes, and the threads of a chunk.
constexpr int split_grad_bytes(int pack_bytes) { return std::min(kSplitGradBytes, kRegsMaxLoads * pack_bytes); }
constexpr int split_grad_threads(int bytes) {
  return std::min(kSplitWideThreads, kSplitGradThreads * kSplitGradBytes / bytes);
}

// One row of the loop: `cur` holds this CTA's chunks of y and dy of `row`, loaded the row
// before; `next` receives those of row + groups. warp_sums (the CTA's part) and
// row_sum (the row's sum): this row parity's (as the forward's pairs: a warp may reach
// the next row while another still reads this row's; the row after rewrites them only
// past the next row's barriers).
// kEdges: rows read as head, whole packs and tail (common/row_edges.cuh). Each row's
// chunks start `head` values further (worked out for the next row where its chunks are
// requested, and again for this row's output rather than kept live across the wait).
// The row's edge values go to threads 0 .. count - 1 of the row's first part, which
// load theirs of y and dy with the row's chunks (a row ahead) and hold them: their
// term joins that part's sum and their dx is written after the wait, with no read of
// its own on the row's path (every part of a row waits for the slowest).
template <bool kEdges, typename T, int N, int B>
__device__ __forceinline__ void split_grad_row(const GradArgs<T>& a, const RowPart& my, GradSlice<T, N, B>& cur,
                                               GradSlice<T, N, B>& next, EdgeHeld& edge_cur, EdgeHeld& edge_next,
                                               int64_t row, float* warp_sums, float& row_sum) {
  const int t = threadIdx.x;
  const int G = blockDim.x;
  const int64_t next_row = row + my.groups;
  const int64_t offset = my.offset(N);
  const bool edges = kEdges && my.index == 0;
  float part = cur.sum(a.log);
  if (edges) part += grad_term(edge_cur.y, edge_cur.g, a.log);
  float s = slice_sum(part, warp_sums, 0, G);
  unsigned long long* slots = a.slots + row * a.split;
  if (a.split > 1 && t == 0) publish_sum(slots + my.index, s);
  const int64_t next_offset = offset + row_head_if<kEdges, T, N>(a.y + next_row * a.y_stride, a.cols);
  next.load(a.y + next_row * a.y_stride + next_offset, a.dy + next_row * a.dy_stride + next_offset, t, G,
            next_row < a.rows ? my.local : 0);
  if (edges && next_row < a.rows) {
    edge_next = held_edge<T, N>(a.y + next_row * a.y_stride, a.dy + next_row * a.dy_stride, a.cols, t);
  }
  if (a.split > 1) {
    if (t < 32) {
      const float total = gather_row_sum(slots, a.split);
      if (t == 0) row_sum = total;
    }
    __syncthreads();
    s = row_sum;
  }
  const int64_t r = kEdges ? rematerialize(row) : row;
  if (my.local > 0) {
    cur.write(a.dx + r * a.cols + offset + row_head_if<kEdges, T, N>(a.y + r * a.y_stride, a.cols), t, G, my.local,
              s, a.log);
  }
  if (edges) {
    const RowEdges<T, N> row_edges(a.y + r * a.y_stride, a.cols);
    if (t < row_edges.count()) row_edges.store(a.dx + r * a.cols, t, grad_out<T>(edge_cur.y, edge_cur.g, s, a.log));
  }
}

template <typename T, int N, int B, int kThreads, bool kEdges = false>
__global__ void __launch_bounds__(kThreads, split_grad_min_blocks<T, N, B>(kThreads))
    softmax_backward_split_kernel(GradArgs<T> a) {
  __shared__ float warp_sums[2][kThreads / 32];
  __shared__ float row_sum[2];
  const RowPart my = row_part(a.split, kEdges ? edge_body<N>(a.cols) : a.cols / N, a.slice_packs);
  int64_t row = blockIdx.x / a.split;
  const int64_t offset = my.offset(N) + row_head_if<kEdges, T, N>(a.y + row * a.y_stride, a.cols);
  EdgeHeld e0{}, e1{};
  if (kEdges && my.index == 0 && row < a.rows) {
    e0 = held_edge<T, N>(a.y + row * a.y_stride, a.dy + row * a.dy_stride, a.cols, threadIdx.x);
  }
  GradSlice<T, N, B> s0, s1;
  s0.load(a.y + row * a.y_stride + offset, a.dy + row * a.dy_stride + offset, threadIdx.x, blockDim.x,
          row < a.rows ? my.local : 0);
  // Unrolled by two as the forward's: the slices (and held edges) swap roles without a
  // register copy.
  while (row < a.rows) {
    split_grad_row<kEdges>(a, my, s0, s1, e0, e1, row, warp_sums[0], row_sum[0]);
    row += my.groups;
    if (row >= a.rows) break;
    split_grad_row<kEdges>(a, my, s1, s0, e1, e0, row, warp_sums[1], row_sum[1]);
    row += my.groups;
  }
}

// ---------------------------------------------------------------------------------
// Backward plan
// ---------------------------------------------------------------------------------

// edges: rows read in three parts (realigned plans, whose packs are 16 bytes).
// wide: chunks of kSplitWideThreads threads (kSplitGradWideGroups says where), for
// 16-byte packs of kSplitGradBytes a thread only.
struct SplitBackwardFamily {
  template <typename T, int N, int kThreads> static const void* instance(bool edges) {
    constexpr int kBytes = split_grad_bytes(N * static_cast<int>(sizeof(T)));
    if constexpr (N * sizeof(T) == 16) {
      if (edges) return reinterpret_cast<const void*>(&softmax_backward_split_kernel<T, N, kBytes, kThreads, true>);
    }
    return reinterpret_cast<const void*>(&softmax_backward_split_kernel<T, N, kBytes, kThreads>);
  }
  template <typename T, int N> static const void* get(bool edges, bool wide) {
    constexpr int kBytes = split_grad_bytes(N * static_cast<int>(sizeof(T)));
    if constexpr (kBytes == kSplitGradBytes && N * sizeof(T) == 16) {
      if (wide) return instance<T, N, kSplitWideThreads>(edges);
    }
    return instance<T, N, split_grad_threads(kBytes)>(edges);
  }
};

// Rows whose chunks of kSplitGradThreads threads leave fewer row groups resident than
// this take chunks of kSplitWideThreads (twice the bytes, half the chunks: half the
// slots each CTA's gather reads per row) where those keep at least as many groups: fp32
// 1048576, 256 chunks of 16 KB of y and dy, one group of 256 CTAs (three resident per
// SM) -> 128 of 32 KB, one CTA per SM, as Triton's split backward has there. 1 GiB, % of
// copy, two rounds, split named, before -> after (benchmarks/h*_2026-11-27b/wsplit_*):
// H100 softmax / log-softmax 73.0-73.1 / 72.4-72.5 -> 79.5 / 76.7-76.8, H200 64.9 / 62.8
// -> 71.3 / 67.3-67.5 (auto's rule 1b takes them: split_smem held 73.7 / 67.5).
constexpr int64_t kSplitGradWideGroups = 2;

// Row groups of a placed split plan resident at once (each group one row's `split` CTAs).
inline int64_t resident_row_groups(const Plan& plan, int device) {
  return plan.resident_per_sm * device_properties(device).sm_count / plan.split;
}

template <typename T>
Plan plan_split_backward(const Problem& p) {
  constexpr int kElem = static_cast<int>(sizeof(T));
  Plan plan = new_plan(Variant::split);
  const int pack = realigned_pack<T>(p, plan.realigned);
  const bool edges = plan.realigned != 0;
  const int bytes = split_grad_bytes(pack * kElem);
  const int64_t packs = std::max<int64_t>(p.cols / pack, 1);
  plan.pack = pack;
  plan.cols_per_thread = bytes / kElem;
  const void* fn = kernel_for_pack<SplitBackwardFamily, T>(pack, edges, false);
  const bool fits = place_split_chunks(plan, p, fn, packs, pack * kElem, bytes, split_grad_threads(bytes));
  const int64_t groups = fits ? resident_row_groups(plan, p.device) : 0;
  if (bytes == kSplitGradBytes && pack * kElem == 16 && groups < kSplitGradWideGroups) {
    Plan wide = plan;
    const void* wide_fn = kernel_for_pack<SplitBackwardFamily, T>(pack, edges, true);
    if (place_split_chunks(wide, p, wide_fn, packs, pack * kElem, bytes, kSplitWideThreads) &&
        resident_row_groups(wide, p.device) >= groups) {
      return wide;
    }
  }
  if (!fits) plan.status = PlanStatus::too_many_chunks;
  return plan;
}

}  // namespace softmax
}  // namespace sk
