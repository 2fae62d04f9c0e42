// Softmax and log-softmax over rows: the optimisation ladder of SEEDS.md, one kernel per
// rung, plus the host launchers bound in bindings.cpp.
//
// Every kernel computes, per row, m = max(x), d = sum(exp(x - m)) and then
//     softmax:      exp(x - m) * (1 / d)            (one reciprocal per row)
//     log-softmax:  (x - m) - log(d)
// in fp32 whatever the I/O dtype. exp(x - m) is fast_exp2(fma(x, log2e, -m_s)) with
// m_s = m * log2e rounded once per row (see OnlinePair in common.cuh for why that is
// exact enough). Log-softmax subtracts m itself and corrects log(d) for the rounding
// of m_s, so outputs near 0 keep full precision even for |x| ~ 1e4.
//
// Memory traffic per element (R = read of the input, W = write of the output):
//   naive           cols*2 R + W  each thread loops over its whole row twice
//   smem_tree       3 R + W       uncoalesced contiguous chunks per thread, smem tree
//   coalesced       3 R + W       consecutive threads read consecutive elements
//   warp_shuffle    3 R + W       coalesced, block reduction through warp shuffles
//   warp_per_row    R + W         row held in registers of a 1..32-lane group
//   block_smem      R + W         row cached in shared memory (raw dtype)
//   block_uncached  3 R + W       vectorised, re-reads global memory (L2) per pass
//   online          2 R + W       max and sum in one pass, then the output pass
//   cluster_smem    R + W         row split over a cluster's shared memory (sm_90+)
//   cluster_regs    R + W         row split over the registers of a block or a cluster
//   cluster_tma     R + W         persistent clusters; next row's slices in flight (TMA)
//   block_hybrid    R + W         row split over one CTA's registers and shared memory (TMA)
//
// Launch geometry is decided in one place, make_plan(); which variant "auto" runs is
// decided in kernels_cuda/softmax.py.
#include "common.cuh"

