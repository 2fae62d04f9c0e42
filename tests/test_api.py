"""Public API semantics and error messages, on the always-available torch backend."""
import pytest
import torch

import comparison
from comparison import get_backend, list_backends, log_softmax, reduce_max, reduce_sum, softmax
from comparison.inputs import make_rows


def test_registry_lists_every_backend():
    assert list_backends()[:3] == ["cuda", "triton", "torch"]
    for name in list_backends():
        backend = get_backend(name)
        assert backend.name == name
        assert isinstance(backend.is_available(), bool)
        reason = backend.unavailable_reason()
        assert backend.is_available() == (reason is None)
        if reason is not None:
            assert isinstance(reason, str) and reason


def test_torch_backend_variants_contain_auto():
    torch_backend = get_backend("torch")
    for op in comparison.OPS:
        assert torch_backend.variants(op) == ["auto"]
    assert comparison.OPS == ("softmax", "log_softmax", "softmax_backward", "log_softmax_backward",
                              "reduce_sum", "reduce_max")


@pytest.mark.parametrize("fn, ref", [(softmax, torch.softmax), (log_softmax, torch.log_softmax)])
@pytest.mark.parametrize("shape, dim", [
    ((7, 33), -1), ((7, 33), 0), ((2, 3, 5), 1), ((2, 3, 5), -3), ((5,), 0), ((), 0), ((), -1),
])
def test_softmax_semantics_match_torch(fn, ref, shape, dim):
    x = torch.randn(shape) * 4 + 1
    before = x.clone()
    y = fn(x, dim, backend="torch")
    assert y.shape == x.shape and y.is_contiguous()
    torch.testing.assert_close(y, ref(x, dim))
    assert torch.equal(x, before)


def test_dtype_casts_before_computing():
    x = torch.randn(4, 9, dtype=torch.float16)
    y = softmax(x, -1, dtype=torch.float32, backend="torch")
    assert y.dtype == torch.float32
    torch.testing.assert_close(y, torch.softmax(x.float(), -1))


def test_views_and_empty_tensors():
    base = torch.randn(6, 40)
    view = base[1:, 3:35]                      # offset, non-contiguous rows
    torch.testing.assert_close(softmax(view, backend="torch"), torch.softmax(view, -1))
    torch.testing.assert_close(softmax(base.t(), 1, backend="torch"), torch.softmax(base.t(), 1))
    for shape in [(0,), (0, 5), (5, 0), (2, 0, 3)]:
        e = torch.empty(shape)
        assert softmax(e, -1, backend="torch").shape == e.shape
        assert log_softmax(e, 0, backend="torch").shape == e.shape


def test_special_values_match_torch():
    x = torch.tensor([[-float("inf")] * 4, [1.0, float("inf"), 2.0, 3.0], [1.0, float("nan"), 0.0, 2.0],
                      [0.0, 1.0, 2.0, 3.0]])
    for fn, ref in [(softmax, torch.softmax), (log_softmax, torch.log_softmax)]:
        torch.testing.assert_close(fn(x, backend="torch"), ref(x, -1), equal_nan=True)


def test_reductions_match_torch():
    x = make_rows(5, 37, torch.float32)
    torch.testing.assert_close(reduce_sum(x, -1, backend="torch"), x.sum(-1))
    torch.testing.assert_close(reduce_max(x, 0, backend="torch"), x.amax(0))
    torch.testing.assert_close(reduce_sum(x, None, backend="torch"), x.sum())
    assert reduce_sum(torch.empty(0), None, backend="torch").item() == 0
    assert reduce_sum(torch.empty(3, 0), -1, backend="torch").shape == (3,)
    with pytest.raises(IndexError, match="non-zero size"):
        reduce_max(torch.empty(3, 0), -1, backend="torch")
    with pytest.raises(RuntimeError, match="numel"):
        reduce_max(torch.empty(0), None, backend="torch")
    assert torch.isnan(reduce_max(torch.tensor([1.0, float("nan"), 2.0]), None, backend="torch"))


