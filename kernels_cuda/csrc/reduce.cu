// Row and whole-tensor sum / max: four ways for threads to combine their partial
// results, side by side (see kernels_cuda/reduce.py for the variants and the plan).
//
//   warp_xor    scalar loads, __shfl_xor_sync butterfly (every lane gets the result)
//   warp_down   scalar loads, __shfl_down_sync tree (lane 0 gets the result)
//   smem_tree   scalar loads, a shared-memory tree: no shuffles at all
//   vectorized  pack loads (16 bytes, or narrower when alignment forbids) + warp_xor
//
// Every variant reads the input exactly once and accumulates in fp32; max propagates
// NaN (sk::MaxOp). Layouts, chosen by the Python plan (WARP_ROW_MAX_COLS there):
//   rows, narrow   a group of 1-32 lanes per row (a warp from 32 packs up)
//   rows, wide     a block per row
//   whole tensor   stage 1: a fixed grid of blocks, each writes one fp32 partial;
//                  stage 2: one block reduces the partials in a fixed order.
// All grids are persistent (grid-stride loops). No floating-point atomics anywhere:
// for a given input, device and plan, every run gives the same bits.
//
// Host launchers take plain integers (pointers as int64_t, the stream as int64_t) so
// that this file builds without torch headers; the Python side allocates the output
// and the partials with torch's caching allocator and passes their addresses.
#include "common.cuh"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace sk_reduce {

using sk::Cache;
using sk::Pack;

constexpr int kMaxThreads = 1024;
// Packs each thread loads before it adds any of them: four loads in flight per thread
// (64 bytes with 16-byte packs) to cover DRAM latency; also four independent fp32
// accumulators, which shortens the dependent-add chains of sums.
constexpr int kUnroll = 4;

// How a group of threads combines its per-thread values.
enum class Method { kXor, kDown, kTree };

// Codes shared with kernels_cuda/reduce.py.
enum Variant : int64_t { kWarpXor = 0, kWarpDown = 1, kSmemTree = 2, kVectorized = 3 };
enum OpCode : int64_t { kSum = 0, kMax = 1 };
enum Layout : int64_t { kWarpPerRow = 0, kBlockPerRow = 1 };

// One thread's share of `n_packs` packs at `p`: packs first, first + step, ... (so
// consecutive threads read consecutive packs: coalesced). The input is read once, so
// loads are evict-first (ld.global.cs) and do not push reusable lines out of L2.
template <typename T, int N, typename Op>
__device__ __forceinline__ float thread_reduce(const T* __restrict__ p, int64_t n_packs,
                                               int64_t first, int64_t step, Op op) {
  float acc[kUnroll];
#pragma unroll
  for (int u = 0; u < kUnroll; ++u) acc[u] = Op::identity();
  for (int64_t i = first; i < n_packs; i += step * kUnroll) {
    Pack<T, N> v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      if (i + u * step < n_packs) v[u] = sk::load_pack<Cache::kStreaming, T, N>(p + (i + u * step) * N);
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      if (i + u * step < n_packs) {
#pragma unroll
        for (int k = 0; k < N; ++k) acc[u] = op(acc[u], sk::to_float(v[u].v[k]));
      }
    }
  }
  float r = acc[0];
#pragma unroll
  for (int u = 1; u < kUnroll; ++u) r = op(r, acc[u]);
  return r;
}

// Shared scratch for the smem_tree method: one float per thread of the largest block.
// Only instantiated (and only allocated) by kernels that use Method::kTree.
__device__ __forceinline__ float* tree_scratch() {
  __shared__ float scratch[kMaxThreads];
  return scratch;
}

