"""The one interface every kernel family implements.

A backend computes on *canonical* tensors (`comparison.canonical`); `comparison.api`
turns any user tensor into one:

* ``softmax`` / ``log_softmax``: a 2-D ``(rows, cols)`` tensor whose last dimension has
  stride 1; the row stride may be anything (offset and sliced views reach the kernels
  as they are). The result is a new contiguous ``(rows, cols)`` tensor.
* ``softmax_backward`` / ``log_softmax_backward``: the forward's output ``y`` in that
  2-D form, and the incoming gradient ``dy`` of the same shape, dtype and device (unit
  column stride, any row stride); the result ``dx`` is a new contiguous tensor:
  softmax ``dx = y * (dy - sum(dy * y))``, log-softmax ``dx = dy - exp(y) * sum(dy)``,
  sums along each row.
* ``reduce_sum`` / ``reduce_max`` along dimensions: the same 2-D form (the reduced
  dimensions are the columns), result ``(rows,)``; over the whole tensor: a contiguous
  1-D tensor, result a 0-dim tensor.
"""
from __future__ import annotations

import abc
from dataclasses import dataclass

import torch

from .canonical import normalize_dim, normalize_dims, reduce_view, rows_view

SOFTMAX_OPS = ("softmax", "log_softmax")
BACKWARD_OPS = ("softmax_backward", "log_softmax_backward")
REDUCE_OPS = ("reduce_sum", "reduce_max")
OPS = (*SOFTMAX_OPS, *BACKWARD_OPS, *REDUCE_OPS)
ROW_OPS = (*SOFTMAX_OPS, *BACKWARD_OPS)  # an output of the input's shape
# The backward op of each forward op, and the reverse.
BACKWARD_OF = dict(zip(SOFTMAX_OPS, BACKWARD_OPS))
FORWARD_OF = dict(zip(BACKWARD_OPS, SOFTMAX_OPS))
KERNEL_DTYPES = (torch.float32, torch.float16, torch.bfloat16)


@dataclass(frozen=True)
class Support:
    """Truthy when an input can be served; falsy with a human-readable reason otherwise.

    ``error`` is the exception type an explicit request raises with that reason:
    TypeError for dtypes, ValueError for devices, shapes and variants.
    """

    ok: bool
    reason: str = ""
    error: type[Exception] = ValueError

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        return "supported" if self.ok else self.reason

    def raise_if_unsupported(self) -> None:
        if not self.ok:
            raise self.error(self.reason)


YES = Support(True)


def no(reason: str, error: type[Exception] = ValueError) -> Support:
    return Support(False, reason, error)


class BackendUnavailableError(RuntimeError):
    """An explicitly requested backend cannot run on this machine (the message says why)."""


