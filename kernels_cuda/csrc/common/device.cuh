// Host-side device queries, cached: the limits launch heuristics need, blocks resident
// per SM, the shared-memory opt-in, clusters resident on the GPU; and the one helper
// that launches a kernel with or without a cluster dimension.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

#include "common/check.cuh"

namespace sk {

// Limits that launch heuristics need, queried once per device.
struct DeviceProperties {
  int major = 0;
  int minor = 0;
  int sm_count = 0;
  int max_threads_per_sm = 0;
  int smem_per_block_optin = 0;  // dynamic + static shared memory one block may opt into
  int smem_per_sm = 0;
  // Peak DRAM bandwidth: two transfers per memory clock (HBM and GDDR are double data
  // rate) over the bus width; 0 where the driver reports neither. H100 SXM: 3.35 TB/s,
  // H200: 4.8 TB/s, both over 132 SMs: what differs between them is the bandwidth each
  // SM has to keep busy.
  int64_t dram_bytes_per_s = 0;

  // The DRAM bandwidth each SM must keep busy (bytes/s): what the `auto` rules that differ
  // between the H100 (25 GB/s) and the H200 (37 GB/s) read.
  int64_t dram_bytes_per_sm_s() const { return dram_bytes_per_s / std::max(sm_count, 1); }
};

// Thread-safe; the caller does not need to make `device` current. Returned by value:
// a reference into the cache could dangle when another thread adds a device.
inline DeviceProperties device_properties(int device) {
  static std::mutex mutex;
  static std::vector<DeviceProperties> cache;  // sm_count == 0: not queried yet
  if (device < 0) throw std::runtime_error("device_properties: negative device index");
  std::lock_guard<std::mutex> lock(mutex);
  if (static_cast<size_t>(device) >= cache.size()) cache.resize(device + 1);
  DeviceProperties& p = cache[device];
  if (p.sm_count == 0) {
    DeviceProperties q;
    SK_CUDA_CHECK(cudaDeviceGetAttribute(&q.major, cudaDevAttrComputeCapabilityMajor, device));
    SK_CUDA_CHECK(cudaDeviceGetAttribute(&q.minor, cudaDevAttrComputeCapabilityMinor, device));
    SK_CUDA_CHECK(cudaDeviceGetAttribute(&q.max_threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device));
    SK_CUDA_CHECK(cudaDeviceGetAttribute(&q.smem_per_block_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    SK_CUDA_CHECK(cudaDeviceGetAttribute(&q.smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
    SK_CUDA_CHECK(cudaDeviceGetAttribute(&q.sm_count, cudaDevAttrMultiProcessorCount, device));
    int clock_khz = 0;
    int bus_bits = 0;
    SK_CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, device));
    SK_CUDA_CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device));
    q.dram_bytes_per_s = 2 * static_cast<int64_t>(clock_khz) * 1000 * (bus_bits / 8);
    p = q;
  }
  return p;
}

// A launch configuration, with a cluster dimension when `cluster` > 1. The launch and
// the cluster-residency query describe their shape with the same one.
class LaunchConfig {
 public:
  LaunchConfig(dim3 grid, dim3 block, size_t smem, int cluster, cudaStream_t stream, bool cooperative = false) {
    config_.gridDim = grid;
    config_.blockDim = block;
    config_.dynamicSmemBytes = smem;
    config_.stream = stream;
    config_.attrs = attr_;
    if (cluster > 1) {
      attr_[config_.numAttrs].id = cudaLaunchAttributeClusterDimension;
      attr_[config_.numAttrs].val.clusterDim.x = static_cast<unsigned>(cluster);
      attr_[config_.numAttrs].val.clusterDim.y = 1;
      attr_[config_.numAttrs].val.clusterDim.z = 1;
      ++config_.numAttrs;
    }
    if (cooperative) {
      attr_[config_.numAttrs].id = cudaLaunchAttributeCooperative;
      attr_[config_.numAttrs].val.cooperative = 1;
      ++config_.numAttrs;
    }
  }
  LaunchConfig(const LaunchConfig&) = delete;  // config_.attrs points into this object
  LaunchConfig& operator=(const LaunchConfig&) = delete;
  const cudaLaunchConfig_t* get() const { return &config_; }