#include <cooperative_groups.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace sk {
namespace softmax {

// ---------------------------------------------------------------------------------
// Codes shared with kernels_cuda/softmax.py (tests/test_cuda_compile.py checks that
// the names and numbers match).
// ---------------------------------------------------------------------------------

enum Variant : int64_t {
  kNaive = 0,
  kSmemTree = 1,
  kCoalesced = 2,
  kWarpShuffle = 3,
  kWarpPerRow = 4,
  kBlockSmem = 5,
  kBlockUncached = 6,
  kOnline = 7,
  kClusterSmem = 8,
  kClusterRegs = 9,
  kClusterTma = 10,
  kBlockHybrid = 11,
};

// Layout of the vector softmax_plan returns.
enum PlanField : int {
  kFieldStatus = 0,          // PlanStatus
  kFieldPack = 1,            // elements per global load/store
  kFieldThreads = 2,         // threads per block
  kFieldBlocks = 3,          // blocks in the grid (a multiple of the cluster size)
  kFieldClusterSize = 4,     // CTAs per cluster, 1 without clusters
  kFieldSmemBytes = 5,       // dynamic shared memory per block
  kFieldSmemLimit = 6,       // dynamic shared memory a block of this kernel may opt into
  kFieldColsPerThread = 7,   // warp_per_row, cluster_regs: values each thread keeps in registers
  kFieldGroupWidth = 8,      // warp_per_row: lanes per row; cluster_regs: threads per row slice
  kFieldRowsPerAccess = 9,   // warp_per_row: rows each thread group handles at once;
                             // cluster_regs: rows per CTA
  kFieldResidentPerSm = 10,  // blocks of this kernel and size resident per SM
  kFieldActiveClusters = 11, // cluster_smem, cluster_regs: clusters resident on the whole GPU
  kFieldGridY = 12,          // blocks in the grid's y dimension (cluster_regs past 2^30 blocks)
  kFieldCount = 13,
};

enum PlanStatus : int64_t {
  kStatusOk = 0,
  kStatusTooWideForWarp = 1,       // warp_per_row: more than kWarpRowMaxCols columns
  kStatusRowExceedsSmem = 2,       // block_smem, block_hybrid: the row does not fit one block's smem
  kStatusNeedsSm90 = 3,            // cluster_smem, cluster_tma, block_hybrid: needs compute capability 9.0
  kStatusRowExceedsCluster = 4,    // cluster_smem: the row does not fit 16 CTAs' smem
  kStatusClusterNotResident = 5,   // cluster_smem, cluster_regs: no cluster of this shape fits the GPU
  kStatusRowExceedsRegisters = 6,  // cluster_regs: the row does not fit 16 CTAs' registers
};

// ---------------------------------------------------------------------------------
// Launch geometry constants
// ---------------------------------------------------------------------------------

constexpr int kNaiveThreads = 256;
// The tree reduction halves the active threads per level: a power of two.
constexpr int kLadderThreads = 256;
// 4 warps: small blocks keep every SM busy down to a few thousand rows and let the
// occupancy calculator pack as many as registers allow.
constexpr int kWarpRowThreads = 128;
constexpr int kMinBlockThreads = 128;
// Grid cap (gridDim.x allows 2^31 - 1); past it the kernels' grid-stride loops take over.
constexpr int64_t kMaxGridBlocks = int64_t{1} << 30;
constexpr int kMaxBlockThreads = 1024;
// Packs each thread loads before using the first: kUnroll * 16 bytes in flight per
// thread, enough to cover DRAM latency at half occupancy.
constexpr int kUnroll = 4;
// block_uncached / online: block size so that each thread handles about this many packs
// per pass (more threads only add reduction cost; fewer leave too little in flight),
// halved while fewer than kMinResidentBlocks blocks fit per SM: with a single block the
// SM idles during the block's reductions. (Fewer, larger blocks also mean fewer rows in
// flight, so the online kernel's second read of a row is more likely to hit L2.)
constexpr int64_t kPacksPerThread = 8;
constexpr int kMinResidentBlocks = 2;
// warp_per_row: 32 lanes x 32 fp32 values in registers (no spills with 128 threads).
constexpr int kWarpRowMaxColsPerThread = 32;
constexpr int64_t kWarpRowMaxCols = 32 * kWarpRowMaxColsPerThread;
// Lanes that hold one pack of a row take kWarpRowRows rows at once (their loads all in
// flight together), so that each warp keeps enough bytes in flight on narrow rows. (On
// an H200, 4 beat 2: fp32/bf16 128 96.7/88.6% vs 91.9/81.5%; taking 2 or 4 rows on lanes
// of two packs lost: bf16 512 88.5/63.6% vs 89.7%.)
constexpr int kWarpRowRows = 4;
// cluster_smem: the smallest cluster whose per-CTA slice is at most this many bytes, so
// that three or more CTAs stay resident per SM (228 KB per SM on H100) and one CTA's
// reduction and write phases overlap another's loads.
// 32 KB measured better than 64 KB on an H200 (fp32 65536: 86.4% vs 83.6% of copy
// bandwidth; bf16 65536: 81.4% vs 80.0%).
constexpr int64_t kClusterSliceTargetBytes = 32 * 1024;
constexpr int kMinClusterSize = 2;
// cluster_tma: slices of at most this many bytes (the smallest cluster, 1..16 CTAs, that
// gets there), each CTA holding kTmaStages of them in shared memory: one being reduced
// and written while the next row's slice arrives. 32 KB x 2 stages = 64 KB per CTA,
// three CTAs per SM.
constexpr int64_t kTmaSliceTargetBytes = 32 * 1024;
constexpr int kTmaStages = 2;
// 16-byte packs: one TMA bulk copy per slice (true) or cp.async per pack (false, as
// 4- and 8-byte packs always do).
constexpr bool kTmaBulk = true;
// Slice buffers start on 128-byte boundaries (bulk copies need 16).
constexpr int64_t kTmaBufferAlign = 128;
constexpr int kMaxClusterSize = 16;  // non-portable: needs cudaFuncAttributeNonPortableClusterSizeAllowed
// cluster_regs: each thread keeps kRegsMinBytes32 (fp32) or kRegsMinBytes16 (fp16/bf16)
// bytes of its row in registers, or kRegsMaxBytes where that is what lets at most
// kRegsMaxThreads threads hold the slice, in at most kRegsMaxLoads loads (so scalar fp32
// packs hold 64 bytes, scalar fp16/bf16 packs 32). Measured on an H200 (1 GiB inputs, %
// of copy bandwidth, 2026-11-21): 32 bytes per thread ties with 64 for fp32 but loses
// for bf16 (2048/4096/8192: 84.3/84.6/80.2 vs 98.0/95.8/95.8: twice the threads, twice
// the reduction work per byte); 128 bytes ties with 64 (bf16 4096/16384: 97.0/95.9 vs
// 95.8/97.5). __launch_bounds__ keeps 2-4 blocks of kRegsMaxThreads resident per SM
// (regs_min_blocks), so that the compiler re-derives cheap values (addresses,
// conversions) instead of holding them. Rows past kRegsMaxThreads x kRegsMaxBytes (64 KB)
// are split over the smallest cluster (2..16 CTAs, sm_90) whose slices fit (rows up to
// 1 MB; 64 KB without clusters). Rows narrower than kRegsMinBlockBytes share a CTA (a
// power of two of them) so that each CTA moves at least that much: 4 KB CTAs measured
// slow (bf16 2048 with 4 KB per CTA: 84%); 16 KB measured no better than 8 KB.
constexpr int kRegsMinBytes32 = 64;
constexpr int kRegsMinBytes16 = 64;
constexpr int kRegsMaxBytes = 128;
constexpr int kRegsMaxLoads = 16;
constexpr int kRegsMaxThreads = 512;
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
// still (an address per pack). The tightest bounds that ptxas meets without spilling.
constexpr int regs_budget(int elem, int n, int bytes) {
  return elem == 4 && n > 1 && bytes <= 32 ? 32 : (n * elem >= 8 || elem == 4) && bytes <= 64 ? 40 : 64;
}
constexpr int regs_min_blocks(int elem, int n, int bytes, int threads) {
  return std::max(1, 65536 / (regs_budget(elem, n, bytes) * threads));
}
// block_hybrid: CTAs of kHybridThreads threads, each keeping hybrid_bytes() of the row
// in registers (64 bytes in at most kRegsMaxLoads packs: 64 KB per CTA for 16-byte
// packs); the rest of the row, up to the opt-in shared memory (227 KB on H100/H200),
// in shared memory. Rows up to ~290 KB: fp32 65536 (256 KB), bf16 131072.
constexpr int kHybridThreads = 1024;
// The shared-memory part arrives as this many bulk copies, each on its own mbarrier, so
// that the CTA reduces each piece as it lands instead of after the last one (with one
// CTA per SM, compute after the last byte is time with nothing in flight).
constexpr int kHybridPieces = 4;
constexpr int hybrid_bytes(int pack_bytes) { return std::min(64, kRegsMaxLoads * pack_bytes); }

constexpr int64_t kRegsMinBlockBytes = 8 * 1024;

// ---------------------------------------------------------------------------------
// Kernel arguments and the per-row arithmetic
// ---------------------------------------------------------------------------------

template <typename T>
struct RowsArgs {
  const T* x;
  T* y;              // contiguous (rows, cols)
  int64_t rows;
  int64_t cols;
  int64_t x_stride;  // elements between consecutive rows of x
  int group_width;   // warp_per_row: lanes per row (power of two <= 32); cluster_regs:
                     // threads per row slice (a multiple of 32)
  int slice_packs;   // cluster_smem, cluster_regs: packs of the row each CTA handles
  bool log;          // log-softmax instead of softmax
};

// Per-row constants of the output pass.
struct RowNorm {
  float m;   // row maximum
  float ms;  // scaled_max(m)
  float c;   // softmax: 1 / d; log-softmax: log(sum(exp(x - m)))
};

__device__ __forceinline__ RowNorm make_row_norm(float m, float d, bool log) {
  RowNorm n;
  n.m = m;
  n.ms = scaled_max(m);
  if (log) {
    // d = 2^delta * sum(exp(x - m)) with delta = m*log2e - m_s (exact with an FMA).
    n.c = logf(d) - fmaf(m, kLog2e, -n.ms) * kLn2;
  } else {
    n.c = 1.0f / d;
  }
  return n;
}

__device__ __forceinline__ float exp_term(float x, float ms) { return fast_exp2(fmaf(x, kLog2e, -ms)); }

__device__ __forceinline__ float normalize(float x, const RowNorm& n, bool log) {
  return log ? (x - n.m) - n.c : exp_term(x, n.ms) * n.c;
}

// ---------------------------------------------------------------------------------
// Block-per-row building blocks: each thread visits packs threadIdx.x, +blockDim.x, ...
// (coalesced), kUnroll packs per step so that kUnroll loads are in flight at once.
// I is the in-row index type: int where the row fits in shared memory (fewer registers,
// more resident blocks), int64_t in the kernels that serve any width.
// ---------------------------------------------------------------------------------

// This thread's online (max, sum) over packs [0, packs) of `src`; with kToSmem the packs
// are also copied to `smem` (same offsets), so the output pass can read them from there.
// Only the raw packs stay live (converted twice, for the max and for the sum): the
// 16-byte fp16/bf16 batches would otherwise need 32 more registers.
template <Cache kLoad, bool kToSmem, typename T, int N, typename I>
__device__ __forceinline__ OnlinePair scan_packs(const T* src, T* smem, I packs) {
  OnlinePair acc = online_empty();
  const I step = blockDim.x;
  for (I base = threadIdx.x; base < packs; base += step * kUnroll) {
    Pack<T, N> p[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const I i = base + u * step;
      if (i < packs) p[u] = load_pack<kLoad, T, N>(src + i * N);
    }
    float batch_max = -INFINITY;
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const I i = base + u * step;
      if (i < packs) {
        if constexpr (kToSmem) store_pack<Cache::kNormal, T, N>(smem + i * N, p[u]);
#pragma unroll
        for (int k = 0; k < N; ++k) batch_max = nan_max(batch_max, to_float(p[u].v[k]));
      }
    }
    acc = online_accumulate(acc, batch_max, [&](float ms) {
      float d = 0.0f;
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        if (base + u * step < packs) {
#pragma unroll
          for (int k = 0; k < N; ++k) d += exp_term(to_float(p[u].v[k]), ms);
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
  for (I base = threadIdx.x; base < packs; base += step * kUnroll) {
    Pack<T, N> p[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const I i = base + u * step;
      if (i < packs) p[u] = load_pack<kLoad, T, N>(src + i * N);
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      if (base + u * step < packs) {
#pragma unroll
        for (int k = 0; k < N; ++k) m = nan_max(m, to_float(p[u].v[k]));
      }
    }
  }
  return m;
}

// This thread's sum of exp(x - m) over packs [0, packs) of `src`, given m_s.
template <Cache kLoad, typename T, int N, typename I>
__device__ __forceinline__ float sum_exp_packs(const T* src, I packs, float ms) {
  float d = 0.0f;
  const I step = blockDim.x;
  for (I base = threadIdx.x; base < packs; base += step * kUnroll) {
    Pack<T, N> p[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const I i = base + u * step;
      if (i < packs) p[u] = load_pack<kLoad, T, N>(src + i * N);
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      if (base + u * step < packs) {
#pragma unroll
        for (int k = 0; k < N; ++k) d += exp_term(to_float(p[u].v[k]), ms);
      }
    }
  }
  return d;
}

// Output pass: dst[i] = normalize(src[i]) for this thread's packs (src global or shared).
template <Cache kLoad, Cache kStore, typename T, int N, typename I>
__device__ __forceinline__ void write_packs(const T* src, T* dst, I packs, const RowNorm& n,
                                            bool log) {
  const I step = blockDim.x;
  for (I base = threadIdx.x; base < packs; base += step * kUnroll) {
    Pack<T, N> p[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const I i = base + u * step;
      if (i < packs) p[u] = load_pack<kLoad, T, N>(src + i * N);
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const I i = base + u * step;
      if (i < packs) {
        float f[N];
        unpack(p[u], f);
#pragma unroll
        for (int k = 0; k < N; ++k) f[k] = normalize(f[k], n, log);
        store_pack<kStore, T, N>(dst + i * N, pack_from_float<T, N>(f));
      }
    }
  }
}

// ---------------------------------------------------------------------------------
// 1. naive: one thread per output element; each re-reads its whole row for the max and
//    again for the sum (quadratic traffic, served from L1/L2 after the first thread).
//    Grid: one thread per element (one-shot; the grid-stride loop covers grids past 2^30
//    blocks).
// ---------------------------------------------------------------------------------

template <typename T>
__global__ void __launch_bounds__(kNaiveThreads) softmax_naive_kernel(RowsArgs<T> a) {
  const int64_t total = a.rows * a.cols;
  for (int64_t i = global_thread_index(); i < total; i += global_thread_count()) {
    const int64_t row = i / a.cols;
    const int64_t col = i - row * a.cols;
    const T* xr = a.x + row * a.x_stride;
    float m = -INFINITY;
    for (int64_t j = 0; j < a.cols; ++j) m = nan_max(m, to_float(xr[j]));
    const float ms = scaled_max(m);
    // Compensated (Kahan) summation: a plain fp32 chain over thousands of terms drifts
    // past the fp32 tolerance (its error grows with the chain length, and the row's
    // largest term, exp(0) = 1, sets the rounding step of every later add). Without
    // fast-math nvcc keeps the compensation. The traffic stays naive.
    float d = 0.0f;
    float lost = 0.0f;
    for (int64_t j = 0; j < a.cols; ++j) {
      const float term = exp_term(to_float(xr[j]), ms) - lost;
      const float next = d + term;
      lost = (next - d) - term;
      d = next;
    }
    const RowNorm n = make_row_norm(m, d, a.log);
    a.y[i] = from_float<T>(normalize(to_float(xr[col]), n, a.log));
  }
}

// ---------------------------------------------------------------------------------
// 2-4. The block-per-row ladder, scalar accesses, three passes over global memory
//      (max, sum, output). Grid: one block per row (one-shot, see make_plan).
//   smem_tree     (kCoalesced = false, kShuffle = false): thread t owns the contiguous
//                 chunk [t*chunk, (t+1)*chunk): a warp's 32 loads hit 32 different
//                 cache lines; reduction through a shared-memory tree.
//   coalesced     (true, false): element t, t+blockDim, ...: one line per warp load.
//   warp_shuffle  (true, true): the same with block_allreduce (shuffles, 2 barriers
//                 instead of log2(blockDim) + 1).
// ---------------------------------------------------------------------------------

template <typename T, bool kCoalesced, bool kShuffle>
__global__ void __launch_bounds__(kLadderThreads) softmax_ladder_kernel(RowsArgs<T> a) {
  __shared__ float scratch[kShuffle ? 1 : kLadderThreads];
  const int64_t cols = a.cols;
  int64_t begin, end, step;
  if constexpr (kCoalesced) {
    begin = threadIdx.x;
    end = cols;
    step = blockDim.x;
  } else {
    const int64_t chunk = ceil_div(cols, blockDim.x);
    begin = min(cols, threadIdx.x * chunk);
    end = min(cols, begin + chunk);
    step = 1;
  }
  auto reduce = [&](float v, auto op) {
    if constexpr (kShuffle) {
      return block_allreduce(v, op);
    } else {
      return block_allreduce_tree(v, op, scratch);
    }
  };
  for (int64_t row = blockIdx.x; row < a.rows; row += gridDim.x) {
    const T* xr = a.x + row * a.x_stride;
    T* yr = a.y + row * cols;
    float m = -INFINITY;
    for (int64_t c = begin; c < end; c += step) m = nan_max(m, to_float(xr[c]));
    m = reduce(m, MaxOp());
    const float ms = scaled_max(m);
    float d = 0.0f;
    for (int64_t c = begin; c < end; c += step) d += exp_term(to_float(xr[c]), ms);
    d = reduce(d, SumOp());
    const RowNorm n = make_row_norm(m, d, a.log);
    for (int64_t c = begin; c < end; c += step) yr[c] = from_float<T>(normalize(to_float(xr[c]), n, a.log));
  }
}

// ---------------------------------------------------------------------------------
// 5. warp_per_row (OneFlow's register path). A group of G lanes (G = 1..32, a power of
//    two, known at run time) owns R rows (R = 2 for narrow rows: twice the loads in
//    flight); each lane keeps C values per row in registers, loaded as C/N packs:
//    lane l reads packs l, l+G, l+2G, ... so a group's accesses are contiguous. Slots
//    past the row end hold -inf (exp gives 0). One read and one write of the row;
//    reductions are log2(G) xor-shuffles, no shared memory, no barriers.
//    Grid: one-shot, blocks of 128 threads, a warp per row group; the row loop (taken
//    only past 2^30 blocks) is warp-uniform, so the full-mask shuffles never see a
//    missing lane.
// ---------------------------------------------------------------------------------

// Defined with cluster_regs (section 10); warp_per_row uses it for 16-bit rows.
template <typename T, int N, int B> struct RegSlice;

template <typename T, int N, int C, int R>
__global__ void __launch_bounds__(kWarpRowThreads) softmax_warp_per_row_kernel(RowsArgs<T> a) {
  static_assert(C % N == 0, "cols_per_thread must be whole packs");
  constexpr int P = C / N;
  if constexpr (sizeof(T) == 2 && R == 1 && C > N) {
    // 16-bit rows of more than one pack per lane (so G = 32, see make_plan): the values
    // stay packed two per register as loaded (RegSlice, as in cluster_regs), half the
    // registers of fp32 copies, and the lane pairs merge with one butterfly.
    const int lane = threadIdx.x & 31;
    const int64_t warps_per_block = blockDim.x >> 5;
    const int64_t n_warps = static_cast<int64_t>(gridDim.x) * warps_per_block;
    const int packs = static_cast<int>(a.cols / N);
    for (int64_t row = static_cast<int64_t>(blockIdx.x) * warps_per_block + (threadIdx.x >> 5); row < a.rows;
         row += n_warps) {  // warp-uniform: the shuffles see every lane
      RegSlice<T, N, C * static_cast<int>(sizeof(T))> s;
      s.load(a.x + row * a.x_stride, lane, 32, packs);
      const OnlinePair acc = warp_merge_pairs(s.reduce(a.log));
      s.write(a.y + row * a.cols, lane, 32, packs, make_row_norm(acc.m, acc.d, a.log), a.log);
    }
    return;
  }
  const int G = a.group_width;
  const int lane = threadIdx.x & 31;
  const int group_lane = lane & (G - 1);
  const int group = lane / G;
  const int64_t rows_per_warp = static_cast<int64_t>(32 / G) * R;
  const int64_t warps_per_block = blockDim.x >> 5;
  const int64_t warp = static_cast<int64_t>(blockIdx.x) * warps_per_block + (threadIdx.x >> 5);
  const int64_t n_warps = static_cast<int64_t>(gridDim.x) * warps_per_block;
  const int cols = static_cast<int>(a.cols);  // <= kWarpRowMaxCols

  for (int64_t base = warp * rows_per_warp; base < a.rows; base += n_warps * rows_per_warp) {
    const int64_t row0 = base + static_cast<int64_t>(group) * R;
    float v[R][C];
    float m[R];
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const bool row_ok = row0 + r < a.rows;
      const T* xr = a.x + (row0 + r) * a.x_stride;
      m[r] = -INFINITY;
#pragma unroll
      for (int p = 0; p < P; ++p) {
        const int col = (p * G + group_lane) * N;
        if (row_ok && col < cols) {
          float f[N];
          unpack(load_pack<Cache::kNormal, T, N>(xr + col), f);
#pragma unroll
          for (int k = 0; k < N; ++k) v[r][p * N + k] = f[k];
        } else {
#pragma unroll
          for (int k = 0; k < N; ++k) v[r][p * N + k] = -INFINITY;
        }
#pragma unroll
        for (int k = 0; k < N; ++k) m[r] = nan_max(m[r], v[r][p * N + k]);
      }
    }
    float d[R];
#pragma unroll
    for (int r = 0; r < R; ++r) {
      m[r] = warp_allreduce(m[r], MaxOp(), G);
      const float ms = scaled_max(m[r]);
      d[r] = 0.0f;
      if (a.log) {
#pragma unroll
        for (int k = 0; k < C; ++k) d[r] += exp_term(v[r][k], ms);
      } else {
        // Keep exp(x - m) in the registers: the output is then one multiply.
#pragma unroll
        for (int k = 0; k < C; ++k) {
          v[r][k] = exp_term(v[r][k], ms);
          d[r] += v[r][k];
        }
      }
    }
#pragma unroll
    for (int r = 0; r < R; ++r) {
      d[r] = warp_allreduce(d[r], SumOp(), G);
      if (row0 + r >= a.rows) continue;
      const RowNorm n = make_row_norm(m[r], d[r], a.log);
      T* yr = a.y + (row0 + r) * a.cols;
#pragma unroll
      for (int p = 0; p < P; ++p) {
        const int col = (p * G + group_lane) * N;
        if (col < cols) {
          float f[N];
#pragma unroll
          for (int k = 0; k < N; ++k) {
            const float x = v[r][p * N + k];
            f[k] = a.log ? (x - n.m) - n.c : x * n.c;
          }
          store_pack<Cache::kStreaming, T, N>(yr + col, pack_from_float<T, N>(f));
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------
// 6. block_smem (OneFlow's shared-memory path). One block per row; while loading the
//    row into dynamic shared memory (raw dtype: an fp16 row of twice the width fits)
//    each thread keeps its online (max, sum); ONE block reduction of the pair; the
//    output pass reads shared memory. One read and one write of global memory.
//    Each thread reads back only the packs it stored, so no barrier guards the cache.
//    Block size: the largest of 128..1024 that keeps as many blocks resident as 128
//    threads do. Grid: one block per row (one-shot, see make_plan).
// ---------------------------------------------------------------------------------

template <typename T, int N>
__global__ void __launch_bounds__(kMaxBlockThreads) softmax_block_smem_kernel(RowsArgs<T> a) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  T* cache = reinterpret_cast<T*>(smem_raw);
  const int packs = static_cast<int>(a.cols / N);  // the row fits in shared memory
  for (int64_t row = blockIdx.x; row < a.rows; row += gridDim.x) {
    const T* xr = a.x + row * a.x_stride;
    OnlinePair acc = scan_packs<Cache::kNormal, true, T, N>(xr, cache, packs);
    acc = block_allreduce(acc, OnlineMergeOp());
    const RowNorm n = make_row_norm(acc.m, acc.d, a.log);
    write_packs<Cache::kNormal, Cache::kStreaming, T, N>(cache, a.y + row * a.cols, packs, n, a.log);
  }
}

// ---------------------------------------------------------------------------------
// 7. block_uncached (OneFlow's fallback): one block per row, three vectorised passes
//    over global memory (max, sum, output); any width. The first two passes load with
//    .cg (L2 only) and the last with .cs (evict first), outputs are stored .cs, so the
//    lines the later passes re-read are the last to leave L2.
// 8. online: the same with max and sum fused into one pass (online normalizer): two
//    reads and one write.
//    Block size: enough threads for ~kPacksPerThread packs each, 128..1024. Grid: one
//    block per row (one-shot, see make_plan).
// ---------------------------------------------------------------------------------

template <typename T, int N>
__global__ void __launch_bounds__(kMaxBlockThreads) softmax_block_uncached_kernel(RowsArgs<T> a) {
  const int64_t packs = a.cols / N;
  for (int64_t row = blockIdx.x; row < a.rows; row += gridDim.x) {
    const T* xr = a.x + row * a.x_stride;
    const float m = block_allreduce(max_packs<Cache::kGlobal, T, N>(xr, packs), MaxOp());
    const float ms = scaled_max(m);
    const float d = block_allreduce(sum_exp_packs<Cache::kGlobal, T, N>(xr, packs, ms), SumOp());
    const RowNorm n = make_row_norm(m, d, a.log);
    write_packs<Cache::kStreaming, Cache::kStreaming, T, N>(xr, a.y + row * a.cols, packs, n, a.log);
  }
}

template <typename T, int N>
__global__ void __launch_bounds__(kMaxBlockThreads) softmax_online_kernel(RowsArgs<T> a) {
  const int64_t packs = a.cols / N;
  for (int64_t row = blockIdx.x; row < a.rows; row += gridDim.x) {
    const T* xr = a.x + row * a.x_stride;
    OnlinePair acc = scan_packs<Cache::kGlobal, false, T, N>(xr, nullptr, packs);
    acc = block_allreduce(acc, OnlineMergeOp());
    const RowNorm n = make_row_norm(acc.m, acc.d, a.log);
    write_packs<Cache::kStreaming, Cache::kStreaming, T, N>(xr, a.y + row * a.cols, packs, n, a.log);
  }
}

// ---------------------------------------------------------------------------------
// 9. cluster_smem (sm_90+): a cluster of K CTAs (2..16) per row; CTA k caches packs
//    [k*slice, (k+1)*slice) in its shared memory while accumulating its online pair, a
//    block reduction gives the CTA's pair, and the K pairs are exchanged through
//    distributed shared memory: after cluster.sync() every warp reads the K pairs
//    (lane k from CTA k) and merges them with shuffles. Then each CTA writes its slice.
//    One read and one write of global memory for rows up to 16 x 227 KB, and for
//    mid-wide rows smaller CTAs, so more of them stay resident per SM.
//    The pair slot is double-buffered by row parity, so one cluster barrier per row
//    suffices: a CTA rewrites slot p two rows later, after the next barrier, which no
//    peer passes before it has finished reading slot p. A final barrier keeps every
//    CTA alive until its peers are done reading its shared memory.
//    Grid: K CTAs per row (one-shot, see make_plan).
// ---------------------------------------------------------------------------------

template <typename T, int N>
__global__ void __launch_bounds__(kMaxBlockThreads) softmax_cluster_smem_kernel(RowsArgs<T> a) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
  namespace cg = cooperative_groups;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  __shared__ OnlinePair exchange[2];
  T* cache = reinterpret_cast<T*>(smem_raw);
  cg::cluster_group cluster = cg::this_cluster();
  const int k_ctas = static_cast<int>(cluster.num_blocks());
  const int rank = static_cast<int>(cluster.block_rank());
  const int lane = threadIdx.x & 31;
  const int packs = static_cast<int>(a.cols / N);  // at most 16 slices of shared memory
  const int first = min(packs, rank * a.slice_packs);
  const int local = min(packs, first + a.slice_packs) - first;
  const int64_t n_clusters = gridDim.x / k_ctas;
  int parity = 0;
  for (int64_t row = blockIdx.x / k_ctas; row < a.rows; row += n_clusters, parity ^= 1) {
    const T* xr = a.x + row * a.x_stride + static_cast<int64_t>(first) * N;
    OnlinePair acc = scan_packs<Cache::kNormal, true, T, N>(xr, cache, local);
    acc = block_allreduce(acc, OnlineMergeOp());
    if (threadIdx.x == 0) exchange[parity] = acc;
    cluster.sync();
    OnlinePair all = online_empty();
    if (lane < k_ctas) all = *cluster.map_shared_rank(&exchange[parity], lane);
    all = warp_allreduce_static<32>(all, OnlineMergeOp());
    const RowNorm n = make_row_norm(all.m, all.d, a.log);
    write_packs<Cache::kNormal, Cache::kStreaming, T, N>(cache, a.y + row * a.cols + static_cast<int64_t>(first) * N,
                                                      local, n, a.log);
  }
  cluster.sync();
#endif
}

// ---------------------------------------------------------------------------------
// 10. cluster_regs: a row split over K CTAs (K = 1: a plain block; K = 2..16: a
//    thread-block cluster, sm_90+), each of the G threads of a row slice keeping B bytes
//    of it in registers (B a compile-time 32, 64 or 128: 8-32 fp32 or 16-64 fp16/bf16
//    values, at most 32 registers of data), loaded as B/16 packs of 16 bytes (narrower
//    when alignment demands), all in flight at once; slots past the slice hold -inf.
//    Thread t of a slice holds packs t, t + G, ... (coalesced). Rows narrower than
//    kRegsMinBlockBytes share a CTA: R = blockDim / G rows, one per G threads.
//    Per thread one online pair (max m_t, sum of exp(x - m_t)); fp32 registers then take
//    exp(x - m_t) (softmax: the output is one multiply by exp(m_t - m) / d) or x - m_t
//    (log-softmax); fp16/bf16 stay packed, two values per register (their max is taken
//    packed), and the sum and output passes convert them on the fly. The pairs of a
//    slice are merged with ONE barrier (each warp's pair to shared memory, then every
//    warp merges its slice's warp pairs with shuffles; warp_merge_pairs: max, one
//    rescale, sum, cheaper than a merge per butterfly step). With K > 1 each CTA then
//    stores its pair into slot [rank] of every peer's shared memory (map_shared_rank),
//    one cluster.sync() publishes them, and every warp merges its K local slots. No CTA
//    touches a peer's shared memory after that barrier, so none waits for its peers at
//    exit. (Polling tagged 64-bit slots instead of the barrier measured the same on an
//    H200: fp32 32768/65536 89.7/85.4% vs 90.4/86.2%, bf16 65536 88.8% vs 88.6%.) The
//    exchange is what clusters cost: skipping it (wrong results, timing only) measured
//    96.5/97.8% (fp32 32768/65536) and 97.6% (bf16 65536), so the loss is each CTA
//    waiting, registers held, for the slowest CTA of its cluster.
//    One read and one write of global memory, no shared-memory row cache.
//    Grid: one CTA (cluster) per R rows, one-shot, no loop in the kernel (a 2-D grid
//    past kMaxGridBlocks).
// ---------------------------------------------------------------------------------

#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
__device__ __forceinline__ void cluster_arrive_release() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void cluster_wait() { asm volatile("barrier.cluster.wait.aligned;\n" ::: "memory"); }

// The cluster's merged pair, from this CTA's `acc`: thread j stores it into slot [rank]
// of CTA j's `slots` (map_shared_rank), one cluster barrier (release/acquire) publishes
// them, and every warp merges the K local slots. Every store into a CTA's slots comes
// before a barrier it passes, so no CTA needs its peers after the call returns.
__device__ __forceinline__ OnlinePair cluster_merge_pairs(cooperative_groups::cluster_group& cluster,
                                                          OnlinePair* slots, OnlinePair acc) {
  const int k_ctas = static_cast<int>(cluster.num_blocks());
  if (static_cast<int>(threadIdx.x) < k_ctas) {
    *cluster.map_shared_rank(&slots[cluster.block_rank()], static_cast<int>(threadIdx.x)) = acc;
  }
  cluster.sync();
  const int lane = threadIdx.x & 31;
  return warp_merge_pairs(lane < k_ctas ? slots[lane] : online_empty());
}
#endif

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

// Two 16-bit -inf in one word.
template <typename T>
__device__ __forceinline__ unsigned neg_inf_word() {
  static_assert(sizeof(T) == 2, "16-bit element types only");
  const T ninf = from_float<T>(-INFINITY);
  unsigned short bits;
  memcpy(&bits, &ninf, sizeof(bits));
  return bits | (static_cast<unsigned>(bits) << 16);
}

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
  __device__ __forceinline__ OnlinePair reduce(bool log) {
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
    const float ms_safe = empty ? 0.0f : scaled_max(m);
    const float shift = empty ? 0.0f : m;
    float d = 0.0f;
#pragma unroll
    for (int p = 0; p < P; ++p) {
#pragma unroll
      for (int k = 0; k < N; ++k) {
        const float x = value(p, k, false);
        const float e = exp_term(x, ms_safe);
        d += e;
        if constexpr (kInPlace) v[p * N + k] = log ? x - shift : e;
      }
    }
    return OnlinePair{m, d};
  }

  // The output of packs t, t + G, ... at yr, given the row's constants n.
  // fp32 softmax: exp(x - m_t) * exp(m_t - m) / d, where the factor is 0 for a thread
  // of only -inf (exp2(-inf - m_s)) unless the row's maximum is -inf or NaN too: then
  // it is NaN, as every output of such a row must be. fp32 log-softmax:
  // ((x - m_t) + (m_t - m)) - log d, exactly (x - m) - log d in the thread that holds
  // the maximum; a row of only -inf gets -inf + inf = NaN.
  __device__ __forceinline__ void write(T* yr, int t, int G, int local, const RowNorm& n, bool log) const {
    const float shift = m == -INFINITY ? 0.0f : m;
    const float scale = log ? shift - n.m : fast_exp2(scaled_max(m) - n.ms) * n.c;
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
        store_pack<Cache::kStreaming, T, N>(yr + i * N, pack_from_float<T, N>(f));
      }
    }
  }
};

// The pair of a row slice of G threads (G a multiple of 32, slice g of the CTA): warp
// butterflies, one pair per warp into warp_pairs, one barrier, then every warp merges
// the pairs of its slice's G / 32 warps (warp_merge_pairs: max, one rescale, sum,
// cheaper than a merge per butterfly step).
__device__ __forceinline__ OnlinePair slice_merge_pairs(OnlinePair acc, OnlinePair* warp_pairs, int g, int G) {
  const int lane = threadIdx.x & 31;
  acc = warp_merge_pairs(acc);
  if (lane == 0) warp_pairs[threadIdx.x >> 5] = acc;
  __syncthreads();
  const int group_warps = G >> 5;
  return warp_merge_pairs(lane < group_warps ? warp_pairs[g * group_warps + lane] : online_empty());
}

template <typename T, int N, int B, int kThreads>
__global__ void __launch_bounds__(kThreads, regs_min_blocks(sizeof(T), N, B, kThreads))
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
  // Slot [rank]: the pair of the cluster's CTA `rank`, stored there by that CTA.
  __shared__ OnlinePair exchange[kMaxClusterSize];
  // Peers store into our slots only after this barrier's wait, i.e. once we have started
  // (a CTA's shared memory exists only while it runs). Arrived now, waited on just before
  // the first store, long after every peer has arrived.
  if (k_ctas > 1) cluster_arrive_release();
#endif
  const int g = threadIdx.x / G;
  const int t = threadIdx.x - g * G;
  const int packs = static_cast<int>(a.cols / N);  // rows of at most 1 MB
  const int first = min(packs, rank * a.slice_packs);
  const int64_t row = unit * R + g;
  const int local = row < a.rows ? min(packs, first + a.slice_packs) - first : 0;  // last CTA: rows may not exist
  RegSlice<T, N, B> s;
  s.load(a.x + row * a.x_stride + static_cast<int64_t>(first) * N, t, G, local);
  OnlinePair acc = slice_merge_pairs(s.reduce(a.log), warp_pairs, g, G);
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
  if (k_ctas > 1) {  // the exchange of the K pairs
    cluster_wait();
    acc = cluster_merge_pairs(cluster, exchange, acc);
    // Each CTA may exit as soon as its slice is written: no final cluster barrier,
    // unlike cluster_smem, which reads its peers' slots.
  }
#endif
  if (local == 0) return;
  s.write(a.y + row * a.cols + static_cast<int64_t>(first) * N, t, G, local, make_row_norm(acc.m, acc.d, a.log),
          a.log);
}

// ---------------------------------------------------------------------------------
// 11. cluster_tma (sm_90+): persistent clusters of K CTAs (1..16), each cluster taking
//    rows c, c + n_clusters, ...; CTA k owns packs [k*slice, (k+1)*slice) of every row.
//    The slice of the NEXT row is requested before the current one is reduced: one
//    thread issues a TMA bulk copy (cp.async.bulk, global -> shared memory) into the
//    other of kTmaStages buffers, completing on that buffer's mbarrier. So while a CTA
//    reduces, waits for its cluster's exchange and writes its output, its next input is
//    already in flight: cluster_smem and cluster_regs (one-shot grids, synchronous
//    loads) have nothing in flight while they wait for their slowest peer.
//    The exchange is cluster_regs': each CTA stores its pair into slot [rank] of every
//    peer (map_shared_rank), one cluster barrier publishes them; slots are double-
//    buffered by row parity (a peer rewrites slot p two rows later, after the next
//    barrier, which this CTA reaches only after reading slot p).
//    Bulk copies need 16-byte aligned addresses and sizes, i.e. 16-byte packs; 4- and
//    8-byte packs (misaligned views, odd widths) use cp.async per pack instead (same
//    buffers and order), 2-byte packs a synchronous copy (no overlap).
//    Grid: the resident clusters (cudaOccupancyMaxActiveClusters), at most one per row.
// ---------------------------------------------------------------------------------

#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
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
// `bytes` (a multiple of 16) from global `src` to this CTA's shared `dst`, both 16-byte
// aligned; completes `bytes` transactions on `bar`.
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
__device__ __forceinline__ void bulk_copy_to_shared(void* dst, const void* src, uint32_t bytes, uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(
          smem_addr(dst)),
      "l"(src), "r"(bytes), "r"(smem_addr(bar))
      : "memory");
}
#endif

template <typename T, int N>
__global__ void __launch_bounds__(kMaxBlockThreads) softmax_cluster_tma_kernel(RowsArgs<T> a) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
  constexpr int kPackBytes = N * static_cast<int>(sizeof(T));
  constexpr bool kBulk = kTmaBulk && kPackBytes == 16;
  constexpr bool kAsync = !kBulk && kPackBytes >= 4;
  namespace cg = cooperative_groups;
  extern __shared__ __align__(kTmaBufferAlign) unsigned char smem_raw[];
  __shared__ __align__(8) uint64_t full[kTmaStages];
  __shared__ OnlinePair exchange[2][kMaxClusterSize];
  cg::cluster_group cluster = cg::this_cluster();
  const int k_ctas = static_cast<int>(cluster.num_blocks());
  const int rank = static_cast<int>(cluster.block_rank());
  const int packs = static_cast<int>(a.cols / N);  // at most 16 slices of shared memory
  const int first = min(packs, rank * a.slice_packs);
  const int local = min(packs, first + a.slice_packs) - first;
  const uint32_t slice_bytes = static_cast<uint32_t>(local) * N * sizeof(T);
  const int64_t stage_bytes = round_up(static_cast<int64_t>(a.slice_packs) * N * sizeof(T), kTmaBufferAlign);
  auto buffer = [&](int s) { return reinterpret_cast<T*>(smem_raw + s * stage_bytes); };
  const int64_t n_clusters = gridDim.x / k_ctas;
  const int64_t first_row = blockIdx.x / k_ctas;

