"""Public API semantics and error messages, on the always-available torch backend."""
import pytest
import torch

import comparison
from comparison import get_backend, list_backends, log_softmax, reduce_max, reduce_sum, softmax
from comparison.inputs import make_rows


def test_registry_lists_every_backend():
    assert list_backends() == ["cuda", "triton", "torch"]
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
    torch.testing.assert_close(reduce_sum(x, backend="torch"), x.sum(-1))
    torch.testing.assert_close(reduce_max(x, 0, backend="torch"), x.amax(0))
    torch.testing.assert_close(reduce_sum(x, None, backend="torch"), x.sum())
    assert reduce_sum(torch.empty(0), None, backend="torch").item() == 0
    assert reduce_sum(torch.empty(3, 0), -1, backend="torch").shape == (3,)
    with pytest.raises(IndexError, match="non-zero size"):
        reduce_max(torch.empty(3, 0), -1, backend="torch")
    with pytest.raises(RuntimeError, match="numel"):
        reduce_max(torch.empty(0), None, backend="torch")
    assert torch.isnan(reduce_max(torch.tensor([1.0, float("nan"), 2.0]), None, backend="torch"))


def test_gradients_flow_through_the_kernels():
    x = torch.randn(3, 11, requires_grad=True)
    y = torch.tensor([[1.0, 3.0, 3.0], [2.0, 0.0, 1.0]], requires_grad=True)  # a tie in row 0
    for fn, ref, args in [(reduce_sum, torch.sum, (-1,)), (reduce_max, torch.amax, (-1,)),
                          (reduce_sum, torch.sum, (None,)), (reduce_max, torch.amax, (0,))]:
        (g,) = torch.autograd.grad(fn(y, *args, backend="torch").sum(), y)
        (r,) = torch.autograd.grad((ref(y, *args) if args[0] is not None else ref(y)).sum(), y)
        torch.testing.assert_close(g, r)
    for fn, ref in [(softmax, torch.softmax), (log_softmax, torch.log_softmax)]:
        w = torch.randn(3, 11)
        (gx,) = torch.autograd.grad((fn(x, backend="torch") * w).sum(), x)
        (gr,) = torch.autograd.grad((ref(x, -1) * w).sum(), x)
        torch.testing.assert_close(gx, gr)


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


def test_ops_compile_fullgraph_with_gradients():
    """torch.compile sees each op as one registered custom op (torch.library)."""
    def f(x):
        return (softmax(x, backend="torch") * 2 + log_softmax(x, 0, backend="torch")).sum() + reduce_sum(x, None, backend="torch") + reduce_max(x, -1, backend="torch").sum()

    compiled = torch.compile(f, fullgraph=True, backend="aot_eager")
    x = torch.randn(4, 9, requires_grad=True)
    torch.testing.assert_close(compiled(x), f(x))
    (g_compiled,) = torch.autograd.grad(compiled(x), x)
    (g_eager,) = torch.autograd.grad(f(x), x)
    torch.testing.assert_close(g_compiled, g_eager)
