// Softmax and log-softmax over rows: the optimisation ladder of SEEDS.md, one variant
// per rung. This file binds and dispatches; each dispatch path lives in softmax/:
//
//   variant          file                       kernel                          plan
//   naive            softmax/naive.cuh          softmax_naive_kernel            plan_naive
//   smem_tree,       softmax/block_ladder.cuh   softmax_ladder_kernel           plan_block_ladder
//    coalesced, warp_shuffle
//   warp_per_row     softmax/warp_per_row.cuh   softmax_warp_per_row_kernel     plan_warp_per_row
//   block_smem       softmax/block_smem.cuh     softmax_block_smem_kernel       plan_block_smem
//   block_uncached,  softmax/block_uncached.cuh softmax_block_uncached_kernel,  plan_block_uncached
//    online                                     softmax_online_kernel
//   cluster_smem     softmax/cluster_smem.cuh   softmax_cluster_smem_kernel     plan_cluster_smem
//   cluster_regs     softmax/cluster_regs.cuh   softmax_cluster_regs_kernel     plan_cluster_regs
//   cluster_tma      softmax/cluster_tma.cuh    softmax_cluster_tma_kernel      plan_cluster_tma
//   block_hybrid     softmax/block_hybrid.cuh   softmax_block_hybrid_kernel     plan_block_hybrid
//   split            softmax/split.cuh          softmax_split_kernel            plan_split
//   split_smem       softmax/split_smem.cuh     softmax_split_smem_kernel       plan_split_smem
//   split_hybrid     softmax/split_hybrid.cuh   softmax_block_hybrid_kernel     plan_split_hybrid
//                                               (exchange: HybridGlobal)
//   auto             softmax/auto.cuh           (one of the above)              plan_auto
//
// The backward (softmax_backward, log_softmax_backward: read y and dy, write dx) has a
// kernel beside the forward in eight of these files, chosen by softmax/backward_variants.def:
//   warp_per_row     softmax_backward_warp_per_row_kernel     plan_warp_per_row_backward
//   block_smem       softmax_backward_block_smem_kernel       plan_block_smem_backward
//   block_uncached   softmax_backward_block_uncached_kernel   plan_block_uncached_backward
//   cluster_regs     softmax_backward_cluster_regs_kernel     plan_cluster_regs_backward
//   block_hybrid     softmax_backward_block_hybrid_kernel     plan_block_hybrid_backward
//   split            softmax_backward_split_kernel            plan_split_backward
//   split_smem       softmax_backward_split_smem_kernel       plan_split_smem_backward
//   split_hybrid     softmax_backward_block_hybrid_kernel,    plan_split_hybrid_backward
//                    softmax_backward_split_hybrid_regs_kernel (fp32's register slices)
//   auto             (one of the above)                       plan_auto_backward
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
//   split           R + W         row chunks over persistent CTAs exchanging through global memory
//   split_smem      R + W         row parts staged in persistent CTAs' shared memory, exchanging likewise
//   split_hybrid    R + W         block_hybrid's slices over any number of CTAs, exchanging likewise
//
// exp(x - m) is fast_exp2((x - m) * log2e), the shift first so that rows near FLT_MAX
// stay finite (exp_term in common/online.cuh says why). Every launch
// decision is the planner's: a plan per (device, dtype, variant, shape, alignment),
// cached, auto included (softmax/auto.cuh); Python asks for plans and launches, it
// decides nothing.
#include <cuda_runtime.h>

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "common/check.cuh"
#include "common/cluster.cuh"
#include "common/device.cuh"
#include "common/dtypes.cuh"
#include "common/packs.cuh"
#include "softmax/auto.cuh"
#include "softmax/block_hybrid.cuh"
#include "softmax/block_ladder.cuh"
#include "softmax/block_smem.cuh"
#include "softmax/block_uncached.cuh"
#include "softmax/cluster_regs.cuh"
#include "softmax/cluster_smem.cuh"
#include "softmax/cluster_tma.cuh"
#include "softmax/geometry.cuh"
#include "softmax/naive.cuh"
#include "softmax/plan.cuh"
#include "softmax/split.cuh"
#include "softmax/split_hybrid.cuh"
#include "softmax/split_smem.cuh"
#include "softmax/warp_per_row.cuh"

