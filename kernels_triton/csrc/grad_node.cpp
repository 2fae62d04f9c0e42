// The autograd node of an eager Triton softmax: the forward is launched from Python,
// then `attach(x, y, backward)` gives y this node, which saves y (never x) and on the
// backward calls the registered Python function `backward(y, dy) -> dx` (the backward
// kernels' launch). Host CPU code only: compiled with the host compiler (no nvcc), on
// first use, by kernels_triton/grad_node.py.
//
// Why C++: Python's torch.autograd.Function costs more host time per call than a small
// kernel takes (its apply, its context and saved tensors), and this node is what
// torch's own ops record: one allocation, a saved variable, the edges to x's history.
// H100 host, 1x1024 fp32, a forward that records its gradient: 42.0-53.9 us through the
// Function, 25.7-26.0 with this node, plain torch 12.8-15.9 in the same runs
// (benchmarks/h100_2026-11-25/host_grad_{a78395e,3804514}.txt).
//
// dy arrives as autograd made it: possibly another dtype (made y's) or with a column
// stride that is not 1 (the expanded gradient of a sum: made contiguous), as the Python
// path does. Like @once_differentiable, the gradient it returns cannot itself be
// differentiated: when the backward is recorded (create_graph), dx gets an Error node,
// which raises only if something differentiates through it.
#include <torch/extension.h>
#include <torch/csrc/Exceptions.h>
#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/functions/basic_ops.h>
#include <torch/csrc/autograd/functions/utils.h>
#include <torch/csrc/autograd/saved_variable.h>

#include <deque>
#include <string>

namespace py = pybind11;

namespace {

// A registered backward: the Python function and the names the node reports. Registered
// once per op by the Python side and never freed (a node holds a pointer: no reference
// count to take per call, and nothing to release when Python is already shut down).
// Registered and looked up only under the GIL (both are Python calls); a deque keeps
// every entry where it is as more are added, so a node applying on autograd's thread
// reads its own entry while another thread registers.
struct Backward {
  py::object fn;
  std::string node_name;
  std::string no_double_backward;  // the Error node's message
};

std::deque<Backward>& registry() {
  static auto* backwards = new std::deque<Backward>();
  return *backwards;
}

// Autograd nodes are held by std::shared_ptr in older torch, c10::intrusive_ptr in newer:
// Ptr is whichever this torch's Tensor::grad_fn returns, make<N>(...) makes one.
using Ptr = std::decay_t<decltype(std::declval<const at::TensorBase&>().grad_fn())>;

template <typename N, typename... Args>
std::shared_ptr<torch::autograd::Node> make_as(std::shared_ptr<torch::autograd::Node>*, Args&&... args) {
  return std::make_shared<N>(std::forward<Args>(args)...);
}
template <typename N, typename... Args>
c10::intrusive_ptr<torch::autograd::Node> make_as(c10::intrusive_ptr<torch::autograd::Node>*, Args&&... args) {
  return c10::make_intrusive<N>(std::forward<Args>(args)...);
}
template <typename N, typename... Args>
Ptr make(Args&&... args) {
  return make_as<N>(static_cast<Ptr*>(nullptr), std::forward<Args>(args)...);
}

struct PythonBackward : public torch::autograd::Node {
  PythonBackward(torch::autograd::edge_list&& next, const Backward* entry) : Node(std::move(next)), entry(entry) {}

  torch::autograd::variable_list apply(torch::autograd::variable_list&& grads) override {
    at::Tensor dy = grads[0];
    if (!dy.defined()) {
      return {at::Tensor()};
    }
    const at::Tensor y = saved_y.unpack(getptr());
    // Recorded: dx depends on y (and dy), so it is marked even where only y requires grad.
    const bool record = at::GradMode::is_enabled() && (dy.requires_grad() || y.requires_grad());
    at::Tensor dx;
    {
      at::NoGradGuard no_grad;
      if (dy.scalar_type() != y.scalar_type()) {
        dy = dy.to(y.scalar_type());
      }
      if (dy.dim() == 2 && dy.size(1) > 1 && dy.stride(1) != 1) {
        dy = dy.contiguous();
      }
      py::gil_scoped_acquire gil;
      try {
        dx = entry->fn(y, dy).cast<at::Tensor>();
      } catch (py::error_already_set& e) {
        e.restore();
        throw python_error();  // the Python exception, raised again where backward was called
      }
    }
    if (record) {
      // dx's node raises when reached; its edges lead to y and dy, so the graph from dx
      // still reaches x and the engine runs it (and says why it cannot differentiate).
      torch::autograd::set_history(
          dx, make<torch::autograd::Error>(entry->no_double_backward, torch::autograd::collect_next_edges(y, dy)));
    }
    return {dx};
  }

  void release_variables() override { saved_y.reset_data(); }
  std::string name() const override { return entry->node_name; }

  torch::autograd::SavedVariable saved_y;
  const Backward* entry;
};

}  // namespace

// Registers `fn(y, dy) -> dx`; returns the index `attach` takes.
int64_t register_backward(py::object fn, std::string node_name, std::string no_double_backward) {
  registry().push_back({std::move(fn), std::move(node_name), std::move(no_double_backward)});
  return static_cast<int64_t>(registry().size()) - 1;
}

// y (a fresh output computed from x without history) gets the node of backward
// `backward`, whose edges lead to x's history; returns y.
at::Tensor attach(const at::Tensor& x, at::Tensor y, int64_t backward) {
  TORCH_CHECK(backward >= 0 && backward < static_cast<int64_t>(registry().size()), "unregistered backward ",
              backward);
  auto node = make<PythonBackward>(torch::autograd::collect_next_edges(x), &registry()[backward]);
  torch::autograd::set_history(y, node);
  static_cast<PythonBackward*>(node.get())->saved_y = torch::autograd::SavedVariable(y, /*is_output=*/true);
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("register_backward", &register_backward,
        "Register fn(y, dy) -> dx as a backward (with the node's name and its no-double-backward message); "
        "returns its index");
  m.def("attach", &attach, "Give y (computed from x) the node of a registered backward; returns y");
}
