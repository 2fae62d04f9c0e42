// Why do clusters of small CTAs lose in this package and not in QuACK? (session 61)
//
// QuACK's softmax forward for wide 16-bit rows (quack/softmax.py, 0.6.x) splits a row
// over a cluster of 4 (bf16 65536) or 8 (131072) CTAs of 256 threads, each thread
// holding 64 values as fp32 in registers: it stages its packs through shared memory with
// cp.async, computes each value's exp ONCE (kept in registers for the output), merges
// (max, sum) pairs across the cluster through distributed shared memory, and stores
// exp * (1 / sum). It measured 99.2 / 98.7% of copy on the H200 (benchmarks/
// h200_2026-11-27g/record/), while this package's kernels in that shape (cluster_regs
// over 4 CTAs of 256 threads, benchmarks/tuning/cluster_width_experiment.sh; block_hybrid
// in such CTAs, quad_experiment_q256s32.patch) measured 65-83, and `auto` (one or two
// block_hybrid CTAs of 512 threads per row) 94.6 / 93.6.
//
// This standalone program times one kernel in that shape with each difference as a
// switch, so that one run says which of them matters:
//   kStage   packs staged through shared memory by cp.async (QuACK) / loaded to registers
//   kOneExp  exps kept in registers for the output (QuACK) / recomputed from x (this
//            package: 16-bit rows stay packed, every exp computed twice)
//   kFma     exp2 argument as one FFMA x*log2e - m*log2e (QuACK; overflows for rows whose
//            max exceeds FLT_MAX / log2e) / (x - m) * log2e (this package, online.cuh)
// and the geometry (threads, values per thread, CTAs per row) as template arguments.
// The cluster exchange is this package's (common/cluster.cuh: st.async into every peer's
// slots, each CTA waiting on its own mbarrier), as is the block merge (slice_merge_pairs).
//
// Build and run on a GPU (sm_90), from the repository root:
//   nvcc -std=c++17 -O3 -arch=sm_90a -Ikernels_cuda/csrc -o /tmp/qse \
//        benchmarks/tuning/quack_shape_experiment.cu && /tmp/qse
// Output: one line per (dtype, width, shape): registers, resident CTAs per SM, resident
// clusters, median ms over 20 timed calls on 1 GiB inputs, % of a device-to-device copy
// of the same bytes timed in the same run, and the largest relative error of 4 checked
// rows against a float64 softmax on the host.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "common/block_reduce.cuh"
#include "common/cluster.cuh"
#include "common/device.cuh"
#include "common/math.cuh"
#include "common/online.cuh"
#include "softmax/cluster_regs.cuh"

