"""Triton `split_oneshot` with its output written LAG tickets later: does a program that
never waits with its chunk in registers beat the shipped one on the widest rows?

Session 49 (triton_oneshot_exchange.py) found that the shipped kernel's whole loss on
the H200's widest rows is the wait: a program holds its chunk from its load until the
last chunk of its row has loaded, and a row's K programs start over a span of K tickets,
so the first of them wait longest (K = 128 at fp32 1048576). Here ticket t does two
things in turn:

  A (t < rows x K): load chunk t, publish its (max, sum) (or its part of the backward's
    sum) in the row's word, keep nothing;
  B (t >= LAG): for chunk u = t - LAG, wait for its row's K words, read chunk u again
    and write its output.

Chunk u is read twice, from DRAM in A and, LAG tickets later, from L2 in B (the chunks
read in between must not evict it): DRAM traffic stays one read and one write, L2 takes
one more read. With LAG >= K every word B waits for belongs to a ticket already taken
(started, and A never waits), so no deadlock; then B mostly finds its row complete.
Grid: rows x K + LAG programs, the last LAG doing only B.

Switches (constexpr): HINTS 1: A's loads evict_last, B's evict_first; 0: none. ORDER 0:
A then B; 1: B then A (B's chunk is fresher in L2, its wait likelier).

Variants name (LAG in units of K, or of the programs resident at once: `res`, hints,
order). Each is checked against float64 on the input's first and last four rows.

    PYTHONPATH=. python3 benchmarks/tuning/triton_oneshot_lagged.py [--cols ...] [--dtypes fp32,bf16]
        [--passes fwd,bwd] [--variants lag1,lag2,...]
"""
from __future__ import annotations


import torch
import triton
import triton.language as tl

from kernels_triton import downcast, launch, pairs, softmax, softmax_rows, softmax_split
from kernels_triton.softmax_rows import LOG2E
from triton_oneshot_geometry import DTYPES, _ms, header, sweep, sweep_parser, timed_cell

# name: (LAG as (multiple of K, multiple of the resident programs), HINTS, ORDER)
VARIANTS = {
    "lag1": ((1, 0), 0, 0),
    "lag2": ((2, 0), 0, 0),
    "lag4": ((4, 0), 0, 0),
    "lag1_hints": ((1, 0), 1, 0),
    "lag2_hints": ((2, 0), 1, 0),
    "res1": ((1, 1), 0, 0),
    "res1_hints": ((1, 1), 1, 0),
    "lag2_ba": ((2, 0), 0, 1),
    "lag2_ba_hints": ((2, 0), 1, 1),
}


@triton.jit
def _take(ws_ptr):
    # A ticket in start order (relaxed: only the add's atomicity matters).
    return tl.atomic_add(ws_ptr, 1, sem="relaxed", scope="gpu") + 1


@triton.jit
def _wait_words(ws_ptr, row, K: tl.constexpr, KP: tl.constexpr):
    ks = tl.arange(0, KP)
    slots = ws_ptr + 1 + row * K
    words = tl.load(slots + ks, mask=ks < K, other=0, volatile=True)
    while tl.min(words, axis=0) < 0:
        words = tl.load(slots + ks, mask=ks < K, other=0, volatile=True)
    return words


