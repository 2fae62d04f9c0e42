// split_smem: a row cut into `split` parts, each over one persistent CTA that copies its
// part to shared memory as it reads it (pass 1 folds it: the forward's online pair, the
// backward's part of sum(dy * y) or sum(dy)), exchanges that with the row's other parts
// through global memory (split.cuh's slots), then writes its part of the output from
// shared memory (pass 2). Each element is read from global memory once, written once.
//
// Why, beside split: split holds 16-32 KB chunks in registers, so a 2-4 MB row (fp32
// 524288-1048576) takes 64-256 CTAs that all wait for the slowest of them once per row,
// and its CUDA form trails Triton's (H100, 1 GiB: fp32 524288 71 vs 88 % of copy);
// `online` (one CTA per row, the second read meant for L2) re-reads from DRAM once 132
// rows of megabytes are in flight (63 %: 2 reads + 1 write). A part here is up to
// kSplitSmemPartBytes, several times a register chunk, so a row needs a quarter of the
// CTAs and each waits once per 64 KB; with three CTAs per SM, each of another row
// group, one CTA's wait is the others' time to load and store. The backward's part
// holds as many columns of y as of dy (half the columns per byte).
//
// Each thread stores pack i of its part at shared offset i * N and reads it back itself
// in pass 2 (and overwrites it in the next row's pass 1): no thread reads another's
// packs, so no barrier guards the part; the barriers are the reduction's two. Staging
// by cp.async instead, in one buffer or two (the next row's part arriving during the
// exchange), measured slower on an H200: fp32 1048576 72.1 -> 67.5 / 48.7 % of copy
// (benchmarks/h200_2026-11-24/split_smem_stages_*_9467329.csv).
//
// The backward of rows of up to kSplitSmemPipelinedMaxRowBytes of y and dy runs
// pipelined by one row (its kernel says how); the forward and wider rows do not, where
// that measured slower.
//
// Grid: persistent and cooperative (its CTAs wait for each other), `groups` x `split`
// CTAs: CTA b is part b % split of rows g, g + groups, ... (g = b / split). split = 1
// (rows up to one part) is a persistent one-CTA-per-row kernel with no exchange.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/block_reduce.cuh"
#include "common/device.cuh"
#include "common/grad.cuh"
#include "common/math.cuh"
#include "common/online.cuh"
#include "common/packs.cuh"
#include "common/row_scan.cuh"
#include "softmax/geometry.cuh"
#include "softmax/split.cuh"

