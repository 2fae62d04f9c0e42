// Host-side error handling for the CUDA runtime, and the device guard of every launcher.
//
// Every file under csrc/ includes only CUDA runtime headers and the standard library:
// CI compiles them with nvcc against a CPU-only torch, so none may include torch, ATen,
// c10 or pybind11 (tests/test_cuda_compile.py checks).
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

// Evaluates a CUDA runtime call once; on failure throws std::runtime_error naming the
// call, file and line (pybind11 turns it into a Python RuntimeError). A failed call also
// records its error as the runtime's "last error", which torch reads after each of its
// own launches: left there, it would fail the caller's next, unrelated torch kernel.
// The error is reported here, so it is cleared (a sticky error, one that corrupted the
// context, stays: cudaGetLastError cannot clear it, and every later call reports it).
#define SK_CUDA_CHECK(expr)                                                           \
  do {                                                                                \
    const cudaError_t sk_err_ = (expr);                                               \
    if (sk_err_ != cudaSuccess) {                                                     \
      (void)cudaGetLastError();                                                       \
      throw std::runtime_error(std::string(__FILE__) + ":" + std::to_string(__LINE__) + \
                               ": " #expr " failed: " + cudaGetErrorName(sk_err_) +   \
                               " (" + cudaGetErrorString(sk_err_) + ")");             \
    }                                                                                 \
  } while (0)

namespace sk {

// Makes `device` current for the lifetime of the guard and restores the previous
// device afterwards, so launchers serve tensors on any GPU without side effects.
class DeviceGuard {
 public:
  explicit DeviceGuard(int device) {
    SK_CUDA_CHECK(cudaGetDevice(&previous_));
    if (device != previous_) SK_CUDA_CHECK(cudaSetDevice(device));
  }
  ~DeviceGuard() {
    int current = -1;
    if (cudaGetDevice(&current) == cudaSuccess && current != previous_) cudaSetDevice(previous_);
  }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_ = 0;
};

}  // namespace sk
