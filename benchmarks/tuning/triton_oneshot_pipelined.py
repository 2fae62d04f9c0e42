"""Triton `split_oneshot` as a resident grid that loads its next chunk while it waits for
the last one's row: does hiding the exchange's wait behind a load close the H200's wide
rows?

Sessions 49-50 found that the shipped kernel's loss on the H200's wide rows is the wait: a
program holds its chunk from its load until the last chunk of its row has loaded and
published, and loads nothing meanwhile (triton_oneshot_exchange.py: without the wait, a
bound, 96-97 % of copy at 262144-1048576 columns; triton_oneshot_lagged.py: reading the
chunk again later instead misses L2). Here a grid of the programs that fit the GPU at
once loops over tickets (ticket n: chunk n % K of row n // K, in the order programs take
them), two chunks in registers:

    take ticket t, load chunk t, publish its (max, sum)           (prologue)
    while t is a chunk:
        take ticket u, issue chunk u's loads                      (in flight from here)
        wait for row(t)'s K words, write chunk t's output        (u's loads land meanwhile)
        publish chunk u's (max, sum); t = u

so a program's wait overlaps its next load, and its stores go out behind it.

No deadlock: a program waits only with every chunk it holds published, except u, whose
row is later than t's (tickets rise): a chain of waits then runs down to the earliest
waiting row, whose chunks are published or held by programs that publish them without
waiting. When u falls in t's row (a program taking two tickets of one row in a row), u
is published before the wait. Untaken chunks: R resident programs hold 2R tickets, so a
row of K <= 2R chunks always has its every chunk taken (the plan's K <= R holds).

The backward alike: a chunk is y's and dy's, its part of the row's sum the published word.

Geometries `CHUNKxPER_THREAD[cN]` (units: values, or words of two 16-bit values; cN: a
ptxas register cap) beside the package's `split_oneshot` and `auto`. Each is checked
against float64 on the input's first and last four rows.

    PYTHONPATH=. python3 benchmarks/tuning/triton_oneshot_pipelined.py [--cols ...] [--dtypes fp32,bf16]
        [--passes fwd,bwd] [--geometries 8192x64,4096x32]
"""
from __future__ import annotations


import torch
import triton
import triton.language as tl

from kernels_triton import launch, softmax, softmax_oneshot, softmax_rows, softmax_split
from triton_oneshot_geometry import DTYPES, _ms, header, sweep, sweep_parser, timed_cell
from triton_oneshot_lagged import (_load_bwd_chunk, _load_fwd_chunk, _publish_pair, _publish_sum, _row_pair,
                                  _store_bwd_chunk, _store_fwd_chunk, _take, _wait_words)


@triton.jit
def _fwd_load(x_ptr, t, total, x_row_stride, n_cols, CHUNK: tl.constexpr, K: tl.constexpr,
              PAIRS: tl.constexpr, BF16: tl.constexpr):
    # Chunk t's values (fp32) or words (PAIRS); nothing read past the last chunk.
    row = t // K
    cols = (t - row * K).to(tl.int32) * CHUNK + tl.arange(0, CHUNK)
    return _load_fwd_chunk(x_ptr, row, cols, x_row_stride, tl.where(t < total, n_cols, 0), PAIRS, BF16, "")


