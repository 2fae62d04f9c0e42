"""Shared plumbing for kernel families built from op modules.

A kernel package lists its op modules (e.g. ``softmax``, ``reduce``); each module exposes

    VARIANTS: dict[str, tuple[str, ...]]      # op -> fixed variant names ("auto" implied)
    why_unsupported(x, op, variant) -> str | None
    run(x, op, variant, out=None[, dy=None]) -> torch.Tensor   # dy: backward ops only

on canonical tensors (see `comparison.backend`), device and dtype already checked.
Modules are imported on first use, so listing backends never compiles anything.
"""
from __future__ import annotations

import importlib
import inspect
import importlib.util

import torch

from .backend import YES, Backend, Support, no


class ModuleBackend(Backend):
    own = True
    auto_serves_every_shape = True  # each family's auto plans any width (kernels_*/softmax.py)
    package: str = ""
    modules: tuple[str, ...] = ()

    def __init__(self) -> None:
        self._loaded: dict[str, object] | None = None
        self._op_module: dict[str, object] = {}

    def _load(self) -> dict[str, object]:
        if self._loaded is None:
            self._loaded = {}
            for name in self.modules:
                qualified = f"{self.package}.{name}"
                if importlib.util.find_spec(qualified) is None:
                    continue  # an op module this checkout does not ship: its ops are not offered
                self._loaded[name] = importlib.import_module(qualified)
            for mod in self._loaded.values():
                for op in mod.VARIANTS:
                    self._op_module[op] = mod
        return self._loaded

    def _variant_table(self) -> dict[str, tuple[str, ...]]:
        self._load()
        return {op: tuple(mod.VARIANTS[op]) for op, mod in self._op_module.items()}

    def _supports_canonical(self, x: torch.Tensor, op: str, variant: str) -> Support:
        why = self._op_module[op].why_unsupported(x, op, variant)
        return YES if why is None else no(why)

    def run(self, x: torch.Tensor, op: str, variant: str = "auto", *, dy: torch.Tensor | None = None
            ) -> torch.Tensor:
        self._load()
        if dy is None:
            return self._op_module[op].run(x, op, variant)
        return self._op_module[op].run(x, op, variant, dy=dy)

    def runner(self, op: str, variant: str):
        """The op module's own `runner(op, variant)` where it has one (its shortest way to
        the kernel), else its `run`."""
        self._load()
        module = self._op_module[op]
        if hasattr(module, "runner"):
            return module.runner(op, variant)

        def run_checked(x: torch.Tensor, dy: torch.Tensor | None) -> torch.Tensor:
            return module.run(x, op, variant) if dy is None else module.run(x, op, variant, dy=dy)
        return run_checked

    def grad_runner(self, op: str, variant: str):
        """The op module's `grad_runner(op, variant)` where it has one, else None."""
        self._load()
        module = self._op_module[op]
        return module.grad_runner(op, variant) if hasattr(module, "grad_runner") else None

    def run_into(self, x: torch.Tensor, op: str, variant: str, out: torch.Tensor, *,
                 dy: torch.Tensor | None = None) -> torch.Tensor:
        self._load()
        module = self._op_module[op]
        if "out" not in inspect.signature(module.run).parameters:
            return super().run_into(x, op, variant, out, dy=dy)
        if dy is None:
            return module.run(x, op, variant, out=out)
        return module.run(x, op, variant, out=out, dy=dy)