@triton.jit
def _load_fwd_chunk(x_ptr, row, cols, x_row_stride, n_cols, PAIRS: tl.constexpr, BF16: tl.constexpr,
                    EVICT: tl.constexpr):
    # Chunk `cols` of `row`: words of two values (PAIRS; padding -inf pairs) or fp32
    # values (padding -inf).
    if PAIRS:
        w = tl.load(x_ptr.to(tl.pointer_type(tl.uint32), bitcast=True) + row * (x_row_stride // 2) + cols,
                    mask=cols < n_cols // 2, other=pairs.neg_inf_pair(BF16), eviction_policy=EVICT)
    else:
        w = tl.load(x_ptr + row * x_row_stride + cols, mask=cols < n_cols, other=-float("inf"),
                    eviction_policy=EVICT).to(tl.float32)
    return w


@triton.jit
def _publish_pair(ws_ptr, t, w, part, PAIRS: tl.constexpr, BF16: tl.constexpr, INTERPRETER: tl.constexpr):
    # Chunk t's (max, sum) from its words or values w, published in its word.
    if PAIRS:
        m = tl.max(pairs.maxima(w, BF16, INTERPRETER), axis=0)
        d = tl.sum(pairs.exps(pairs.apart(w, part >> 31), tl.where(m == -float("inf"), 0.0, m), BF16, INTERPRETER),
                   axis=0)
    else:
        m = tl.max(w, axis=0)
        d = tl.sum(tl.exp2((w - tl.where(m == -float("inf"), 0.0, m)) * LOG2E), axis=0)
    tl.atomic_xchg(ws_ptr + 1 + t, softmax_split._pair_word(m, d), sem="relaxed", scope="gpu")


@triton.jit
def _row_pair(ws_ptr, row, K: tl.constexpr, KP: tl.constexpr):
    # The row's (max, sum), once its K words are published.
    words = _wait_words(ws_ptr, row, K, KP)
    live = tl.arange(0, KP) < K
    part_max, part_sum = softmax_split._word_pairs(words)
    return softmax_split._merge_pairs(tl.where(live, part_max, -float("inf")), tl.where(live, part_sum, 0.0))


@triton.jit
def _store_fwd_chunk(y_ptr, row, cols, w, row_max, row_sum, y_row_stride, n_cols, LOG_SOFTMAX: tl.constexpr,
                     PAIRS: tl.constexpr, BF16: tl.constexpr, INTERPRETER: tl.constexpr):
    # The output of chunk `cols` of `row` from its words or values w and the row's pair.
    if PAIRS:
        y = pairs.output(pairs.apart(w, row_max != row_max), row_max, row_sum, LOG_SOFTMAX, BF16, INTERPRETER)
        tl.store(y_ptr.to(tl.pointer_type(tl.uint32), bitcast=True) + row * (y_row_stride // 2) + cols, y,
                 mask=cols < n_cols // 2)
    else:
        y = softmax_split._split_output(w, w, row_max, row_max, row_sum, LOG_SOFTMAX, True)
        tl.store(y_ptr + row * y_row_stride + cols, downcast.rounded(y, y_ptr.dtype.element_ty, INTERPRETER),
                 mask=cols < n_cols)


@triton.jit
def _fwd_publish(x_ptr, ws_ptr, t, x_row_stride, n_cols, CHUNK: tl.constexpr, K: tl.constexpr,
                 PAIRS: tl.constexpr, BF16: tl.constexpr, INTERPRETER: tl.constexpr, EVICT: tl.constexpr):
    row = t // K
    part = (t - row * K).to(tl.int32)
    cols = part * CHUNK + tl.arange(0, CHUNK)
    w = _load_fwd_chunk(x_ptr, row, cols, x_row_stride, n_cols, PAIRS, BF16, EVICT)
    _publish_pair(ws_ptr, t, w, part, PAIRS, BF16, INTERPRETER)


@triton.jit
def _fwd_output(x_ptr, y_ptr, ws_ptr, u, x_row_stride, y_row_stride, n_cols, LOG_SOFTMAX: tl.constexpr,
                CHUNK: tl.constexpr, K: tl.constexpr, KP: tl.constexpr, PAIRS: tl.constexpr, BF16: tl.constexpr,
                INTERPRETER: tl.constexpr, EVICT: tl.constexpr):
    row = u // K
    row_max, row_sum = _row_pair(ws_ptr, row, K, KP)
    cols = (u - row * K).to(tl.int32) * CHUNK + tl.arange(0, CHUNK)
    w = _load_fwd_chunk(x_ptr, row, cols, x_row_stride, n_cols, PAIRS, BF16, EVICT)
    _store_fwd_chunk(y_ptr, row, cols, w, row_max, row_sum, y_row_stride, n_cols, LOG_SOFTMAX, PAIRS, BF16,
                     INTERPRETER)


@triton.jit
def _fwd_kernel(x_ptr, y_ptr, ws_ptr, n_rows, n_cols, x_row_stride, y_row_stride, LAG,
                LOG_SOFTMAX: tl.constexpr, CHUNK: tl.constexpr, K: tl.constexpr, KP: tl.constexpr,
                ALIGN: tl.constexpr, PAIRS: tl.constexpr, BF16: tl.constexpr, INTERPRETER: tl.constexpr,
                HINTS: tl.constexpr, ORDER: tl.constexpr):
    n_cols, x_row_stride, y_row_stride = softmax_rows.aligned_sizes(n_cols, x_row_stride, y_row_stride, ALIGN)
    A_EVICT: tl.constexpr = "evict_last" if HINTS else ""
    B_EVICT: tl.constexpr = "evict_first" if HINTS else ""
    t = _take(ws_ptr)
    total = n_rows.to(tl.int64) * K
    if ORDER == 0:
        if t < total:
            _fwd_publish(x_ptr, ws_ptr, t, x_row_stride, n_cols, CHUNK, K, PAIRS, BF16, INTERPRETER, A_EVICT)
    if t >= LAG:
        _fwd_output(x_ptr, y_ptr, ws_ptr, t - LAG, x_row_stride, y_row_stride, n_cols, LOG_SOFTMAX, CHUNK, K, KP,
                    PAIRS, BF16, INTERPRETER, B_EVICT)
    if ORDER == 1:
        if t < total:
            _fwd_publish(x_ptr, ws_ptr, t, x_row_stride, n_cols, CHUNK, K, PAIRS, BF16, INTERPRETER, A_EVICT)


@triton.jit
def _load_bwd_chunk(y_ptr, dy_ptr, row, cols, y_row_stride, dy_row_stride, n_cols, PAIRS: tl.constexpr,
                    EVICT: tl.constexpr):
    # (y, dy, in_row) of chunk `cols` of `row`: words of two values (PAIRS) or fp32 values.
    if PAIRS:
        in_row = cols < n_cols // 2
        y = tl.load(y_ptr.to(tl.pointer_type(tl.uint32), bitcast=True) + row * (y_row_stride // 2) + cols,
                    mask=in_row, other=0, eviction_policy=EVICT)
        g = tl.load(dy_ptr.to(tl.pointer_type(tl.uint32), bitcast=True) + row * (dy_row_stride // 2) + cols,
                    mask=in_row, other=0, eviction_policy=EVICT)
    else:
        in_row = cols < n_cols
        y = tl.load(y_ptr + row * y_row_stride + cols, mask=in_row, other=0.0, eviction_policy=EVICT).to(tl.float32)
        g = tl.load(dy_ptr + row * dy_row_stride + cols, mask=in_row, other=0.0,
                    eviction_policy=EVICT).to(tl.float32)
    return y, g, in_row


@triton.jit
def _publish_sum(ws_ptr, t, y, g, LOG_SOFTMAX: tl.constexpr, PAIRS: tl.constexpr, BF16: tl.constexpr,
                 INTERPRETER: tl.constexpr):
    # Chunk t's part of the row's sum from its y and dy, published in its word.
    if PAIRS:
        s = tl.sum(pairs.grad_terms(y, g, LOG_SOFTMAX, BF16, INTERPRETER), axis=0)
    else:
        s = tl.sum(softmax_rows.grad_term(y, g, LOG_SOFTMAX), axis=0)
    tl.atomic_xchg(ws_ptr + 1 + t, softmax_split._sum_word(s), sem="relaxed", scope="gpu")


@triton.jit
def _store_bwd_chunk(dx_ptr, row, cols, y, g, s, dx_row_stride, n_cols, LOG_SOFTMAX: tl.constexpr,
                     PAIRS: tl.constexpr, BF16: tl.constexpr, INTERPRETER: tl.constexpr):
    # dx of chunk `cols` of `row` from its y and dy and the row's sum s.
    if PAIRS:
        lo, hi = pairs.grad_halves(y, g, s, LOG_SOFTMAX, BF16, INTERPRETER)
        tl.store(dx_ptr.to(tl.pointer_type(tl.uint32), bitcast=True) + row * (dx_row_stride // 2) + cols,
                 pairs.pack(lo, hi, BF16, INTERPRETER), mask=cols < n_cols // 2)
    else:
        dx = softmax_rows.grad_out(y, g, s, LOG_SOFTMAX)
        tl.store(dx_ptr + row * dx_row_stride + cols, downcast.rounded(dx, dx_ptr.dtype.element_ty, INTERPRETER),
                 mask=cols < n_cols)


@triton.jit
def _bwd_publish(y_ptr, dy_ptr, ws_ptr, t, y_row_stride, dy_row_stride, n_cols, LOG_SOFTMAX: tl.constexpr,
                 CHUNK: tl.constexpr, K: tl.constexpr, PAIRS: tl.constexpr, BF16: tl.constexpr,
                 INTERPRETER: tl.constexpr, EVICT: tl.constexpr):
    row = t // K
    cols = (t - row * K).to(tl.int32) * CHUNK + tl.arange(0, CHUNK)
    y, g, _ = _load_bwd_chunk(y_ptr, dy_ptr, row, cols, y_row_stride, dy_row_stride, n_cols, PAIRS, EVICT)
    _publish_sum(ws_ptr, t, y, g, LOG_SOFTMAX, PAIRS, BF16, INTERPRETER)


@triton.jit
def _bwd_output(y_ptr, dy_ptr, dx_ptr, ws_ptr, u, y_row_stride, dy_row_stride, dx_row_stride, n_cols,
                LOG_SOFTMAX: tl.constexpr, CHUNK: tl.constexpr, K: tl.constexpr, KP: tl.constexpr,
                PAIRS: tl.constexpr, BF16: tl.constexpr, INTERPRETER: tl.constexpr, EVICT: tl.constexpr):
    row = u // K
    s = tl.sum(softmax_split._word_sums(_wait_words(ws_ptr, row, K, KP)), axis=0)
    cols = (u - row * K).to(tl.int32) * CHUNK + tl.arange(0, CHUNK)
    y, g, _ = _load_bwd_chunk(y_ptr, dy_ptr, row, cols, y_row_stride, dy_row_stride, n_cols, PAIRS, EVICT)
    _store_bwd_chunk(dx_ptr, row, cols, y, g, s, dx_row_stride, n_cols, LOG_SOFTMAX, PAIRS, BF16, INTERPRETER)


@triton.jit
def _bwd_kernel(y_ptr, dy_ptr, dx_ptr, ws_ptr, n_rows, n_cols, y_row_stride, dy_row_stride, dx_row_stride, LAG,
                LOG_SOFTMAX: tl.constexpr, CHUNK: tl.constexpr, K: tl.constexpr, KP: tl.constexpr,
                ALIGN: tl.constexpr, PAIRS: tl.constexpr, BF16: tl.constexpr, INTERPRETER: tl.constexpr,
                HINTS: tl.constexpr, ORDER: tl.constexpr):
    n_cols, y_row_stride, dy_row_stride, dx_row_stride = softmax_rows.backward_sizes(
        n_cols, y_row_stride, dy_row_stride, dx_row_stride, ALIGN)
    A_EVICT: tl.constexpr = "evict_last" if HINTS else ""
    B_EVICT: tl.constexpr = "evict_first" if HINTS else ""
    t = _take(ws_ptr)
    total = n_rows.to(tl.int64) * K
    if ORDER == 0:
        if t < total:
            _bwd_publish(y_ptr, dy_ptr, ws_ptr, t, y_row_stride, dy_row_stride, n_cols, LOG_SOFTMAX, CHUNK, K,
                         PAIRS, BF16, INTERPRETER, A_EVICT)
    if t >= LAG:
        _bwd_output(y_ptr, dy_ptr, dx_ptr, ws_ptr, t - LAG, y_row_stride, dy_row_stride, dx_row_stride, n_cols,
                    LOG_SOFTMAX, CHUNK, K, KP, PAIRS, BF16, INTERPRETER, B_EVICT)
    if ORDER == 1:
        if t < total:
            _bwd_publish(y_ptr, dy_ptr, ws_ptr, t, y_row_stride, dy_row_stride, n_cols, LOG_SOFTMAX, CHUNK, K,
                         PAIRS, BF16, INTERPRETER, A_EVICT)


def main() -> None:
    ap = sweep_parser(__doc__, "131072,262144,524288,1048576")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    args = ap.parse_args()
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    header(args.bytes, "variants (LAG in K, in resident programs; HINTS; ORDER): "
           + ", ".join(f"{v}={VARIANTS[v]}" for v in args.variants.split(",")))
    for pass_, op, dname, cols, case in sweep(args.passes, args.dtypes, args.cols, args.bytes):
        dtype = DTYPES[dname]
        x, dy, out, copy_bw, moved, ref = case
        rows = x.shape[0]
        p = softmax.plan(x, op, "split_oneshot", dy)
        c = dict(p["constexprs"])
        k = c["K"]
        resident = sms * (p.get("programs_per_sm") or 1)
        ws = torch.full((1 + rows * k,), -1, dtype=torch.int64, device="cuda")
        kernel = _fwd_kernel if dy is None else _bwd_kernel
        fn = (lambda: softmax.run(x, op, "split_oneshot")) if dy is None else (
            lambda: softmax.run(x, op, "split_oneshot", dy=dy))
        cells = [f"package={100 * moved / _ms(fn) / copy_bw:.1f}({p.get('n_regs')}r,"
                 f"{p.get('programs_per_sm')}/SM,K={k})"]
        for name in args.variants.split(","):
            (in_k, in_res), hints, order = VARIANTS[name]
            lag = max(k, in_k * k + in_res * resident)
            args_ = (softmax_rows.kernel_args(x, out, ws) if dy is None
                     else softmax_rows.backward_kernel_args(x, dy, out, ws)) + (lag,)

            def call():
                ws.fill_(-1)
                return kernel[(rows * k + lag,)](*args_, num_warps=p["num_warps"], **launch.plan_options(p),
                                                 **c, HINTS=hints, ORDER=order)
            cells.append(timed_cell(name, call, out, ref, dtype, moved, copy_bw))
        print(pass_, dname, cols, f"copy={copy_bw / 1e6:.0f}GB/s", "  ".join(cells), flush=True)
        del x, dy, out, ws, case


if __name__ == "__main__":
    main()