@pytest.mark.parametrize("fn, ref", [(reduce_sum, torch.sum), (reduce_max, torch.amax)])
@pytest.mark.parametrize("dim", [None, 0, -1, 1, (0, 2), (2, 0), [1, 2], (0, 1, 2), ()])
@pytest.mark.parametrize("keepdim", [False, True])
def test_reductions_take_what_torch_takes(fn, ref, dim, keepdim):
    x = make_rows(4 * 3, 5, torch.float32).reshape(4, 3, 5)
    got = fn(x, dim, keepdim, backend="torch")
    if dim is None:
        expected = ref(x).reshape([1] * x.dim()) if keepdim else ref(x)
    else:
        expected = ref(x, dim, keepdim=keepdim)
    assert got.shape == expected.shape
    torch.testing.assert_close(got, expected)


def test_reductions_without_dim_reduce_the_whole_tensor_like_torch():
    x = make_rows(6, 7, torch.float32)
    assert reduce_sum(x).shape == () and reduce_max(x).shape == ()
    torch.testing.assert_close(reduce_sum(x), torch.sum(x))
    torch.testing.assert_close(reduce_max(x), torch.amax(x))


@pytest.mark.parametrize("dtype", [torch.int32, torch.int64, torch.uint8, torch.bool])
def test_integer_and_bool_reductions_like_torch(dtype):
    x = (torch.arange(24).reshape(4, 6) % 5).to(dtype)
    for dim in (None, 1, (0, 1)):
        s = reduce_sum(x, dim)
        assert s.dtype == torch.sum(x, dim=dim).dtype == torch.int64
        assert torch.equal(s, torch.sum(x, dim=dim))
        m = reduce_max(x, dim)
        assert m.dtype == dtype and torch.equal(m, torch.amax(x, dim=() if dim is None else dim))


def test_reduction_argument_errors_like_torch():
    x = torch.randn(3, 4)
    with pytest.raises(RuntimeError, match="multiple times"):
        reduce_sum(x, (1, -1))
    with pytest.raises(IndexError, match="Dimension out of range"):
        reduce_sum(x, (0, 2))
    with pytest.raises(TypeError, match="keepdim must be a bool"):
        reduce_sum(x, 0, "yes")


def test_gradients_flow_through_the_kernels():
    x = torch.randn(3, 11, requires_grad=True)
    y = torch.tensor([[1.0, 3.0, 3.0], [2.0, 0.0, 1.0]], requires_grad=True)  # a tie in row 0
    for fn, ref, args in [(reduce_sum, torch.sum, (-1,)), (reduce_max, torch.amax, (-1,)),
                          (reduce_sum, torch.sum, (None,)), (reduce_max, torch.amax, (0,)),
                          (reduce_sum, torch.sum, ((0, 1), True)), (reduce_max, torch.amax, (1, True))]:
        (g,) = torch.autograd.grad(fn(y, *args, backend="torch").sum(), y)
        (r,) = torch.autograd.grad((ref(y, *args) if args[0] is not None else ref(y)).sum(), y)
        torch.testing.assert_close(g, r)
    for fn, ref in [(softmax, torch.softmax), (log_softmax, torch.log_softmax)]:
        w = torch.randn(3, 11)
        (gx,) = torch.autograd.grad((fn(x, backend="torch") * w).sum(), x)
        (gr,) = torch.autograd.grad((ref(x, -1) * w).sum(), x)
        torch.testing.assert_close(gx, gr)


@pytest.mark.parametrize("shape, dim", [((7, 33), -1), ((7, 33), 0), ((2, 3, 5), 1), ((5,), 0), ((), 0),
                                        ((0, 4), 1), ((4, 0), 1)])