@triton.jit
def _fwd_publish(ws_ptr, t, w, K: tl.constexpr, PAIRS: tl.constexpr, BF16: tl.constexpr,
                 INTERPRETER: tl.constexpr):
    _publish_pair(ws_ptr, t, w, (t - (t // K) * K).to(tl.int32), PAIRS, BF16, INTERPRETER)


@triton.jit
def _fwd_finish(ws_ptr, y_ptr, t, w, y_row_stride, n_cols, LOG_SOFTMAX: tl.constexpr, CHUNK: tl.constexpr,
                K: tl.constexpr, KP: tl.constexpr, PAIRS: tl.constexpr, BF16: tl.constexpr,
                INTERPRETER: tl.constexpr):
    # Waits for row(t)'s words and writes chunk t's output from its values w.
    row = t // K
    cols = (t - row * K).to(tl.int32) * CHUNK + tl.arange(0, CHUNK)
    row_max, row_sum = _row_pair(ws_ptr, row, K, KP)
    _store_fwd_chunk(y_ptr, row, cols, w, row_max, row_sum, y_row_stride, n_cols, LOG_SOFTMAX, PAIRS, BF16,
                     INTERPRETER)


@triton.jit
def _fwd_kernel(x_ptr, y_ptr, ws_ptr, n_rows, n_cols, x_row_stride, y_row_stride,
                LOG_SOFTMAX: tl.constexpr, CHUNK: tl.constexpr, K: tl.constexpr, KP: tl.constexpr,
                ALIGN: tl.constexpr, PAIRS: tl.constexpr, BF16: tl.constexpr, INTERPRETER: tl.constexpr):
    n_cols, x_row_stride, y_row_stride = softmax_rows.aligned_sizes(n_cols, x_row_stride, y_row_stride, ALIGN)
    total = n_rows.to(tl.int64) * K
    t = _take(ws_ptr)
    w = _fwd_load(x_ptr, t, total, x_row_stride, n_cols, CHUNK, K, PAIRS, BF16)
    if t < total:
        _fwd_publish(ws_ptr, t, w, K, PAIRS, BF16, INTERPRETER)
    while t < total:
        u = _take(ws_ptr)
        v = _fwd_load(x_ptr, u, total, x_row_stride, n_cols, CHUNK, K, PAIRS, BF16)
        same_row = (u // K == t // K) & (u < total)
        if same_row:
            _fwd_publish(ws_ptr, u, v, K, PAIRS, BF16, INTERPRETER)
        _fwd_finish(ws_ptr, y_ptr, t, w, y_row_stride, n_cols, LOG_SOFTMAX, CHUNK, K, KP, PAIRS, BF16, INTERPRETER)
        if (u // K != t // K) & (u < total):
            _fwd_publish(ws_ptr, u, v, K, PAIRS, BF16, INTERPRETER)
        t = u
        w = v


@triton.jit
def _bwd_load(y_ptr, dy_ptr, t, total, y_row_stride, dy_row_stride, n_cols, CHUNK: tl.constexpr,
              K: tl.constexpr, PAIRS: tl.constexpr):
    # Chunk t's y and dy (the lagged script's load); nothing read past the last chunk.
    row = t // K
    cols = (t - row * K).to(tl.int32) * CHUNK + tl.arange(0, CHUNK)
    y, g, _ = _load_bwd_chunk(y_ptr, dy_ptr, row, cols, y_row_stride, dy_row_stride,
                              tl.where(t < total, n_cols, 0), PAIRS, "")
    return y, g


@triton.jit
def _bwd_finish(ws_ptr, dx_ptr, t, y, g, dx_row_stride, n_cols, LOG_SOFTMAX: tl.constexpr, CHUNK: tl.constexpr,
                K: tl.constexpr, KP: tl.constexpr, PAIRS: tl.constexpr, BF16: tl.constexpr,
                INTERPRETER: tl.constexpr):
    row = t // K
    cols = (t - row * K).to(tl.int32) * CHUNK + tl.arange(0, CHUNK)
    s = tl.sum(softmax_split._word_sums(_wait_words(ws_ptr, row, K, KP)), axis=0)
    _store_bwd_chunk(dx_ptr, row, cols, y, g, s, dx_row_stride, n_cols, LOG_SOFTMAX, PAIRS, BF16, INTERPRETER)


@triton.jit
def _bwd_kernel(y_ptr, dy_ptr, dx_ptr, ws_ptr, n_rows, n_cols, y_row_stride, dy_row_stride, dx_row_stride,
                LOG_SOFTMAX: tl.constexpr, CHUNK: tl.constexpr, K: tl.constexpr, KP: tl.constexpr,
                ALIGN: tl.constexpr, PAIRS: tl.constexpr, BF16: tl.constexpr, INTERPRETER: tl.constexpr):
    n_cols, y_row_stride, dy_row_stride, dx_row_stride = softmax_rows.backward_sizes(
        n_cols, y_row_stride, dy_row_stride, dx_row_stride, ALIGN)
    total = n_rows.to(tl.int64) * K
    t = _take(ws_ptr)
    y, g = _bwd_load(y_ptr, dy_ptr, t, total, y_row_stride, dy_row_stride, n_cols, CHUNK, K, PAIRS)
    if t < total:
        _publish_sum(ws_ptr, t, y, g, LOG_SOFTMAX, PAIRS, BF16, INTERPRETER)
    while t < total:
        u = _take(ws_ptr)
        y2, g2 = _bwd_load(y_ptr, dy_ptr, u, total, y_row_stride, dy_row_stride, n_cols, CHUNK, K, PAIRS)
        same_row = (u // K == t // K) & (u < total)
        if same_row:
            _publish_sum(ws_ptr, u, y2, g2, LOG_SOFTMAX, PAIRS, BF16, INTERPRETER)
        _bwd_finish(ws_ptr, dx_ptr, t, y, g, dx_row_stride, n_cols, LOG_SOFTMAX, CHUNK, K, KP, PAIRS, BF16,
                    INTERPRETER)
        if (u // K != t // K) & (u < total):
            _publish_sum(ws_ptr, u, y2, g2, LOG_SOFTMAX, PAIRS, BF16, INTERPRETER)
        t = u
        y = y2
        g = g2


def _geometry(spec: str) -> tuple[int, int, int | None]:
    """(chunk units, units per thread, register cap or None) of `CHUNKxPER[cCAP]`."""
    size, _, cap = spec.partition("c")
    chunk, per = map(int, size.split("x"))
    return chunk, per, int(cap) if cap else None


def main() -> None:
    ap = sweep_parser(__doc__, "65536,131072,262144,524288,1048576")
    ap.add_argument("--geometries", default="8192x64,4096x32")
    args = ap.parse_args()
    limits = launch.device_limits(0)
    header(args.bytes, "pipelined geometries CHUNKxPER_THREAD[cCAP] (units: values, or words of two "
           "16-bit values), grid = the programs resident at once")
    for pass_, op, dname, cols, case in sweep(args.passes, args.dtypes, args.cols, args.bytes):
        dtype = DTYPES[dname]
        x, dy, out, copy_bw, moved, ref = case
        rows = x.shape[0]
        p = softmax.plan(x, op, "split_oneshot", dy)
        cells = []
        for variant in ("split_oneshot", "auto"):
            fn = (lambda v=variant: softmax.run(x, op, v)) if dy is None else (
                lambda v=variant: softmax.run(x, op, v, dy=dy))
            q = softmax.plan(x, op, variant, dy)
            cells.append(f"{variant}={100 * moved / _ms(fn) / copy_bw:.1f}({q['kernel']},{q.get('n_regs')}r,"
                         f"{q.get('programs_per_sm')}/SM)")
        tensors = (x,) if dy is None else (x, dy)
        units = softmax_oneshot.row_units(*tensors)
        for spec in args.geometries.split(","):
            chunk, per, cap = _geometry(spec)
            warps = max(1, chunk // (32 * per))
            k = triton.cdiv(units, chunk)
            c = {"CHUNK": chunk, "K": k, "KP": softmax_oneshot.poll_lanes(k, warps),
                 "ALIGN": p["constexprs"]["ALIGN"], "PAIRS": p["constexprs"]["PAIRS"],
                 "BF16": dtype == torch.bfloat16, "LOG_SOFTMAX": False, "INTERPRETER": False}
            ws = torch.full((1 + rows * k,), -1, dtype=torch.int64, device="cuda")
            kernel = _fwd_kernel if dy is None else _bwd_kernel
            args_ = (softmax_rows.kernel_args(x, out, ws) if dy is None
                     else softmax_rows.backward_kernel_args(x, dy, out, ws))
            res = launch.compiled_resources(kernel, args_, num_warps=warps, limits=limits, maxnreg=cap, **c)
            resident = limits.sm_count * res.programs_per_sm
            if k > resident:
                cells.append(f"{spec}=  -  (K={k} > {resident} resident)")
                continue
            grid = (min(resident, rows * k),)
            options = {"maxnreg": cap} if cap else {}

            def call():
                ws.fill_(-1)
                return kernel[grid](*args_, num_warps=warps, **options, **c)
            cells.append(timed_cell(f"{spec}(K={k},{res.programs_per_sm}/SM)", call, out, ref, dtype, moved,
                                    copy_bw))
            del ws
        print(pass_, dname, cols, f"copy={copy_bw / 1e6:.0f}GB/s", "  ".join(cells), flush=True)
        del x, dy, out, case


if __name__ == "__main__":
    main()
