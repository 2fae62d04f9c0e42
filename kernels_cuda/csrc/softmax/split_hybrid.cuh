// split_hybrid (sm_90+): block_hybrid's CTAs (each its slice of the row in registers and
// the rest in shared memory by TMA, forward and backward: the kernels of
// softmax/block_hybrid.cuh) with their exchange through global memory (split's slots,
// softmax/split.cuh) instead of a cluster's shared memory, so that a row may take any
// number of CTAs, none of which waits to be co-scheduled with its peers in one GPC.
//
// Why, beside block_hybrid's clusters: a cluster's CTAs are placed together in one GPC,
// so the GPU holds fewer CTAs of large clusters than it has SMs: clusters of 16 CTAs of
// one per SM keep 112-120 of the H100's and H200's 132 SMs busy. The widest rows need
// such clusters (fp32 1048576: 16 CTAs of 256 KB), and there the SMs busy bound the
// bandwidth: on the H200, 15 -> 16 CTAs per cluster (105 -> 112 SMs busy) measured
// 76.9 -> 81.2 % of copy (block_hybrid.cuh, plan_hybrid_block). Without a cluster every
// SM takes CTAs, and rows too wide for 16 CTAs (the fp32 backward's 8 MB of y and dy at
// 1048576 columns) take as many as they need.
//
// Grid: one-shot, rows x K CTAs (K = plan.split: the fewest slices that fit the shape's
// CTAs on chip), not cooperative: a CTA takes a ticket (an atomic add on the workspace's
// first word) when it starts, and ticket n is slice n % K of row n / K. A CTA waits only
// for the peers of its own row, and tickets are taken in the order CTAs start, so at any
// time only the row of the latest ticket can lack started peers; the CTAs of every other
// row are all running and finish, freeing slots for the rest. Hence no deadlock wherever
// K CTAs fit the GPU at once (the plan checks: too_many_chunks), whatever order the
// hardware starts CTAs in (block indices are not used: nothing promises that CTA b + 1
// starts while CTA b waits). Launches running at once on other streams share the slots:
// each holds at most K - 1 waiting CTAs (its latest row's), so they progress while those
// together stay below the CTAs the GPU holds at once (auto's widest plans: 58 of 264
// forward, 94 backward, two such launches at a time); under MPS or green contexts that
// cap the SMs, the count the plan reads may exceed what the process has. The workspace,
// set to all ones before each launch: the
// ticket counter (all ones + 1 = ticket 0), then one 64-bit slot per slice of every row
// (the forward's pair as split's word, the backward's fp32 sum in its low half), each
// polled until published, as in split.
//
// Why one-shot, not persistent groups of K CTAs looping over rows: groups that start
// together stay in phase, so an SM's two CTAs wait for their rows' peers at once with
// nothing loading, where one-shot rows drift apart as slots free. H200, 1 GiB, % of copy,
// one-shot -> persistent (benchmarks/h200_2026-11-28/persist_*_h200_65db64f.txt): fp32
// forward 1048576 86.2 -> 82.4, fp32 backward 524288 86.3 -> 79.6; groups started out of
// phase won back half (stagger_compare_h200_b01de60.txt: 85.0, 81.7).
//
// Each element is read once and written once, as in block_hybrid; the exchange costs a
// CTA one publish and one gather of K slots through L2 per row.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <limits>

#include "softmax/block_hybrid.cuh"
#include "softmax/geometry.cuh"
#include "softmax/split.cuh"

