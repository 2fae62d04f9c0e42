"""Softmax `split_oneshot`: a wide row cut over the programs of a one-shot grid, each
program one chunk of one row, with no program waiting on the GPU's slowest SM.

`split` (softmax_split.py) holds a row's chunks in a persistent grid: a group of SPLIT
programs, one per SM at the widest rows, exchange every row's (max, sum) and wait for
each other, so each row is a barrier over programs on every SM and the slowest SM sets
the pace of every row. Here the grid is rows x K programs, each short-lived: it takes a
ticket as it starts (an atomic add on the workspace's first word), and ticket n is chunk
n % K of row n // K. It loads that chunk, publishes its pair (softmax_split._pair_word;
backward: its part of the row's sum, _sum_word), polls the row's K words, merges them,
writes its chunk of the output and exits; the SM then starts another program. A slow SM
delays only its own programs while the others take more tickets.

No deadlock, in whatever order the hardware starts programs: tickets go out in the
order programs start, so every row but the latest ticket's has all its programs started
(running or done), and only that row's programs can wait for one not yet started, which
gets a slot as long as K programs fit the GPU at once. The plan checks that against the
compiled kernel's occupancy (`regroup` widens the chunks where it does not hold).

The workspace (1 + rows x K int64 words) is `split`'s exchange buffer, all -1 between
launches: a fill on the launch's stream puts this launch's words back after it
(`_launch`), one more launch per call, which costs wide calls little (0.1-1 % of copy at
1 GiB). Rows of one chunk (K = 1, and every row under the interpreter, whose programs run
one after another) take the program id as their ticket and exchange nothing.

Chunks are ONESHOT_CHUNK units at ONESHOT_[BWD_]VALUES_PER_THREAD a thread (forward:
the fp32 exps held across the wait; backward: y's and dy's values), at most
ONESHOT_MAX_PARTS per row, wider where a row has more; half as wide (over half the
warps) for rows held as pairs that pad fewer words so, and for the fp16 softmax backward
on GPUs of slower SMs (`chunk_units`, by the GPU's DRAM bandwidth per SM and the op). A
unit is a value, or for 16-bit rows of an even width and row strides starting on 4-byte
boundaries (`paired`) a 32-bit word of two values (pairs.py): such rows are held as
loaded, half the registers of their fp32 widening, and widened again in each pass. The
softmax backward sums y * dy over such words in chains of inline PTX (`_grad_terms`).
"""
from __future__ import annotations

import torch
import triton
import triton.language as tl

from . import downcast, launch, pairs, softmax_rows, softmax_split
from .softmax_rows import LOG2E

# Measurements quoted below: 1 GiB inputs, % of the copy bandwidth measured in the same run.
# Prototype: benchmarks/tuning/triton_oneshot_split.py (benchmarks/h200_2026-11-27d/,
# h100_2026-11-27d/ triton_oneshot_prototype_*.txt); the package's kernels:
# benchmarks/tuning/triton_oneshot_geometry.py (oneshot_geometry_*.txt there), whose
# timings include the host's time per call (do_bench), so they rank geometries but
# understate them all against `split`'s bound launch (and were taken with a poll of K
# lanes, before `poll_lanes`). What `auto` gains with this geometry: softmax_policy.py.