  if (threadIdx.x == 0) {
#pragma unroll
    for (int s = 0; s < kTmaStages; ++s) mbarrier_init(&full[s], 1);
    // Make the initialised barriers visible to the async proxy (the bulk copies).
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();
  // Peers store into our exchange slots only after waiting on this arrival, i.e. once
  // this CTA runs (its shared memory exists only then); waited on before the first store.
  if (k_ctas > 1) cluster_arrive_release();

  // Requests this CTA's slice of `row` into buffer s. Bulk: one thread, asynchronous,
  // completing on full[s]. Otherwise every thread copies synchronously (the caller's
  // next __syncthreads makes it visible).
  auto request = [&](int64_t row, int s) {
    const T* src = a.x + row * a.x_stride + static_cast<int64_t>(first) * N;
    if constexpr (kBulk) {
      if (threadIdx.x == 0 && slice_bytes > 0) {
        // Order this CTA's earlier reads of the buffer (generic proxy) before the copy.
        asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
        mbarrier_arrive_expect_tx(&full[s], slice_bytes);
        bulk_copy_to_shared(buffer(s), src, slice_bytes, &full[s]);
      }
    } else {
      copy_own_packs_to_shared<T, N>(buffer(s), src, local);
    }
  };

#pragma unroll
  for (int s = 0; s + 1 < kTmaStages; ++s) {
    const int64_t row = first_row + s * n_clusters;
    if (row < a.rows) request(row, s);
    // One commit group per stage, empty or not, so that wait_group counts rows.
    if constexpr (kAsync) asm volatile("cp.async.commit_group;\n" ::: "memory");
  }
  int it = 0;
  for (int64_t row = first_row; row < a.rows; row += n_clusters, ++it) {
    const int s = it % kTmaStages;
    const int parity = it & 1;
    // This thread's asynchronous copies of the current row have landed (the only group
    // in flight with two stages; with more, all but the newest kTmaStages - 2).
    if constexpr (kAsync) asm volatile("cp.async.wait_group %0;\n" ::"n"(kTmaStages - 2) : "memory");
    // Every thread is done with the buffer that the request below overwrites (it held
    // the previous row), and every thread's copies into the current one are complete.
    __syncthreads();
    const int64_t ahead = row + (kTmaStages - 1) * n_clusters;
    if (ahead < a.rows) request(ahead, (it + kTmaStages - 1) % kTmaStages);
    if constexpr (kAsync) asm volatile("cp.async.commit_group;\n" ::: "memory");
    if constexpr (kBulk) {
      if (slice_bytes > 0) mbarrier_wait_parity(&full[s], static_cast<uint32_t>((it / kTmaStages) & 1));
    }
    OnlinePair acc = scan_packs<Cache::kNormal, false, T, N>(buffer(s), static_cast<T*>(nullptr), local);
    acc = block_allreduce(acc, OnlineMergeOp());
    if (k_ctas > 1) {
      if (it == 0) cluster_wait();
      acc = cluster_merge_pairs(cluster, exchange[parity], acc);
    }
    const RowNorm n = make_row_norm(acc.m, acc.d, a.log);
    write_packs<Cache::kNormal, Cache::kStreaming, T, N>(
        buffer(s), a.y + row * a.cols + static_cast<int64_t>(first) * N, local, n, a.log);
  }
  // No final cluster barrier: every store into this CTA's slots came before a barrier
  // it has passed, and it never reads a peer's shared memory. (The grid has at most one
  // cluster per row, so every CTA loops at least once and its arrival is waited on.)
#endif
}

// ---------------------------------------------------------------------------------
// 12. block_hybrid (sm_90+): one CTA of kHybridThreads threads per row, for rows wider
//    than one CTA's registers: packs [0, R) of the row in registers (RegSlice,
//    hybrid_bytes() per thread: R = threads x that), packs [R, end) in dynamic shared
//    memory. Thread 0 requests the shared-memory part with kHybridPieces TMA bulk copies
//    (an mbarrier each counts its bytes; each piece is reduced as soon as it lands)
//    before any register load is issued, so the whole row
//    (up to ~290 KB) is in flight at once: one such CTA per SM moves as many bytes as
//    several smaller ones would, and, unlike a cluster, waits for no peer (the 1024-
//    thread cluster_regs CTA measured the same effect). block_smem, by contrast, stages
//    its row through registers a few packs at a time. 4- and 8-byte packs (misaligned
//    views) use cp.async per pack, 2-byte packs a synchronous copy; every thread then
//    reads back only the packs it copied itself. One read and one write of global memory.
//    Grid: one CTA per row (one-shot; the loop only runs past kMaxGridBlocks).
// ---------------------------------------------------------------------------------

template <typename T, int N>
__global__ void __launch_bounds__(kHybridThreads, 1) softmax_block_hybrid_kernel(RowsArgs<T> a) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
  constexpr int kPackBytes = N * static_cast<int>(sizeof(T));
  constexpr int B = hybrid_bytes(kPackBytes);
  constexpr bool kBulk = kPackBytes == 16;
  constexpr bool kAsync = !kBulk && kPackBytes >= 4;
  extern __shared__ __align__(kTmaBufferAlign) unsigned char smem_raw[];
  T* cache = reinterpret_cast<T*>(smem_raw);
  __shared__ __align__(8) uint64_t full[kHybridPieces];
  __shared__ OnlinePair warp_pairs[kHybridThreads / 32];
  const int G = blockDim.x;
  const int t = threadIdx.x;
  const int packs = static_cast<int>(a.cols / N);
  const int reg_packs = min(packs, G * (B / kPackBytes));
  const int smem_packs = packs - reg_packs;
  // Bulk copies: kHybridPieces pieces of piece_packs (the last shorter, maybe empty).
  const int piece_packs = kBulk ? ceil_div(smem_packs, kHybridPieces) : smem_packs;
  auto piece_count = [&](int c) { return max(0, min(piece_packs, smem_packs - c * piece_packs)); };
  if constexpr (kBulk) {
    if (t == 0) {
#pragma unroll
      for (int c = 0; c < kHybridPieces; ++c) mbarrier_init(&full[c], 1);
      asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    __syncthreads();
  }
  int it = 0;
  for (int64_t row = blockIdx.x; row < a.rows; row += gridDim.x, ++it) {
    const T* xr = a.x + row * a.x_stride;
    const T* xs = xr + static_cast<int64_t>(reg_packs) * N;
    if constexpr (kBulk) {
      if (it > 0) __syncthreads();  // every thread is done with the previous row's cache
      if (t == 0) {
        // Order this CTA's earlier reads of the cache (generic proxy) before the copies.
        asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#pragma unroll
        for (int c = 0; c < kHybridPieces; ++c) {
          const uint32_t bytes = static_cast<uint32_t>(piece_count(c)) * kPackBytes;
          if (bytes == 0) continue;
          mbarrier_arrive_expect_tx(&full[c], bytes);
          bulk_copy_to_shared(cache + c * piece_packs * N, xs + c * piece_packs * N, bytes, &full[c]);
        }
      }
    } else {
      copy_own_packs_to_shared<T, N>(cache, xs, smem_packs);
    }
    RegSlice<T, N, B> s;
    s.load(xr, t, G, reg_packs);
    OnlinePair acc = s.reduce(a.log);
    if constexpr (kBulk) {
#pragma unroll
      for (int c = 0; c < kHybridPieces; ++c) {
        const int count = piece_count(c);
        if (count == 0) continue;
        mbarrier_wait_parity(&full[c], static_cast<uint32_t>(it & 1));
        acc = online_merge(acc, scan_packs<Cache::kNormal, false, T, N>(cache + c * piece_packs * N,
                                                                          static_cast<T*>(nullptr), count));
      }
    } else {
      if constexpr (kAsync) asm volatile("cp.async.wait_all;\n" ::: "memory");
      // Thread t scans (and later writes) cache packs t, t + G, ...: exactly the packs
      // it copied itself.
      acc = online_merge(acc, scan_packs<Cache::kNormal, false, T, N>(cache, static_cast<T*>(nullptr), smem_packs));
    }
    acc = slice_merge_pairs(acc, warp_pairs, 0, G);
    const RowNorm n = make_row_norm(acc.m, acc.d, a.log);
    T* yr = a.y + row * a.cols;
    s.write(yr, t, G, reg_packs, n, a.log);
    write_packs<Cache::kNormal, Cache::kStreaming, T, N>(cache, yr + static_cast<int64_t>(reg_packs) * N,
                                                      smem_packs, n, a.log);
  }
#endif
}

// ---------------------------------------------------------------------------------
// Host side: kernel selection by pack width
// ---------------------------------------------------------------------------------

// Returns Family::get<T, n>(args...) for the runtime pack width n, instantiating only
// the widths a T can use (n * sizeof(T) <= 16).
template <typename Family, typename T, typename... Args>
const void* kernel_for_pack(int pack, Args... args) {
  switch (pack) {
    case 8:
      if constexpr (8 * sizeof(T) <= 16) return Family::template get<T, 8>(args...);
      break;
    case 4:
      if constexpr (4 * sizeof(T) <= 16) return Family::template get<T, 4>(args...);
      break;
    case 2:
      return Family::template get<T, 2>(args...);
    case 1:
      return Family::template get<T, 1>(args...);
    default:
      break;
  }
  throw std::runtime_error("softmax: no kernel for pack width " + std::to_string(pack));
}

struct BlockSmemFamily {
  template <typename T, int N> static const void* get() {
    return reinterpret_cast<const void*>(&softmax_block_smem_kernel<T, N>);
  }
};
struct BlockUncachedFamily {
  template <typename T, int N> static const void* get() {
    return reinterpret_cast<const void*>(&softmax_block_uncached_kernel<T, N>);
  }
};
struct OnlineFamily {
  template <typename T, int N> static const void* get() {
    return reinterpret_cast<const void*>(&softmax_online_kernel<T, N>);
  }
};
struct ClusterSmemFamily {
  template <typename T, int N> static const void* get() {
    return reinterpret_cast<const void*>(&softmax_cluster_smem_kernel<T, N>);
  }
};
struct ClusterTmaFamily {
  template <typename T, int N> static const void* get() {
    return reinterpret_cast<const void*>(&softmax_cluster_tma_kernel<T, N>);
  }
};

// cluster_regs instantiates only the bytes per thread that make_plan can pick: from
// kRegsMinBytes32 / kRegsMinBytes16 up to what kRegsMaxLoads packs hold (at most
// kRegsMaxBytes; scalar fp16/bf16 packs: 32 only), with __launch_bounds__ for
// kRegsMaxThreads, plus kRegsMaxBytes with bounds for kRegsWideThreads (max_threads >
// kRegsMaxThreads). 23 kernels in all.
template <typename T, int N>
const void* cluster_regs_kernel(int bytes_per_thread, int max_threads) {
  constexpr int kMax = std::min(kRegsMaxBytes, kRegsMaxLoads * N * static_cast<int>(sizeof(T)));
  constexpr int kMin = std::min(sizeof(T) == 4 ? kRegsMinBytes32 : kRegsMinBytes16, kMax);
  constexpr int R = kRegsMaxThreads;
  if (max_threads > R) {  // the one wide shape: kRegsWideThreads threads of kRegsMaxBytes
    if constexpr (kMax == kRegsMaxBytes) {
      if (bytes_per_thread == kRegsMaxBytes) {
        return reinterpret_cast<const void*>(&softmax_cluster_regs_kernel<T, N, kRegsMaxBytes, kRegsWideThreads>);
      }
    }
  } else {
    switch (bytes_per_thread) {
      case 32:
        if constexpr (kMin <= 32) return reinterpret_cast<const void*>(&softmax_cluster_regs_kernel<T, N, 32, R>);
        break;
      case 64:
        if constexpr (kMin <= 64 && kMax >= 64) {
          return reinterpret_cast<const void*>(&softmax_cluster_regs_kernel<T, N, 64, R>);
        }
        break;
      case 128:
        if constexpr (kMax >= 128) return reinterpret_cast<const void*>(&softmax_cluster_regs_kernel<T, N, 128, R>);
        break;
      default:
        break;
    }
  }
  throw std::runtime_error("cluster_regs: no kernel for " + std::to_string(bytes_per_thread) +
                           " bytes per thread and packs of " + std::to_string(N));
}

// The most bytes per thread in at most kRegsMaxLoads packs: scalar packs (each in a
// register of its own, with its own address) would otherwise spill.
int cluster_regs_max_bytes(int pack_bytes) {
  int bytes = kRegsMaxBytes;
  while (bytes > 32 && bytes > kRegsMaxLoads * pack_bytes) bytes /= 2;
  return bytes;
}

struct ClusterRegsFamily {
  template <typename T, int N> static const void* get(int bytes_per_thread, int max_threads) {
    return cluster_regs_kernel<T, N>(bytes_per_thread, max_threads);
  }
};
struct BlockHybridFamily {
  template <typename T, int N> static const void* get() {
    return reinterpret_cast<const void*>(&softmax_block_hybrid_kernel<T, N>);
  }
};

// warp_per_row instantiates cols_per_thread only from this list (multiples of the pack):
// padding a row up to the next entry wastes at most a third of the lanes' arithmetic,
// never memory traffic, and keeps the build small.
template <int... Cs> struct IntList {};
using WarpRowColsPerThread = IntList<1, 2, 4, 8, 12, 16, 24, 32>;

template <typename T, int N, int C>
const void* warp_row_kernel(int rows_per_access) {
  if constexpr (C == N) {
    if (rows_per_access == kWarpRowRows) {
      return reinterpret_cast<const void*>(&softmax_warp_per_row_kernel<T, N, C, kWarpRowRows>);
    }
  }
  return reinterpret_cast<const void*>(&softmax_warp_per_row_kernel<T, N, C, 1>);
}

// The first listed C >= needed that is a multiple of N; writes it to *chosen.
template <typename T, int N, int C, int... Rest>
const void* pick_warp_row(int needed, int rows_per_access, int* chosen) {
  if constexpr (C % N == 0) {
    if (needed <= C) {
      *chosen = C;
      return warp_row_kernel<T, N, C>(rows_per_access);
    }
  }
  if constexpr (sizeof...(Rest) > 0) {
    return pick_warp_row<T, N, Rest...>(needed, rows_per_access, chosen);
  } else {
    throw std::runtime_error("warp_per_row: no kernel for " + std::to_string(needed) + " values per thread");
  }
}

template <typename T, int N, int... Cs>
const void* pick_warp_row_list(IntList<Cs...>, int needed, int rows_per_access, int* chosen) {
  return pick_warp_row<T, N, Cs...>(needed, rows_per_access, chosen);
}

struct WarpRowFamily {
  template <typename T, int N> static const void* get(int needed, int rows_per_access, int* chosen) {
    return pick_warp_row_list<T, N>(WarpRowColsPerThread{}, needed, rows_per_access, chosen);
  }
};

template <typename T>
const void* ladder_kernel(int64_t variant) {
  switch (variant) {
    case kSmemTree: return reinterpret_cast<const void*>(&softmax_ladder_kernel<T, false, false>);
    case kCoalesced: return reinterpret_cast<const void*>(&softmax_ladder_kernel<T, true, false>);
    default: return reinterpret_cast<const void*>(&softmax_ladder_kernel<T, true, true>);
  }
}

// ---------------------------------------------------------------------------------
// Host side: occupancy and shared-memory opt-in, cached per device and kernel
// ---------------------------------------------------------------------------------

std::mutex g_cache_mutex;

// Blocks of `fn` with `threads` threads and `smem` dynamic bytes resident per SM.
int resident_blocks(const void* fn, int device, int threads, int64_t smem) {
  static std::map<std::tuple<int, const void*, int, int64_t>, int> cache;
  const auto key = std::make_tuple(device, fn, threads, smem);
  {
    std::lock_guard<std::mutex> lock(g_cache_mutex);
    const auto it = cache.find(key);
    if (it != cache.end()) return it->second;
  }
  int n = 0;
  SK_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, fn, threads, static_cast<size_t>(smem)));
  std::lock_guard<std::mutex> lock(g_cache_mutex);
  cache[key] = n;
  return n;
}

