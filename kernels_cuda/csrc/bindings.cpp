// Declarations of the host launchers defined in csrc/*.cu.
//
// build.py passes this file to load_inline as the C++ source: it lands after
// `#include <torch/extension.h>` and before the PYBIND11_MODULE that binds every name in
// build.FUNCTIONS. Add each new launcher both here and to build.FUNCTIONS
// (tests/test_cuda_compile.py fails when the two disagree).
//
// Only plain types cross this boundary: pointers, sizes and strides (in elements), the
// dtype code (0 fp32, 1 fp16, 2 bf16), variant codes, the device index and the
// cudaStream_t travel as int64_t, so the .cu files need no torch headers at all.
#include <cstdint>
#include <vector>

// softmax.cu: launch plan of a softmax variant, laid out as kernels_cuda.softmax.PLAN_FIELDS.
std::vector<int64_t> softmax_plan(int64_t x_ptr, int64_t rows, int64_t cols, int64_t x_row_stride,
                                  int64_t dtype, int64_t variant, int64_t device);

// softmax.cu: softmax (log-softmax with `log`) of each row into a contiguous output, on `stream`.
void softmax_forward(int64_t x_ptr, int64_t y_ptr, int64_t rows, int64_t cols, int64_t x_row_stride,
                     int64_t dtype, int64_t variant, bool log, int64_t device, int64_t stream);

// reduce.cu: sum or max of each row into out[r]; layout, group, pack, threads and grid
// come from kernels_cuda.reduce.plan.
void reduce_rows(int64_t x, int64_t out, int64_t rows, int64_t cols, int64_t row_stride,
                 int64_t dtype, int64_t op, int64_t variant, int64_t layout, int64_t group,
                 int64_t pack, int64_t threads, int64_t grid, int64_t device, int64_t stream);

// reduce.cu: sum or max of n contiguous elements into *out via fp32 per-block partials.
void reduce_whole(int64_t x, int64_t partials, int64_t out, int64_t n, int64_t dtype, int64_t op,
                  int64_t variant, int64_t pack, int64_t threads, int64_t grid, int64_t finish_threads,
                  int64_t device, int64_t stream);
