// Row and whole-tensor sum / max: four ways for threads to combine their partial
// results, side by side. This file binds and dispatches; the paths live in reduce/:
//
//   form          file               kernels                                          plan
//   rows          reduce/rows.cuh    reduce_rows_warp_kernel, reduce_rows_block_kernel  plan_rows
//   whole tensor  reduce/whole.cuh   reduce_partials_kernel, reduce_finish_kernel        plan_whole
//   (both)        reduce/combine.cuh thread_reduce and the group / block combines of each variant
//
//   warp_xor    scalar loads, __shfl_xor_sync butterfly (every lane gets the result)
//   warp_down   scalar loads, __shfl_down_sync tree (lane 0 gets the result)
//   smem_tree   scalar loads, a shared-memory tree: no shuffles at all
//   vectorized  pack loads (16 bytes, or narrower when alignment forbids) + warp_xor
//   auto        vectorized
//
// Every variant reads the input exactly once and accumulates in fp32; max propagates
// NaN (sk::MaxOp). All grids are persistent (grid-stride loops). No floating-point
// atomics anywhere: for a given input, device and plan, every run gives the same bits.
//
// Host launchers take plain integers (pointers as int64_t, the stream as int64_t) so
// that this file builds without torch headers; they plan for themselves, and the Python
// side allocates the output and the partials with torch's caching allocator.
#include <cuda_runtime.h>

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "common/check.cuh"
#include "common/device.cuh"
#include "common/dtypes.cuh"
#include "common/math.cuh"
#include "common/packs.cuh"
#include "reduce/combine.cuh"
#include "reduce/plan.cuh"
#include "reduce/rows.cuh"
#include "reduce/whole.cuh"

namespace sk_reduce {

// ---------------------------------------------------------------------------------
// Dispatch: run-time codes to template instances
// ---------------------------------------------------------------------------------

template <Method M> using MethodTag = std::integral_constant<Method, M>;
template <int N> using PackTag = std::integral_constant<int, N>;

[[noreturn]] inline void fail(const std::string& what) { throw std::invalid_argument("reduce: " + what); }

template <typename F>
void with_op(int64_t op, F&& f) {
  switch (op) {
    case ReduceOp::reduce_sum: return f(sk::SumOp{});
    case ReduceOp::reduce_max: return f(sk::MaxOp{});
    default: fail("unknown op code " + std::to_string(op));
  }
}

// (method, pack) of a variant. Only `vectorized` has packs wider than one element;
// with a one-element pack it is warp_xor and shares its instance.
template <typename T, typename F>
void with_method_and_pack(int64_t variant, int64_t pack, F&& f) {
  if (variant != Variant::vectorized && pack != 1) fail("only the vectorized variant loads packs wider than 1");
  switch (variant) {
    case Variant::warp_xor: return f(MethodTag<Method::kXor>{}, PackTag<1>{});
    case Variant::warp_down: return f(MethodTag<Method::kDown>{}, PackTag<1>{});
    case Variant::smem_tree: return f(MethodTag<Method::kTree>{}, PackTag<1>{});
    case Variant::vectorized:
      switch (pack) {
        case 1: return f(MethodTag<Method::kXor>{}, PackTag<1>{});
        case 2: return f(MethodTag<Method::kXor>{}, PackTag<2>{});
        case 4: return f(MethodTag<Method::kXor>{}, PackTag<4>{});
        case 8:
          if constexpr (sizeof(T) <= 2) return f(MethodTag<Method::kXor>{}, PackTag<8>{});
          [[fallthrough]];
        default: fail("pack of " + std::to_string(pack) + " elements exceeds 16 bytes or is not a power of two");
      }
    default: fail("unknown variant code " + std::to_string(variant));
  }
}

// Variant-independent method for stage 2 (vectorized combines like warp_xor).
template <typename F>
void with_method(int64_t variant, F&& f) {
  switch (variant) {
    case Variant::warp_xor:
    case Variant::vectorized: return f(MethodTag<Method::kXor>{});
    case Variant::warp_down: return f(MethodTag<Method::kDown>{});
    case Variant::smem_tree: return f(MethodTag<Method::kTree>{});
    default: fail("unknown variant code " + std::to_string(variant));
  }
}

// The plan of either form on `device` (variant: a Variant code, or kAuto).
inline Plan make_plan(const Problem& p, int64_t variant, int device) {
  if (!is_variant(variant)) fail("unknown variant code " + std::to_string(variant));
  const int sm_count = sk::device_properties(device).sm_count;
  return p.whole ? plan_whole(p, variant, sm_count) : plan_rows(p, variant, sm_count);
}

}  // namespace sk_reduce

// ---------------------------------------------------------------------------------
// Entry points (declared in bindings.cpp)
// ---------------------------------------------------------------------------------