// Lets `fn` use the device's opt-in shared memory (beyond the default 48 KB) and, for
// cluster kernels, clusters of 16. Returns the dynamic shared memory a block may use:
// the opt-in limit less the kernel's static shared memory.
int64_t opt_in_smem(const void* fn, int device, bool cluster) {
  static std::map<std::pair<int, const void*>, int64_t> cache;
  std::lock_guard<std::mutex> lock(g_cache_mutex);
  const auto key = std::make_pair(device, fn);
  const auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  cudaFuncAttributes attr;
  SK_CUDA_CHECK(cudaFuncGetAttributes(&attr, fn));
  const int64_t limit = device_properties(device).smem_per_block_optin - static_cast<int64_t>(attr.sharedSizeBytes);
  SK_CUDA_CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(limit)));
  if (cluster) SK_CUDA_CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  cache[key] = limit;
  return limit;
}

// OneFlow's rule: the largest block (1024, 512, 256) that keeps as many blocks resident
// per SM as 128 threads do; a smaller block only costs reduction depth and barrier
// width, a larger one that lowers the block count loses overlap between blocks.
// Returns 0 threads when not even a 128-thread block fits.
std::pair<int, int> occupancy_block(const void* fn, int device, int64_t smem) {
  const int base = resident_blocks(fn, device, kMinBlockThreads, smem);
  if (base == 0) return {0, 0};
  for (int threads = kMaxBlockThreads; threads > kMinBlockThreads; threads >>= 1) {
    if (resident_blocks(fn, device, threads, smem) == base) return {threads, base};
  }
  return {kMinBlockThreads, base};
}