namespace sk {
namespace softmax {

// ---------------------------------------------------------------------------------
// The exchange through global memory
// ---------------------------------------------------------------------------------

// The most slices a row takes (the shared words a CTA gathers them into): 8 MB of fp32
// y and dy (1048576 columns) take about 48 of two per SM.
constexpr int kSplitHybridMaxSlices = 128;

// HybridCluster's members (block_hybrid.cuh) for K CTAs that exchange through the
// workspace (a.slots: the ticket counter, then rows x K slots). Like HybridCluster it
// keeps only the row's and slice's packs in registers: the ticket's row and slice, K and
// the slots' address wait in shared memory (one block of it per CTA, at a fixed
// address) and are read back at each use, as HybridCluster reads its special registers:
// the 16-byte-pack kernels' registers are full (held in registers, they spilled 48-80
// bytes in the bf16 forward, ptxas sm_90).
struct HybridGlobal : HybridSlice<HybridGlobal> {
  struct Ticket {
    unsigned long long* slots;  // the row's K slots
    int64_t row;
    int rank;
    int k;
  };
  // The row's K published words, polled by warp 0 into shared memory; every warp then
  // merges them (block_hybrid's cluster does the same with its peers' values).
  template <typename V>
  struct Shared {
    unsigned long long words[kSplitHybridMaxSlices];
  };
  static __device__ __forceinline__ Ticket& ticket() {
    __shared__ Ticket t;
    return t;
  }
  template <typename Args, typename V>
  __device__ __forceinline__ HybridGlobal(const Args& a, int64_t packs_in_row, Shared<V>&)
      : HybridSlice<HybridGlobal>{packs_in_row, a.slice_packs} {
    if (threadIdx.x == 0) {
      const int k = a.split;
      // K = 1: no peers to wait for, no workspace.
      const unsigned long long n = k > 1 ? atomicAdd(a.slots, 1ull) + 1ull : blockIdx.x;
      Ticket& t = ticket();
      t.row = static_cast<int64_t>(n / static_cast<unsigned>(k));
      t.slots = a.slots + 1 + t.row * k;
      t.rank = static_cast<int>(n % static_cast<unsigned>(k));
      t.k = k;
    }
    __syncthreads();
  }
  static __device__ __forceinline__ int k_ctas() { return ticket().k; }
  static __device__ __forceinline__ int rank() { return ticket().rank; }
  // The grid is one-shot, rows x K CTAs (the plan refuses more than kMaxGridBlocks): ticket
  // n's CTA takes row n / K, slice n % K, and no other. K = 1: row blockIdx.x, and a
  // grid-stride loop past kMaxGridBlocks rows.
  static __device__ __forceinline__ int64_t first_row() { return ticket().row; }
  static __device__ __forceinline__ int64_t row_step() { return gridDim.x; }
  // Thread 0 publishes; warp 0 polls the row's K slots (lane l: slots l, l + 32, ...)
  // into shared memory; after a barrier every warp merges them in the same order, as
  // every CTA of the row does. (Merged in warp 0's polling loop, the bf16 forward
  // spilled 32 bytes, ptxas sm_90.) The next row's words are written after that row's
  // block reduction, whose barrier every thread passes after reading these.
  template <typename V>
  static __device__ __forceinline__ const unsigned long long* gather(Shared<V>& shared) {
    const int k = k_ctas();
    const unsigned long long* row_slots = ticket().slots;
    const int j = threadIdx.x;
    if (j < k) {
      unsigned long long w = read_word(row_slots + j);
      while (static_cast<long long>(w) < 0) w = read_word(row_slots + j);
      shared.words[j] = w;
    }
    __syncthreads();
    return shared.words;
  }
  __device__ __forceinline__ OnlinePair merge(Shared<OnlinePair>& shared, OnlinePair acc, int, int64_t) const {
    if (threadIdx.x == 0) publish_word(ticket().slots + rank(), pair_word(acc));
    const unsigned long long* words = gather(shared);
    const int k = k_ctas();
    const int lane = threadIdx.x & 31;
    OnlinePair p = lane < k ? word_pair(words[lane]) : online_empty();
    if (k > 32) {
      // Slots past the first 32 folded in lane by lane (at most kSplitHybridMaxSlices).
      OnlinePair q = online_empty();
#pragma unroll
      for (int u = 1; u < kSplitHybridMaxSlices / 32; ++u) {
        if (lane + 32 * u < k) q = online_merge(q, word_pair(words[lane + 32 * u]));
      }
      p = online_merge(p, q);
    }
    return warp_merge_pairs(p);
  }
  // The backward's sums: the low 32 bits of each word (as split.cuh's publish_sum lays
  // them out), the high half 0; this CTA's part published (`publish_part`), then the
  // row's gathered (`gathered_sum`: the register slices' log-softmax issues its loads of
  // y in between).
  __device__ __forceinline__ float sum(Shared<float>& shared, float v, int, int64_t) const {
    publish_part(v);
    return gathered_sum(shared);
  }
  __device__ __forceinline__ void publish_part(float v) const {
    if (threadIdx.x == 0) publish_word(ticket().slots + rank(), sum_word(v));
  }
  __device__ __forceinline__ float gathered_sum(Shared<float>& shared) const {
    const unsigned long long* words = gather(shared);
    const int k = k_ctas();
    const int lane = threadIdx.x & 31;
    float s = 0.0f;
#pragma unroll
    for (int u = 0; u < kSplitHybridMaxSlices / 32; ++u) {
      if (lane + 32 * u < k) s += __uint_as_float(static_cast<unsigned>(words[lane + 32 * u]));
    }
    return warp_allreduce_static<32>(s, SumOp());
  }
};

// ---------------------------------------------------------------------------------
// Kernels: block_hybrid's, with the exchange above
// ---------------------------------------------------------------------------------

using SplitHybridFamily = HybridFamily<HybridGlobal>;
using SplitHybridBackwardFamily = HybridBackwardFamily<HybridGlobal>;

// ---------------------------------------------------------------------------------
// The fp32 backward's register slices: y and dy in registers (and, for the widest rows,
// a part in shared memory), small CTAs
// ---------------------------------------------------------------------------------

// Aligned fp32 rows whose slices of kSplitHybridRegsBytes of y and of dy a thread over
// kSplitHybridRegsThreads threads need at most kSplitHybridMaxSlices CTAs (to 1048576
// columns) take these slices ahead of block_hybrid's shapes: no shared memory past the
// exchange's words (but see kSplitHybridRegsMinRowsResident), kSplitHybridRegsMinBlocks
// CTAs per SM (at most 168 registers a thread; 165 used, 163 for log-softmax, 168 / 165
// with shared memory, no spills, sm_90 ptxas, CUDA 13.0), so that each SM holds three rows'
// slices in flight, each CTA loading, summing, publishing, waiting and writing once
// before it leaves its slot to the next ticket. block_hybrid's one or two large CTAs per
// SM leave their SM without loads in flight while they wait. Triton's split_oneshot
// backward has this geometry (kernels_triton/softmax_oneshot.py: 64 fp32 values of each
// a thread, 4 warps). H200, 1 GiB, % of copy, softmax / log-softmax backward, one round,
// split_hybrid with block_hybrid's slices -> these, both built and run in one call
// (benchmarks/h200_2026-11-28/sregs_compare_h200_43fd34c.txt): 262144 96.7 / 95.5 ->
// 100.4 / 101.3, 393216 95.3 / 93.9 -> 99.7 / 100.4, 524288 93.3 / 91.7 -> 98.5 / 99.5,
// 786432 93.9 / 92.1 -> 94.9 / 96.1, 1048576 92.0 / 89.1 -> 91.4 / 93.3. Log-softmax's
// mode is compiled in (kLog): read at run time it cost it 3-4 points (call 110). Its sum
// is of dy alone, so it loads dy, publishes its part and only then loads y, whose loads
// land while the row's parts are gathered, as Triton's split_oneshot sunk them: 524288 /
// 786432 / 1048576 99.4 / 95.6 / 93.1 -> 99.8 / 97.1 / 94.7, two rounds alike
// (benchmarks/h200_2026-11-28/dyfirst_compare_h200_4f24175.txt). 16-bit
// rows keep block_hybrid's slices: at 192 B of each a thread these ran bf16 softmax
// 70-76 and log-softmax 88-97 at 131072-1048576, where auto ran 97-102 (224-256 B
// spilled their conversions).
constexpr int kSplitHybridRegsThreads = 128;
constexpr int kSplitHybridRegsMinBlocks = 3;
constexpr int kSplitHybridRegsBytes = 256;
static_assert(kSplitHybridRegsThreads >= kSplitHybridMaxSlices, "HybridGlobal::gather polls a slot per thread");
// The register slices alone while the GPU holds this many rows' CTAs at once (its
// resident slots over a row's CTAs); fewer, and the CTAs of the row whose peers are still
// to start wait a larger share of the slots: there each CTA also holds up to
// kSplitHybridRegsSmemBytes of y and dy in shared memory (kSmem), and a row takes fewer
// CTAs (fp32 1048576: 128 -> 74, 396 slots on 132 SMs). The cap is what the loads in
// flight leave: an SM's shared memory and L1 are one 256 KB array, and the softmax
// backward's 32 16-byte loads a thread, 192 KB over three CTAs, land in L1; three CTAs of
// 72 KB leave it about 28 KB. H200, 1 GiB, % of copy, softmax / log-softmax backward,
// registers alone (call 129) -> up to 24 / 48 / 72 KB of shared memory (call 130, two
// rounds alike; benchmarks/h200_2026-11-28/smem_compare_h200_e05c008.txt,
// cap_compare_h200_e467b1c.txt):
//   524288   98.0 / 99.3 -> 98.4 / 100.6, 98.9 / 99.3, 91.1 / 98.0
//   786432   93.8 / 96.5 -> 96.9 / 99.6, 97.5 / 97.0, 89.3 / 97.6
//   1048576  90.8 / 94.3 -> 94.0 / 97.6, 96.4 / 95.9, 88.5 / 98.0
// (2097152 needs more than kSplitHybridMaxSlices CTAs under 72 KB: block_hybrid's slices.)
// 48 KB for both ops: the plan does not know which one it launches (log_kernel).
constexpr int64_t kSplitHybridRegsMinRowsResident = 7;
constexpr int64_t kSplitHybridRegsSmemBytes = 48 * 1024;

// One ticket's slice of a row (or, K = 1, rows by a grid-stride loop), 16-byte packs of
// aligned rows only: y and dy read once, dx written once. kSmem: the slice's packs past
// the registers' in shared memory (y's, then dy's at a 16-byte boundary), requested by
// thread 0 as kHybridPieces pairs of bulk copies before the register loads and summed as
// they land, as block_hybrid's backward (up to kSplitHybridRegsSmemBytes of both a CTA,
// three CTAs per SM: a row takes fewer CTAs).
template <typename T, int N, bool kLog, bool kSmem = false>
__global__ void __launch_bounds__(kSplitHybridRegsThreads, kSplitHybridRegsMinBlocks)
    softmax_backward_split_hybrid_regs_kernel(GradArgs<T> a) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
  constexpr int kThreads = kSplitHybridRegsThreads;
  constexpr int kPackBytes = N * static_cast<int>(sizeof(T));
  using Slice = GradSlice<T, N, kSplitHybridRegsBytes>;
  __shared__ HybridGlobal::Shared<float> exchange;
  const HybridGlobal cl(a, a.cols / N, exchange);
  const int t = threadIdx.x;
  const int packs = cl.packs();
  const int reg_packs = kSmem ? min(packs, kThreads * Slice::P) : packs;
  T* ys = nullptr;
  T* gs = nullptr;
  uint64_t* full = nullptr;
  if constexpr (kSmem) {
    // 16, as block_smem's first declaration of the one smem_raw symbol (see plan_variant
    // in softmax.cu): this instance is named by a plain inline function, so its
    // declaration comes first, and 128 here would move block_smem's buffers. The 1280
    // static bytes before it keep it on a 128-byte boundary anyway; tma_aligned makes sure.
    extern __shared__ __align__(16) unsigned char smem_raw[];
    __shared__ __align__(8) uint64_t piece_full[kHybridPieces];
    unsigned char* const smem = tma_aligned(smem_raw);
    ys = reinterpret_cast<T*>(smem);
    gs = reinterpret_cast<T*>(smem + hybrid_grad_dy_offset(packs - reg_packs, kPackBytes));
    full = piece_full;
    init_piece_barriers(piece_full);
  }
  int it = 0;
  for (int64_t row = cl.first_row(); row < a.rows; row += cl.row_step(), ++it) {
    const int64_t first_col = cl.first_col(N);
    Slice s;
    const T* yr = a.y + row * a.y_stride + first_col;
    const T* gr = a.dy + row * a.dy_stride + first_col;
    const int smem_packs = packs - reg_packs;
    const HybridPieces pieces(smem_packs, true);
    const int64_t first_smem = static_cast<int64_t>(reg_packs) * N;
    if constexpr (kSmem) {
      if (it > 0) __syncthreads();  // every thread is done with the previous row's packs
      if (t == 0) request_grad_pieces<T, N>(ys, gs, yr + first_smem, gr + first_smem, pieces, full);
    }
    float sum;
    if constexpr (kLog) {
      // The sum is of dy alone: dy's slice first, its part published, and y's loads in
      // flight while the row's other parts are gathered (as Triton's split_oneshot).
      Slice::load_one(gr, s.g, t, kThreads, reg_packs);
      sum = s.sum(true);  // of dy alone: y not read yet
    } else {
      s.load(yr, gr, t, kThreads, reg_packs);
      sum = s.sum(false);
    }
    if constexpr (kSmem) sum += add_grad_pieces<T, N>(0.0f, ys, gs, pieces, full, it, kLog);
    sum = block_allreduce(sum, SumOp());
    if constexpr (kLog) {
      if (cl.k_ctas() > 1) cl.publish_part(sum);
      Slice::load_one(yr, s.y, t, kThreads, reg_packs);
      if (cl.k_ctas() > 1) sum = cl.gathered_sum(exchange);
    } else {
      if (cl.k_ctas() > 1) sum = cl.sum(exchange, sum, 0, row);
    }
    T* xr = a.dx + row * a.cols + first_col;
    s.write(xr, t, kThreads, reg_packs, sum, kLog);
    if constexpr (kSmem) grad_write_packs<Cache::kNormal, T, N>(ys, gs, xr + first_smem, smem_packs, sum, kLog);
  }
#endif
}

// ---------------------------------------------------------------------------------
// Plans
// ---------------------------------------------------------------------------------

// The first of `shapes` (HybridShape: kernel, threads, the most bytes of the row a CTA
// takes, CTAs it needs resident per SM) that serves the row: K = the fewest slices of at
// most the shape's slice_bytes of the row whose shared-memory part (smem_bytes of the
// packs past the registers' `bytes` per thread) fits shape.min_resident CTAs per SM; the
// shape serves it where K CTAs fit the GPU at once. too_many_chunks where none does.
template <typename T, typename SmemBytes>
Plan plan_split_hybrid_for(const Problem& p, std::initializer_list<HybridShape> shapes, int pack, int bytes,
                           SmemBytes smem_bytes) {
  constexpr int kElem = static_cast<int>(sizeof(T));
  Plan plan = new_plan(Variant::split_hybrid);
  const int64_t rows = plan_rows(p);
  const int64_t packs = std::max<int64_t>(p.cols / pack, 1);
  const int64_t per_thread = bytes / (pack * kElem);
  const int sms = device_properties(p.device).sm_count;
  plan.pack = pack;
  plan.cols_per_thread = bytes / kElem;
  plan.status = PlanStatus::too_many_chunks;
  for (const HybridShape& shape : shapes) {
    const int64_t limit = opt_in_smem(shape.fn, p.device, false);
    // From the fewest slices of at most slice_bytes up, while a slice has a pack, K could
    // fit the GPU at once and the CTA's shared words hold them.
    const int64_t most = std::min<int64_t>({packs, static_cast<int64_t>(sms) * kHybridThreads / shape.threads,
                                            int64_t{kSplitHybridMaxSlices}});
    bool fits = false;
    for (int64_t k = std::max<int64_t>(1, ceil_div(packs * pack * kElem, shape.slice_bytes)); k <= most && !fits;
         ++k) {
      const int64_t smem = smem_bytes(std::max<int64_t>(ceil_div(packs, k) - shape.threads * per_thread, 0));
      const int resident = smem <= limit ? resident_blocks(shape.fn, p.device, shape.threads, smem) : 0;
      plan.threads = shape.threads;
      plan.split = k;
      plan.smem_bytes = smem;
      plan.smem_limit = limit;
      plan.resident_per_sm = resident;
      fits = resident >= shape.min_resident;
    }
    if (!fits) continue;
    // Every CTA of a row resident at once (see the top of the file); one CTA per slice of
    // every row (a one-shot grid: HybridGlobal takes one ticket per CTA), but rows of one
    // slice (no exchange) loop past kMaxGridBlocks.
    if (plan.split > static_cast<int64_t>(plan.resident_per_sm) * sms) continue;
    if (plan.split > 1 && rows > kMaxGridBlocks / plan.split) continue;
    plan.status = PlanStatus::ok;
    plan.kernel = shape.fn;
    plan.blocks = plan.split > 1 ? plan.split * rows : std::min(rows, kMaxGridBlocks);
    plan.workspace_bytes =
        plan.split > 1 ? (1 + rows * plan.split) * static_cast<int64_t>(sizeof(unsigned long long)) : 0;
    return plan;
  }
  return plan;
}

// Family's kernels for p's packs: two 512-thread CTAs per SM first, slices of at most
// pair_slice_bytes, then one 1024-thread CTA per SM, as block_hybrid's clusters; each
// thread keeps bytes(pack bytes, edges) of the row (of y and of dy, backward) in
// registers, and the packs left cost smem_bytes(packs, pack bytes) of shared memory.
template <typename T, typename Family, typename Bytes, typename SmemBytes>
Plan plan_split_hybrid_shapes(const Problem& p, int64_t pair_slice_bytes, Bytes bytes, SmemBytes smem_bytes) {
  constexpr int kElem = static_cast<int>(sizeof(T));
  if (device_properties(p.device).major < kClusterMinMajor) {
    Plan plan = new_plan(Variant::split_hybrid);
    plan.status = PlanStatus::needs_sm90;
    return plan;
  }
  int64_t realigned = 0;
  const int pack = realigned_pack<T>(p, realigned);
  const bool edges = realigned != 0;
  const HybridShape two_per_sm{kernel_for_pack<Family, T>(pack, kHybridSmallThreads, edges), kHybridSmallThreads,
                               pair_slice_bytes, 2};
  const HybridShape one_per_sm{kernel_for_pack<Family, T>(pack, kHybridThreads, edges), kHybridThreads,
                               kHybridClusterSliceBytes, 1};
  Plan plan = plan_split_hybrid_for<T>(p, {two_per_sm, one_per_sm}, pack, bytes(pack * kElem, edges),
                                       [&](int64_t left) { return smem_bytes(left, pack * kElem); });
  plan.realigned = realigned;
  return plan;
}

// Forward: the pairs' slices at most kHybridSmallSliceBytes.
template <typename T>
Plan plan_split_hybrid(const Problem& p) {
  return plan_split_hybrid_shapes<T, SplitHybridFamily>(
      p, kHybridSmallSliceBytes, [](int pack_bytes, bool) { return hybrid_bytes(pack_bytes); },
      [](int64_t left, int pack_bytes) { return left > 0 ? round_up(left * pack_bytes, 16) + kTmaAlignSlack : 0; });
}

// The fp32 backward's register slices (softmax_backward_split_hybrid_regs_kernel) for
// aligned rows of 16-byte packs: registers alone while a row's CTAs leave at least
// kSplitHybridRegsMinRowsResident rows' worth resident at once, else with shared memory
// (kSmem: the fewest CTAs a row whose slices' shared-memory part fits
// kSplitHybridRegsMinBlocks CTAs per SM). too_many_chunks where they need more than
// kSplitHybridMaxSlices CTAs, kMaxGridBlocks in all, or CTAs past what the GPU holds.
inline Plan plan_split_hybrid_regs_backward(const Problem& p) {
  constexpr int kPack = 4;
  int64_t realigned = 0;
  if (realigned_pack<float>(p, realigned) != kPack || realigned != 0) {
    Plan plan = new_plan(Variant::split_hybrid);
    plan.status = PlanStatus::too_many_chunks;
    return plan;
  }
  const HybridShape regs{reinterpret_cast<const void*>(&softmax_backward_split_hybrid_regs_kernel<float, kPack, false>),
                         kSplitHybridRegsThreads, int64_t{kSplitHybridRegsThreads} * kSplitHybridRegsBytes, 1};
  // No shared memory holds packs past the registers': a slice of more never fits.
  Plan plan = plan_split_hybrid_for<float>(p, {regs}, kPack, kSplitHybridRegsBytes, [](int64_t left) {
    return left > 0 ? std::numeric_limits<int64_t>::max() : int64_t{0};
  });
  plan.log_kernel = reinterpret_cast<const void*>(&softmax_backward_split_hybrid_regs_kernel<float, kPack, true>);
  const int64_t resident_slots = int64_t{kSplitHybridRegsMinBlocks} * device_properties(p.device).sm_count;
  if (plan.status == PlanStatus::ok && plan.split * kSplitHybridRegsMinRowsResident <= resident_slots) return plan;
  const HybridShape cached{
      reinterpret_cast<const void*>(&softmax_backward_split_hybrid_regs_kernel<float, kPack, false, true>),
      kSplitHybridRegsThreads,
      int64_t{kSplitHybridRegsThreads} * kSplitHybridRegsBytes + kSplitHybridRegsSmemBytes / 2,
      kSplitHybridRegsMinBlocks};
  Plan smem = plan_split_hybrid_for<float>(p, {cached}, kPack, kSplitHybridRegsBytes,
                                           [](int64_t left) { return hybrid_grad_smem_bytes(left, kPack * 4); });
  if (smem.status != PlanStatus::ok) return plan;
  smem.log_kernel = reinterpret_cast<const void*>(&softmax_backward_split_hybrid_regs_kernel<float, kPack, true, true>);
  opt_in_smem(smem.log_kernel, p.device, false);
  return smem;
}

// Backward: fp32's register slices where they serve, else y's and dy's parts past the
// registers in shared memory, dy's at a 16-byte boundary.
template <typename T>
Plan plan_split_hybrid_backward(const Problem& p) {
  constexpr int kElem = static_cast<int>(sizeof(T));
  if constexpr (kElem == 4) {
    if (device_properties(p.device).major >= kClusterMinMajor) {
      if (Plan regs = plan_split_hybrid_regs_backward(p); regs.status == PlanStatus::ok) return regs;
    }
  }
  return plan_split_hybrid_shapes<T, SplitHybridBackwardFamily>(
      p, kHybridClusterSliceBytes,
      [](int pack_bytes, bool edges) { return hybrid_grad_bytes(kElem, pack_bytes, edges); },
      [](int64_t left, int pack_bytes) { return hybrid_grad_smem_bytes(left, pack_bytes); });
}

}  // namespace softmax
}  // namespace sk