// The launch limits, and the largest whole-tensor grid on `device` (WHOLE_MAX_GRID: the
// fp32 partials reduce_whole needs at most).
std::map<std::string, int64_t> reduce_constants(int64_t device) {
  using namespace sk_reduce;
  return {
      {"WARP_ROW_MAX_COLS", kWarpRowMaxCols},
      {"WARP_ROW_MAX_PACKS", kWarpRowMaxPacks},
      {"LANE_PACKS", kUnroll},
      {"WARP_ROW_THREADS", kWarpRowThreads},
      {"BLOCK_ROW_MIN_THREADS", kBlockRowMinThreads},
      {"MAX_THREADS", kMaxThreads},
      {"MAX_THREADS_PER_SM", kMaxThreadsPerSm},
      {"WHOLE_THREADS", kWholeThreads},
      {"WHOLE_MAX_GRID", whole_max_grid(sk::device_properties(static_cast<int>(device)).sm_count)},
  };
}

// The plan reduce_rows (whole = false: `rows` rows of `cols` elements, `row_stride`
// apart) or reduce_whole (whole = true: rows = 1, cols = the element count) would run,
// in plan_fields.def order.
std::vector<int64_t> reduce_plan(int64_t x, int64_t rows, int64_t cols, int64_t row_stride, bool whole,
                                 int64_t dtype, int64_t variant, int64_t device) {
  using namespace sk_reduce;
  const Problem p{static_cast<uint64_t>(x), rows, cols, row_stride, whole, sk::dtype_size(dtype)};
  return make_plan(p, variant, static_cast<int>(device)).fields();
}

// Reduces each of `rows` rows of `cols` elements (row r at x + r * row_stride elements)
// into out[r], as plan_rows lays it out.
void reduce_rows(int64_t x, int64_t out, int64_t rows, int64_t cols, int64_t row_stride, int64_t dtype,
                 int64_t op, int64_t variant, int64_t device, int64_t stream) {
  using namespace sk_reduce;
  if (rows < 1 || cols < 1) fail("rows and cols must be positive");
  const Problem problem{static_cast<uint64_t>(x), rows, cols, row_stride, false, sk::dtype_size(dtype)};
  sk::DeviceGuard guard(static_cast<int>(device));
  const Plan plan = make_plan(problem, variant, static_cast<int>(device));
  const auto s = reinterpret_cast<cudaStream_t>(stream);
  const auto grid = static_cast<unsigned>(plan.grid);
  const auto threads = static_cast<unsigned>(plan.threads);
  sk::with_dtype(dtype, [&](auto type) {
    using T = typename decltype(type)::type;
    with_op(op, [&](auto op_value) {
      using Op = decltype(op_value);
      with_method_and_pack<T>(plan.variant, plan.pack, [&](auto method, auto n) {
        const auto* in = reinterpret_cast<const T*>(x);
        auto* result = reinterpret_cast<T*>(out);
        if (plan.layout == Layout::warp_per_row) {
          reduce_rows_warp_kernel<T, Op, decltype(method)::value, decltype(n)::value>
              <<<grid, threads, 0, s>>>(in, result, rows, cols, row_stride, static_cast<int>(plan.group));
        } else {
          reduce_rows_block_kernel<T, Op, decltype(method)::value, decltype(n)::value>
              <<<grid, threads, 0, s>>>(in, result, rows, cols, row_stride);
        }
      });
    });
  });
  SK_CUDA_CHECK(cudaGetLastError());
}

// Reduces the n contiguous elements at x into *out, as plan_whole lays it out: `grid`
// blocks write partials[0, grid) (fp32, caller-allocated, `partials_size` of them:
// reduce_constants' WHOLE_MAX_GRID suffices), then one block reduces them in a fixed
// order.
void reduce_whole(int64_t x, int64_t partials, int64_t partials_size, int64_t out, int64_t n, int64_t dtype,
                  int64_t op, int64_t variant, int64_t device, int64_t stream) {
  using namespace sk_reduce;
  if (n < 1) fail("n must be positive");
  const Problem problem{static_cast<uint64_t>(x), 1, n, n, true, sk::dtype_size(dtype)};
  sk::DeviceGuard guard(static_cast<int>(device));
  const Plan plan = make_plan(problem, variant, static_cast<int>(device));
  if (plan.grid > partials_size) {
    fail("the plan writes " + std::to_string(plan.grid) + " partials, the buffer holds " +
         std::to_string(partials_size));
  }
  const auto s = reinterpret_cast<cudaStream_t>(stream);
  auto* part = reinterpret_cast<float*>(partials);
  sk::with_dtype(dtype, [&](auto type) {
    using T = typename decltype(type)::type;
    with_op(op, [&](auto op_value) {
      using Op = decltype(op_value);
      with_method_and_pack<T>(plan.variant, plan.pack, [&](auto method, auto n_pack) {
        reduce_partials_kernel<T, Op, decltype(method)::value, decltype(n_pack)::value>
            <<<static_cast<unsigned>(plan.grid), static_cast<unsigned>(plan.threads), 0, s>>>(
                reinterpret_cast<const T*>(x), part, n);
      });
      SK_CUDA_CHECK(cudaGetLastError());
      with_method(plan.variant, [&](auto method) {
        reduce_finish_kernel<T, Op, decltype(method)::value>
            <<<1, static_cast<unsigned>(plan.finish_threads), 0, s>>>(part, reinterpret_cast<T*>(out), plan.grid);
      });
    });
  });
  SK_CUDA_CHECK(cudaGetLastError());
}