// Lets `fn` run in clusters of up to 16 CTAs (beyond the portable 8), once per device.
void allow_large_clusters(const void* fn, int device) {
  static std::map<std::pair<int, const void*>, bool> cache;
  std::lock_guard<std::mutex> lock(g_cache_mutex);
  const auto key = std::make_pair(device, fn);
  if (cache.count(key)) return;
  SK_CUDA_CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  cache[key] = true;
}

int clusters_resident(const void* fn, int threads, int64_t smem, int k) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(k);
  cfg.blockDim = dim3(threads);
  cfg.dynamicSmemBytes = static_cast<size_t>(smem);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = k;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  int n = 0;
  // A shape the hardware cannot co-schedule is an error here, not a zero: treat both
  // as "does not fit" and clear the (non-sticky) error.
  if (cudaOccupancyMaxActiveClusters(&n, fn, &cfg) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return n;
}

// ---------------------------------------------------------------------------------
// Host side: the plan (every launch-geometry decision) and the launch
// ---------------------------------------------------------------------------------

struct Problem {
  uint64_t x;
  uint64_t y;
  int64_t rows;
  int64_t cols;
  int64_t stride;
  int device;
};

struct Plan {
  int64_t f[kFieldCount] = {};
  const void* kernel = nullptr;
};