// The value of each group of `width` lanes (a power of two <= 32); valid in the group's
// first lane (kXor: in all of its lanes). Every lane of the warp must call it.
template <Method M, typename Op>
__device__ __forceinline__ float group_combine(float v, Op op, int width) {
  if constexpr (M == Method::kXor) {
    return sk::warp_allreduce(v, op, width);
  } else if constexpr (M == Method::kDown) {
    return sk::warp_reduce_down(v, op, width);
  } else {
    return sk::warp_reduce_tree(v, op, tree_scratch() + (threadIdx.x & ~31u), width);
  }
}

// A block's value; valid in thread 0. Each form ends with a barrier, so it can be
// called again (next row) right away.
template <Method M, typename Op>
__device__ __forceinline__ float block_combine(float v, Op op) {
  if constexpr (M == Method::kXor) {
    return sk::block_allreduce(v, op);
  } else if constexpr (M == Method::kDown) {
    return sk::block_reduce_down(v, op);
  } else {
    return sk::block_allreduce_tree(v, op, tree_scratch());
  }
}

// Narrow rows: a group of `group` lanes per row (a power of two <= 32, as many lanes
// as the row has packs): a warp per row from 32 packs up, several rows per warp below
// (OneFlow's thread-group path). Grid: persistent; the block's groups take rows
// base, base + 1, ... and step by all the grid's groups. Whole blocks loop together
// (the shuffles need every lane), so a group past the last row only idles.
// Reads cols per row, writes one value.
template <typename T, typename Op, Method M, int N>
__global__ void __launch_bounds__(kMaxThreads)
reduce_rows_warp_kernel(const T* __restrict__ x, T* __restrict__ out, int64_t rows, int64_t cols,
                        int64_t row_stride, int group) {
  const int member = threadIdx.x & (group - 1);
  const int64_t groups_per_block = blockDim.x / group;
  const int64_t n_packs = cols / N;
  for (int64_t base = blockIdx.x * groups_per_block; base < rows; base += gridDim.x * groups_per_block) {
    const int64_t row = base + threadIdx.x / group;
    float v = Op::identity();
    if (row < rows) v = thread_reduce<T, N>(x + row * row_stride, n_packs, member, group, Op());
    v = group_combine<M>(v, Op(), group);
    if (member == 0 && row < rows) out[row] = sk::from_float<T>(v);
  }
}

// Wide rows: a block per row. Grid: persistent; block b takes rows b, b + gridDim.x, ...
template <typename T, typename Op, Method M, int N>
__global__ void __launch_bounds__(kMaxThreads)
reduce_rows_block_kernel(const T* __restrict__ x, T* __restrict__ out, int64_t rows, int64_t cols,
                         int64_t row_stride) {
  const int64_t n_packs = cols / N;
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    float v = thread_reduce<T, N>(x + row * row_stride, n_packs, threadIdx.x, blockDim.x, Op());
    v = block_combine<M>(v, Op());
    if (threadIdx.x == 0) out[row] = sk::from_float<T>(v);
  }
}

// Whole tensor, stage 1. Grid: fixed by the plan; the threads of all blocks stride
// over the packs together, each block writes one fp32 partial. The n % N elements
// after the last whole pack belong to block 0 (a fixed owner: deterministic).
template <typename T, typename Op, Method M, int N>
__global__ void __launch_bounds__(kMaxThreads)
reduce_partials_kernel(const T* __restrict__ x, float* __restrict__ partials, int64_t n) {
  const int64_t n_packs = n / N;
  float v = thread_reduce<T, N>(x, n_packs, sk::global_thread_index(), sk::global_thread_count(), Op());
  const int64_t tail = n - n_packs * N;
  if (blockIdx.x == 0 && threadIdx.x < tail) v = Op()(v, sk::to_float(x[n_packs * N + threadIdx.x]));
  v = block_combine<M>(v, Op());
  if (threadIdx.x == 0) partials[blockIdx.x] = v;
}