# Forward chunks: 8192 values at 64 a thread (4 warps, 100-110 registers, 4 programs per
# SM: 128 KiB of fp32 chunks resident per SM; 5 and 160 KiB under ONESHOT_MAX_REGISTERS).
# H200, fp32 65536 / 131072 / 262144 / 524288 / 1048576 (uncapped): 92.0 / 90.1 / 87.2 /
# 84.2 / 80.4, against 90.5 / 85.7 / 78.3 / 75.9 / 71.6 at 32 a thread (62 registers, 4
# per SM: half the bytes resident) and 89.8 / 89.3 / 85.2 / 78.9 / 73.2 for 16384-value
# chunks at 64 (2 per SM). The prototype's same geometry, H100 fp32 262144 / 524288 /
# 1048576: 98.5 / 97.7 / 94.2.
ONESHOT_CHUNK = 8192
ONESHOT_VALUES_PER_THREAD = 64
# The backward holds y's and dy's values: 64 of each a thread over 8192-value chunks (4
# warps, 161-165 registers, 3 programs per SM). H200, fp32 65536 ... 1048576: 101.2 /
# 99.1 / 96.1 / 93.3 / 89.8, against 90.1 / 84.1 / 76.1 / 71.3 / 64.4 at 32 a thread
# (8 warps, 2 per SM), 96.5 / 92.1 / 90.7 / 88.7 / 64.3 for 4096-value chunks at 32 (5 per
# SM, but 2 at 1048576: 128 chunks poll 128 words), 88.3-70.5 for 16384 at 64 (1 per SM).
# 16-bit rows held as pairs (`paired`) take the same geometry in words: 8192-word chunks
# (16384 values) at 64 words a thread, 4 warps (sm_90, Triton 3.6: 107-120 registers and
# 4 programs per SM forward, 165-168 and 3 backward). H100 / H200, bf16, 131072 / 524288 /
# 1048576 (benchmarks/h100_2026-11-27e/, h200_2026-11-27e/ pairs_geometry_*.txt):
#   forward  98.6 / 96.9 / 95.4, 89.9 / 86.7 / 83.5; 4096 words at 32 (7 per SM) 98.3 /
#            96.2 / 93.2, 89.7 / 84.4 / 78.2; 16384 at 64 (2 per SM) 98.3 / 95.7 / 94.3,
#            88.0 / 83.4 / 80.1
#   backward 100.9 / 100.9 / 100.3, 100.2 / 95.2 / 89.5; 4096 at 64 (6 per SM) 100.9 /
#            100.4 / 97.2, 98.3 / 92.5 / 77.7; 4096 at 32 100.3 / 99.2 / 95.9, 94.4 / 88.8
#            / 78.8
# Held as fp32 values instead (before pairs), bf16 trailed `split` (H200 forward 82.9-69.4).
ONESHOT_BWD_VALUES_PER_THREAD = 64
# Rows held as pairs take chunks of half the words (`chunk_units`: 4096 words, 2 warps at
# 64 a thread, twice the programs per SM: the same bytes resident) where that pads fewer
# words, for rows of at most ONESHOT_NARROW_MAX_UNITS words: on GPUs of
# softmax_split.SPLIT_FAST_SM_BANDWIDTH or more of DRAM bandwidth per SM (`fast_sm`: the
# H200) at any fill, elsewhere where 8192-word chunks would be at most
# ONESHOT_NARROW_FILL full (the log-softmax backward: on `fast_sm` GPUs alone, at most
# ONESHOT_NARROW_FILL_LOG_BACKWARD full). The padded words cost the pairs' passes
# (widening, an exp per value) what fp32 rows do not lose: at the same fill, and for
# fp32 rows, 8192 stays as fast or faster. 1 GiB, % of copy, 8192 -> 4096 words
# (benchmarks/h200_2026-11-27g/narrow_chunks_h200_3e26541.txt,
# pair_chunks_h200_9105f0d.txt; benchmarks/h100_2026-11-27g/ *_h100_eafb17d.txt), 17408 /
# 20480 / 24576 / 40960 / 50304 columns (8192-word chunks 53 / 62 / 75 / 83 / 77 % full):
#   H200 forward  bf16 72.0 / 81.0 / 90.0 / 93.6 / 90.5 -> 88.0 / 94.1 / 96.7 / 96.4 / 94.6
#                 fp16 74.6 / 83.3 / 91.8 / 94.6 / 92.3 -> 89.9 / 94.9 / 96.7 / 96.7 / 95.3
#        backward bf16 85.4 / 92.7 / 97.4 / 99.8 / 99.1 -> 97.4 / 100.9 / 102.8 / 102.2 / 101.6
#   H100 forward  bf16 90.7 / 96.8 / 99.2 / 99.1 / 99.4 -> 98.0 / 98.2 / 98.0 / 98.2 / 98.6
#                 fp16 92.4 / 98.0 -> 97.9 / 98.3, 0.9-1.2 lower from 24576 (`auto`,
#                 log-softmax 20480: 99.3 -> 98.3)
#        backward bf16 98.6 -> 100.9 at 17408, 0.2-0.5 lower from 20480
# (fp32 rows at these widths: 0.3-1.0 lower in 4096 on both GPUs). At full chunks
# (32768 and powers of two past it) 8192 words lead by 0.2-2.5 on the H200, and more as
# rows widen (1048576: forward 88.9 against 82.3). The fp16 softmax backward (widened by
# HADD2.F32, four conversions a value) took 4096 words at every width while its
# 8192-word chunks held 2 programs per SM (178 registers) against 5 at 4096: H200 65536 /
# 131072 / 262144 / 524288 98.3 / 89.1 / 84.6 / 80.8 -> 99.2 / 96.8 / 93.6 / 88.5; H100
# 100.9-100.3 -> 100.8-100.2 to 262144, 524288 / 1048576 99.0 / 86.3 -> 99.6 / 97.0. Its
# sum now chained (_GRAD_CHAIN_FP16: 166 registers, 3 per SM at 8192 words, 6 at 4096),
# GPUs of fast SMs give it bf16's chunks: H200, 1 GiB, % of copy, `split_oneshot`, 4096
# -> 8192 words, 65536 / 131072 / 262144 / 524288 / 1048576 100.8 / 98.6 / 96.4 / 93.2 /
# 85.0 -> 102.0 / 100.1 / 97.9 / 96.4 / 90.1 (benchmarks/h200_2026-11-28/
# chain_compare_h200_ec733fb.txt, one call). The H100, not measured since the chains,
# keeps 4096 words. The
# log-softmax backward (a sum of dy alone) gains only on the H200 and where chunks are
# mostly padding (`auto`, 17408 / 20480 / 24576 / 40960 / 50304, 4096 words at any fill:
# H200 bf16 93.2 / 98.8 / 102.9 / 102.3 / 102.8 -> 102.1 / 101.9 / 102.3 / 101.7 / 102.5,
# fp16 alike, fp16 at 65536-1048576 0.4-5.7 lower at every width,
# benchmarks/h200_2026-11-27g/narrow_bwd_*_r1.csv, fp16wide_bwd_*_r1.csv; H100 fp16 17408 /
# 20480 102.4 / 101.3 -> 101.4 / 100.8, benchmarks/h100_2026-11-27g/narrow_bwd_*_r1.csv).
ONESHOT_NARROW_MAX_UNITS = 32768
ONESHOT_NARROW_FILL = 0.6
ONESHOT_NARROW_FILL_LOG_BACKWARD = 0.625
# The most programs a row takes (the words a program polls: `poll_lanes`); rows with
# more chunks take chunks twice as wide over twice the warps, up to
# ONESHOT_MAX_WARPS: 16 forward (32768-unit chunks at 105 registers, one program per
# SM: rows to 4194304 units), 8 backward (165 registers: 16 warps would need 84 Ki of
# an SM's 64 Ki; 16384-unit chunks, rows to 2097152 units). Units: `row_units`.
ONESHOT_MAX_PARTS = 128
ONESHOT_MAX_WARPS = {"forward": 16, "backward": 8}
# ptxas register caps by direction, tried in order (None: none), on a GPU; caps that spill
# are dropped (softmax.plan compiles the kernel uncapped then). The forward at 96 registers (sm_90,
# Triton 3.6: 104-120 uncapped; 92-96 capped, no spills) keeps 5 programs per SM where 4
# were: 160 KiB of chunks resident per SM. 1 GiB, % of copy, 131072 / 262144 / 524288 /
# 1048576, uncapped -> 96 (benchmarks/h200_2026-11-27e/cap96_geometry_h200_a396346.txt,
# benchmarks/h100_2026-11-27e/cap96_geometry_h100_a396346.txt):
#   H200 fp32 93.5 / 91.5 / 88.6 / 80.6 -> 95.5 / 94.0 / 92.3 / 86.6
#        bf16 90.7 / 88.5 / 86.9 / 83.6 -> 95.9 / 94.2 / 91.8 / 88.8 (fp16 alike)
#   H100 fp32 99.2 / 98.5 / 97.7 / 94.2 -> 99.1 / 98.8 / 98.5 / 97.1
#        bf16 98.7 / 97.8 / 96.7 / 95.5 -> 99.1 / 98.8 / 98.4 / 98.0 (fp16 alike)
# Triton 3.9's ptxas spills the 16-bit forward at 96 (56 bytes; 139 registers uncapped, 3
# per SM): 128 then keeps 4 per SM, as Triton 3.6 uncapped (not measured under 3.9, which
# the GPU machine lacks). The backward (161-168 registers, 3 per SM) spills at 128.
ONESHOT_MAX_REGISTERS = {"forward": (96, 128), "backward": None}
# Programs in a launch: Triton's grid is at most 2^31 - 1 programs along its first axis.
ONESHOT_MAX_PROGRAMS = 2**31 - 1