#define CHECK(call)                                                                        \
  do {                                                                                     \
    cudaError_t e_ = (call);                                                               \
    if (e_ != cudaSuccess) {                                                               \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

namespace {

using sk::OnlinePair;

template <bool kFma>
__device__ __forceinline__ float exp_of(float x, float m) {
  if constexpr (kFma) return sk::fast_exp2(fmaf(x, sk::kLog2e, -m * sk::kLog2e));
  return sk::exp_term(x, m);
}

// One CTA per slice of cols / K values (threads x kVpt exactly), K CTAs per row in a
// cluster (K = 1: no cluster launch), one row per cluster.
template <typename T, int kThreads, int kVpt, bool kStage, bool kOneExp, bool kFma, bool kPlain = false>
__global__ void __launch_bounds__(kThreads) quack_shape_kernel(const T* __restrict__ x, T* __restrict__ y,
                                                               int64_t rows, int64_t cols) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
  constexpr int kPack = 16 / sizeof(T);
  constexpr int kPacks = kVpt / kPack;
  extern __shared__ __align__(16) unsigned char stage[];
  __shared__ OnlinePair warp_pairs[kThreads / 32];
  __shared__ sk::ClusterSlots<OnlinePair> exchange;
  const int k = sk::cluster_ctas();
  const int rank = sk::cluster_rank();
  const int64_t row = blockIdx.x / k;
  if (k > 1) sk::cluster_slots_init(&exchange, 1);
  const int t = threadIdx.x;
  const int64_t first = row * cols + static_cast<int64_t>(rank) * kThreads * kVpt;
  const uint4* src = reinterpret_cast<const uint4*>(x + first);
  uint4 raw[kPacks];
  if constexpr (kStage) {
    uint4* s = reinterpret_cast<uint4*>(stage);
#pragma unroll
    for (int p = 0; p < kPacks; ++p) {
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sk::smem_addr(s + t + p * kThreads)),
                   "l"(src + t + p * kThreads)
                   : "memory");
    }
    asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;\n" ::: "memory");
#pragma unroll
    for (int p = 0; p < kPacks; ++p) raw[p] = s[t + p * kThreads];
  } else if constexpr (kPlain) {  // ld.global, as this package's load_pack emits (not .nc)
#pragma unroll
    for (int p = 0; p < kPacks; ++p) {
      uint4& r = raw[p];
      asm volatile("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];\n"
                   : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
                   : "l"(src + t + p * kThreads));
    }
  } else {
#pragma unroll
    for (int p = 0; p < kPacks; ++p) raw[p] = src[t + p * kThreads];
  }
  float v[kVpt];
#pragma unroll
  for (int p = 0; p < kPacks; ++p) {
    const T* e = reinterpret_cast<const T*>(&raw[p]);
#pragma unroll
    for (int i = 0; i < kPack; ++i) v[p * kPack + i] = sk::to_float(e[i]);
  }
  float m = v[0];
#pragma unroll
  for (int i = 1; i < kVpt; ++i) m = sk::nan_max(m, v[i]);
  float d = 0.0f;
#pragma unroll
  for (int i = 0; i < kVpt; ++i) {
    const float e = exp_of<kFma>(v[i], m);
    d += e;
    if constexpr (kOneExp) v[i] = e;
  }
  OnlinePair acc = sk::slice_merge_pairs({m, d}, warp_pairs, 0, kThreads);
  if (k > 1) {
    sk::cluster_wait();
    acc = sk::cluster_merge_pairs(exchange, acc, 0, k, rank);
  }
  const float inv = 1.0f / acc.d;
  const float scale = kOneExp ? exp_of<kFma>(m, acc.m) * inv : inv;
  uint4* dst = reinterpret_cast<uint4*>(y + first);
#pragma unroll
  for (int p = 0; p < kPacks; ++p) {
    uint4 out;
    T* o = reinterpret_cast<T*>(&out);
#pragma unroll
    for (int i = 0; i < kPack; ++i) {
      const float e = kOneExp ? v[p * kPack + i] : exp_of<kFma>(v[p * kPack + i], acc.m);
      o[i] = sk::from_float<T>(e * scale);
    }
    dst[t + p * kThreads] = out;
  }
#endif
}

template <typename T>
__global__ void fill_kernel(T* x, int64_t n, uint32_t seed) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n; i += int64_t{gridDim.x} * blockDim.x) {
    uint32_t h = static_cast<uint32_t>(i) * 2654435761u ^ seed ^ static_cast<uint32_t>(i >> 32) * 40503u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    x[i] = sk::from_float<T>((h & 0xffffff) * (16.0f / 16777216.0f) - 8.0f);  // uniform [-8, 8)
  }
}

float host_f(float v) { return v; }
float host_f(__nv_bfloat16 v) { return __bfloat162float(v); }