template <typename T>
Plan make_plan(const Problem& p, int64_t variant) {
  const DeviceProperties dev = device_properties(p.device);
  constexpr int kElem = static_cast<int>(sizeof(T));
  Plan plan;
  plan.f[kFieldStatus] = kStatusOk;
  plan.f[kFieldPack] = 1;
  plan.f[kFieldClusterSize] = 1;
  plan.f[kFieldRowsPerAccess] = 1;
  plan.f[kFieldGridY] = 1;
  const int pack = max_pack_elems(kElem, {p.x, p.y}, {p.stride}, p.rows, p.cols);
  const int64_t rows = std::max<int64_t>(p.rows, 1);

  auto finish = [&](const void* fn, int threads, int64_t work_blocks, int64_t smem) {
    const int resident = resident_blocks(fn, p.device, threads, smem);
    plan.kernel = fn;
    plan.f[kFieldThreads] = threads;
    plan.f[kFieldSmemBytes] = smem;
    plan.f[kFieldResidentPerSm] = resident;
    // One block per unit of work (the grid-stride loops only cover grids past
    // kMaxGridBlocks): measured on an H200 with 1 GiB inputs, a one-shot grid beats one
    // resident wave that loops (fp32 4096: 95.9% vs 88.5% of copy bandwidth; 512: 97.2%
    // vs 93.4%) because a finished block's slot takes a fresh block whose loads are
    // issued at once, instead of a loop that waits for its own stores and reductions.
    plan.f[kFieldBlocks] = std::max<int64_t>(1, std::min<int64_t>(work_blocks, kMaxGridBlocks));
  };

  // cluster_smem, cluster_tma: the smallest cluster of first_k or more CTAs (powers of
  // two) whose slices hold at most target_bytes of the row, or a larger one when that
  // shape cannot be resident; each CTA keeps `stages` buffers of its slice, each
  // rounded up to `align` bytes, in shared memory. Fills the kernel, cluster and
  // occupancy fields; false (status: row too large, or shape not resident) if none fits.
  auto place_in_cluster = [&](const void* fn, int64_t limit, int first_k, int64_t target_bytes, int stages,
                              int64_t align) {
    const int64_t packs = std::max<int64_t>(p.cols / pack, 1);
    int k = first_k;
    while (k < kMaxClusterSize && ceil_div(packs, k) * pack * kElem > target_bytes) k *= 2;
    for (; k <= kMaxClusterSize; k *= 2) {
      const int64_t smem = stages * round_up(ceil_div(packs, k) * pack * kElem, align);
      plan.f[kFieldClusterSize] = k;
      plan.f[kFieldSmemBytes] = smem;
      if (smem > limit) continue;
      const auto [threads, resident] = occupancy_block(fn, p.device, smem);
      if (threads == 0) continue;
      // One CTA is a plain block: as many as fit on every SM.
      const int active = k > 1 ? clusters_resident(fn, threads, smem, k) : resident * dev.sm_count;
      if (active == 0) continue;
      plan.kernel = fn;
      plan.f[kFieldThreads] = threads;
      plan.f[kFieldResidentPerSm] = resident;
      plan.f[kFieldActiveClusters] = active;
      return true;
    }
    plan.f[kFieldStatus] =
        plan.f[kFieldSmemBytes] > limit ? kStatusRowExceedsCluster : kStatusClusterNotResident;
    return false;
  };

  switch (variant) {
    case kNaive:
      finish(reinterpret_cast<const void*>(&softmax_naive_kernel<T>), kNaiveThreads,
             ceil_div(rows * std::max<int64_t>(p.cols, 1), kNaiveThreads), 0);
      return plan;

    case kSmemTree:
    case kCoalesced:
    case kWarpShuffle:
      finish(ladder_kernel<T>(variant), kLadderThreads, rows, 0);
      return plan;

    case kWarpPerRow: {
      if (p.cols > kWarpRowMaxCols) {
        plan.f[kFieldStatus] = kStatusTooWideForWarp;
        return plan;
      }
      const int64_t packs = std::max<int64_t>(p.cols / pack, 1);
      int group, needed;
      if (packs <= 32) {
        // Narrow rows: one pack per lane, a group just wide enough.
        group = static_cast<int>(next_pow2(packs));
        needed = pack;
      } else {
        group = 32;
        needed = static_cast<int>(ceil_div(packs, 32)) * pack;
      }
      const int rows_per_access = needed == pack && rows > 1 ? kWarpRowRows : 1;
      int cols_per_thread = 0;
      const void* fn = kernel_for_pack<WarpRowFamily, T>(pack, needed, rows_per_access, &cols_per_thread);
      plan.f[kFieldPack] = pack;
      plan.f[kFieldColsPerThread] = cols_per_thread;
      plan.f[kFieldGroupWidth] = group;
      plan.f[kFieldRowsPerAccess] = rows_per_access;
      const int64_t rows_per_block = (kWarpRowThreads / group) * rows_per_access;
      finish(fn, kWarpRowThreads, ceil_div(rows, rows_per_block), 0);
      return plan;
    }

    case kBlockSmem: {
      const void* fn = kernel_for_pack<BlockSmemFamily, T>(pack);
      const int64_t limit = opt_in_smem(fn, p.device, false);
      const int64_t smem = round_up(std::max<int64_t>(p.cols, 1) * kElem, 16);
      plan.f[kFieldPack] = pack;
      plan.f[kFieldSmemBytes] = smem;
      plan.f[kFieldSmemLimit] = limit;
      const int threads = smem <= limit ? occupancy_block(fn, p.device, smem).first : 0;
      if (threads == 0) {
        plan.f[kFieldStatus] = kStatusRowExceedsSmem;
        return plan;
      }
      finish(fn, threads, rows, smem);
      return plan;
    }

    case kBlockUncached:
    case kOnline: {
      const void* fn = variant == kOnline ? kernel_for_pack<OnlineFamily, T>(pack)
                                          : kernel_for_pack<BlockUncachedFamily, T>(pack);
      const int64_t packs = p.cols / pack;
      int threads = static_cast<int>(std::clamp<int64_t>(
          next_pow2(ceil_div(std::max<int64_t>(packs, 1), kPacksPerThread)), kMinBlockThreads, kMaxBlockThreads));
      while (threads > kMinBlockThreads && resident_blocks(fn, p.device, threads, 0) < kMinResidentBlocks) {
        threads >>= 1;
      }
      plan.f[kFieldPack] = pack;
      finish(fn, threads, rows, 0);
      return plan;
    }

    case kClusterSmem: {
      if (dev.major < 9) {
        plan.f[kFieldStatus] = kStatusNeedsSm90;
        return plan;
      }
      const void* fn = kernel_for_pack<ClusterSmemFamily, T>(pack);
      const int64_t limit = opt_in_smem(fn, p.device, true);
      plan.f[kFieldPack] = pack;
      plan.f[kFieldSmemLimit] = limit;
      // Each CTA keeps its slice in one shared-memory buffer.
      if (place_in_cluster(fn, limit, kMinClusterSize, kClusterSliceTargetBytes, 1, 16)) {
        const int64_t k = plan.f[kFieldClusterSize];
        plan.f[kFieldBlocks] = k * std::min<int64_t>(rows, kMaxGridBlocks / k);  // one-shot, as finish()
      }
      return plan;
    }

    case kClusterRegs: {
      // Shapes in order: one CTA of up to kRegsMaxThreads threads, one of up to
      // kRegsWideThreads (kRegsMaxBytes each), then clusters of 2..16 CTAs (sm_90) of up
      // to kRegsMaxThreads. The first whose slices fit, with the fewest bytes per thread
      // that fit; the next when that shape cannot be resident.
      const int max_k = dev.major >= 9 ? kMaxClusterSize : 1;
      const int64_t packs = std::max<int64_t>(p.cols / pack, 1);
      const int pack_bytes = pack * kElem;
      const int max_bytes = cluster_regs_max_bytes(pack_bytes);
      plan.f[kFieldPack] = pack;
      std::vector<std::pair<int, int>> shapes = {{1, kRegsMaxThreads}, {1, kRegsWideThreads}};
      for (int k = 2; k <= max_k; k *= 2) shapes.emplace_back(k, kRegsMaxThreads);
      bool fits = false;
      for (const auto& [k, max_threads] : shapes) {
        const bool wide = max_threads == kRegsWideThreads;
        const int64_t slice = ceil_div(packs, k);
        const int64_t slice_bytes = slice * pack_bytes;
        int bytes = wide ? kRegsMaxBytes : std::min(kElem == 4 ? kRegsMinBytes32 : kRegsMinBytes16, max_bytes);
        if (bytes > max_bytes) continue;
        while (bytes < max_bytes && slice_bytes > static_cast<int64_t>(max_threads) * bytes) bytes *= 2;
        if (slice_bytes > static_cast<int64_t>(max_threads) * bytes) continue;
        fits = true;
        const int group = static_cast<int>(round_up(ceil_div(slice, bytes / pack_bytes), 32));
        int rows_per_block = 1;
        while (k == 1 && rows_per_block < rows && rows_per_block * slice_bytes < kRegsMinBlockBytes &&
               2 * rows_per_block * group <= max_threads) {
          rows_per_block *= 2;
        }
        const int threads = rows_per_block * group;
        const void* fn = kernel_for_pack<ClusterRegsFamily, T>(pack, bytes, max_threads);
        const int resident = resident_blocks(fn, p.device, threads, 0);
        int active = 0;
        if (k > 1) {
          allow_large_clusters(fn, p.device);
          active = clusters_resident(fn, threads, 0, k);
        }
        if (resident == 0 || (k > 1 && active == 0)) continue;
        plan.kernel = fn;
        plan.f[kFieldThreads] = threads;
        plan.f[kFieldClusterSize] = k;
        plan.f[kFieldColsPerThread] = bytes / kElem;
        plan.f[kFieldGroupWidth] = group;
        plan.f[kFieldRowsPerAccess] = rows_per_block;
        plan.f[kFieldResidentPerSm] = resident;
        plan.f[kFieldActiveClusters] = active;
        // One-shot: a CTA (a cluster) per unit of rows_per_block rows, with no loop in the
        // kernel (loop state would cost registers): units past kMaxGridBlocks / k go
        // to the grid's y dimension.
        const int64_t units = ceil_div(rows, rows_per_block);
        const int64_t units_x = std::min<int64_t>(units, kMaxGridBlocks / k);
        plan.f[kFieldBlocks] = k * units_x;
        plan.f[kFieldGridY] = ceil_div(units, units_x);
        return plan;
      }
      // The largest shape tried, for why_unsupported.
      plan.f[kFieldThreads] = kRegsMaxThreads;
      plan.f[kFieldClusterSize] = max_k;
      plan.f[kFieldColsPerThread] = max_bytes / kElem;
      plan.f[kFieldStatus] = fits ? kStatusClusterNotResident : kStatusRowExceedsRegisters;
      return plan;
    }

    case kClusterTma: {
      if (dev.major < 9) {
        plan.f[kFieldStatus] = kStatusNeedsSm90;
        return plan;
      }
      const void* fn = kernel_for_pack<ClusterTmaFamily, T>(pack);
      const int64_t limit = opt_in_smem(fn, p.device, true);
      plan.f[kFieldPack] = pack;
      plan.f[kFieldSmemLimit] = limit;
      // From one CTA (a plain block) up; kTmaStages buffers of the slice per CTA.
      if (place_in_cluster(fn, limit, 1, kTmaSliceTargetBytes, kTmaStages, kTmaBufferAlign)) {
        // Persistent: the resident clusters, but no more than there are rows (every CTA
        // must take a row, see the kernel).
        plan.f[kFieldBlocks] = plan.f[kFieldClusterSize] * std::min<int64_t>(rows, plan.f[kFieldActiveClusters]);
      }
      return plan;
    }

    case kBlockHybrid: {
      if (dev.major < 9) {
        plan.f[kFieldStatus] = kStatusNeedsSm90;
        return plan;
      }
      const void* fn = kernel_for_pack<BlockHybridFamily, T>(pack);
      const int64_t limit = opt_in_smem(fn, p.device, false);
      const int64_t packs = std::max<int64_t>(p.cols / pack, 1);
      const int bytes = hybrid_bytes(pack * kElem);
      const int64_t reg_packs = std::min<int64_t>(packs, kHybridThreads * (bytes / (pack * kElem)));
      const int64_t smem = round_up((packs - reg_packs) * pack * kElem, 16);
      plan.f[kFieldPack] = pack;
      plan.f[kFieldColsPerThread] = bytes / kElem;
      plan.f[kFieldSmemBytes] = smem;
      plan.f[kFieldSmemLimit] = limit;
      plan.f[kFieldThreads] = kHybridThreads;
      if (smem > limit || resident_blocks(fn, p.device, kHybridThreads, smem) == 0) {
        plan.f[kFieldStatus] = kStatusRowExceedsSmem;
        return plan;
      }
      finish(fn, kHybridThreads, rows, smem);
      return plan;
    }

    default:
      throw std::runtime_error("softmax: unknown variant code " + std::to_string(variant));
  }
}

