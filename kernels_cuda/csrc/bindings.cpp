// Declarations of the host entry points defined in csrc/softmax.cu and csrc/reduce.cu.
//
// build.py passes this file to load_inline as the C++ source: it lands after
// `#include <torch/extension.h>` and before the PYBIND11_MODULE that binds every name in
// build.FUNCTIONS. Add each new entry point both here and to build.FUNCTIONS
// (tests/test_cuda_compile.py fails when the two disagree).
//
// The .cu files take plain types only: pointers, sizes and strides (in elements), the
// codes of the .def files (dtype, variant, op), the device index and the cudaStream_t
// travel as int64_t, so they need no torch headers at all. Answers are standard
// containers, which pybind11 converts (lists, str, dicts, tuples). A launcher plans for
// itself, so one call plans (cached) and launches; a variant that cannot serve the input
// raises ValueError.
//
// The softmax ops, the calls every small training step makes, are defined here instead:
// they take tensors, allocate the output with torch's caching allocator and read torch's
// current stream in C++, so a call costs one crossing from Python (the tensor fields,
// an allocation and a stream query made from Python cost about as much as the launch);
// and so is the autograd node of an eager forward (SoftmaxWithGrad), for the same reason.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <c10/cuda/CUDAStream.h>
#include <torch/csrc/autograd/functions/basic_ops.h>
#include <torch/csrc/autograd/functions/utils.h>

// softmax.cu: the limits Python words its refusals with, by name.
std::map<std::string, int64_t> softmax_constants();

// softmax.cu: the device properties the planners' rules read, by name.
std::map<std::string, int64_t> gpu_properties(int64_t device);

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

// softmax (log-softmax with `log`) of each row of x, a 2-D CUDA tensor with unit column
// stride (any row stride), into `out` (a contiguous tensor like x) or, without one, a new
// contiguous tensor, on the current stream of x's device; `dtype` is x's code in
// common/dtypes.def. A plan's workspace (split's) is a byte tensor from torch's caching
// allocator, allocated on that stream and freed when this returns, which the allocator
// makes safe: the memory goes to no later work of the stream before the kernel is done
// with it. Under CUDA graph capture both come from the graph's pool, as any tensor's.
at::Tensor softmax_forward(const at::Tensor& x, const std::optional<at::Tensor>& out, int64_t dtype, int64_t variant,
                           bool log) {
  TORCH_CHECK(x.is_cuda() && x.dim() == 2 && (x.size(1) <= 1 || x.stride(1) == 1),
              "softmax_forward takes a 2-D CUDA tensor with unit column stride, got ", x.sizes(), " with strides ",
              x.strides(), " on ", x.device());
  at::Tensor y = out.has_value() ? *out : at::empty({x.size(0), x.size(1)}, x.options());
  const int64_t device = x.get_device();
  at::Tensor workspace;
  softmax_forward_launch(reinterpret_cast<int64_t>(x.data_ptr()), reinterpret_cast<int64_t>(y.data_ptr()),
                         x.size(0), x.size(1), x.stride(0), dtype, variant, log, device,
                         reinterpret_cast<int64_t>(c10::cuda::getCurrentCUDAStream(device).stream()),
                         [&](int64_t bytes) {
                           workspace = at::empty({bytes}, x.options().dtype(at::kByte));
                           return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(workspace.data_ptr()));
                         });
  return y;
}

// softmax.cu: the launch plan of a backward variant (or kAuto) for y and dy, as softmax_plan.
std::tuple<std::vector<int64_t>, std::string, std::string> softmax_backward_plan(
    int64_t y_ptr, int64_t dy_ptr, int64_t rows, int64_t cols, int64_t y_row_stride, int64_t dy_row_stride,
    int64_t dtype, int64_t variant, int64_t device);

// softmax.cu: the input gradient of softmax (log-softmax with `log`) from y and dy into a
// contiguous dx, on `stream`; variant may be kAuto; `workspace` as softmax_forward_launch's.
void softmax_backward_launch(int64_t y_ptr, int64_t dy_ptr, int64_t dx_ptr, int64_t rows, int64_t cols,
                             int64_t y_row_stride, int64_t dy_row_stride, int64_t dtype, int64_t variant,
                             bool log, int64_t device, int64_t stream,
                             const std::function<uint64_t(int64_t)>& workspace);

// softmax_backward_launch for tensors, as softmax_forward: y and dy 2-D CUDA tensors of one
// shape and dtype with unit column stride (each its own row stride), dx into `out` or a
// new contiguous tensor, on the current stream of y's device.
at::Tensor softmax_backward(const at::Tensor& y, const at::Tensor& dy, const std::optional<at::Tensor>& out,
                            int64_t dtype, int64_t variant, bool log) {
  TORCH_CHECK(y.is_cuda() && y.dim() == 2 && dy.sizes() == y.sizes() && dy.device() == y.device() &&
                  dy.scalar_type() == y.scalar_type() && (y.size(1) <= 1 || (y.stride(1) == 1 && dy.stride(1) == 1)),
              "softmax_backward takes y and dy of one 2-D shape and dtype, with unit column stride, on one CUDA "
              "device, got ", y.sizes(), " ", y.strides(), " on ", y.device(), " and ", dy.sizes(), " ", dy.strides(),
              " on ", dy.device());
  at::Tensor dx = out.has_value() ? *out : at::empty({y.size(0), y.size(1)}, y.options());
  const int64_t device = y.get_device();
  at::Tensor workspace;
  softmax_backward_launch(reinterpret_cast<int64_t>(y.data_ptr()), reinterpret_cast<int64_t>(dy.data_ptr()),
                          reinterpret_cast<int64_t>(dx.data_ptr()), y.size(0), y.size(1), y.stride(0), dy.stride(0),
                          dtype, variant, log, device,
                          reinterpret_cast<int64_t>(c10::cuda::getCurrentCUDAStream(device).stream()),
                          [&](int64_t bytes) {
                            workspace = at::empty({bytes}, y.options().dtype(at::kByte));
                            return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(workspace.data_ptr()));
                          });
  return dx;
}