@triton.jit
def _ticket(ws_ptr, K: tl.constexpr):
    # (row, part, the row's K exchange words) of this program. K > 1: by ticket (see the
    # top of the file); relaxed, since only the add's atomicity matters (nothing is read
    # through it), and Triton executes a scalar atomic once per program, handing every
    # thread its result. K = 1: the program id (nothing waits, nothing to order).
    # The chunk index in 32 bits: the chunk's offsets are then 32-bit too (a row has at
    # most 4194304 units: values or words), 30 fewer registers than 64-bit ones in the fp32
    # forward (133 -> 103, sm_90: 3 -> 4 programs per SM).
    if K > 1:
        ticket = tl.atomic_add(ws_ptr, 1, sem="relaxed", scope="gpu") + 1
    else:
        ticket = tl.program_id(0).to(tl.int64)
    row = ticket // K
    return row, (ticket - row * K).to(tl.int32), ws_ptr + 1 + row * K


@triton.jit
def _row_words(slots, K: tl.constexpr, KP: tl.constexpr):
    # The row's K published words once none is -1 (volatile loads: from L2, not this SM's
    # L1, so each pass sees the others' exchanges, as `split`'s wait), 0 in lanes K..KP-1
    # (KP: `poll_lanes`, at least a lane per thread, so that each word is polled once).
    ks = tl.arange(0, KP)
    words = tl.load(slots + ks, mask=ks < K, other=0, volatile=True)
    while tl.min(words, axis=0) < 0:
        words = tl.load(slots + ks, mask=ks < K, other=0, volatile=True)
    return words


