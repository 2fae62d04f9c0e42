// Declarations of the host entry points defined in csrc/softmax.cu and csrc/reduce.cu.
//
// build.py passes this file to load_inline as the C++ source: it lands after
// `#include <torch/extension.h>` and before the PYBIND11_MODULE that binds every name in
// build.FUNCTIONS. Add each new entry point both here and to build.FUNCTIONS
// (tests/test_cuda_compile.py fails when the two disagree).
//
// Only plain types cross this boundary (one exception: softmax_forward, defined here,
// hands the launcher torch's allocator for the workspace a plan may need): pointers,
// sizes and strides (in elements), the codes of the .def files (dtype, variant, op), the
// device index and the cudaStream_t travel as int64_t, so the .cu files need no torch
// headers at all. Answers are standard containers, which pybind11 converts (lists, str,
// dicts, tuples). A launcher plans for itself, so one call plans (cached) and launches; a
// variant that cannot serve the input raises ValueError.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

// softmax.cu: the limits Python words its refusals with, by name.
std::map<std::string, int64_t> softmax_constants();

// softmax.cu: the launch plan of a variant (or kAuto) for an input: its fields in
// softmax/plan_fields.def order, the kernel instance, and why that variant.
std::tuple<std::vector<int64_t>, std::string, std::string> softmax_plan(int64_t x_ptr, int64_t rows, int64_t cols,
                                                                        int64_t x_row_stride, int64_t dtype,
                                                                        int64_t variant, int64_t device);

// softmax.cu: softmax (log-softmax with `log`) of each row into a contiguous output, on
// `stream`; variant may be kAuto. `workspace(bytes)` returns device memory for plans
// that need some (split), ordered on `stream`.
void softmax_forward_launch(int64_t x_ptr, int64_t y_ptr, int64_t rows, int64_t cols, int64_t x_row_stride,
                            int64_t dtype, int64_t variant, bool log, int64_t device, int64_t stream,
                            const std::function<uint64_t(int64_t)>& workspace);

// softmax_forward_launch with its workspace from torch's caching allocator: a byte tensor
// on `device`, allocated on the current stream (the one Python passes as `stream`), and
// freed when this returns, which the allocator makes safe: the memory goes to no later
// work of that stream before the kernel is done with it. Under CUDA graph capture the
// allocation comes from the graph's pool, as any tensor's.
void softmax_forward(int64_t x_ptr, int64_t y_ptr, int64_t rows, int64_t cols, int64_t x_row_stride, int64_t dtype,
                     int64_t variant, bool log, int64_t device, int64_t stream) {
  at::Tensor workspace;
  softmax_forward_launch(x_ptr, y_ptr, rows, cols, x_row_stride, dtype, variant, log, device, stream,
                         [&](int64_t bytes) {
                           workspace = at::empty({bytes}, at::TensorOptions().dtype(at::kByte).device(
                                                              at::Device(at::kCUDA, static_cast<int>(device))));
                           return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(workspace.data_ptr()));
                         });
}

// softmax.cu: the launch plan of a backward variant (or kAuto) for y and dy, as softmax_plan.
std::tuple<std::vector<int64_t>, std::string, std::string> softmax_backward_plan(
    int64_t y_ptr, int64_t dy_ptr, int64_t rows, int64_t cols, int64_t y_row_stride, int64_t dy_row_stride,
    int64_t dtype, int64_t variant, int64_t device);

// softmax.cu: the input gradient of softmax (log-softmax with `log`) from y and dy into a
// contiguous dx, on `stream`; variant may be kAuto.
void softmax_backward(int64_t y_ptr, int64_t dy_ptr, int64_t dx_ptr, int64_t rows, int64_t cols,
                      int64_t y_row_stride, int64_t dy_row_stride, int64_t dtype, int64_t variant, bool log,
                      int64_t device, int64_t stream);

// reduce.cu: the launch limits, and WHOLE_MAX_GRID (the partials reduce_whole needs) on `device`.
std::map<std::string, int64_t> reduce_constants(int64_t device);

// reduce.cu: the plan reduce_rows (whole false) or reduce_whole (whole true: one row of
// all elements) would run, in reduce/plan_fields.def order.
std::vector<int64_t> reduce_plan(int64_t x, int64_t rows, int64_t cols, int64_t row_stride, bool whole,
                                 int64_t dtype, int64_t variant, int64_t device);

// reduce.cu: sum or max of each row into out[r].
void reduce_rows(int64_t x, int64_t out, int64_t rows, int64_t cols, int64_t row_stride, int64_t dtype,
                 int64_t op, int64_t variant, int64_t device, int64_t stream);

// reduce.cu: sum or max of n contiguous elements into *out via fp32 per-block partials
// (partials_size of them, allocated by the caller).
void reduce_whole(int64_t x, int64_t partials, int64_t partials_size, int64_t out, int64_t n, int64_t dtype,
                  int64_t op, int64_t variant, int64_t device, int64_t stream);
