"""Where the Triton `split_oneshot` kernels (kernels_triton/softmax_oneshot.py) lose time on
wide rows, by timing copies of them that change one thing each: how a program takes its
chunk, how it waits for its row's words, whether it waits at all, and the cache hints of
its loads and stores. ~1 GiB inputs, % of a device-to-device copy timed in the same run.

The kernels below are the package's (same plan: chunk, K, poll lanes, warps and register
cap from `softmax.plan`), with these switches:

  TICKET  1: the chunk by ticket (an atomic on the workspace's first word, as shipped);
          0: by program id, no atomic before the loads (in-order starts assumed: timing
          only; the package keeps tickets for deadlock freedom).
  POLL    0: every program polls its row's K words as one vector, a block-wide min per
          poll (as shipped: K words of L2 traffic per poll); 1: it first adds 1 to a
          per-row arrival counter after publishing and polls that one word, then reads
          the K words (normally once).
  NAP     nanoseconds a poll sleeps before the next (0: none, as shipped).
  WAIT    0: no exchange at all, each chunk normalised by its own (max, sum): wrong
          output, the time of the kernel with a free exchange (an upper bound).
  HINTS   1: loads evict_first; 2: stores streaming (.cs); 3: both.
  PUBLISH 0: the chunk's word published by an atomic exchange (as shipped: Triton runs a
          scalar atomic in one thread and hands its result to the others through shared
          memory, a round trip to L2 and a barrier); 1: by a relaxed store of every
          thread (st.relaxed.gpu, inline PTX: no round trip, no barrier).
  POLL    2: each thread spins on its own lane's word in inline PTX (ld.relaxed.gpu
          until published; NAP ns of nanosleep between tries), no block-wide min per
          poll: the program notices the last word within one L2 round trip of its
          arrival.
  MERGE   1: the row's (max, sum) merged in one reduction over (max, sum) pairs instead
          of a max and then a sum of rescaled parts (one barrier fewer).

Each variant but WAIT=0 is checked against float64 on the input's first and last four
rows before it is timed.

    PYTHONPATH=. python3 benchmarks/tuning/triton_oneshot_exchange.py [--cols ...] [--dtypes fp32,bf16]
        [--passes fwd,bwd] [--variants base,nowait,...]
"""
from __future__ import annotations


import torch
import triton
import triton.language as tl

from kernels_triton import downcast, launch, pairs, softmax, softmax_rows, softmax_split
from kernels_triton.softmax_rows import LOG2E
# The geometry script's inputs, timing and check (this folder is sys.path[0] when a script
# of it runs).
from triton_oneshot_geometry import DTYPES, _ms, header, sweep, sweep_parser, timed_cell
# name: switches that differ from the shipped kernel's (TICKET=1, POLL=0, NAP=0, WAIT=1,
# HINTS=0, PUBLISH=0, MERGE=0).
SHIPPED = dict(TICKET=1, POLL=0, NAP=0, WAIT=1, HINTS=0, PUBLISH=0, MERGE=0)
VARIANTS = {
    "base": {},
    "nowait": dict(WAIT=0),
    "pid": dict(TICKET=0),
    "counter": dict(POLL=1),
    "counter_nap": dict(POLL=1, NAP=200),
    "nap": dict(NAP=200),
    "evict_loads": dict(HINTS=1),
    "cs_stores": dict(HINTS=2),
    "pid_counter": dict(TICKET=0, POLL=1),
    "store_publish": dict(PUBLISH=1),
    "spin": dict(POLL=2),
    "spin_store": dict(POLL=2, PUBLISH=1),
    "spin_store_merge": dict(POLL=2, PUBLISH=1, MERGE=1),
    "spin_store_nap": dict(POLL=2, PUBLISH=1, NAP=100),
    "store_merge": dict(PUBLISH=1, MERGE=1),
}


@triton.jit
def _nap(x, NAP: tl.constexpr):
    # A pause of about NAP ns (nanosleep), returning x so that the pause stays ordered in
    # the poll loop.
    if NAP == 100:
        return tl.inline_asm_elementwise("nanosleep.u32 100;\n mov.b32 $0, $1;", "=r,r", [x], dtype=tl.int32,
                                         is_pure=False, pack=1)
    elif NAP == 200:
        return tl.inline_asm_elementwise("nanosleep.u32 200;\n mov.b32 $0, $1;", "=r,r", [x], dtype=tl.int32,
                                         is_pure=False, pack=1)
    elif NAP == 500:
        return tl.inline_asm_elementwise("nanosleep.u32 500;\n mov.b32 $0, $1;", "=r,r", [x], dtype=tl.int32,
                                         is_pure=False, pack=1)
    else:
        return x


