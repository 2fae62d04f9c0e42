"""The one interface every kernel family implements, and the registry that finds them.

A backend works on *canonical* tensors; `comparison.api` turns any user tensor into one:

* ``softmax`` / ``log_softmax``: a 2-D ``(rows, cols)`` tensor whose last dimension has
  stride 1; the row stride may be anything (offset and sliced views reach the kernels
  as they are). The result is a new contiguous ``(rows, cols)`` tensor.
* ``reduce_sum`` / ``reduce_max`` along a dimension: the same 2-D form, result ``(rows,)``.
* ``reduce_sum`` / ``reduce_max`` over the whole tensor: a contiguous 1-D tensor, result a
  0-dim tensor.

Backends are imported lazily by name, so importing `comparison` never imports Triton,
builds CUDA code or touches a GPU.
"""
from __future__ import annotations

import abc
from dataclasses import dataclass

import torch

OPS = ("softmax", "log_softmax", "reduce_sum", "reduce_max")
SOFTMAX_OPS = ("softmax", "log_softmax")
REDUCE_OPS = ("reduce_sum", "reduce_max")
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
        _check_op(op)
        fixed = self._variant_table().get(op)
        return [] if fixed is None else ["auto", *fixed]

    def check_variant(self, op: str, variant: str) -> None:
        names = self.variants(op)
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

    def supports(self, x: torch.Tensor, op: str, variant: str = "auto") -> Support:
        """Whether `op`/`variant` can serve `x` (viewed as rows along its last dimension)."""
        _check_op(op)
        why = self.unavailable_reason()
        if why is not None:
            return no(f"backend {self.name!r} is unavailable: {why}", BackendUnavailableError)
        names = self.variants(op)
        if variant not in names:
            valid = ", ".join(names) if names else "none"
            return no(f"backend {self.name!r} has no variant {variant!r} for {op!r} (valid: {valid})")
        why = self.device_reason(x)
        if why is not None:
            return no(why)
        if x.dtype not in self.dtypes:
            valid = ", ".join(str(d).replace("torch.", "") for d in self.dtypes)
            return no(f"backend {self.name!r} does not support dtype {x.dtype} (supported: {valid})", TypeError)
        return self._supports_canonical(x, op, variant)

    def _supports_canonical(self, x: torch.Tensor, op: str, variant: str) -> Support:
        """Shape-dependent limits of a variant (e.g. a row that does not fit); default: none."""
        return YES

    # -- the operation ----------------------------------------------------------------
    @abc.abstractmethod
    def run(self, x: torch.Tensor, op: str, variant: str = "auto") -> torch.Tensor:
        """Compute `op` on a canonical tensor (see the module docstring)."""

    def run_into(self, x: torch.Tensor, op: str, variant: str, out: torch.Tensor) -> torch.Tensor:
        """`run`, writing into `out` (used by checks that poison the output first).

        Backends whose kernels take an output buffer override this so the check sees
        exactly what the kernel wrote; the default copies.
        """
        return out.copy_(self.run(x, op, variant))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


def _check_op(op: str) -> None:
    if op not in OPS:
        raise ValueError(f"unknown op {op!r}; valid ops: {', '.join(OPS)}")