@triton.jit
def _row_max_sum(slots, part, m, d, K: tl.constexpr, KP: tl.constexpr):
    # The row's (max, sum) from this chunk's (m, d) and the others': published as one word,
    # polled, merged. Lanes past K read 0; they stand for the empty pair (-inf, 0).
    if K > 1:
        tl.atomic_xchg(slots + part, softmax_split._pair_word(m, d), sem="relaxed", scope="gpu")
        words = _row_words(slots, K, KP)
        live = tl.arange(0, KP) < K
        part_max, part_sum = softmax_split._word_pairs(words)
        return softmax_split._merge_pairs(tl.where(live, part_max, -float("inf")), tl.where(live, part_sum, 0.0))
    else:
        return m, d


@triton.jit
def _softmax_oneshot_kernel(x_ptr, y_ptr, ws_ptr, n_rows, n_cols, x_row_stride, y_row_stride,
                            LOG_SOFTMAX: tl.constexpr, CHUNK: tl.constexpr, K: tl.constexpr,
                            KP: tl.constexpr, ALIGN: tl.constexpr, PAIRS: tl.constexpr, BF16: tl.constexpr,
                            INTERPRETER: tl.constexpr):
    # Grid: n_rows x K programs, one per chunk. ws_ptr: int64 [1 + n_rows x K], all -1
    # (`workspace`): the ticket counter, then each row's K words. Each element is read
    # once and written once. Held across the wait: the chunk's fp32 exps; PAIRS (16-bit
    # rows of even width and strides, 4-byte aligned): the chunk as loaded, two values a
    # 32-bit word (pairs.py; CHUNK counts words), the output recomputed from them.
    n_cols, x_row_stride, y_row_stride = softmax_rows.aligned_sizes(n_cols, x_row_stride, y_row_stride, ALIGN)
    row, part, slots = _ticket(ws_ptr, K)
    cols = part * CHUNK + tl.arange(0, CHUNK)  # PAIRS: words
    # The chunk's pair, exponents relative to its own max (a chunk of only -inf: (-inf,
    # 0)); NaN and +inf make d NaN, and so the row.
    if PAIRS:
        in_row = cols < n_cols // 2
        w = tl.load(x_ptr.to(tl.pointer_type(tl.uint32), bitcast=True) + row * (x_row_stride // 2) + cols,
                    mask=in_row, other=pairs.neg_inf_pair(BF16))
        # Three passes over the words (max, sum, output), the last two on words `apart`:
        # zeros from the ticket's sign bit (tickets count from 0) and from a NaN row max
        # (whose row is NaN whatever the words).
        m = tl.max(pairs.maxima(w, BF16, INTERPRETER), axis=0)
        d = tl.sum(pairs.exps(pairs.apart(w, part >> 31), tl.where(m == -float("inf"), 0.0, m), BF16, INTERPRETER),
                   axis=0)
        row_max, row_sum = _row_max_sum(slots, part, m, d, K, KP)
        y = pairs.output(pairs.apart(w, row_max != row_max), row_max, row_sum, LOG_SOFTMAX, BF16, INTERPRETER)
        tl.store(y_ptr.to(tl.pointer_type(tl.uint32), bitcast=True) + row * (y_row_stride // 2) + cols, y,
                 mask=in_row)
    else:
        in_row = cols < n_cols
        xf = tl.load(x_ptr + row * x_row_stride + cols, mask=in_row, other=-float("inf")).to(tl.float32)
        m = tl.max(xf, axis=0)
        e = tl.exp2((xf - tl.where(m == -float("inf"), 0.0, m)) * LOG2E)
        d = tl.sum(e, axis=0)
        row_max, row_sum = _row_max_sum(slots, part, m, d, K, KP)
        y = softmax_split._split_output(xf, e, m, row_max, row_sum, LOG_SOFTMAX, False)
        tl.store(y_ptr + row * y_row_stride + cols, downcast.rounded(y, y_ptr.dtype.element_ty, INTERPRETER),
                 mask=in_row)


@triton.jit
def _row_sum(slots, part, s, K: tl.constexpr, KP: tl.constexpr):
    # The row's sum from this chunk's part and the others': published, polled, added in
    # slot order (the same in every program).
    if K > 1:
        tl.atomic_xchg(slots + part, softmax_split._sum_word(s), sem="relaxed", scope="gpu")
        return tl.sum(softmax_split._word_sums(_row_words(slots, K, KP)), axis=0)
    else:
        return s


def _grad_chain(declare: str, unpack: str, high: str, low: str) -> str:
    """Inline PTX of `_grad_terms` (pack=4): words $4-$7 of y and $8-$11 of dy, each
    word's high halves then its low halves widened into a and b (`unpack`, `high`, `low`:
    PTX with {y} and {g} for the words) and multiplied into one fp32 chain t (mul, then
    fma), whose sum goes to $0, and -0.0 to $1-$3."""
    steps = []
    for k in range(4):
        y, g = f"${4 + k}", f"${8 + k}"
        steps += [unpack.format(y=y, g=g), high.format(y=y, g=g),
                  "mul.f32 t, a, b; " if k == 0 else "fma.rn.f32 t, a, b, t; ",
                  low.format(y=y, g=g), "fma.rn.f32 t, a, b, t; "]
    return ("{ .reg .f32 a, b, t; " + declare + "".join(steps)
            + "mov.b32 $0, t; mov.b32 $1, 0x80000000; mov.b32 $2, 0x80000000; mov.b32 $3, 0x80000000; }")


# The softmax backward's sum of y * dy over words held as pairs: chains of four words
# (eight products) a thread, each one inline PTX block (`_grad_terms`). Triton's own form
# (pairs.grad_terms) widens the halves, multiplies them into 64 terms a thread and adds
# those as a tree, which ptxas (Triton 3.9, sm_90) schedules with ~20 fp32 temporaries
# live beside the 128 words held across the exchange: 176 (bf16) / 178 (fp16) registers,
# 2 programs per SM at 8192-word chunks (5 at 4096), where the log-softmax backward (a
# sum of dy alone, y's loads sunk below it) takes 160 (3 per SM; 6 at 4096) and fp32 168
# (3). As chains the sum has 16 terms a thread (and 48 -0.0s: x + -0.0 is x for every x,
# -0.0 and NaN included): 166 registers for both dtypes and chunk widths, no spills, 3
# (6) programs per SM. The same fp32 products; the row's sum differs in the order of its
# adds alone.
_GRAD_CHAIN_BF16 = tl.constexpr(_grad_chain("", "", "and.b32 a, {y}, 0xFFFF0000; and.b32 b, {g}, 0xFFFF0000; ",
                                            "shl.b32 a, {y}, 16; shl.b32 b, {g}, 16; "))
_GRAD_CHAIN_FP16 = tl.constexpr(_grad_chain(".reg .b16 yl, yh, gl, gh; ",
                                            "mov.b32 {{yl, yh}}, {y}; mov.b32 {{gl, gh}}, {g}; ",
                                            "cvt.f32.f16 a, yh; cvt.f32.f16 b, gh; ",
                                            "cvt.f32.f16 a, yl; cvt.f32.f16 b, gl; "))


# Chunks of at least this many words have at least 4 a thread at up to 8 warps
# (ONESHOT_MAX_WARPS["backward"]), as pack=4 needs: with fewer, Triton pads a pack with
# undefined words, which a chain would add in. Narrower chunks (rows of one chunk under
# 2048 values) take pairs.grad_terms.
_GRAD_CHAIN_MIN_CHUNK = tl.constexpr(4 * 32 * 8)


@triton.jit
def _grad_terms(wy, wg, CHUNK: tl.constexpr, LOG_SOFTMAX: tl.constexpr, BF16: tl.constexpr,
                INTERPRETER: tl.constexpr):
    # What the words of y and dy add to the row's sum (tl.sum adds them up): pairs.grad_terms,
    # the softmax's on the GPU as chains of four words (_GRAD_CHAIN_*, above).
    if LOG_SOFTMAX or INTERPRETER or CHUNK < _GRAD_CHAIN_MIN_CHUNK:
        return pairs.grad_terms(wy, wg, LOG_SOFTMAX, BF16, INTERPRETER)
    else:
        return tl.inline_asm_elementwise(_GRAD_CHAIN_BF16 if BF16 else _GRAD_CHAIN_FP16,
                                         "=r,=r,=r,=r,r,r,r,r,r,r,r,r", [wy, wg], dtype=tl.float32,
                                         is_pure=True, pack=4)


@triton.jit
def _softmax_oneshot_backward_kernel(y_ptr, dy_ptr, dx_ptr, ws_ptr, n_rows, n_cols, y_row_stride, dy_row_stride,
                                     dx_row_stride, LOG_SOFTMAX: tl.constexpr, CHUNK: tl.constexpr,
                                     K: tl.constexpr, KP: tl.constexpr, ALIGN: tl.constexpr,
                                     PAIRS: tl.constexpr, BF16: tl.constexpr, INTERPRETER: tl.constexpr):
    # The forward's grid and workspace; a program holds its chunk of y and of dy across
    # the wait (PAIRS: as words of two 16-bit values), publishes its part of the row's
    # sum (softmax_rows.grad_term) and writes dx (grad_out). Padding: +0 in y and dy adds
    # nothing to the sum.
    n_cols, y_row_stride, dy_row_stride, dx_row_stride = softmax_rows.backward_sizes(
        n_cols, y_row_stride, dy_row_stride, dx_row_stride, ALIGN)
    row, part, slots = _ticket(ws_ptr, K)
    cols = part * CHUNK + tl.arange(0, CHUNK)  # PAIRS: words
    if PAIRS:
        in_row = cols < n_cols // 2
        wy = tl.load(y_ptr.to(tl.pointer_type(tl.uint32), bitcast=True) + row * (y_row_stride // 2) + cols,
                     mask=in_row, other=0)
        wg = tl.load(dy_ptr.to(tl.pointer_type(tl.uint32), bitcast=True) + row * (dy_row_stride // 2) + cols,
                     mask=in_row, other=0)
        s = _row_sum(slots, part, tl.sum(_grad_terms(wy, wg, CHUNK, LOG_SOFTMAX, BF16, INTERPRETER), axis=0), K, KP)
        if K == 1:
            # Nothing between the sum and the output: ptxas (Triton 3.9) then keeps fp16's
            # widened values from one to the other (64-80 bytes spilled), so the output
            # reads words apart (pairs.apart; zero from a NaN sum, whose row is NaN
            # whatever the words). Across an exchange it does not, and there the ORs cost
            # fp16 rows (H100, 1 GiB, softmax backward 524288 / 1048576 columns: 98.9 /
            # 90.2 -> 87.1 / 85.8; benchmarks/h100_2026-11-27e/, calls 1 and 3).
            nan = s != s
            wy = pairs.apart(wy, nan)
            wg = pairs.apart(wg, nan)
        lo, hi = pairs.grad_halves(wy, wg, s, LOG_SOFTMAX, BF16, INTERPRETER)
        tl.store(dx_ptr.to(tl.pointer_type(tl.uint32), bitcast=True) + row * (dx_row_stride // 2) + cols,
                 pairs.pack(lo, hi, BF16, INTERPRETER), mask=in_row)
    else:
        in_row = cols < n_cols
        yf = tl.load(y_ptr + row * y_row_stride + cols, mask=in_row, other=0.0).to(tl.float32)
        gf = tl.load(dy_ptr + row * dy_row_stride + cols, mask=in_row, other=0.0).to(tl.float32)
        s = _row_sum(slots, part, tl.sum(softmax_rows.grad_term(yf, gf, LOG_SOFTMAX), axis=0), K, KP)
        dx = softmax_rows.grad_out(yf, gf, s, LOG_SOFTMAX)
        tl.store(dx_ptr + row * dx_row_stride + cols, downcast.rounded(dx, dx_ptr.dtype.element_ty, INTERPRETER),
                 mask=in_row)



# -- launch parameters -------------------------------------------------------------------------

def geometry(cols: int, per_thread: int, max_warps: int, interpreted: bool,
             chunk: int | None = None) -> tuple[int, int, int]:
    """(CHUNK, K, warps) for rows of `cols` units (`row_units`: values, or words of two) at
    `per_thread` units of a chunk a thread: `chunk`-unit chunks (default ONESHOT_CHUNK),
    twice as wide (and twice the warps) while a row has more than ONESHOT_MAX_PARTS of
    them, up to `max_warps`; under the interpreter (or for rows of one chunk) the whole
    row in one. Rows of no columns as one column."""
    cols = max(cols, 1)
    chunk = chunk or ONESHOT_CHUNK
    while triton.cdiv(cols, chunk) > ONESHOT_MAX_PARTS and chunk < max_warps * 32 * per_thread:
        chunk *= 2
    if interpreted or cols <= chunk:
        chunk = triton.next_power_of_2(cols)
    warps = max(1, min(max_warps, chunk // (32 * per_thread)))
    return chunk, triton.cdiv(cols, chunk), warps


# The geometry's arguments of each direction: (units of a chunk per thread, most warps).
GEOMETRY = {"forward": lambda: (ONESHOT_VALUES_PER_THREAD, ONESHOT_MAX_WARPS["forward"]),
             "backward": lambda: (ONESHOT_BWD_VALUES_PER_THREAD, ONESHOT_MAX_WARPS["backward"])}


def chunk_units(direction: str, limits: launch.DeviceLimits | None, op: str, *tensors: torch.Tensor) -> int:
    """The chunk `geometry` starts from for the rows of `tensors` (x; or y and dy) of `op`
    ("softmax" or "log_softmax") in `direction` on the GPU of `limits`: ONESHOT_CHUNK, or
    half of it for rows held as pairs where the rule at ONESHOT_NARROW_MAX_UNITS says so."""
    narrow = ONESHOT_CHUNK // 2
    if limits is None or not paired(*tensors):
        return ONESHOT_CHUNK
    log_backward = direction == "backward" and op == "log_softmax"
    fast = softmax_split.fast_sm(limits)
    if direction == "backward" and tensors[0].dtype == torch.float16 and not log_backward and not fast:
        return narrow
    units = row_units(*tensors)
    wide = triton.cdiv(units, ONESHOT_CHUNK) * ONESHOT_CHUNK
    if units > ONESHOT_NARROW_MAX_UNITS or triton.cdiv(units, narrow) * narrow >= wide:
        return ONESHOT_CHUNK
    if log_backward:
        return narrow if fast and units <= ONESHOT_NARROW_FILL_LOG_BACKWARD * wide else ONESHOT_CHUNK
    return narrow if fast or units <= ONESHOT_NARROW_FILL * wide else ONESHOT_CHUNK


def plan_geometry(direction: str, limits: launch.DeviceLimits | None, op: str,
                  *tensors: torch.Tensor) -> tuple[int, int, int]:
    """`geometry` of the rows of `tensors` of `op` in `direction` on the GPU of `limits`
    (None: the interpreter)."""
    return geometry(row_units(*tensors), *GEOMETRY[direction](), limits is None,
                    chunk_units(direction, limits, op, *tensors))


def poll_lanes(k: int, warps: int) -> int:
    """KP, the lanes of the poll's vector: a power of two at least K and at least the
    program's threads. A narrower vector is replicated across the warps, each warp then
    polling every word: K = 32 words at 4 warps polled 4 times over measured 4.4 points
    below one word per thread (H200, 1 GiB, fp32 262144 / 524288: forward 86.7 / 83.8 ->
    91.1 / 87.9, backward 95.1 / 92.7 -> 99.7 / 97.2; at K = 128 alike, 80.0 / 89.0;
    benchmarks/h200_2026-11-27d/kp_h200.tgz)."""
    return max(triton.next_power_of_2(k), 32 * warps)


def paired(*tensors: torch.Tensor) -> bool:
    """Whether the rows of `tensors` (x; or y and dy) are held as words of two 16-bit
    values (pairs.py): 16-bit, ALIGN >= 2 (an even width and row strides) and every start
    4-byte aligned (the fresh outputs are, with an even width)."""
    return (tensors[0].element_size() == 2 and softmax_rows.row_align(*tensors) >= 2
            and all(t.data_ptr() % 4 == 0 for t in tensors))


def row_units(*tensors: torch.Tensor) -> int:
    """A row's units, what chunks count: its columns, or its words where `paired`."""
    cols = tensors[0].shape[1]
    return cols // 2 if paired(*tensors) else cols


def _constexprs(chunk: int, k: int, warps: int, *tensors: torch.Tensor) -> dict:
    return {"CHUNK": chunk, "K": k, "KP": poll_lanes(k, warps), "ALIGN": softmax_rows.row_align(*tensors),
            "PAIRS": paired(*tensors), "BF16": tensors[0].dtype == torch.bfloat16}


def _why(direction: str, *tensors: torch.Tensor) -> str | None:
    rows, cols = tensors[0].shape
    interpreted = not launch.on_gpu(tensors[0])
    limits = None if interpreted else launch.device_limits(tensors[0].device.index)
    per_thread, max_warps = GEOMETRY[direction]()
    # K as the softmax's (the log-softmax backward's chunks are as wide or wider): its
    # programs bound the rows a launch takes.
    _, k, _ = plan_geometry(direction, limits, "softmax", *tensors)
    if rows * k > ONESHOT_MAX_PROGRAMS:
        return (f"triton variant 'split_oneshot' launches a program per chunk of each row: {rows} rows of {k} "
                f"chunks exceed the {ONESHOT_MAX_PROGRAMS} programs a launch can have (use 'auto')")
    if interpreted:
        return None
    # A row's K programs must fit the GPU at once; one program of the widest chunks fits
    # every SM, so K of those up to the SM count always does (`regroup` widens the chunks
    # as far as that where narrower ones do not fit).
    most = min(ONESHOT_MAX_PARTS, limits.sm_count)
    widest = max_warps * 32 * per_thread * (2 if paired(*tensors) else 1)
    if triton.cdiv(max(cols, 1), widest) > most:
        return (f"triton variant 'split_oneshot' holds a row in at most {most} programs of at most {widest} "
                f"columns on this GPU, so rows up to {most * widest} columns; this row has {cols} "
                f"(use 'split', 'online' or 'auto')")
    return None


def why_unsupported(x: torch.Tensor) -> str | None:
    """None when `split_oneshot` serves the (rows, cols) tensor `x`; else why not."""
    return _why("forward", x)


def backward_why_unsupported(y: torch.Tensor, dy: torch.Tensor) -> str | None:
    """None when the `split_oneshot` backward serves y and dy (2-D); else why not."""
    return _why("backward", y, dy)


def launch_params(x: torch.Tensor, limits: launch.DeviceLimits | None,
                  op: str) -> tuple[dict, int, int | tuple | None, int]:
    """(constexprs, num_warps, register caps (tried in order), rows) of the forward on the
    (rows, cols) tensor `x`: CHUNK, K, KP (the poll's lanes), ALIGN, PAIRS and BF16."""
    chunk, k, warps = plan_geometry("forward", limits, op, x)
    cap = ONESHOT_MAX_REGISTERS["forward"] if limits is not None else None
    return _constexprs(chunk, k, warps, x), warps, cap, x.shape[0]


def backward_launch_params(y: torch.Tensor, dy: torch.Tensor, limits: launch.DeviceLimits | None,
                           op: str) -> tuple[dict, int, int | tuple | None, int]:
    """The backward's `launch_params`, from y and dy."""
    chunk, k, warps = plan_geometry("backward", limits, op, y, dy)
    cap = ONESHOT_MAX_REGISTERS["backward"] if limits is not None else None
    return _constexprs(chunk, k, warps, y, dy), warps, cap, y.shape[0]


def _regroup(constexprs: dict, warps: int, resident: int, direction: str) -> tuple[dict, int] | None:
    """softmax.plan's next geometry where a row's K programs do not all fit the GPU at
    once (`resident`, from the compiled kernel): chunks twice as wide over twice the
    warps (cdiv(cdiv(cols, c), 2) = cdiv(cols, 2c)); None where they fit, or at the
    direction's most warps (`_why` declines the rows whose widest chunks would not fit)."""
    k = constexprs["K"]
    if k <= resident or warps >= ONESHOT_MAX_WARPS[direction]:
        return None
    k = triton.cdiv(k, 2)
    return dict(constexprs, CHUNK=2 * constexprs["CHUNK"], K=k, KP=poll_lanes(k, 2 * warps)), 2 * warps


def regroup(constexprs: dict, warps: int, resident: int) -> tuple[dict, int] | None:
    """The forward's `_regroup`."""
    return _regroup(constexprs, warps, resident, "forward")


def backward_regroup(constexprs: dict, warps: int, resident: int) -> tuple[dict, int] | None:
    """The backward's `_regroup`."""
    return _regroup(constexprs, warps, resident, "backward")


def grid(units: int, row_bytes: int, constexprs: dict, limits: launch.DeviceLimits | None = None,
         programs_per_sm: int = 1) -> tuple[int, int]:
    """(programs, programs per SM): a program per chunk of each of the `units` rows."""
    return units * constexprs["K"], programs_per_sm


def _words(rows: int, k: int) -> int:
    """Workspace words of a launch over `rows` rows of `k` chunks (none for K = 1)."""
    return 1 + rows * k if k > 1 else 0


def _launch(kernel, args_of, device: torch.device, rows: int, p: dict, tensors: tuple,
            words: torch.Tensor | None) -> None:
    # The workspace is softmax_split.exchange_words' buffer, all -1 between launches: this
    # launch's words are put back to -1 after it, on the same stream (a fill: one launch
    # more per call, 0.1-1 % of copy at 1 GiB; a fresh, captured buffer while a CUDA graph
    # is captured). `words`: a test's own, laid out as `_words` says, left as the kernel
    # leaves them.
    k = p["constexprs"]["K"]
    n = _words(rows, k)
    own = words is None and n > 0
    if own:
        words = softmax_split.exchange_words(device, n)
    elif words is None:
        words = launch.stand_in(torch.int64, device)
    launch.launch(kernel, (p["grid"],), args_of(*tensors, words), p, p["num_warps"], launch.plan_options(p),
                  p["constexprs"])
    if own:
        words[:n].fill_(-1)


def launch_plan(x: torch.Tensor, y: torch.Tensor, p: dict, words: torch.Tensor | None = None) -> None:
    """Launch the forward as planned (`p` from softmax.plan) from `x` into `y`."""
    _launch(_softmax_oneshot_kernel, softmax_rows.kernel_args, x.device, x.shape[0], p, (x, y), words)


def backward_launch_plan(y: torch.Tensor, dy: torch.Tensor, dx: torch.Tensor, p: dict,
                         words: torch.Tensor | None = None) -> None:
    """Launch the backward as planned: dx from y and dy."""
    _launch(_softmax_oneshot_backward_kernel, softmax_rows.backward_kernel_args, y.device, y.shape[0], p,
            (y, dy, dx), words)


def compile_args(x: torch.Tensor) -> tuple:
    """The forward's arguments with stand-ins for the output and the workspace."""
    return softmax_rows.kernel_args(x, launch.stand_in(x.dtype, x.device), launch.stand_in(torch.int64, x.device))


def backward_compile_args(y: torch.Tensor, dy: torch.Tensor) -> tuple:
    """The backward's arguments with stand-ins for dx and the workspace."""
    return softmax_rows.backward_kernel_args(y, dy, launch.stand_in(y.dtype, y.device),
                                             launch.stand_in(torch.int64, y.device))


KERNEL = _softmax_oneshot_kernel
BACKWARD = launch.Family(KERNEL=_softmax_oneshot_backward_kernel, why_unsupported=backward_why_unsupported,
                         launch_params=backward_launch_params, grid=grid, compile_args=backward_compile_args,
                         launch_plan=backward_launch_plan, regroup=backward_regroup)
