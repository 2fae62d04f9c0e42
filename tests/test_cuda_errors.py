"""A CUDA runtime call that fails inside the kernels' host code throws a message naming it,
and leaves no error behind for the caller's next, unrelated launch.

torch checks `cudaGetLastError()` after each of its own kernel launches, so an error this
package reported but left recorded would fail the next torch call in the process with
"a kernel launch error has occurred" (seen on the H200 when a cluster launch was
rejected). The check is a small host program built with nvcc against csrc/common/ and
launched through `sk::launch_kernel`, the helper every launcher uses: CI compiles it; a
machine with a GPU also runs it.
"""
from __future__ import annotations

import subprocess

import pytest

import torch

from kernels_cuda import build
from test_cuda_compile import ARCH, NVCC, TORCH_NVCC_FLAGS, needs_nvcc

requires_gpu = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU (none is visible to PyTorch)")

PROGRAM = r"""
#include <cstdio>

#include "common/device.cuh"

__global__ void empty_kernel() {}

// Launches empty_kernel through sk::launch_kernel in a shape the GPU must reject; prints
// what was thrown and the runtime's last error afterwards. Returns whether it threw.
static bool rejected(const char* what, dim3 grid, dim3 block, int cluster) {
  try {
    sk::launch_kernel(reinterpret_cast<const void*>(&empty_kernel), grid, block, 0, cluster, nullptr, nullptr);
  } catch (const std::runtime_error& e) {
    const cudaError_t left = cudaGetLastError();
    std::printf("%s: threw \"%s\"; last error after: %s\n", what, e.what(), cudaGetErrorName(left));
    return left == cudaSuccess;
  }
  std::printf("%s: launched, did not throw\n", what);
  return false;
}

int main() {
  bool ok = true;
  // 2048 threads a block: past every GPU's 1024, so the plain launch fails at once.
  ok &= rejected("plain launch, 2048 threads", dim3(1), dim3(2048), 1);
  // A grid of 3 CTAs in clusters of 2: not a multiple of the cluster, rejected by
  // cudaLaunchKernelExC.
  ok &= rejected("cluster launch, grid 3 in clusters of 2", dim3(3), dim3(32), 2);
  // The next launch, as torch's next kernel would be, must see no error.
  empty_kernel<<<1, 32>>>();
  const cudaError_t next = cudaGetLastError();
  const cudaError_t synced = cudaDeviceSynchronize();
  std::printf("next launch: %s, synchronize: %s\n", cudaGetErrorName(next), cudaGetErrorName(synced));
  ok &= next == cudaSuccess && synced == cudaSuccess;
  std::printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
"""


def _arch_flags() -> list[str]:
    if torch.cuda.is_available():  # SASS for the GPUs here, so the program runs on them
        caps = [torch.cuda.get_device_capability(i) for i in range(torch.cuda.device_count())]
        return build.arch_flags(caps)
    return [f"-arch={ARCH}"]


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cuda_errors")
    source, binary = tmp / "check_clears_error.cu", tmp / "check_clears_error"
    source.write_text(PROGRAM)
    cmd = [NVCC, *_arch_flags(), *build.CUDA_FLAGS, *TORCH_NVCC_FLAGS, f"-I{build.CSRC}", str(source),
           "-o", str(binary)]
    result = subprocess.run(cmd, capture_output=True, text=True)
    assert result.returncode == 0, f"{' '.join(cmd)}\n{result.stdout}{result.stderr}"
    return binary


@needs_nvcc
def test_the_error_check_program_compiles(program):
    assert program.exists()


@needs_nvcc
@requires_gpu
@pytest.mark.gpu
def test_a_failed_launch_throws_its_error_by_name_and_leaves_none_behind(program):
    result = subprocess.run([str(program)], capture_output=True, text=True, timeout=120)
    out = result.stdout + result.stderr
    assert result.returncode == 0, out
    assert "cudaErrorInvalidConfiguration" in out or "cudaErrorInvalidValue" in out, out
    assert "cudaLaunchKernel(fn, grid, block, params, smem, stream) failed" in out, out
    assert "cudaLaunchKernelExC(config.get(), fn, params) failed" in out, out
    assert out.count("last error after: cudaSuccess") == 2, out