Plan plan_for_dtype(int64_t dtype, const Problem& p, int64_t variant) {
  switch (dtype) {
    case kFloat32: return make_plan<float>(p, variant);
    case kFloat16: return make_plan<__half>(p, variant);
    case kBFloat16: return make_plan<__nv_bfloat16>(p, variant);
    default: throw std::runtime_error("softmax: unknown dtype code " + std::to_string(dtype));
  }
}

template <typename T>
void launch(const Plan& plan, const Problem& p, bool log, cudaStream_t stream) {
  RowsArgs<T> args;
  args.x = reinterpret_cast<const T*>(p.x);
  args.y = reinterpret_cast<T*>(p.y);
  args.rows = p.rows;
  args.cols = p.cols;
  args.x_stride = p.stride;
  args.group_width = static_cast<int>(std::max<int64_t>(plan.f[kFieldGroupWidth], 1));
  // Only the cluster kernels read it (their rows are at most 16 x 2^19 values).
  args.slice_packs = static_cast<int>(
      std::min<int64_t>(ceil_div(p.cols / plan.f[kFieldPack], plan.f[kFieldClusterSize]), INT32_MAX));
  args.log = log;
  void* params[] = {&args};
  const dim3 grid(static_cast<unsigned>(plan.f[kFieldBlocks]), static_cast<unsigned>(plan.f[kFieldGridY]));
  const dim3 block(static_cast<unsigned>(plan.f[kFieldThreads]));
  const size_t smem = static_cast<size_t>(plan.f[kFieldSmemBytes]);
  if (plan.f[kFieldClusterSize] > 1) {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = grid;
    cfg.blockDim = block;
    cfg.dynamicSmemBytes = smem;
    cfg.stream = stream;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = static_cast<unsigned>(plan.f[kFieldClusterSize]);
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    SK_CUDA_CHECK(cudaLaunchKernelExC(&cfg, plan.kernel, params));
  } else {
    SK_CUDA_CHECK(cudaLaunchKernel(plan.kernel, grid, block, params, smem, stream));
  }
}