@triton.jit
def _spin(ptrs, live, NAP: tl.constexpr):
    # Each lane's word once it is published (>= 0), each thread spinning on its own lanes
    # (0 in dead lanes, which load nothing). ${:uid}: labels unique to each asm instance.
    if NAP == 100:
        return tl.inline_asm_elementwise(
            "{ .reg .pred p; mov.b64 $0, 0; setp.eq.s32 p, $2, 0; @p bra DONE${:uid};\n"
            "SPIN${:uid}: ld.relaxed.gpu.global.b64 $0, [$1]; setp.lt.s64 p, $0, 0;\n"
            "@!p bra DONE${:uid}; nanosleep.u32 100; bra SPIN${:uid};\nDONE${:uid}: }",
            "=l,l,r", [ptrs, live], dtype=tl.int64, is_pure=False, pack=1)
    else:
        return tl.inline_asm_elementwise(
            "{ .reg .pred p; mov.b64 $0, 0; setp.eq.s32 p, $2, 0; @p bra DONE${:uid};\n"
            "SPIN${:uid}: ld.relaxed.gpu.global.b64 $0, [$1]; setp.lt.s64 p, $0, 0;\n"
            "@p bra SPIN${:uid};\nDONE${:uid}: }",
            "=l,l,r", [ptrs, live], dtype=tl.int64, is_pure=False, pack=1)


@triton.jit
def _store_word(ptr, word):
    # A relaxed store of `word` by every thread (the same address and value).
    return tl.inline_asm_elementwise("st.relaxed.gpu.global.b64 [$1], $2; mov.b32 $0, 0;", "=r,l,l",
                                     [ptr, word], dtype=tl.int32, is_pure=False, pack=1)


@triton.jit
def _pair_combine(m1, s1, m2, s2):
    m = tl.maximum(m1, m2)
    m_safe = tl.where(m == -float("inf"), 0.0, m)
    return m, s1 * tl.exp2((m1 - m_safe) * LOG2E) + s2 * tl.exp2((m2 - m_safe) * LOG2E)


@triton.jit
def _take(ws_ptr, K: tl.constexpr, TICKET: tl.constexpr):
    if K > 1 and TICKET:
        ticket = tl.atomic_add(ws_ptr, 1, sem="relaxed", scope="gpu") + 1
    else:
        ticket = tl.program_id(0).to(tl.int64)
    row = ticket // K
    return row, (ticket - row * K).to(tl.int32), ws_ptr + 1 + row * K


@triton.jit
def _words(slots, cnt_ptr, row, part, word, K: tl.constexpr, KP: tl.constexpr, POLL: tl.constexpr,
           NAP: tl.constexpr, PUBLISH: tl.constexpr):
    # Publish `word` in the row's slot, wait for every slot of the row, return them (0 past K).
    if PUBLISH:
        _store_word(slots + part, word)
    else:
        tl.atomic_xchg(slots + part, word, sem="relaxed", scope="gpu")
    ks = tl.arange(0, KP)
    if POLL == 2:
        return _spin(slots + ks, (ks < K).to(tl.int32), NAP)
    if POLL == 1:
        # Counters start at -1 (the workspace's fill): K arrivals make K - 1. Relaxed: the
        # words themselves are checked after (a word still -1 is polled again).
        tl.atomic_add(cnt_ptr + row, 1, sem="relaxed", scope="gpu")
        c = tl.load(cnt_ptr + row, volatile=True)
        while c < K - 1:
            c = _nap(c.to(tl.int32), NAP).to(tl.int64)
            c = tl.load(cnt_ptr + row, volatile=True)
    words = tl.load(slots + ks, mask=ks < K, other=0, volatile=True)
    while tl.min(words, axis=0) < 0:
        if POLL == 0:
            words = _nap(words.to(tl.int32), NAP).to(tl.int64) * 0 + words
        words = tl.load(slots + ks, mask=ks < K, other=0, volatile=True)
    return words


