// What the softmax paths share: the kernels' argument, the launch limits, and the plan
// steps several paths take (new_plan, the pack width, the one-shot grid, OneFlow's
// block-size rule, the cluster search, instantiation by pack width).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "common/cluster.cuh"
#include "common/device.cuh"
#include "common/math.cuh"
#include "common/packs.cuh"
#include "softmax/plan.cuh"

namespace sk {
namespace softmax {

// ---------------------------------------------------------------------------------
// Launch limits
// ---------------------------------------------------------------------------------

// Block sizes the occupancy rule (occupancy_block) and block_uncached's sizing choose
// from: whole warps, 4 to 32 of them.
constexpr int kMinBlockThreads = 128;
// Grid cap (gridDim.x allows 2^31 - 1); past it the kernels' grid-stride loops take over.
constexpr int64_t kMaxGridBlocks = int64_t{1} << 30;
constexpr int kMaxBlockThreads = 1024;

// ---------------------------------------------------------------------------------
// Kernel arguments: one struct, filled from the plan by launch() in softmax.cu
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
  int slice_packs;   // cluster_smem, cluster_regs, split, split_smem: packs of the row each CTA handles
  bool log;          // log-softmax instead of softmax
  int split;                   // split, split_smem: CTAs per row
  unsigned long long* slots;   // split, split_smem: rows x split words, all ones at launch (see split.cuh)
};

// The backward kernels' argument (launch_backward in softmax.cu fills it from the plan).
template <typename T>
struct GradArgs {
  const T* y;        // the forward output
  const T* dy;       // the gradient of the output
  T* dx;             // the gradient of the input: contiguous (rows, cols)
  int64_t rows;
  int64_t cols;
  int64_t y_stride;  // elements between consecutive rows of y
  int64_t dy_stride; // ... of dy
  int group_width;   // warp_per_row: lanes per row; cluster_regs: threads per row slice
  int slice_packs;   // cluster_regs, split, split_smem: packs of the row each CTA handles
  bool log;          // log-softmax's backward instead of softmax's
  int split;                   // split, split_smem: CTAs per row
  unsigned long long* slots;   // split, split_smem: rows x split words, all ones at launch
};

// ---------------------------------------------------------------------------------
// Plan steps shared by several paths
// ---------------------------------------------------------------------------------

// A plan of `variant` with the defaults every path starts from: status ok, one element
// per access, no cluster, one row per access, a 1-D grid, no auto rule.
inline Plan new_plan(int64_t variant) {
  Plan plan;
  plan.status = PlanStatus::ok;
  plan.pack = 1;
  plan.cluster_size = 1;
  plan.rows_per_access = 1;
  plan.grid_y = 1;
  plan.variant = variant;
  plan.reason_code = AutoReason::requested;
  return plan;
}

// The widest pack (elements) that every pointer, row stride and the width allow (g and
// its stride are 0 in forward problems: no constraint).
template <typename T>
int widest_pack(const Problem& p) {
  return max_pack_elems(static_cast<int>(sizeof(T)), {p.x, p.y, p.g}, {p.stride, p.g_stride}, p.rows, p.cols);
}

// The pack of a path whose kernels read each row as head, whole packs and tail
// (common/row_edges.cuh): the widest pack whole rows allow (widest_pack), or 16 bytes
// where every row of x, y (and g) starts at the same offset from a 16-byte boundary, as
// the rows of a contiguous tensor of odd width do; `realigned` (the plan's field) says
// which. Only 16-byte packs are read so (their own kernel instances, kEdges).
template <typename T>
int realigned_pack(const Problem& p, int64_t& realigned) {
  const int whole = widest_pack<T>(p);
  constexpr int kFull = 16 / static_cast<int>(sizeof(T));
  const int elem = static_cast<int>(sizeof(T));
  const int split = p.g != 0 ? realigned_pack_elems(elem, {{p.x, p.stride}, {p.y, p.cols}, {p.g, p.g_stride}}, p.rows)
                             : realigned_pack_elems(elem, {{p.x, p.stride}, {p.y, p.cols}}, p.rows);
  realigned = whole < kFull && split == kFull ? 1 : 0;
  return realigned ? kFull : whole;
}

// Rows a grid is sized for: at least one, so that a plan for an empty input is well formed.
inline int64_t plan_rows(const Problem& p) { return std::max<int64_t>(p.rows, 1); }

// Fills the kernel, block and grid fields: `threads` per block, `smem` dynamic bytes,
// one block per unit of work (the grid-stride loops only cover grids past
// kMaxGridBlocks): measured on an H200 with 1 GiB inputs, a one-shot grid beats one
// resident wave that loops (fp32 4096: 95.9% vs 88.5% of copy bandwidth; 512: 97.2%
// vs 93.4%) because a finished block's slot takes a fresh block whose loads are
// issued at once, instead of a loop that waits for its own stores and reductions.
inline void one_shot_grid(Plan& plan, int device, const void* fn, int threads, int64_t work_blocks, int64_t smem) {
  plan.kernel = fn;
  plan.threads = threads;
  plan.smem_bytes = smem;
  plan.resident_per_sm = resident_blocks(fn, device, threads, smem);
  plan.blocks = std::max<int64_t>(1, std::min<int64_t>(work_blocks, kMaxGridBlocks));
}

// OneFlow's rule: the largest block (1024, 512, 256) that keeps as many blocks resident
// per SM as 128 threads do; a smaller block only costs reduction depth and barrier
// width, a larger one that lowers the block count loses overlap between blocks.
// Returns 0 threads when not even a 128-thread block fits.
inline std::pair<int, int> occupancy_block(const void* fn, int device, int64_t smem) {
  const int base = resident_blocks(fn, device, kMinBlockThreads, smem);
  if (base == 0) return {0, 0};
  for (int threads = kMaxBlockThreads; threads > kMinBlockThreads; threads >>= 1) {
    if (resident_blocks(fn, device, threads, smem) == base) return {threads, base};
  }
  return {kMinBlockThreads, base};
}

// cluster_smem, cluster_tma: the smallest cluster of first_k or more CTAs (powers of
// two) whose slices hold at most target_bytes of the row, or a larger one when that
// shape cannot be resident; each CTA keeps `stages` buffers of its slice, each
// rounded up to `align` bytes, in shared memory. Fills the kernel, cluster and
// occupancy fields; false (status: row too large, or shape not resident) if none fits.
template <typename T>
bool place_in_cluster(Plan& plan, const Problem& p, const void* fn, int64_t limit, int first_k,
                      int64_t target_bytes, int stages, int64_t align) {
  constexpr int kElem = static_cast<int>(sizeof(T));
  const int64_t pack = plan.pack;
  const int64_t packs = std::max<int64_t>(p.cols / pack, 1);
  int k = first_k;
  while (k < kMaxClusterSize && ceil_div(packs, k) * pack * kElem > target_bytes) k *= 2;
  for (; k <= kMaxClusterSize; k *= 2) {
    const int64_t smem = stages * round_up(ceil_div(packs, k) * pack * kElem, align);
    plan.cluster_size = k;
    plan.smem_bytes = smem;
    if (smem > limit) continue;
    const auto [threads, resident] = occupancy_block(fn, p.device, smem);
    if (threads == 0) continue;
    // One CTA is a plain block: as many as fit on every SM.
    const int active = k > 1 ? clusters_resident(fn, p.device, threads, smem, k)
                             : resident * device_properties(p.device).sm_count;
    if (active == 0) continue;
    plan.kernel = fn;
    plan.threads = threads;
    plan.resident_per_sm = resident;
    plan.active_clusters = active;
    return true;
  }
  plan.status = plan.smem_bytes > limit ? PlanStatus::row_exceeds_cluster : PlanStatus::cluster_not_resident;
  return false;
}

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

}  // namespace softmax
}  // namespace sk