@pytest.mark.parametrize("log", [False, True])
def test_backward_ops_match_torch(shape, dim, log):
    x = torch.randn(shape) * 3
    y = (torch.log_softmax if log else torch.softmax)(x, dim)
    dy = torch.randn(shape)
    fn = comparison.log_softmax_backward if log else comparison.softmax_backward
    ref = torch._log_softmax_backward_data if log else torch._softmax_backward_data
    before = (y.clone(), dy.clone())
    dx = fn(y, dy, dim, backend="torch")
    assert dx.shape == y.shape and dx.is_contiguous()
    torch.testing.assert_close(dx, ref(dy, y, dim % max(y.dim(), 1), y.dtype))
    assert torch.equal(y, before[0]) and torch.equal(dy, before[1])


def test_backward_ops_on_views():
    base = torch.randn(6, 40)
    y = torch.softmax(base, -1)[1:, 3:35]       # offset rows, row stride 40
    dy = torch.randn(40, 5).t()[:, :32]          # column stride 5: not unit
    expected = torch._softmax_backward_data(dy, y, -1, y.dtype)
    torch.testing.assert_close(comparison.softmax_backward(y, dy, backend="torch"), expected)


def test_backward_ops_check_their_arguments():
    y, dy = torch.softmax(torch.randn(3, 4), -1), torch.randn(3, 4)
    with pytest.raises(ValueError, match="dy has shape"):
        comparison.softmax_backward(y, dy[:, :3])
    with pytest.raises(TypeError, match="dy has dtype"):
        comparison.softmax_backward(y, dy.double())
    with pytest.raises(TypeError, match="expected a torch.Tensor"):
        comparison.softmax_backward(y, [1.0])
    with pytest.raises(IndexError, match="Dimension out of range"):
        comparison.log_softmax_backward(y, dy, 2)
    with pytest.raises(ValueError, match="unknown variant"):
        comparison.softmax_backward(y, dy, backend="torch", variant="fast")


def test_supports_always_answers():
    """For every backend, op and variant, and tensors of every kind: an answer, never an exception."""
    tensors = [torch.randn(5), torch.tensor(1.0), torch.empty(0), torch.empty(0, 4), torch.empty(4, 0),
               torch.randn(2, 3, 4), torch.randn(8, 6)[::2, 1:], torch.randn(6, 8).t(),
               torch.arange(6).reshape(2, 3), torch.ones(2, 3, dtype=torch.bool), torch.randn(3, 3).double()]
    for name in list_backends():
        backend = get_backend(name)
        for op in comparison.OPS:
            for variant in backend.variants(op) or ["auto"]:
                for x in tensors:
                    for dim in ([-1, None, (0,)] if op.startswith("reduce") else [-1, 0]):
                        answer = backend.supports(x, op, variant, dim=dim)
                        assert bool(answer) or answer.reason, (name, op, variant, tuple(x.shape), dim)
        assert not backend.supports(torch.randn(3), "softmax", "auto", dim=3)
        assert not backend.supports("not a tensor", "softmax")


def test_auto_serves_every_shape_where_a_backend_says_so():
    """The call path skips the shape check of "auto" on backends that set
    `auto_serves_every_shape` (comparison/dispatch.py): each must answer yes for every
    canonical tensor of its dtypes, whatever its width, rows or row stride."""
    from comparison.backend import REDUCE_OPS, ROW_OPS

    claiming = [name for name in list_backends() if get_backend(name).auto_serves_every_shape]
    assert {"cuda", "triton", "torch"} <= set(claiming)
    assert not {"liger", "quack"} & set(claiming)  # peers with width limits
    canonical = [torch.randn(1, 1), torch.randn(3, 97), torch.randn(2, 1 << 20), torch.randn(4, 1030)[:, 3:1003],
                 torch.randn(8, 64)[::2], torch.empty(0, 7), torch.empty(5, 0)]
    devices = ["cpu", "cuda"] if torch.cuda.is_available() else ["cpu"]
    asked = set()
    for name in claiming:
        backend = get_backend(name)
        for device in devices:
            if not backend.is_available() or backend.device_reason(torch.empty(0, device=device)) is not None:
                continue  # the claim is about the devices a backend serves
            asked.add(name)
            for op in (*ROW_OPS, *REDUCE_OPS):
                # Reductions also take the whole-tensor form: a contiguous 1-D tensor.
                forms = canonical + [torch.randn(1), torch.randn(100_003)] if op in REDUCE_OPS else canonical
                for dtype in (d for d in backend.dtypes_for(op) if d.is_floating_point):
                    for x in forms:
                        x = x.to(device, dtype)
                        answer = backend.supports_canonical(x, op, "auto")
                        assert answer, (name, op, dtype, device, tuple(x.shape), x.stride(), answer.reason)
    assert "torch" in asked