template <typename F>
float median_ms(F&& launch, cudaEvent_t a, cudaEvent_t b) {
  for (int i = 0; i < 3; ++i) launch();
  std::vector<float> ms;
  for (int i = 0; i < 20; ++i) {
    CHECK(cudaEventRecord(a));
    launch();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float t;
    CHECK(cudaEventElapsedTime(&t, a, b));
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

struct Buffers {
  void* x;
  void* y;
  size_t bytes;
};

// The largest relative error of 4 rows of y against a float64 softmax of x.
template <typename T>
double worst_rel_err(const T* x, const T* y, int64_t rows, int64_t cols) {
  double worst = 0.0;
  std::vector<T> hx(cols), hy(cols);
  for (int64_t r : {int64_t{0}, int64_t{1}, rows / 2, rows - 1}) {
    CHECK(cudaMemcpy(hx.data(), x + r * cols, cols * sizeof(T), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hy.data(), y + r * cols, cols * sizeof(T), cudaMemcpyDeviceToHost));
    double mx = -INFINITY, sum = 0.0;
    for (int64_t i = 0; i < cols; ++i) mx = std::max(mx, static_cast<double>(host_f(hx[i])));
    for (int64_t i = 0; i < cols; ++i) sum += std::exp(host_f(hx[i]) - mx);
    for (int64_t i = 0; i < cols; ++i) {
      const double want = std::exp(host_f(hx[i]) - mx) / sum;
      const double got = host_f(hy[i]);
      const double err = std::fabs(got - want) / std::max(want, 1e-30);
      worst = std::isnan(got) ? INFINITY : std::max(worst, err);
    }
  }
  return worst;
}

template <typename T, int kThreads, int kVpt, bool kStage, bool kOneExp, bool kFma, bool kPlain = false>
void run(const char* dtype, int64_t cols, int k, const Buffers& buf, float copy_ms, cudaEvent_t a, cudaEvent_t b) {
  const int64_t slice = int64_t{kThreads} * kVpt;
  if (slice * k != cols) {
    std::printf("skip %s %lld: %d x %d x %d != cols\n", dtype, static_cast<long long>(cols), k, kThreads, kVpt);
    return;
  }
  const int64_t rows = buf.bytes / sizeof(T) / cols;
  auto fn = quack_shape_kernel<T, kThreads, kVpt, kStage, kOneExp, kFma, kPlain>;
  const int smem = kStage ? static_cast<int>(slice * sizeof(T)) : 0;
  CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  if (k > 8) CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, fn));
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, kThreads, smem));
  const sk::LaunchConfig cfg(dim3(static_cast<unsigned>(rows * k)), dim3(kThreads), smem, k, nullptr);
  int clusters = 0;
  if (k > 1) CHECK(cudaOccupancyMaxActiveClusters(&clusters, fn, cfg.get()));
  const T* x = static_cast<const T*>(buf.x);
  T* y = static_cast<T*>(buf.y);
  CHECK(cudaMemset(y, 0xff, buf.bytes));  // poison: NaN in both dtypes
  auto launch = [&] { CHECK(cudaLaunchKernelEx(cfg.get(), fn, x, y, rows, cols)); };
  const float ms = median_ms(launch, a, b);
  const double worst = worst_rel_err(x, y, rows, cols);
  std::printf("%-5s %7lld  K=%-2d threads=%-4d vpt=%-3d stage=%d one_exp=%d fma=%d plain=%d  regs=%-3d spill=%-3zu ctas/sm=%d clusters=%-3d  %.4f ms  %5.1f%% of copy  max rel err %.2e\n",
              dtype, static_cast<long long>(cols), k, kThreads, kVpt, kStage, kOneExp, kFma, kPlain, attr.numRegs,
              static_cast<size_t>(attr.localSizeBytes), per_sm, clusters, ms, 100.0 * copy_ms / ms, worst);
  std::fflush(stdout);
}

// This package's kernel in that shape (cluster_regs' unpacked clusters), launched as the
// planner launches it, timed and checked the same way.
template <typename T>
void run_package(const char* dtype, int64_t cols, int k, const Buffers& buf, float copy_ms, cudaEvent_t a,
                 cudaEvent_t b) {
  constexpr int N = 16 / sizeof(T);
  auto fn = sk::softmax::softmax_cluster_unpacked_kernel<T, sk::softmax::kRegsUnpackThreads, true, false>;
  const int64_t rows = buf.bytes / sizeof(T) / cols;
  sk::softmax::RowsArgs<T> args{};
  args.x = static_cast<const T*>(buf.x);
  args.y = static_cast<T*>(buf.y);
  args.rows = rows;
  args.cols = cols;
  args.x_stride = cols;
  args.group_width = sk::softmax::kRegsUnpackThreads;
  args.slice_packs = static_cast<int>((cols / N + k - 1) / k);
  args.log = false;
  if (k > 8) CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, fn));
  const sk::LaunchConfig cfg(dim3(static_cast<unsigned>(rows * k)), dim3(sk::softmax::kRegsUnpackThreads), 0, k,
                            nullptr);
  CHECK(cudaMemset(buf.y, 0xff, buf.bytes));
  auto launch = [&] { CHECK(cudaLaunchKernelEx(cfg.get(), fn, args)); };
  const float ms = median_ms(launch, a, b);
  const double worst = worst_rel_err(args.x, args.y, rows, cols);
  std::printf("%-5s %7lld  K=%-2d package cluster_unpacked  regs=%-3d spill=%-3zu  %.4f ms  %5.1f%% of copy  max rel err %.2e\n",
              dtype, static_cast<long long>(cols), k, attr.numRegs, static_cast<size_t>(attr.localSizeBytes), ms,
              100.0 * copy_ms / ms, worst);
  std::fflush(stdout);
}