namespace sk {
namespace softmax {

// ---------------------------------------------------------------------------------
// Launch constants
// ---------------------------------------------------------------------------------

// Bytes of a row per CTA (forward: of x; backward: of y and dy together): 64 KB lets
// three CTAs share an SM's 228 KB (H100, H200), so two can load or store while one
// waits for its row's exchange. Threads: at most 512, each taking two steps of
// kScanUnroll packs per part (forward 64 KB of 16-byte packs: 512 threads). On an H200
// 64 KB x 512 threads measured best or tied against 32 KB x 256 / 512, 64 KB x 256 and
// 96 KB x 512 (benchmarks/h200_2026-11-24/split_smem_parts_*_8ec5767.csv).
constexpr int64_t kSplitSmemPartBytes = 64 * 1024;
constexpr int kSplitSmemThreads = 512;
// The smallest part the planner spreads a row into where resident CTAs are left over.
constexpr int64_t kSplitSmemMinPartBytes = 16 * 1024;
// The backward pipelined by one row (softmax_backward_split_smem_pipelined_kernel) for
// rows of y and dy of up to this many bytes together, in two buffers of
// kSplitSmemPipelinedPartBytes per CTA. H200, 1 GiB, % of copy, one 64 KB buffer ->
// pipelined (benchmarks/h200_2026-11-24/split_smem_pipelined_{base,head}_f09e918.csv):
// fp32 131072 76.1 -> 84.5, fp32 262144 73.7 -> 83.5, bf16 262144 73.9 -> 80.7, bf16
// 524288 72.3 -> 79.2 (up to 64 parts of 32 KB); wider rows lose (fp32 524288, 128
// parts: 71.0 -> 68.5; 1048576: 67.5 -> 56.3), and so did the forward pipelined alike
// (fp32 1048576 71.9 -> 60.7, bf16 131072 80.8 -> 65.7): it keeps one buffer.
constexpr int64_t kSplitSmemPipelinedMaxRowBytes = int64_t{2} << 20;
constexpr int64_t kSplitSmemPipelinedPartBytes = 32 * 1024;
// How the backward stores dx: streaming stores (st.global.cs), where the other kernels'
// plain ones (kOutputStore) measured lower at its rows (fp32 1048576, 1 GiB, % of copy:
// H100 74.0 / 73.9 -> 73.4 / 73.2, H200 67.7 / 67.5 -> 67.1 / 67.1; benchmarks/
// h100_2026-11-26c/store_*_c284b7d*, h200_2026-11-26c/wide_store_*_6ee8d08*).
constexpr Cache kSplitSmemGradStore = Cache::kStreaming;

// ---------------------------------------------------------------------------------
// Forward kernel
// ---------------------------------------------------------------------------------

template <typename T, int N>
__global__ void __launch_bounds__(kSplitSmemThreads) softmax_split_smem_kernel(RowsArgs<T> a) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  T* part = reinterpret_cast<T*>(smem_raw);
  __shared__ OnlinePair warp_pairs[kSplitSmemThreads / 32];
  __shared__ OnlinePair row_pair;
  const int split = a.split;
  const RowPart my = row_part(split, a.cols / N, a.slice_packs);
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  for (int64_t row = blockIdx.x / split; row < a.rows; row += my.groups) {
    OnlinePair acc = scan_packs<Cache::kStreaming, true, T, N>(a.x + row * a.x_stride + my.offset(N), part, my.local);
    // The block's pair to warp 0 (one barrier), which publishes it, gathers the row's
    // and hands that to the block (the second).
    acc = warp_merge_pairs(acc);
    if (lane == 0) warp_pairs[warp] = acc;
    __syncthreads();
    if (warp == 0) {
      OnlinePair p = warp_merge_pairs(lane < static_cast<int>(blockDim.x >> 5) ? warp_pairs[lane] : online_empty());
      if (split > 1) {
        unsigned long long* slots = a.slots + row * split;
        if (lane == 0) publish_word(slots + my.index, pair_word(p));
        p = gather_parts_pair(slots, split);
      }
      if (lane == 0) row_pair = p;
    }
    __syncthreads();
    acc = row_pair;
    if (my.local > 0) {
      write_packs<Cache::kNormal, kOutputStore, T, N>(part, a.y + row * a.cols + my.offset(N), my.local,
                                                           make_row_norm(acc.m, acc.d, a.log), a.log);
    }
  }
}

// ---------------------------------------------------------------------------------
// Backward kernel: y's part, then dy's, in shared memory; the row's sum exchanged as
// one float per part (a word below 2^32: never the "not yet" word).
// ---------------------------------------------------------------------------------

template <typename T, int N>
__global__ void __launch_bounds__(kSplitSmemThreads) softmax_backward_split_smem_kernel(GradArgs<T> a) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  T* ys = reinterpret_cast<T*>(smem_raw);
  T* gs = ys + static_cast<int64_t>(a.slice_packs) * N;
  __shared__ float warp_sums[kSplitSmemThreads / 32];
  __shared__ float row_sum;
  const int split = a.split;
  const RowPart my = row_part(split, a.cols / N, a.slice_packs);
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int64_t offset = my.offset(N);
  for (int64_t row = blockIdx.x / split; row < a.rows; row += my.groups) {
    float s = grad_sum_packs<Cache::kStreaming, true, T, N>(a.y + row * a.y_stride + offset,
                                                             a.dy + row * a.dy_stride + offset, ys, gs, my.local, a.log);
    s = warp_allreduce_static<32>(s, SumOp());
    if (lane == 0) warp_sums[warp] = s;
    __syncthreads();
    if (warp == 0) {
      float t = lane < static_cast<int>(blockDim.x >> 5) ? warp_sums[lane] : 0.0f;
      t = warp_allreduce_static<32>(t, SumOp());
      if (split > 1) {
        unsigned long long* slots = a.slots + row * split;
        if (lane == 0) publish_word(slots + my.index, sum_word(t));
        t = gather_parts_sum(slots, split);
      }
      if (lane == 0) row_sum = t;
    }
    __syncthreads();
    s = row_sum;
    if (my.local > 0) {
      grad_write_packs<Cache::kNormal, T, N, kSplitSmemGradStore>(ys, gs, a.dx + row * a.cols + offset, my.local, s,
                                                                  a.log);
    }
  }
}