def test_refusals_are_not_remembered_as_routes():
    """The call path remembers checked (backend, op, variant, device, dtype) routes: a
    refused call must be refused again, and a good route must not serve another dtype."""
    for _ in range(2):
        with pytest.raises((ValueError, RuntimeError), match="cuda"):
            softmax(torch.randn(2, 3), backend="cuda")
    softmax(torch.randn(2, 3), backend="torch")
    for _ in range(2):
        with pytest.raises(TypeError, match="does not support dtype torch.int64"):
            softmax(torch.arange(6).reshape(2, 3), backend="torch")


def test_get_backend_auto_explains_itself():
    with pytest.raises(ValueError, match="'auto' is not a backend") as info:
        get_backend("auto")
    assert "valid backends: auto" not in str(info.value)


def test_dtype_must_be_a_torch_dtype():
    with pytest.raises(TypeError, match="dtype must be a torch.dtype"):
        softmax(torch.randn(2, 3), dtype="float16")


def test_unknown_backend_lists_valid_names():
    with pytest.raises(ValueError, match="unknown backend 'nope'.*torch"):
        softmax(torch.randn(2, 3), backend="nope")


def test_unknown_variant_lists_valid_names():
    with pytest.raises(ValueError, match="unknown variant 'fast'.*auto"):
        softmax(torch.randn(2, 3), backend="torch", variant="fast")
    with pytest.raises(ValueError, match="pass backend="):
        softmax(torch.randn(2, 3), variant="online")


def test_dim_out_of_range_is_an_index_error():
    with pytest.raises(IndexError, match="Dimension out of range"):
        softmax(torch.randn(2, 3), dim=2, backend="torch")
    with pytest.raises(IndexError, match="Dimension out of range"):
        reduce_sum(torch.randn(2, 3), dim=-3, backend="torch")


def test_unsupported_dtype_is_a_type_error():
    with pytest.raises(TypeError, match="does not support dtype torch.int64"):
        softmax(torch.arange(6).reshape(2, 3), backend="torch")
    with pytest.raises(TypeError, match="expected a torch.Tensor"):
        softmax([1.0, 2.0])


def test_cuda_backend_refuses_cpu_tensors_with_a_reason():
    cuda = get_backend("cuda")
    support = cuda.supports(torch.randn(2, 3), "softmax")
    assert not support and support.reason
    with pytest.raises((ValueError, RuntimeError)) as info:
        softmax(torch.randn(2, 3), backend="cuda")
    assert "cuda" in str(info.value).lower()


def test_auto_uses_torch_off_the_gpu():
    x = torch.randn(3, 5)
    torch.testing.assert_close(softmax(x), torch.softmax(x, -1))