// Whole tensor, stage 2: one block; thread t folds partials t, t + blockDim.x, ... in
// that order, then the block combines them: the same order on every run.
template <typename T, typename Op, Method M>
__global__ void __launch_bounds__(kMaxThreads)
reduce_finish_kernel(const float* __restrict__ partials, T* __restrict__ out, int64_t n_partials) {
  float v = Op::identity();
  for (int64_t i = threadIdx.x; i < n_partials; i += blockDim.x) v = Op()(v, partials[i]);
  v = block_combine<M>(v, Op());
  if (threadIdx.x == 0) *out = sk::from_float<T>(v);
}

// ---------------------------------------------------------------------------------
// Host side: checks, then dispatch from run-time codes to template instances.
// ---------------------------------------------------------------------------------

template <typename T> struct TypeTag { using type = T; };
template <Method M> using MethodTag = std::integral_constant<Method, M>;
template <int N> using PackTag = std::integral_constant<int, N>;

[[noreturn]] inline void fail(const std::string& what) { throw std::runtime_error("reduce: " + what); }

template <typename F>
void with_dtype(int64_t dtype, F&& f) {
  switch (dtype) {
    case sk::kFloat32: return f(TypeTag<float>{});
    case sk::kFloat16: return f(TypeTag<__half>{});
    case sk::kBFloat16: return f(TypeTag<__nv_bfloat16>{});
    default: fail("unknown dtype code " + std::to_string(dtype));
  }
}

template <typename F>
void with_op(int64_t op, F&& f) {
  switch (op) {
    case kSum: return f(sk::SumOp{});
    case kMax: return f(sk::MaxOp{});
    default: fail("unknown op code " + std::to_string(op));
  }
}

// (method, pack) of a variant. Only `vectorized` has packs wider than one element;
// with a one-element pack it is warp_xor and shares its instance.
template <typename T, typename F>
void with_method_and_pack(int64_t variant, int64_t pack, F&& f) {
  if (variant != kVectorized && pack != 1) fail("only the vectorized variant loads packs wider than 1");
  switch (variant) {
    case kWarpXor: return f(MethodTag<Method::kXor>{}, PackTag<1>{});
    case kWarpDown: return f(MethodTag<Method::kDown>{}, PackTag<1>{});
    case kSmemTree: return f(MethodTag<Method::kTree>{}, PackTag<1>{});
    case kVectorized:
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
    case kWarpXor:
    case kVectorized: return f(MethodTag<Method::kXor>{});
    case kWarpDown: return f(MethodTag<Method::kDown>{});
    case kSmemTree: return f(MethodTag<Method::kTree>{});
    default: fail("unknown variant code " + std::to_string(variant));
  }
}

void check_block(int64_t threads, int64_t variant, const char* which) {
  // The block reductions need whole warps; the shared-memory tree halves the block.
  const bool whole_warps = threads >= 32 && threads <= kMaxThreads && threads % 32 == 0;
  const bool pow2 = (threads & (threads - 1)) == 0;
  if (!whole_warps || (variant == kSmemTree && !pow2)) {
    fail(std::string(which) + " must be a multiple of 32 in [32, 1024] (a power of two for smem_tree), got " +
         std::to_string(threads));
  }
}

void check_grid(int64_t grid) {
  if (grid < 1 || grid > 0x7fffffff) fail("grid must be in [1, 2^31 - 1], got " + std::to_string(grid));
}

}  // namespace sk_reduce