// Autograd nodes are held by std::shared_ptr in older torch, c10::intrusive_ptr in newer:
// Ptr is whichever this torch's Tensor::grad_fn returns, make<N>(...) makes one.
struct AutogradNodes {
  using Ptr = std::decay_t<decltype(std::declval<const at::TensorBase&>().grad_fn())>;

  template <typename N, typename... Args>
  static Ptr make(Args&&... args) {
    return make_as<N>(static_cast<Ptr*>(nullptr), std::forward<Args>(args)...);
  }

 private:
  template <typename N, typename... Args>
  static std::shared_ptr<torch::autograd::Node> make_as(std::shared_ptr<torch::autograd::Node>*, Args&&... args) {
    return std::make_shared<N>(std::forward<Args>(args)...);
  }
  template <typename N, typename... Args>
  static c10::intrusive_ptr<torch::autograd::Node> make_as(c10::intrusive_ptr<torch::autograd::Node>*,
                                                           Args&&... args) {
    return c10::make_intrusive<N>(std::forward<Args>(args)...);
  }
};

// The variant code that asks the planner to choose (softmax/variants.def).
#define SK_SOFTMAX_VARIANT(name, code, doc)
#define SK_SOFTMAX_AUTO(name, code, doc) constexpr int64_t kSoftmaxAuto = code;
#include "softmax/variants.def"
#undef SK_SOFTMAX_AUTO
#undef SK_SOFTMAX_VARIANT

// softmax_forward whose result records its gradient in C++: the node saves y (never x)
// and its backward runs softmax_backward's auto on dy. Python's autograd.Function
// (comparison/autograd.py) costs more host time per call than a small kernel takes: a
// forward recording its gradient took 29.7 us through it, 11.5 with this node (torch's
// own: 9.1; H100, benchmarks/h100_2026-11-23d/host_grad_*.txt). dy arrives as autograd made it:
// possibly another dtype (made y's), or with a column stride that is not 1 (the expanded
// gradient of a sum: made contiguous, as the Python path does). Like
// @once_differentiable, the gradient it returns cannot itself be differentiated: when
// the backward is recorded (create_graph), dx gets an Error node, which raises only if
// something differentiates through it (no double backward: none of the
// backward kernels records its own gradient).
struct SoftmaxWithGrad : public torch::autograd::Function<SoftmaxWithGrad> {
  static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& x, int64_t dtype,
                            int64_t variant, bool log) {
    at::Tensor y = softmax_forward(x, std::nullopt, dtype, variant, log);
    ctx->save_for_backward({y});
    ctx->saved_data["dtype"] = dtype;
    ctx->saved_data["log"] = log;
    return y;
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grads) {
    const at::Tensor y = ctx->get_saved_variables()[0];
    at::Tensor dy = grads[0];
    if (!dy.defined()) {
      return {at::Tensor(), at::Tensor(), at::Tensor(), at::Tensor()};
    }
    // Recorded: dx depends on y (and dy), so it is marked even where only y requires grad
    // (a constant dy), which @once_differentiable would leave unmarked: then an attempt to
    // differentiate dx says why it cannot, not "does not require grad".
    const bool record = at::GradMode::is_enabled() && (dy.requires_grad() || y.requires_grad());
    at::Tensor dx;
    {
      at::NoGradGuard no_grad;
      if (dy.scalar_type() != y.scalar_type()) {
        dy = dy.to(y.scalar_type());
      }
      if (dy.size(1) > 1 && dy.stride(1) != 1) {
        dy = dy.contiguous();
      }
      dx = softmax_backward(y, dy, std::nullopt, ctx->saved_data["dtype"].toInt(), kSoftmaxAuto,
                            ctx->saved_data["log"].toBool());
    }
    if (record) {
      // dx's node raises when reached; its edges lead to y and dy, so the graph from dx
      // still reaches x and the engine runs it (an edge to a detached alias, as
      // @once_differentiable makes, would make torch.autograd.grad(dx, x) fail with
      // "not used in the graph" instead of this message).
      torch::autograd::set_history(
          dx, AutogradNodes::make<torch::autograd::Error>(
                  "the gradient of softmax on the cuda backend cannot be differentiated again (no double "
                  "backward): use backend=\"torch\" for that",
                  torch::autograd::collect_next_edges(y, dy)));
    }
    return {dx, at::Tensor(), at::Tensor(), at::Tensor()};
  }
};

at::Tensor softmax_forward_with_grad(const at::Tensor& x, int64_t dtype, int64_t variant, bool log) {
  return SoftmaxWithGrad::apply(x, dtype, variant, log);
}

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