@pytest.mark.parametrize("backend", ["torch", "auto"])
def test_ops_compile_fullgraph_with_gradients(backend):
    """torch.compile sees each kernel call as one registered custom op (torch.library), and
    the gradients (backward kernels included) without graph breaks."""
    def f(x):
        return ((softmax(x, backend=backend) * 2 + log_softmax(x, 0, backend=backend)).sum()
                + reduce_sum(x, None, backend=backend) + reduce_max(x, -1, backend=backend).sum()
                + reduce_sum(x, (0, 1), True, backend=backend).sum())

    compiled = torch.compile(f, fullgraph=True, backend="aot_eager")
    x = torch.randn(4, 9, requires_grad=True)
    torch.testing.assert_close(compiled(x), f(x))
    (g_compiled,) = torch.autograd.grad(compiled(x), x)
    (g_eager,) = torch.autograd.grad(f(x), x)
    torch.testing.assert_close(g_compiled, g_eager)
    (g_torch,) = torch.autograd.grad((torch.softmax(x, -1) * 2 + torch.log_softmax(x, 0)).sum()
                                     + x.sum() + x.amax(-1).sum() + x.sum(), x)
    torch.testing.assert_close(g_compiled, g_torch)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=["fp32", "bf16"])
@pytest.mark.parametrize("backend", ["cuda", "triton"])
def test_training_step_compiles_fullgraph(backend, dtype):
    """A training step of softmax and log-softmax through torch.compile (inductor, the
    default) without a graph break, on a GPU (CPU: Triton's interpreter): the backend's
    forward and backward kernels run as custom ops, and the gradient is as close to
    float64 autograd as torch's own (twice its error, plus a floor). Naming a backend
    not yet loaded once broke the graph (its module was imported while tracing)."""
    device = "cuda" if torch.cuda.is_available() else "cpu"
    if not get_backend(backend).is_available() or (device == "cpu" and backend == "cuda"):
        pytest.skip(f"{backend} does not run here: {get_backend(backend).unavailable_reason() or 'CPU tensors'}")
    torch._dynamo.reset()
    cols = 3000 if device == "cuda" else 300

    def loss(x, w, softmax_fn, log_softmax_fn):
        p, q = softmax_fn(x * w), log_softmax_fn(x)
        return (p.float() * torch.arange(cols, device=device)).sum() + q.float().square().mean()

    def step(x, w):
        return loss(x, w, lambda t: softmax(t, backend=backend), lambda t: log_softmax(t, 0, backend=backend))

    x0 = make_rows(64, cols, dtype, device, seed=3) / 8
    w = torch.full_like(x0, 1.5)
    grads = []
    for fn, x in ((torch.compile(step, fullgraph=True), x0.clone()),
                  (lambda x, w: loss(x, w, lambda t: torch.softmax(t, -1), lambda t: torch.log_softmax(t, 0)),
                   x0.clone()),
                  (lambda x, w: loss(x, w, lambda t: torch.softmax(t, -1), lambda t: torch.log_softmax(t, 0)),
                   x0.double())):
        x.requires_grad_()
        grads.append(torch.autograd.grad(fn(x, w.to(x.dtype)), x)[0].double())
    ours, theirs, exact = grads
    err, torch_err = (ours - exact).abs().max().item(), (theirs - exact).abs().max().item()
    assert err <= 2 * torch_err + 4 * 2.0 ** -24 * exact.abs().max().item(), (err, torch_err)


def test_backward_ops_compile_fullgraph():
    def f(y, dy):
        return comparison.softmax_backward(y, dy, backend="torch") + comparison.log_softmax_backward(y, dy, 0)

    y, dy = torch.softmax(torch.randn(4, 9), -1), torch.randn(4, 9)
    torch.testing.assert_close(torch.compile(f, fullgraph=True, backend="aot_eager")(y, dy), f(y, dy))


def test_backward_backend_carries_dynamos_constant_mark():
    """autograd marks backward_backend constant for dynamo without importing dynamo (which
    imports Triton) at `import comparison`: the mark must be what torch's decorator sets."""
    import torch._dynamo

    from comparison import autograd

    marked = torch._dynamo.assume_constant_result(lambda: 0)
    expected = {k: v for k, v in vars(marked).items()}
    assert expected, "torch's assume_constant_result sets no attribute any more: use it directly"
    assert {k: getattr(autograd.backward_backend, k, None) for k in expected} == expected


