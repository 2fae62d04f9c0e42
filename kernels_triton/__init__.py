"""Triton kernels for the `triton` backend, one file per kernel family.

Which file holds what:

* ``backend.py``: the `TritonBackend` (availability, devices and dtypes it takes).
* ``softmax.py``: the softmax / log-softmax op module the backend calls, their backward
  ops included (`VARIANTS`, `why_unsupported`, `plan`, `run`); ``softmax_policy.py``:
  which family `auto` runs, forward and backward.
* ``softmax_fused.py``: `fused`, whole rows in registers (plain, paired and segmented
  tiles), its launch parameters and thresholds; the backward's `fused` (rows of y and dy).
* ``softmax_online.py``: `online`, tiles with a running max and sum, then the output
  pass; the backward's `tiled` (the sum tile by tile, then dx).
* ``softmax_split.py``: `split`, a wide row's chunks in programs that exchange (max, sum);
  the backward's `split` (chunks of y and dy exchanging their parts of the sum).
* ``softmax_rows.py``: what the softmax families share about a row (ALIGN, exp2 scaling,
  the backward's per-element arithmetic).
* ``pairs.py``: 16-bit values held two per 32-bit word (`fused` on wide 16-bit rows).
* ``row_edges.py``: rows that start off a 16-byte boundary read as head, whole vectors
  and tail, or as whole vectors from the boundary before them (`fused`'s windows);
  ``shared_vectors.py``: `fused`'s tile for narrow contiguous such rows on GPUs of fast
  SMs, each vector two rows share loaded and stored once.
* ``reduce.py``: the reduction op module; ``reductions.py``: the row (`block`, `tiled`)
  and whole-tensor (`two_stage`) sum / max kernels with their launch parameters.
* ``launch.py``: what every launch shares: device guard, device limits, compiled
  resources and occupancy (one cache), persistent and 2-D grids, and `Family` (the
  interface a backward family presents under a forward module's names).
* ``grad_node.py``: the C++ autograd node (``csrc/grad_node.cpp``, built with the host
  compiler on first use) that an eager forward recording its gradient gets
  (`softmax.grad_runner`): it saves y and launches the backward `auto` on dy.
* ``downcast.py``: fp32 results stored as fp16/bf16, rounded to nearest even on every
  device (Triton's interpreter truncates bf16 on its own).

Import-light on purpose: nothing here imports Triton, queries a GPU or compiles; the
backend imports the op modules (`softmax`, `reduce`) on first use, and their kernels
compile on their first launch.
"""