void check_shape(int64_t rows, int64_t cols, int64_t stride) {
  if (rows < 0 || cols < 0 || stride < 0) {
    throw std::runtime_error("softmax: negative rows, cols or row stride (" + std::to_string(rows) + ", " +
                             std::to_string(cols) + ", " + std::to_string(stride) + ")");
  }
}

}  // namespace softmax
}  // namespace sk

// ---------------------------------------------------------------------------------
// Entry points (declared in bindings.cpp). Pointers and the stream travel as int64_t
// so that the bindings need no CUDA or torch types in common.
// ---------------------------------------------------------------------------------

// The launch softmax_forward would make for this input, as a vector laid out by
// PlanField. The output is assumed 16-byte aligned, as a fresh allocation is.
std::vector<int64_t> softmax_plan(int64_t x_ptr, int64_t rows, int64_t cols, int64_t x_row_stride,
                                  int64_t dtype, int64_t variant, int64_t device) {
  using namespace sk::softmax;
  check_shape(rows, cols, x_row_stride);
  sk::DeviceGuard guard(static_cast<int>(device));
  const Problem p{static_cast<uint64_t>(x_ptr), 0, rows, cols, x_row_stride, static_cast<int>(device)};
  const Plan plan = plan_for_dtype(dtype, p, variant);
  return std::vector<int64_t>(plan.f, plan.f + kFieldCount);
}

// y[r, :] = softmax(x[r, :]) (log-softmax with `log`) for a (rows, cols) input with row
// stride x_row_stride (elements) and unit column stride, into a contiguous output, on
// `stream` of `device`.
void softmax_forward(int64_t x_ptr, int64_t y_ptr, int64_t rows, int64_t cols, int64_t x_row_stride,
                     int64_t dtype, int64_t variant, bool log, int64_t device, int64_t stream) {
  using namespace sk::softmax;
  check_shape(rows, cols, x_row_stride);
  if (rows == 0 || cols == 0) return;
  sk::DeviceGuard guard(static_cast<int>(device));
  const Problem p{static_cast<uint64_t>(x_ptr), static_cast<uint64_t>(y_ptr), rows, cols, x_row_stride,
                  static_cast<int>(device)};
  const Plan plan = plan_for_dtype(dtype, p, variant);
  if (plan.f[kFieldStatus] != kStatusOk) {
    throw std::runtime_error("softmax_forward: variant " + std::to_string(variant) + " cannot serve " +
                             std::to_string(rows) + " x " + std::to_string(cols) + " (plan status " +
                             std::to_string(plan.f[kFieldStatus]) + "); check why_unsupported first");
  }
  const cudaStream_t s = reinterpret_cast<cudaStream_t>(stream);
  switch (dtype) {
    case sk::kFloat32: launch<float>(plan, p, log, s); break;
    case sk::kFloat16: launch<__half>(plan, p, log, s); break;
    default: launch<__nv_bfloat16>(plan, p, log, s); break;
  }
}