def test_a_backends_grad_runner_records_eager_gradients(monkeypatch):
    """Where a backend offers `grad_runner` (the cuda backend's is C++), an eager forward
    that records its gradient goes through it, views included; named variants, no-grad
    calls and empty inputs do not, and under it the result is what the Function gives."""
    from comparison import dispatch
    torch_backend = get_backend("torch")
    calls = []

    def grad_runner(op, variant):
        fn = torch.log_softmax if op == "log_softmax" else torch.softmax

        def run(x2d):
            calls.append((op, tuple(x2d.shape)))
            return fn(x2d, 1)
        return run
    monkeypatch.setattr(dispatch, "_GRAD_ROUTES", {})
    monkeypatch.setattr(torch_backend, "grad_runner", grad_runner)
    for fn, ref in [(softmax, torch.softmax), (log_softmax, torch.log_softmax)]:
        for shape, dim in [((3, 11), -1), ((2, 5, 7), 1), ((6,), 0)]:
            x = torch.randn(shape, requires_grad=True)
            w = torch.randn(shape)
            calls.clear()
            (g,) = torch.autograd.grad((fn(x, dim, backend="torch") * w).sum(), x)
            assert len(calls) == 1, (shape, dim, calls)
            (r,) = torch.autograd.grad((ref(x, dim) * w).sum(), x)
            torch.testing.assert_close(g, r)
    calls.clear()
    x = torch.randn(3, 11, requires_grad=True)
    with torch.no_grad():
        softmax(x, backend="torch")
    softmax(torch.empty(0, 4, requires_grad=True), backend="torch")
    assert calls == []
    assert "SoftmaxFunction" in type(softmax(torch.empty(0, 4, requires_grad=True), backend="torch").grad_fn).__name__


def test_the_torch_backends_gradient_is_torchs_own_node():
    """The torch backend's forward records torch's own node (its backward is the
    `softmax_backward` op of that backend, torch._softmax_backward_data), not the Python
    Function: the same gradient as plain torch, bit for bit, on rows along the last dim."""
    from comparison import dispatch
    dispatch._GRAD_ROUTES.clear()
    for fn, ref, node in [(softmax, torch.softmax, "SoftmaxBackward0"),
                          (log_softmax, torch.log_softmax, "LogSoftmaxBackward0")]:
        for dtype in (torch.float32, torch.bfloat16):
            x = torch.randn(4, 37, dtype=dtype, requires_grad=True)
            dy = torch.randn(4, 37, dtype=dtype)
            y = fn(x, backend="torch")
            assert type(y.grad_fn).__name__ == node, y.grad_fn
            (g,) = torch.autograd.grad(y, x, dy)
            (r,) = torch.autograd.grad(ref(x, -1), x, dy)
            assert torch.equal(g, r), (fn, dtype)
        x3 = torch.randn(3, 5, 4, dtype=torch.float64, requires_grad=True)
        dy3 = torch.randn(3, 5, 4, dtype=torch.float64)
        (g,) = torch.autograd.grad(fn(x3, 1, backend="torch"), x3, dy3)
        (r,) = torch.autograd.grad(ref(x3, 1), x3, dy3)
        torch.testing.assert_close(g, r)


def test_grad_runner_is_not_used_where_the_backward_would_run_elsewhere(monkeypatch):
    """A backend without backward kernels has its gradient run on auto's choice by the
    Function: its grad_runner (which would run its own backward) must not be used."""
    from comparison import dispatch
    torch_backend = get_backend("torch")
    monkeypatch.setattr(dispatch, "_GRAD_ROUTES", {})
    monkeypatch.setattr(torch_backend, "grad_runner", lambda op, variant: pytest.fail("used"))
    monkeypatch.setattr(torch_backend, "variants", lambda op: [] if op.endswith("backward") else ["auto"])
    x = torch.randn(2, 5, requires_grad=True)
    assert dispatch.grad_runner("torch", x, "softmax", "auto") is None