 private:
  cudaLaunchConfig_t config_ = {};
  cudaLaunchAttribute attr_[2] = {};
};

// Launches `fn` (parameters `params`) on `stream`; in clusters of `cluster` CTAs along x
// when `cluster` > 1 (the grid's x dimension a multiple of it); `cooperative`: every
// CTA resident at once, or the launch fails (kernels whose CTAs wait for each other).
inline void launch_kernel(const void* fn, dim3 grid, dim3 block, size_t smem, int cluster, void** params,
                          cudaStream_t stream, bool cooperative = false) {
  if (cluster > 1 || cooperative) {
    const LaunchConfig config(grid, block, smem, cluster, stream, cooperative);
    SK_CUDA_CHECK(cudaLaunchKernelExC(config.get(), fn, params));
  } else {
    SK_CUDA_CHECK(cudaLaunchKernel(fn, grid, block, params, smem, stream));
  }
}

// ---------------------------------------------------------------------------------
// Occupancy, shared-memory opt-in and cluster residency, cached per device and kernel.
// The queries run on the current device (the launchers' DeviceGuard sets it).
// ---------------------------------------------------------------------------------

// Blocks of `fn` with `threads` threads and `smem` dynamic bytes resident per SM.
inline int resident_blocks(const void* fn, int device, int threads, int64_t smem) {
  static std::mutex mutex;
  static std::map<std::tuple<int, const void*, int, int64_t>, int> cache;
  const auto key = std::make_tuple(device, fn, threads, smem);
  {
    std::lock_guard<std::mutex> lock(mutex);
    const auto it = cache.find(key);
    if (it != cache.end()) return it->second;
  }
  int n = 0;
  SK_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, fn, threads, static_cast<size_t>(smem)));
  std::lock_guard<std::mutex> lock(mutex);
  cache[key] = n;
  return n;
}

// Lets `fn` use the device's opt-in shared memory (beyond the default 48 KB) and, for
// cluster kernels, clusters of 16. Returns the dynamic shared memory a block may use:
// the opt-in limit less the kernel's static shared memory.
inline int64_t opt_in_smem(const void* fn, int device, bool cluster) {
  static std::mutex mutex;
  static std::map<std::pair<int, const void*>, int64_t> cache;
  std::lock_guard<std::mutex> lock(mutex);
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

// Lets `fn` run in clusters of up to 16 CTAs (beyond the portable 8), once per device.
inline void allow_large_clusters(const void* fn, int device) {
  static std::mutex mutex;
  static std::map<std::pair<int, const void*>, bool> cache;
  std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_pair(device, fn);
  if (cache.count(key)) return;
  SK_CUDA_CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  cache[key] = true;
}

// Clusters of `k` CTAs of `fn` (`threads` threads, `smem` dynamic bytes each) resident
// on the whole GPU at once; 0 when that shape cannot be resident.
inline int clusters_resident(const void* fn, int device, int threads, int64_t smem, int k) {
  static std::mutex mutex;
  static std::map<std::tuple<int, const void*, int, int64_t, int>, int> cache;
  const auto key = std::make_tuple(device, fn, threads, smem, k);
  {
    std::lock_guard<std::mutex> lock(mutex);
    const auto it = cache.find(key);
    if (it != cache.end()) return it->second;
  }
  const LaunchConfig config(dim3(k), dim3(threads), static_cast<size_t>(smem), k, nullptr);
  int n = 0;
  // A shape the hardware cannot co-schedule is an error here, not a zero: treat both
  // as "does not fit" and clear the (non-sticky) error.
  if (cudaOccupancyMaxActiveClusters(&n, fn, config.get()) != cudaSuccess) {
    (void)cudaGetLastError();
    n = 0;
  }
  std::lock_guard<std::mutex> lock(mutex);
  cache[key] = n;
  return n;
}

}  // namespace sk
