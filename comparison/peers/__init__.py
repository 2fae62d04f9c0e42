"""Peers: other implementations of the same operations, compared with this package's kernels.

Each module wraps one library behind the `comparison.backend.Backend` interface, with
``own = False``: a peer's disagreement with the float64 reference is a finding of the
comparison, not a failure of this package, and ``backend="auto"`` never picks a peer
(`comparison.registry.AUTO_ORDER`). Each is imported only when its backend is first
asked for, and says in `unavailable_reason()` why it cannot run when its library is
missing (install them with the extras ``pip install -e ".[liger]"`` / ``".[quack]"``).

* `torch_compile`: PyTorch's own ops through ``torch.compile`` (inductor: Triton on the
  GPU, C++ on the CPU), compiled once per shape outside the timed region.
* `liger`: Liger-Kernel's Triton softmax, forward and backward (CUDA).
* `quack`: QuACK's CuTe-DSL softmax, forward and backward (CUDA, sm_80 and newer).
"""