class Backend(abc.ABC):
    """A family of kernels: its name, whether it can run here, its variants, and the ops.

    Subclasses implement `unavailable_reason`, `_variant_table`, `_supports_canonical`
    and `run`; the common checks (availability, op, variant, device, dtype) live here so
    every backend words them the same way.
    """

    name: str = ""
    dtypes: tuple[torch.dtype, ...] = KERNEL_DTYPES
    # True for this package's own kernel families; False for peers (torch and the other
    # libraries it is compared with), whose disagreements are findings, not failures.
    own: bool = False
    # True where "auto" serves every canonical shape of the backend's devices and dtypes
    # (the shape-dependent check is then skipped on the call path); tests/test_api.py
    # holds each backend that says so to it.
    auto_serves_every_shape: bool = False

    # -- availability ---------------------------------------------------------------
    @abc.abstractmethod
    def unavailable_reason(self) -> str | None:
        """None when the backend can run on this machine, else why not."""

    def is_available(self) -> bool:
        return self.unavailable_reason() is None

    # -- variants -------------------------------------------------------------------
    @abc.abstractmethod
    def _variant_table(self) -> dict[str, tuple[str, ...]]:
        """op -> fixed variant names (without "auto"); ops left out are not implemented."""

    def ops(self) -> list[str]:
        return [op for op in OPS if op in self._variant_table()]

    def variants(self, op: str) -> list[str]:
        """Variant names for `op`, "auto" first; empty when the op is not implemented."""
        return list(self._variant_names(op))

    def _variant_names(self, op: str) -> tuple[str, ...]:
        # The table is fixed once a backend's modules are imported: built once per op,
        # since every call asks (the per-call host cost of small calls).
        cache = self.__dict__.setdefault("_variant_names_cache", {})
        names = cache.get(op)
        if names is None:
            _check_op(op)
            fixed = self._variant_table().get(op)
            names = cache[op] = () if fixed is None else ("auto", *fixed)
        return names

    def check_variant(self, op: str, variant: str) -> None:
        names = self._variant_names(op)
        if not names:
            raise ValueError(f"backend {self.name!r} does not implement {op!r}")
        if variant not in names:
            raise ValueError(
                f"unknown variant {variant!r} for {op!r} on backend {self.name!r}; "
                f"valid variants: {', '.join(names)}"
            )

    # -- inputs ---------------------------------------------------------------------
    def device_reason(self, x: torch.Tensor) -> str | None:
        """None when this backend can run on x's device; kernel backends need CUDA."""
        if x.device.type != "cuda":
            return f"backend {self.name!r} needs a CUDA tensor, got a tensor on {x.device}"
        return None

    def dtypes_for(self, op: str) -> tuple[torch.dtype, ...]:
        """The input dtypes `op` serves (default: `dtypes` for every op)."""
        return self.dtypes

    def supports(self, x, op: str, variant: str = "auto", dim=-1) -> Support:
        """Whether `op`/`variant` can serve `x`, viewed as rows along `dim` (a tuple of dims,
        or None for the whole tensor, for reductions). Answers for any tensor, never raises
        for one: a falsy answer carries the reason."""
        _check_op(op)
        if not isinstance(x, torch.Tensor):
            return no(f"expected a torch.Tensor, got {type(x).__name__}", TypeError)
        basic = self.basic_support(x, op, variant)
        if not basic:
            return basic
        try:
            canonical = _canonical_for_question(x, op, dim)
        except (IndexError, TypeError, RuntimeError) as exc:
            return no(f"dim {dim!r} does not fit a tensor of shape {tuple(x.shape)}: {exc}", IndexError)
        return self._supports_canonical(canonical, op, variant)

    def supports_canonical(self, x: torch.Tensor, op: str, variant: str = "auto") -> Support:
        """`supports` for a tensor already in canonical form (the dispatch path: no view)."""
        basic = self.basic_support(x, op, variant)
        return self._supports_canonical(x, op, variant) if basic else basic

    def basic_support(self, x: torch.Tensor, op: str, variant: str) -> Support:
        """The checks that depend on no shape: availability, variant, device type, dtype."""
        if not self.__dict__.get("_found_available"):
            why = self.unavailable_reason()
            if why is not None:
                return no(f"backend {self.name!r} is unavailable: {why}", BackendUnavailableError)
            # A backend that could run once can run for the rest of the process: not
            # asking again saves the device and toolkit queries on every call.
            self._found_available = True
        names = self._variant_names(op)
        if variant not in names:
            valid = ", ".join(names) if names else "none"
            return no(f"backend {self.name!r} has no variant {variant!r} for {op!r} (valid: {valid})")
        why = self.device_reason(x)
        if why is not None:
            return no(why)
        dtypes = self.dtypes_for(op)
        if x.dtype not in dtypes:
            valid = ", ".join(str(d).replace("torch.", "") for d in dtypes)
            return no(f"backend {self.name!r} does not support dtype {x.dtype} for {op!r} "
                      f"(supported: {valid})", TypeError)
        return YES

    def _supports_canonical(self, x: torch.Tensor, op: str, variant: str) -> Support:
        """Shape-dependent limits of a variant (e.g. a row that does not fit); default: none."""
        return YES

    # -- the operation ----------------------------------------------------------------
    @abc.abstractmethod
    def run(self, x: torch.Tensor, op: str, variant: str = "auto", *, dy: torch.Tensor | None = None
            ) -> torch.Tensor:
        """Compute `op` on a canonical tensor (see the module docstring); backward ops take
        the forward output as `x` and the incoming gradient as `dy`."""

    def runner(self, op: str, variant: str):
        """``runner(x, dy)``: `run` of `op`/`variant` on a canonical tensor already checked
        (dy None for the forward ops), for the call path to keep per (op, variant, device
        type, dtype). Backends with a faster way to a kernel than `run` return that."""
        def run_checked(x: torch.Tensor, dy: torch.Tensor | None) -> torch.Tensor:
            return self.run(x, op, variant, dy=dy)
        return run_checked

    def grad_runner(self, op: str, variant: str):
        """``runner(x)`` for a softmax op whose result records its own gradient (a node
        whose backward runs this backend's backward kernel with `auto`), or None. A
        backend that returns one spares an eager training step the Python
        `torch.autograd.Function` (comparison.autograd), whose bookkeeping costs more than
        a small kernel; the call path uses it only where that Function would run the same
        backward on the same backend. Default: None."""
        return None

    def run_into(self, x: torch.Tensor, op: str, variant: str, out: torch.Tensor, *,
                 dy: torch.Tensor | None = None) -> torch.Tensor:
        """`run`, writing into `out` (used by checks that poison the output first).

        Backends whose kernels take an output buffer override this so the check sees
        exactly what the kernel wrote; the default copies.
        """
        return out.copy_(self.run(x, op, variant, dy=dy))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


def _check_op(op: str) -> None:
    if op not in OPS:
        raise ValueError(f"unknown op {op!r}; valid ops: {', '.join(OPS)}")


def _canonical_for_question(x: torch.Tensor, op: str, dim) -> torch.Tensor:
    """The canonical tensor a call with `dim` would hand the backend (see `supports`)."""
    if op in REDUCE_OPS:
        return reduce_view(x, normalize_dims(dim, x.dim()))
    return rows_view(x, normalize_dim(dim, x.dim()))