namespace sk {
namespace softmax {

// ---------------------------------------------------------------------------------
// Dispatch: a variant code to its path's plan
// ---------------------------------------------------------------------------------

// Keep the cases in ladder order, auto last: nvcc instantiates the kernels in the order
// this switch first names them, and the `extern __shared__ smem_raw` arrays of
// block_smem, cluster_smem, cluster_tma and block_hybrid are one symbol whose first
// declaration fixes its alignment for all four (nvcc warns #1886 at the later ones).
// In this order that is block_smem's 16 bytes; with auto first it would be block_hybrid's
// 128, moving block_smem's and cluster_smem's dynamic shared memory from offset 0x110
// to 0x180 (seen in their SASS).
template <typename T>
Plan plan_variant(const Problem& p, int64_t variant) {
  switch (variant) {
    case Variant::naive: return plan_naive<T>(p);
    case Variant::smem_tree:
    case Variant::coalesced:
    case Variant::warp_shuffle: return plan_block_ladder<T>(p, variant);
    case Variant::warp_per_row: return plan_warp_per_row<T>(p);
    case Variant::block_smem: return plan_block_smem<T>(p);
    case Variant::block_uncached:
    case Variant::online: return plan_block_uncached<T>(p, variant);
    case Variant::cluster_smem: return plan_cluster_smem<T>(p);
    case Variant::cluster_regs: return plan_cluster_regs<T>(p);
    case Variant::cluster_tma: return plan_cluster_tma<T>(p);
    case Variant::block_hybrid: return plan_block_hybrid<T>(p);
    case Variant::split: return plan_split<T>(p);
    case Variant::split_smem: return plan_split_smem<T>(p);
    case Variant::split_hybrid: return plan_split_hybrid<T>(p);
    case Variant::kAuto: return plan_auto<T>(p);
    default: throw std::invalid_argument("softmax: unknown variant code " + std::to_string(variant));
  }
}

// The backward variants and their codes: the forward variant of the same name (the
// kernel beside it in softmax/<name>.cuh).
#define SK_SOFTMAX_BACKWARD(name, code, doc) \
  static_assert(Variant::name == code, "backward_variants.def: " #name " must keep its forward code");
#include "softmax/backward_variants.def"
#undef SK_SOFTMAX_BACKWARD

template <typename T>
Plan plan_backward_variant(const Problem& p, int64_t variant) {
  switch (variant) {
    case Variant::warp_per_row: return plan_warp_per_row_backward<T>(p);
    case Variant::block_smem: return plan_block_smem_backward<T>(p);
    case Variant::block_uncached: return plan_block_uncached_backward<T>(p);
    case Variant::cluster_regs: return plan_cluster_regs_backward<T>(p);
    case Variant::block_hybrid: return plan_block_hybrid_backward<T>(p);
    case Variant::split: return plan_split_backward<T>(p);
    case Variant::split_smem: return plan_split_smem_backward<T>(p);
    case Variant::split_hybrid: return plan_split_hybrid_backward<T>(p);
    case Variant::kAuto: return plan_auto_backward<T>(p);
    default:
      throw std::invalid_argument("softmax backward: variant " + variant_name(variant) + " has no backward kernel");
  }
}

// The kernel instance a plan for rows of `cols` launches, with its template arguments
// named (plan()).
inline std::string kernel_name(int64_t dtype, const Plan& plan, int64_t cols) {
  const std::string t = dtype_name(dtype);
  const auto n = [](int64_t v) { return std::to_string(v); };
  const std::string edges = plan.realigned ? ", edges=true" : "";  // rows read in three parts (kEdges)
  switch (plan.variant) {
    case Variant::naive: return "softmax_naive_kernel<" + t + ">";
    case Variant::smem_tree:
    case Variant::coalesced:
    case Variant::warp_shuffle:
      return "softmax_ladder_kernel<" + t + ", coalesced=" + (plan.variant != Variant::smem_tree ? "true" : "false") +
             ", shuffle=" + (plan.variant == Variant::warp_shuffle ? "true" : "false") + ">";
    case Variant::warp_per_row:
      return "softmax_warp_per_row_kernel<" + t + ", pack=" + n(plan.pack) + edges + ", cols_per_thread=" +
             n(plan.cols_per_thread) + ", rows_per_access=" + n(plan.rows_per_access) + ">";
    case Variant::cluster_regs:
      if (plan.unpacked) {  // the softmax instance (log-softmax's: kLog = true); kFull: every slice whole
        const int smem_packs = static_cast<int>(plan.smem_bytes / unpack_smem_bytes(plan.threads, 1));
        const bool full = unpack_slices_whole(cols / plan.pack, plan.cluster_size, plan.threads, smem_packs);
        // smem_packs: packs a thread holds in shared memory past its registers (kSmem)
        return "softmax_cluster_unpacked_kernel<" + t + ", threads=" + n(plan.threads) + ", full=" +
               (full ? "true" : "false") + (smem_packs > 0 ? ", smem_packs=" + n(smem_packs) : "") + ">";
      }
      return "softmax_cluster_regs_kernel<" + t + ", pack=" + n(plan.pack) + edges + ", bytes_per_thread=" +
             n(plan.cols_per_thread * dtype_size(dtype)) +
             ", max_threads=" + n(plan.threads > kRegsMaxThreads ? kRegsWideThreads : kRegsMaxThreads) + ">";
    case Variant::split:
    {
      const int64_t bytes = plan.cols_per_thread * dtype_size(dtype);
      // The 32 KB shape is the only one of more than split_threads(bytes) threads.
      const int64_t threads = plan.threads > split_threads(static_cast<int>(bytes)) ? kSplitWideThreads
                                                                                     : split_threads(static_cast<int>(bytes));
      return "softmax_split_kernel<" + t + ", pack=" + n(plan.pack) + edges + ", bytes_per_thread=" + n(bytes) +
             ", max_threads=" + n(threads) + ">";
    }
    case Variant::block_hybrid:
      return "softmax_block_hybrid_kernel<" + t + ", pack=" + n(plan.pack) + edges + ", threads=" + n(plan.threads) + ">";
    case Variant::split_hybrid:
      return "softmax_block_hybrid_kernel<" + t + ", pack=" + n(plan.pack) + edges + ", threads=" + n(plan.threads) +
             ", exchange=global>";
    default: return "softmax_" + variant_name(plan.variant) + "_kernel<" + t + ", pack=" + n(plan.pack) + ">";
  }
}

inline std::string backward_kernel_name(int64_t dtype, const Plan& plan) {
  const std::string t = dtype_name(dtype);
  const auto n = [](int64_t v) { return std::to_string(v); };
  const std::string edges = plan.realigned ? ", edges=true" : "";  // rows read in three parts (kEdges)
  switch (plan.variant) {
    case Variant::warp_per_row:
      return "softmax_backward_warp_per_row_kernel<" + t + ", pack=" + n(plan.pack) + edges + ", cols_per_thread=" +
             n(plan.cols_per_thread) + ", rows_per_access=" + n(plan.rows_per_access) + ">";
    case Variant::cluster_regs:
      return "softmax_backward_cluster_regs_kernel<" + t + ", pack=" + n(plan.pack) + edges + ", bytes_per_thread=" +
             n(plan.cols_per_thread * dtype_size(dtype)) + ", max_threads=" +
             n(plan.threads > kGradRegsThreads ? kGradRegsWideThreads : kGradRegsThreads) +
             ", min_blocks=" + n(plan.cluster_size == 1 && plan.threads <= kGradRegsThreads ? 2 : 1) + ">";
    case Variant::split:
      return "softmax_backward_split_kernel<" + t + ", pack=" + n(plan.pack) + edges + ", bytes_per_thread=" +
             n(plan.cols_per_thread * dtype_size(dtype)) + ">";
    case Variant::split_hybrid:
      if (plan.threads == kSplitHybridRegsThreads) {  // fp32's register slices
        return "softmax_backward_split_hybrid_regs_kernel<" + t + ", pack=" + n(plan.pack) +
               (plan.smem_bytes > 0 ? ", smem=true>" : ">");
      }
      [[fallthrough]];
    case Variant::block_hybrid:
      return "softmax_backward_block_hybrid_kernel<" + t + ", pack=" + n(plan.pack) + edges +
             ", threads=" + n(plan.threads) + (plan.variant == Variant::split_hybrid ? ", exchange=global>" : ">");
    case Variant::split_smem:
      return std::string("softmax_backward_split_smem") + (plan.stages > 1 ? "_pipelined" : "") + "_kernel<" + t +
             ", pack=" + n(plan.pack) + ">";
    default:
      return "softmax_backward_" + variant_name(plan.variant) + "_kernel<" + t + ", pack=" + n(plan.pack) + edges +
             ">";
  }
}

// Every plan made, by everything that changes it (PlanCache): forward and backward
// plans apart (their variant codes mean different kernels).
inline std::shared_ptr<const Plan> cached_plan(int64_t dtype, int64_t variant, const Problem& p,
                                               bool backward = false) {
  static PlanCache forward_cache;
  static PlanCache backward_cache;
  return (backward ? backward_cache : forward_cache).get(dtype, variant, p, [&] {
    Plan plan = with_dtype(dtype, [&](auto type) {
      using T = typename decltype(type)::type;
      return backward ? plan_backward_variant<T>(p, variant) : plan_variant<T>(p, variant);
    });
    plan.kernel_name = backward ? backward_kernel_name(dtype, plan) : kernel_name(dtype, plan, p.cols);
    return plan;
  });
}

// ---------------------------------------------------------------------------------
// Launch: the plan's kernel, grid and block, with the row arguments
// ---------------------------------------------------------------------------------

// The plan's grid, block, shared memory and cluster, with `args` (RowsArgs or GradArgs,
// the kernels' one parameter) completed by the row geometry every kernel reads. split
// and split_smem launch cooperatively: their CTAs wait for each other, so the driver
// must start them all at once (it refuses a grid that cannot be resident instead of
// hanging).
template <typename Args>
void launch_planned(const Plan& plan, const Problem& p, Args& args, cudaStream_t stream) {
  const void* kernel = args.log && plan.log_kernel != nullptr ? plan.log_kernel : plan.kernel;
  args.rows = p.rows;
  args.cols = p.cols;
  args.group_width = static_cast<int>(std::max<int64_t>(plan.group_width, 1));
  // Only the cluster and split kernels read it (their rows are at most 2^31 - 1 packs).
  const int64_t parts = std::max<int64_t>(plan.cluster_size, plan.split);
  args.slice_packs = static_cast<int>(std::min<int64_t>(ceil_div(p.cols / plan.pack, parts), INT32_MAX));
  void* params[] = {&args};
  launch_kernel(kernel, dim3(static_cast<unsigned>(plan.blocks), static_cast<unsigned>(plan.grid_y)),
                dim3(static_cast<unsigned>(plan.threads)), static_cast<size_t>(plan.smem_bytes),
                static_cast<int>(plan.cluster_size), params, stream,
                plan.variant == Variant::split || plan.variant == Variant::split_smem);
}

// workspace(bytes): device memory for the launch on `stream` (softmax_forward's caller
// allocates it, stream-ordered); only plans with workspace_bytes > 0 ask.
// The exchange slots of split and split_smem (RowsArgs and GradArgs alike): the plan's
// workspace, every word set to "not yet" (all ones) on `stream` before the launch.
template <typename Args>
void set_exchange(const Plan& plan, Args& args, cudaStream_t stream, const Workspace& workspace) {
  args.split = static_cast<int>(std::max<int64_t>(plan.split, 1));
  args.slots = nullptr;
  if (plan.workspace_bytes > 0) {
    args.slots = reinterpret_cast<unsigned long long*>(static_cast<uintptr_t>(workspace(plan.workspace_bytes)));
    SK_CUDA_CHECK(cudaMemsetAsync(args.slots, 0xFF, static_cast<size_t>(plan.workspace_bytes), stream));
  }
}

template <typename T>
void launch(const Plan& plan, const Problem& p, bool log, cudaStream_t stream, const Workspace& workspace) {
  RowsArgs<T> args;
  args.x = reinterpret_cast<const T*>(p.x);
  args.y = reinterpret_cast<T*>(p.y);
  args.x_stride = p.stride;
  args.log = log;
  set_exchange(plan, args, stream, workspace);
  launch_planned(plan, p, args, stream);
}

template <typename T>
void launch_backward(const Plan& plan, const Problem& p, bool log, cudaStream_t stream, const Workspace& workspace) {
  GradArgs<T> args;
  args.y = reinterpret_cast<const T*>(p.x);
  args.dy = reinterpret_cast<const T*>(p.g);
  args.dx = reinterpret_cast<T*>(p.y);
  args.y_stride = p.stride;
  args.dy_stride = p.g_stride;
  args.log = log;
  set_exchange(plan, args, stream, workspace);
  launch_planned(plan, p, args, stream);
}

inline void check_shape(int64_t rows, int64_t cols, int64_t stride) {
  if (rows < 0 || cols < 0 || stride < 0) {
    throw std::invalid_argument("softmax: negative rows, cols or row stride (" + std::to_string(rows) + ", " +
                                std::to_string(cols) + ", " + std::to_string(stride) + ")");
  }
}

}  // namespace softmax
}  // namespace sk

// ---------------------------------------------------------------------------------
// Entry points (declared in bindings.cpp). Pointers and the stream travel as int64_t
// so that the bindings need no CUDA or torch types in common.
// ---------------------------------------------------------------------------------

// The planner's limits that Python words its refusals with (kernels_cuda.softmax.constants).
std::map<std::string, int64_t> softmax_constants() {
  using namespace sk::softmax;
  return {
      {"NAIVE_MAX_COLS", kNaiveMaxCols},
      {"WARP_PER_ROW_MAX_COLS", kWarpRowMaxCols},
      {"WARP_PER_ROW_MAX_COLS_16BIT", kWarpRowMaxCols16},
      {"WARP_ROW_TWO_ROWS_MIN_SM_BANDWIDTH", kWarpRowTwoRowsMinSmBandwidth},
      {"WARP_ROW_ROWS16_WIDE", kWarpRowRows16Wide},
      {"WARP_ROW_ROWS16_NARROW", kWarpRowRows16Narrow},
      {"WARP_ROW_ROWS32", kWarpRowRows32},
      {"WARP_ROW_NARROW32_MAX_PACKS", kWarpRowNarrow32MaxPacks},
      {"GRAD_SMEM_16BIT_MAX_ROW_BYTES", kGradSmem16MaxRowBytes},
      {"CLUSTER_MIN_MAJOR", sk::kClusterMinMajor},
      {"MAX_CLUSTER_SIZE", sk::kMaxClusterSize},
      {"CLUSTER_REGS_MAX_THREADS", kRegsMaxThreads},
      {"CLUSTER_REGS_WIDE_THREADS", kRegsWideThreads},
      {"CLUSTER_REGS_MAX_BYTES", kRegsMaxBytes},
      {"CLUSTER_REGS_MIN_BLOCK_BYTES", kRegsMinBlockBytes},
      {"REGS_UNPACK_THREADS", kRegsUnpackThreads},
      {"REGS_UNPACK_MIN_THREADS", kRegsUnpackMinThreads},
      {"REGS_UNPACK_WHOLE_THREADS", kRegsUnpackWholeThreads},
      {"REGS_UNPACK_SM_THREADS", kRegsUnpackSmThreads},
      {"REGS_UNPACK_BYTES", kRegsUnpackBytes},
      {"REGS_UNPACK_MAX_SMEM_PACKS", kRegsUnpackMaxSmemPacks},
      {"REGS_UNPACK_SMEM_PACK_BYTES", kRegsUnpackSmemPackBytes},
      {"REGS_UNPACK_SMEM_BUSY_NUM", kRegsUnpackSmemBusyNum},
      {"REGS_UNPACK_SMEM_BUSY_DEN", kRegsUnpackSmemBusyDen},
      {"REGS_UNPACK_MIN_SM_BANDWIDTH", kRegsUnpackMinSmBandwidth},
      {"REGS_UNPACK_MIN_FILL", kRegsUnpackMinFill},
      {"REGS_UNPACK_MIN_FILL_OF", kRegsUnpackMinFillOf},
      {"REGS_UNPACK_PARTIAL_MIN_ROW_BYTES", kRegsUnpackPartialMinRowBytes},
      {"REGS_UNPACK_NARROW_MIN_FILL", kRegsUnpackNarrowMinFill},
      {"REGS_UNPACK_NARROW_MAX_ROW_BYTES", kRegsUnpackNarrowMaxRowBytes},
      {"UNPACK_YIELD_MIN_CTAS", kUnpackYieldMinCtas},
      {"HYBRID_THREADS", kHybridThreads},
      {"HYBRID_SMALL_THREADS", kHybridSmallThreads},
      {"HYBRID_PAIR_MIN_SM_BANDWIDTH", kHybridPairMinSmBandwidth},
      {"HYBRID_SMALL_SLICE_BYTES", kHybridSmallSliceBytes},
      {"GRAD_HYBRID_FIRST_BYTES", kGradHybridFirstBytes},
      {"GRAD_CLUSTER_MAX_SM_BANDWIDTH", kGradClusterMaxSmBandwidth},
      {"GRAD_CLUSTER_MIN_SM_THREADS", kGradClusterMinSmThreads},
      {"SPLIT_GRAD_BYTES", kSplitGradBytes},
      {"SPLIT_GRAD_MIN_ROW_BYTES", kSplitGradMinRowBytes},
      {"SPLIT_GRAD_MIN_GROUPS", kSplitGradMinGroups},
      {"SPLIT_GRAD_FAST_SM_MIN_ROW_BYTES", kSplitGradFastSmMinRowBytes},
      {"SPLIT_GRAD_FAST_SM_BANDWIDTH", kSplitGradFastSmBandwidth},
      {"SPLIT_EDGES_FAST_SM_MIN_ROW_BYTES", kSplitEdgesFastSmMinRowBytes},
      {"SPLIT_GRAD_THREADS", kSplitGradThreads},
      {"SPLIT_GRAD_WIDE_THREADS", kSplitWideThreads},
      {"SPLIT_GRAD_WIDE_GROUPS", kSplitGradWideGroups},
      {"SPLIT_HYBRID_MAX_SLICES", kSplitHybridMaxSlices},
      {"SPLIT_HYBRID_REGS_THREADS", kSplitHybridRegsThreads},
      {"SPLIT_HYBRID_REGS_BYTES", kSplitHybridRegsBytes},
      {"SPLIT_HYBRID_REGS_MIN_BLOCKS", kSplitHybridRegsMinBlocks},
      {"SPLIT_HYBRID_REGS_MIN_ROWS_RESIDENT", kSplitHybridRegsMinRowsResident},
      {"SPLIT_HYBRID_REGS_SMEM_BYTES", kSplitHybridRegsSmemBytes},
      {"SPLIT_HYBRID_CLUSTER_BUSY_PERCENT", kSplitHybridClusterBusyPercent},
      {"SPLIT_HYBRID_THIN_SLICE_BYTES", kSplitHybridThinSliceBytes},
      {"SPLIT_HYBRID_MIN_WAVES", kSplitHybridMinWaves},
      {"SPLIT_SMEM_MIN_ROW_BYTES", kSplitSmemMinRowBytes},
      {"SPLIT_SMEM_PART_BYTES", kSplitSmemPartBytes},
      {"SPLIT_SMEM_PIPELINED_MAX_ROW_BYTES", kSplitSmemPipelinedMaxRowBytes},
      {"FEW_ROWS_MIN_ROW_BYTES", kFewRowsMinRowBytes},
      {"FEW_ROWS_CTA_BYTES", kFewRowsCtaBytes},
  };
}

// The device properties the planners' rules read (common/device.cuh), by name: what a
// rule keyed to them chose can be restated from Python (tests, plan reasons).
std::map<std::string, int64_t> gpu_properties(int64_t device) {
  const sk::DeviceProperties d = sk::device_properties(static_cast<int>(device));
  return {
      {"major", d.major},
      {"minor", d.minor},
      {"sm_count", d.sm_count},
      {"max_threads_per_sm", d.max_threads_per_sm},
      {"smem_per_block_optin", d.smem_per_block_optin},
      {"smem_per_sm", d.smem_per_sm},
      {"dram_bytes_per_s", d.dram_bytes_per_s},
  };
}

// The launch softmax_forward would make for this input (variant: a Variant code, or
// kAuto): the plan's fields in plan_fields.def order, the kernel instance, and why that
// variant. The output is assumed 16-byte aligned, as a fresh allocation is.
std::tuple<std::vector<int64_t>, std::string, std::string> softmax_plan(int64_t x_ptr, int64_t rows, int64_t cols,
                                                                        int64_t x_row_stride, int64_t dtype,
                                                                        int64_t variant, int64_t device) {
  using namespace sk::softmax;
  check_shape(rows, cols, x_row_stride);
  sk::DeviceGuard guard(static_cast<int>(device));
  const Problem p{static_cast<uint64_t>(x_ptr), 0, rows, cols, x_row_stride, static_cast<int>(device)};
  const auto plan = cached_plan(dtype, variant, p);
  return {plan->fields(), plan->kernel_name, plan->reason};
}

// y[r, :] = softmax(x[r, :]) (log-softmax with `log`) for a (rows, cols) input with row
// stride x_row_stride (elements) and unit column stride, into a contiguous output, on
// `stream` of `device`: plans (cached; variant may be kAuto) and launches. A variant that
// cannot serve the input raises std::invalid_argument (ValueError in Python). The
// caller's `workspace` allocates what a plan needs beside x and y (split's exchange
// slots), stream-ordered on `stream`: bindings.cpp's softmax_forward passes torch's
// caching allocator, which is also what keeps a CUDA graph capture of the call valid.
void softmax_forward_launch(int64_t x_ptr, int64_t y_ptr, int64_t rows, int64_t cols, int64_t x_row_stride,
                            int64_t dtype, int64_t variant, bool log, int64_t device, int64_t stream,
                            const sk::softmax::Workspace& workspace) {
  using namespace sk::softmax;
  check_shape(rows, cols, x_row_stride);
  if (rows == 0 || cols == 0) return;
  sk::DeviceGuard guard(static_cast<int>(device));
  const Problem p{static_cast<uint64_t>(x_ptr), static_cast<uint64_t>(y_ptr), rows, cols, x_row_stride,
                  static_cast<int>(device)};
  const auto plan = cached_plan(dtype, variant, p);
  if (plan->status != PlanStatus::ok) {
    throw std::invalid_argument("softmax_forward: " + variant_name(plan->variant) + " cannot serve " +
                                std::to_string(rows) + " x " + std::to_string(cols) + " " + sk::dtype_name(dtype) +
                                " (plan status " + status_name(plan->status) + "); check why_unsupported first");
  }
  const cudaStream_t s = reinterpret_cast<cudaStream_t>(stream);
  sk::with_dtype(dtype, [&](auto type) { launch<typename decltype(type)::type>(*plan, p, log, s, workspace); });
}

// The launch softmax_backward would make (variant: a backward variant's code, or kAuto),
// as softmax_plan answers. dx is assumed 16-byte aligned, as a fresh allocation is.
std::tuple<std::vector<int64_t>, std::string, std::string> softmax_backward_plan(
    int64_t y_ptr, int64_t dy_ptr, int64_t rows, int64_t cols, int64_t y_row_stride, int64_t dy_row_stride,
    int64_t dtype, int64_t variant, int64_t device) {
  using namespace sk::softmax;
  check_shape(rows, cols, y_row_stride);
  check_shape(rows, cols, dy_row_stride);
  sk::DeviceGuard guard(static_cast<int>(device));
  const Problem p{static_cast<uint64_t>(y_ptr), 0, rows, cols, y_row_stride, static_cast<int>(device),
                  static_cast<uint64_t>(dy_ptr), dy_row_stride};
  const auto plan = cached_plan(dtype, variant, p, true);
  return {plan->fields(), plan->kernel_name, plan->reason};
}

// dx[r, :] from the forward output y and its gradient dy (each (rows, cols), unit
// column stride, its own row stride), into a contiguous dx, on `stream` of `device`:
// softmax dx = y * (dy - sum(dy * y)), log-softmax (`log`) dx = dy - exp(y) * sum(dy),
// sums per row in fp32. Plans (cached; variant may be kAuto) and launches; `workspace`
// as softmax_forward_launch's (split_smem's exchange slots).
void softmax_backward_launch(int64_t y_ptr, int64_t dy_ptr, int64_t dx_ptr, int64_t rows, int64_t cols,
                             int64_t y_row_stride, int64_t dy_row_stride, int64_t dtype, int64_t variant,
                             bool log, int64_t device, int64_t stream, const sk::softmax::Workspace& workspace) {
  using namespace sk::softmax;
  check_shape(rows, cols, y_row_stride);
  check_shape(rows, cols, dy_row_stride);
  if (rows == 0 || cols == 0) return;
  sk::DeviceGuard guard(static_cast<int>(device));
  const Problem p{static_cast<uint64_t>(y_ptr), static_cast<uint64_t>(dx_ptr), rows, cols, y_row_stride,
                  static_cast<int>(device), static_cast<uint64_t>(dy_ptr), dy_row_stride};
  const auto plan = cached_plan(dtype, variant, p, true);
  if (plan->status != PlanStatus::ok) {
    throw std::invalid_argument("softmax_backward: " + variant_name(plan->variant) + " cannot serve " +
                                std::to_string(rows) + " x " + std::to_string(cols) + " " + sk::dtype_name(dtype) +
                                " (plan status " + status_name(plan->status) + "); check why_unsupported first");
  }
  const cudaStream_t s = reinterpret_cast<cudaStream_t>(stream);
  sk::with_dtype(dtype, [&](auto type) { launch_backward<typename decltype(type)::type>(*plan, p, log, s, workspace); });
}