// Reduces each of `rows` rows of `cols` elements (row r at x + r * row_stride elements)
// into out[r]. layout 0: `group` lanes per row (1 to 32), 1: a block per row (group
// unused); `pack` elements per load.
void reduce_rows(int64_t x, int64_t out, int64_t rows, int64_t cols, int64_t row_stride,
                 int64_t dtype, int64_t op, int64_t variant, int64_t layout, int64_t group,
                 int64_t pack, int64_t threads, int64_t grid, int64_t device, int64_t stream) {
  using namespace sk_reduce;
  if (rows < 1 || cols < 1) fail("rows and cols must be positive");
  if (layout != kWarpPerRow && layout != kBlockPerRow) fail("unknown layout code " + std::to_string(layout));
  if (layout == kWarpPerRow && (group < 1 || group > 32 || (group & (group - 1)) != 0)) {
    fail("group must be a power of two in [1, 32], got " + std::to_string(group));
  }
  check_block(threads, variant, "threads");
  check_grid(grid);
  const int size = sk::dtype_size(dtype);
  if (pack < 1 || pack > sk::max_pack_elems(size, {static_cast<uint64_t>(x)}, {row_stride}, rows, cols)) {
    fail("pack of " + std::to_string(pack) + " elements does not fit the alignment of the pointer, "
         "row stride or width");
  }
  sk::DeviceGuard guard(static_cast<int>(device));
  const auto s = reinterpret_cast<cudaStream_t>(stream);
  with_dtype(dtype, [&](auto type) {
    using T = typename decltype(type)::type;
    with_op(op, [&](auto op_value) {
      using Op = decltype(op_value);
      with_method_and_pack<T>(variant, pack, [&](auto method, auto n) {
        const auto* in = reinterpret_cast<const T*>(x);
        auto* result = reinterpret_cast<T*>(out);
        if (layout == kWarpPerRow) {
          reduce_rows_warp_kernel<T, Op, decltype(method)::value, decltype(n)::value>
              <<<static_cast<unsigned>(grid), static_cast<unsigned>(threads), 0, s>>>(in, result, rows, cols,
                                                                                      row_stride, static_cast<int>(group));
        } else {
          reduce_rows_block_kernel<T, Op, decltype(method)::value, decltype(n)::value>
              <<<static_cast<unsigned>(grid), static_cast<unsigned>(threads), 0, s>>>(in, result, rows, cols,
                                                                                      row_stride);
        }
      });
    });
  });
  SK_CUDA_CHECK(cudaGetLastError());
}

// Reduces the n contiguous elements at x into *out: `grid` blocks of `threads` write
// partials[0, grid) (fp32, caller-allocated), then one block of `finish_threads`
// reduces them in a fixed order.
void reduce_whole(int64_t x, int64_t partials, int64_t out, int64_t n, int64_t dtype, int64_t op,
                  int64_t variant, int64_t pack, int64_t threads, int64_t grid, int64_t finish_threads,
                  int64_t device, int64_t stream) {
  using namespace sk_reduce;
  if (n < 1) fail("n must be positive");
  check_block(threads, variant, "threads");
  check_block(finish_threads, variant, "finish_threads");
  check_grid(grid);
  const int size = sk::dtype_size(dtype);
  if (pack < 1 || pack > sk::max_pack_elems(size, {static_cast<uint64_t>(x)}, {}, 1, pack)) {
    fail("pack of " + std::to_string(pack) + " elements does not fit the alignment of the pointer");
  }
  sk::DeviceGuard guard(static_cast<int>(device));
  const auto s = reinterpret_cast<cudaStream_t>(stream);
  auto* part = reinterpret_cast<float*>(partials);
  with_dtype(dtype, [&](auto type) {
    using T = typename decltype(type)::type;
    with_op(op, [&](auto op_value) {
      using Op = decltype(op_value);
      with_method_and_pack<T>(variant, pack, [&](auto method, auto n_pack) {
        reduce_partials_kernel<T, Op, decltype(method)::value, decltype(n_pack)::value>
            <<<static_cast<unsigned>(grid), static_cast<unsigned>(threads), 0, s>>>(
                reinterpret_cast<const T*>(x), part, n);
      });
      SK_CUDA_CHECK(cudaGetLastError());
      with_method(variant, [&](auto method) {
        reduce_finish_kernel<T, Op, decltype(method)::value>
            <<<1, static_cast<unsigned>(finish_threads), 0, s>>>(part, reinterpret_cast<T*>(out), grid);
      });
    });
  });
  SK_CUDA_CHECK(cudaGetLastError());
}