// The backward pipelined by one row, for rows of y and dy of up to
// kSplitSmemPipelinedMaxRowBytes: the CTA publishes row r's sum as soon as it has read
// its part, then reads row r + groups's part into its second buffer before it gathers
// row r's sums, so its peers have had a whole part's read to publish theirs (waiting
// right after the publish costs 10-19 points: benchmarks/h200_2026-11-24/
// split_smem_exchange_*_f09e918.csv). Warp 0 keeps the block's sum of the row it
// gathers next (`pending`); publishes never wait, so no gather waits on a gather.
template <typename T, int N>
__global__ void __launch_bounds__(kSplitSmemThreads) softmax_backward_split_smem_pipelined_kernel(GradArgs<T> a) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  T* const stages = reinterpret_cast<T*>(smem_raw);
  const int64_t tensor_elems = static_cast<int64_t>(a.slice_packs) * N;  // per buffer: y's part, then dy's
  __shared__ float warp_sums[2][kSplitSmemThreads / 32];
  __shared__ float row_sum;
  const int split = a.split;
  const RowPart my = row_part(split, a.cols / N, a.slice_packs);
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int warps = static_cast<int>(blockDim.x >> 5);
  const int64_t offset = my.offset(N);
  // Pass 1 of `row` into buffer `s`: this thread's sum, merged over its warp into
  // warp_sums[s] (warp 0 merges those after a barrier).
  const auto read_part = [&](int64_t row, int s) {
    T* const ys = stages + s * 2 * tensor_elems;
    float t = grad_sum_packs<Cache::kStreaming, true, T, N>(a.y + row * a.y_stride + offset,
                                                             a.dy + row * a.dy_stride + offset, ys, ys + tensor_elems,
                                                             my.local, a.log);
    t = warp_allreduce_static<32>(t, SumOp());
    if (lane == 0) warp_sums[s][warp] = t;
  };
  // Warp 0: the block's sum of `row` from warp_sums[s], published.
  const auto block_sum = [&](int64_t row, int s) {
    const float t = warp_allreduce_static<32>(lane < warps ? warp_sums[s][lane] : 0.0f, SumOp());
    if (split > 1 && lane == 0) {
      publish_word(a.slots + row * split + my.index, sum_word(t));
    }
    return t;
  };
  int64_t row = blockIdx.x / split;
  if (row < a.rows) read_part(row, 0);
  __syncthreads();
  float pending = 0.0f;
  if (warp == 0 && row < a.rows) pending = block_sum(row, 0);
  for (int s = 0; row < a.rows; row += my.groups, s ^= 1) {
    const int64_t next = row + my.groups;
    if (next < a.rows) read_part(next, s ^ 1);  // into the buffer this thread last wrote dx from
    __syncthreads();
    if (warp == 0) {
      float t = pending;
      if (next < a.rows) pending = block_sum(next, s ^ 1);
      if (split > 1) t = gather_parts_sum(a.slots + row * split, split);
      if (lane == 0) row_sum = t;
    }
    __syncthreads();
    const float total = row_sum;
    T* const ys = stages + s * 2 * tensor_elems;
    if (my.local > 0) {
      grad_write_packs<Cache::kNormal, T, N, kSplitSmemGradStore>(ys, ys + tensor_elems, a.dx + row * a.cols + offset,
                                                                  my.local, total, a.log);
    }
  }
}

// ---------------------------------------------------------------------------------
// Plans (forward and backward): parts of up to kSplitSmemPartBytes, as few as that
// allows, every CTA of a row resident at once.
// ---------------------------------------------------------------------------------

struct SplitSmemFamily {
  template <typename T, int N> static const void* get() {
    return reinterpret_cast<const void*>(&softmax_split_smem_kernel<T, N>);
  }
};
struct SplitSmemBackwardFamily {
  template <typename T, int N> static const void* get() {
    return reinterpret_cast<const void*>(&softmax_backward_split_smem_kernel<T, N>);
  }
};
struct SplitSmemPipelinedBackwardFamily {
  template <typename T, int N> static const void* get() {
    return reinterpret_cast<const void*>(&softmax_backward_split_smem_pipelined_kernel<T, N>);
  }
};