// The shapes of one width: QuACK's and its neighbours, each switch flipped alone.
template <typename T, int kThreads, int kVpt>
void sweep(const char* dtype, int64_t cols, int k, const Buffers& buf, float copy_ms, cudaEvent_t a, cudaEvent_t b) {
  run<T, kThreads, kVpt, true, true, true>(dtype, cols, k, buf, copy_ms, a, b);    // QuACK
  run<T, kThreads, kVpt, false, true, true>(dtype, cols, k, buf, copy_ms, a, b);   // loads to registers
  run<T, kThreads, kVpt, true, false, true>(dtype, cols, k, buf, copy_ms, a, b);   // exps twice
  run<T, kThreads, kVpt, true, true, false>(dtype, cols, k, buf, copy_ms, a, b);   // this package's exp
  run<T, kThreads, kVpt, false, false, false>(dtype, cols, k, buf, copy_ms, a, b); // all three as here
}

}  // namespace

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs, L2 %d MB\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20);
  Buffers buf{nullptr, nullptr, size_t{1} << 30};
  CHECK(cudaMalloc(&buf.x, buf.bytes));
  CHECK(cudaMalloc(&buf.y, buf.bytes));
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  const float copy_ms =
      median_ms([&] { CHECK(cudaMemcpyAsync(buf.y, buf.x, buf.bytes, cudaMemcpyDeviceToDevice)); }, a, b);
  std::printf("copy of 1 GiB: %.4f ms, %.0f GB/s\n", copy_ms, 2.0 * buf.bytes / copy_ms / 1e6);
  using bf16 = __nv_bfloat16;
  fill_kernel<bf16><<<1024, 256>>>(static_cast<bf16*>(buf.x), buf.bytes / 2, 1234u);
  CHECK(cudaGetLastError());
  if (std::getenv("QSE_ALL") != nullptr) {  // call 54's sweep
    sweep<bf16, 256, 64>("bf16", 65536, 4, buf, copy_ms, a, b);
    sweep<bf16, 512, 64>("bf16", 65536, 2, buf, copy_ms, a, b);
    sweep<bf16, 256, 32>("bf16", 65536, 8, buf, copy_ms, a, b);
    sweep<bf16, 512, 32>("bf16", 65536, 4, buf, copy_ms, a, b);
    sweep<bf16, 256, 64>("bf16", 131072, 8, buf, copy_ms, a, b);
    sweep<bf16, 512, 64>("bf16", 131072, 4, buf, copy_ms, a, b);
    sweep<bf16, 256, 64>("bf16", 262144, 16, buf, copy_ms, a, b);
    sweep<bf16, 512, 64>("bf16", 262144, 8, buf, copy_ms, a, b);
    sweep<bf16, 256, 64>("bf16", 32768, 2, buf, copy_ms, a, b);
    fill_kernel<float><<<1024, 256>>>(static_cast<float*>(buf.x), buf.bytes / 4, 99u);
    CHECK(cudaGetLastError());
    sweep<float, 256, 64>("fp32", 65536, 4, buf, copy_ms, a, b);
    sweep<float, 512, 64>("fp32", 65536, 2, buf, copy_ms, a, b);
    sweep<float, 256, 64>("fp32", 131072, 8, buf, copy_ms, a, b);
    sweep<float, 512, 64>("fp32", 131072, 4, buf, copy_ms, a, b);
    return 0;
  }
  // Session 61 call 57: the package's kernel (cluster_regs' unpacked clusters) beside
  // QuACK's shape with loads as the package issues them (plain ld.global, not .nc) and
  // the package's exp, to find what the package's kernel lost (call 56: 82 against 97.5).
  for (int64_t cols : {int64_t{65536}, int64_t{131072}}) {
    const int k = static_cast<int>(cols / 16384);
    run<bf16, 256, 64, false, true, true>("bf16", cols, k, buf, copy_ms, a, b);
    run<bf16, 256, 64, false, true, false>("bf16", cols, k, buf, copy_ms, a, b);
    run<bf16, 256, 64, false, true, true, true>("bf16", cols, k, buf, copy_ms, a, b);
    run<bf16, 256, 64, false, true, false, true>("bf16", cols, k, buf, copy_ms, a, b);
    run_package<bf16>("bf16", cols, k, buf, copy_ms, a, b);
  }
  return 0;
}