@triton.jit
def _fwd_kernel(x_ptr, y_ptr, ws_ptr, n_rows, n_cols, x_row_stride, y_row_stride,
                LOG_SOFTMAX: tl.constexpr, CHUNK: tl.constexpr, K: tl.constexpr, KP: tl.constexpr,
                ALIGN: tl.constexpr, PAIRS: tl.constexpr, BF16: tl.constexpr, INTERPRETER: tl.constexpr,
                TICKET: tl.constexpr, POLL: tl.constexpr, NAP: tl.constexpr, WAIT: tl.constexpr,
                HINTS: tl.constexpr, PUBLISH: tl.constexpr, MERGE: tl.constexpr):
    n_cols, x_row_stride, y_row_stride = softmax_rows.aligned_sizes(n_cols, x_row_stride, y_row_stride, ALIGN)
    row, part, slots = _take(ws_ptr, K, TICKET)
    cnt_ptr = ws_ptr + 1 + n_rows * K
    cols = part * CHUNK + tl.arange(0, CHUNK)
    LOAD_POLICY: tl.constexpr = "evict_first" if HINTS % 2 == 1 else ""
    STORE_MODIFIER: tl.constexpr = ".cs" if HINTS >= 2 else ""
    if PAIRS:
        in_row = cols < n_cols // 2
        w = tl.load(x_ptr.to(tl.pointer_type(tl.uint32), bitcast=True) + row * (x_row_stride // 2) + cols,
                    mask=in_row, other=pairs.neg_inf_pair(BF16), eviction_policy=LOAD_POLICY)
        m = tl.max(pairs.maxima(w, BF16, INTERPRETER), axis=0)
        d = tl.sum(pairs.exps(pairs.apart(w, part >> 31), tl.where(m == -float("inf"), 0.0, m), BF16, INTERPRETER),
                   axis=0)
    else:
        in_row = cols < n_cols
        xf = tl.load(x_ptr + row * x_row_stride + cols, mask=in_row, other=-float("inf"),
                     eviction_policy=LOAD_POLICY).to(tl.float32)
        m = tl.max(xf, axis=0)
        e = tl.exp2((xf - tl.where(m == -float("inf"), 0.0, m)) * LOG2E)
        d = tl.sum(e, axis=0)
    if WAIT and K > 1:
        words = _words(slots, cnt_ptr, row, part, softmax_split._pair_word(m, d), K, KP, POLL, NAP, PUBLISH)
        live = tl.arange(0, KP) < K
        part_max, part_sum = softmax_split._word_pairs(words)
        if MERGE:
            row_max, row_sum = tl.reduce((tl.where(live, part_max, -float("inf")), tl.where(live, part_sum, 0.0)),
                                         0, _pair_combine)
        else:
            row_max, row_sum = softmax_split._merge_pairs(tl.where(live, part_max, -float("inf")),
                                                          tl.where(live, part_sum, 0.0))
    else:
        row_max, row_sum = m, d
    if PAIRS:
        y = pairs.output(pairs.apart(w, row_max != row_max), row_max, row_sum, LOG_SOFTMAX, BF16, INTERPRETER)
        tl.store(y_ptr.to(tl.pointer_type(tl.uint32), bitcast=True) + row * (y_row_stride // 2) + cols, y,
                 mask=in_row, cache_modifier=STORE_MODIFIER)
    else:
        y = softmax_split._split_output(xf, e, m, row_max, row_sum, LOG_SOFTMAX, False)
        tl.store(y_ptr + row * y_row_stride + cols, downcast.rounded(y, y_ptr.dtype.element_ty, INTERPRETER),
                 mask=in_row, cache_modifier=STORE_MODIFIER)


@triton.jit
def _bwd_kernel(y_ptr, dy_ptr, dx_ptr, ws_ptr, n_rows, n_cols, y_row_stride, dy_row_stride, dx_row_stride,
                LOG_SOFTMAX: tl.constexpr, CHUNK: tl.constexpr, K: tl.constexpr, KP: tl.constexpr,
                ALIGN: tl.constexpr, PAIRS: tl.constexpr, BF16: tl.constexpr, INTERPRETER: tl.constexpr,
                TICKET: tl.constexpr, POLL: tl.constexpr, NAP: tl.constexpr, WAIT: tl.constexpr,
                HINTS: tl.constexpr, PUBLISH: tl.constexpr, MERGE: tl.constexpr):
    n_cols, y_row_stride, dy_row_stride, dx_row_stride = softmax_rows.backward_sizes(
        n_cols, y_row_stride, dy_row_stride, dx_row_stride, ALIGN)
    row, part, slots = _take(ws_ptr, K, TICKET)
    cnt_ptr = ws_ptr + 1 + n_rows * K
    cols = part * CHUNK + tl.arange(0, CHUNK)
    LOAD_POLICY: tl.constexpr = "evict_first" if HINTS % 2 == 1 else ""
    STORE_MODIFIER: tl.constexpr = ".cs" if HINTS >= 2 else ""
    if PAIRS:
        in_row = cols < n_cols // 2
        wy = tl.load(y_ptr.to(tl.pointer_type(tl.uint32), bitcast=True) + row * (y_row_stride // 2) + cols,
                     mask=in_row, other=0, eviction_policy=LOAD_POLICY)
        wg = tl.load(dy_ptr.to(tl.pointer_type(tl.uint32), bitcast=True) + row * (dy_row_stride // 2) + cols,
                     mask=in_row, other=0, eviction_policy=LOAD_POLICY)
        s = tl.sum(pairs.grad_terms(wy, wg, LOG_SOFTMAX, BF16, INTERPRETER), axis=0)
    else:
        in_row = cols < n_cols
        yf = tl.load(y_ptr + row * y_row_stride + cols, mask=in_row, other=0.0,
                     eviction_policy=LOAD_POLICY).to(tl.float32)
        gf = tl.load(dy_ptr + row * dy_row_stride + cols, mask=in_row, other=0.0,
                     eviction_policy=LOAD_POLICY).to(tl.float32)
        s = tl.sum(softmax_rows.grad_term(yf, gf, LOG_SOFTMAX), axis=0)
    if WAIT and K > 1:
        s = tl.sum(softmax_split._word_sums(_words(slots, cnt_ptr, row, part, softmax_split._sum_word(s), K, KP,
                                                   POLL, NAP, PUBLISH)), axis=0)
    if PAIRS:
        lo, hi = pairs.grad_halves(wy, wg, s, LOG_SOFTMAX, BF16, INTERPRETER)
        tl.store(dx_ptr.to(tl.pointer_type(tl.uint32), bitcast=True) + row * (dx_row_stride // 2) + cols,
                 pairs.pack(lo, hi, BF16, INTERPRETER), mask=in_row, cache_modifier=STORE_MODIFIER)
    else:
        dx = softmax_rows.grad_out(yf, gf, s, LOG_SOFTMAX)
        tl.store(dx_ptr + row * dx_row_stride + cols, downcast.rounded(dx, dx_ptr.dtype.element_ty, INTERPRETER),
                 mask=in_row, cache_modifier=STORE_MODIFIER)


def main() -> None:
    ap = sweep_parser(__doc__, "131072,262144,524288,1048576")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    args = ap.parse_args()
    header(args.bytes, f"shipped: {SHIPPED}; variants: "
           + ", ".join(f"{v}={VARIANTS[v]}" for v in args.variants.split(",")))
    for pass_, op, dname, cols, case in sweep(args.passes, args.dtypes, args.cols, args.bytes):
        dtype = DTYPES[dname]
        x, dy, out, copy_bw, moved, ref = case
        rows = x.shape[0]
        p = softmax.plan(x, op, "split_oneshot", dy)
        c = dict(p["constexprs"])
        k = c["K"]
        ws = torch.full((2 + rows * k + rows,), -1, dtype=torch.int64, device="cuda")
        kernel = _fwd_kernel if dy is None else _bwd_kernel
        args_ = (softmax_rows.kernel_args(x, out, ws) if dy is None
                 else softmax_rows.backward_kernel_args(x, dy, out, ws))
        fn = (lambda: softmax.run(x, op, "split_oneshot")) if dy is None else (
            lambda: softmax.run(x, op, "split_oneshot", dy=dy))
        cells = [f"package={100 * moved / _ms(fn) / copy_bw:.1f}({p.get('n_regs')}r,"
                 f"{p.get('programs_per_sm')}/SM,K={k})"]
        for name in args.variants.split(","):
            switches = dict(SHIPPED, **VARIANTS[name])
            wait = switches["WAIT"]

            def call():
                ws.fill_(-1)
                return kernel[(p["grid"],)](*args_, num_warps=p["num_warps"], **launch.plan_options(p),
                                            **c, **switches)
            cells.append(timed_cell(name, call, out, ref, dtype, moved, copy_bw, check=bool(wait)))
        print(pass_, dname, cols, f"copy={copy_bw / 1e6:.0f}GB/s", "  ".join(cells), flush=True)
        del x, dy, out, ws, case


if __name__ == "__main__":
    main()