// `tensors`: 1 (forward: x) or 2 (backward: y and dy), the parts each CTA stages, in
// `stages` buffers of up to `part_bytes` each.
template <typename T>
Plan plan_split_smem_for(const Problem& p, const void* fn, int pack, int tensors, int stages = 1,
                         int64_t part_bytes = kSplitSmemPartBytes) {
  constexpr int64_t kElem = static_cast<int64_t>(sizeof(T));
  Plan plan = new_plan(Variant::split_smem);
  const int64_t rows = plan_rows(p);
  const int64_t packs = std::max<int64_t>(p.cols / pack, 1);
  const int64_t pack_bytes = pack * kElem * tensors;  // shared bytes per pack of the part
  const int64_t budget = std::min(part_bytes, opt_in_smem(fn, p.device, false) / stages);
  const int64_t fewest = ceil_div(packs, std::max<int64_t>(budget / pack_bytes, 1));  // parts of the budget
  // Threads for a full part: two steps of kScanUnroll packs each with one buffer, one
  // step of kGradUnroll packs of y and of dy pipelined (the forms measured); fewer for
  // narrower parts (narrow rows: one part).
  const int64_t per_thread = stages > 1 ? kGradUnroll : 2 * kScanUnroll;
  int64_t slice = ceil_div(packs, fewest);
  const int threads = static_cast<int>(
      std::clamp<int64_t>(next_pow2(ceil_div(slice, per_thread)), kMinBlockThreads, kSplitSmemThreads));
  const int resident = resident_blocks(fn, p.device, threads, stages * slice * pack_bytes);
  const int64_t capacity = static_cast<int64_t>(resident) * device_properties(p.device).sm_count;
  int64_t split = fewest;
  if (fewest <= capacity) {
    // As many parts as the resident CTAs share out evenly among the row groups (a GPU
    // of 396 resident CTAs runs 6 groups of 66 parts, not 6 of 64 and 12 CTAs idle;
    // few rows spread over more SMs), parts no smaller than kSplitSmemMinPartBytes.
    const int64_t groups = std::min(rows, capacity / fewest);
    const int64_t most = std::max(fewest, ceil_div(packs * pack_bytes, kSplitSmemMinPartBytes));
    split = std::clamp(capacity / groups, fewest, most);
    slice = ceil_div(packs, split);
    split = ceil_div(packs, slice);  // no empty parts
  }
  plan.pack = pack;
  plan.split = split;
  plan.threads = threads;
  plan.smem_bytes = stages * slice * pack_bytes;
  plan.stages = stages;
  plan.resident_per_sm = resident;
  plan.cols_per_thread = ceil_div(slice, threads) * pack;
  if (split > capacity || split > INT32_MAX) {
    plan.status = PlanStatus::too_many_chunks;
    return plan;
  }
  plan.kernel = fn;
  plan.blocks = std::min(rows, capacity / split) * split;
  plan.workspace_bytes = split > 1 ? rows * split * static_cast<int64_t>(sizeof(unsigned long long)) : 0;
  return plan;
}

template <typename T>
Plan plan_split_smem(const Problem& p) {
  const int pack = widest_pack<T>(p);
  return plan_split_smem_for<T>(p, kernel_for_pack<SplitSmemFamily, T>(pack), pack, 1);
}

template <typename T>
Plan plan_split_smem_backward(const Problem& p) {
  const int pack = widest_pack<T>(p);
  if (2 * p.cols * static_cast<int64_t>(sizeof(T)) <= kSplitSmemPipelinedMaxRowBytes) {
    return plan_split_smem_for<T>(p, kernel_for_pack<SplitSmemPipelinedBackwardFamily, T>(pack), pack, 2, 2,
                                  kSplitSmemPipelinedPartBytes);
  }
  return plan_split_smem_for<T>(p, kernel_for_pack<SplitSmemBackwardFamily, T>(pack), pack, 2);
}

}  // namespace softmax
}  // namespace sk
