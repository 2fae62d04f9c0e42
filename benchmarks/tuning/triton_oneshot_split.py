"""A one-shot, ticketed Triton softmax for very wide rows, timed against the package's
persistent `split` and against a device-to-device copy.

The package's Triton `split` holds a wide row (fp32 1048576 columns: 4 MB) in the
registers of SPLIT programs of a persistent grid, which exchange their chunks' (max, sum)
through global memory on every row: each row is a barrier over programs on every SM, so
the slowest SM sets the pace of every row (H200 ~70% of the copy bandwidth at 1048576 fp32
columns, H100 ~85%). The CUDA backend gained 4-5 points there by going one-shot: rows x K
short-lived programs, each taking a ticket (an atomic counter) as it starts; ticket n is
chunk n % K of row n // K. A program loads its chunk, publishes its (max, sum), waits for
its row's K words, merges them, writes its chunk of the output and exits, so a slow SM
delays only its own few programs while the others take more tickets. This script asks
whether that shape wins in Triton too. Per width and dtype, on ~1 GiB inputs, it times
(a) y.copy_(x), the ceiling; (b) `comparison.softmax(x, backend="triton")`, the package as
it is; (c) the one-shot kernel over a sweep of chunk widths, warps and what a program
holds across the wait (form "e": the fp32 exps; "p", bf16 only: the input packed two to a
32-bit register, the output recomputed), each checked against float64 before it is timed.

    PYTHONPATH=. python benchmarks/tuning/triton_oneshot_split.py            # on a GPU
    TRITON_INTERPRET=1 PYTHONPATH=. python benchmarks/tuning/triton_oneshot_split.py --selftest  # CPU
"""
from __future__ import annotations

import os
import sys

# The self-test runs under Triton's CPU interpreter, which must be chosen before Triton is
# imported.
if __name__ == "__main__" and "--selftest" in sys.argv:
    os.environ.setdefault("TRITON_INTERPRET", "1")

import argparse  # noqa: E402
import platform  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

from kernels_triton.launch import driver_programs_per_sm  # noqa: E402
from kernels_triton.softmax_split import _pair_word  # noqa: E402

LOG2E = tl.constexpr(1.4426950408889634)
# Most programs per row (K): the poll loads the row's words as one vector of MAX_K lanes
# (masked past K), so K is a runtime argument and one binary serves every width.
MAX_K = 128
# Values of a chunk per thread kept in the default sweep.
MIN_VALUES_PER_THREAD, MAX_VALUES_PER_THREAD = 8, 128
# Seconds a single checked launch may take before the script calls it a hang and exits.
HANG_SECONDS = 30.0


# -- kernel ----------------------------------------------------------------------------------

@triton.jit(do_not_specialize=["K"])
def _oneshot_softmax_kernel(x_ptr, y_ptr, ws_ptr, n_cols, x_row_stride, y_row_stride, K,
                            CHUNK: tl.constexpr, KP: tl.constexpr, PAIRS: tl.constexpr):
    # Grid: rows * K programs, one per (row, chunk), in whatever order the GPU starts them.
    # ws_ptr: int64 [1 + rows * K], all -1 before the launch: word 0 the ticket counter,
    # then K words per row, one per chunk, -1 until that chunk's (max, sum) is published.
    # KP: a power of two >= K (the poll's vector).
    # What a program holds in registers across the wait: without PAIRS, the chunk's fp32
    # exps exp(x - m), then scaled by exp(m - M) / D (= exp(x - M) / D). PAIRS (bf16, even
    # widths and strides): the chunk as loaded, two bf16 to an int32 word, half the
    # registers of fp32 values (16-bit values held one to a register gain nothing), and
    # y = exp(x - M) / D recomputed from it after the merge.
    #
    # The ticket, not the program id, picks the (row, chunk): tickets are handed out in
    # the order programs start, so every row but the one of the latest ticket has all its
    # programs started (running or done), and only that row's programs can be waiting for
    # a program not yet started; with at least K programs resident at once (checked on
    # the host before any launch, `residency`) that program always gets a slot: no
    # deadlock, whatever order the hardware starts programs in. Relaxed is enough for the
    # ticket: only its atomicity matters, nothing is read through it. Triton executes a
    # scalar atomic once per program and hands its result to every thread.
    ticket = (tl.atomic_add(ws_ptr, 1, sem="relaxed", scope="gpu") + 1).to(tl.int32)
    row = ticket // K
    rank = ticket - row * K
    if PAIRS:
        HALF: tl.constexpr = CHUNK // 2
        cols = rank * HALF + tl.arange(0, HALF)
        in_row = cols < n_cols // 2
        x_words = (x_ptr + row.to(tl.int64) * x_row_stride).to(tl.pointer_type(tl.int32))
        # Past the row's end: 0xFF80FF80, two bf16 -inf.
        xw = tl.load(x_words + cols, mask=in_row, other=-8323200)
        # Each pass over the chunk unpacks the words itself, from words made distinct by an
        # opaque 0 (here ticket >> 31: tickets are >= 0, which the compiler cannot know):
        # the same ops on xw would be merged across passes, and the unpacked fp32 values
        # kept alive from one pass to the next (across the wait: twice the registers).
        lo = (xw << 16).to(tl.float32, bitcast=True)
        hi = (xw & -65536).to(tl.float32, bitcast=True)
        m = tl.maximum(tl.max(lo, axis=0), tl.max(hi, axis=0))
        m0 = tl.where(m == -float("inf"), 0.0, m)
        xw1 = xw | (ticket >> 31)
        d = (tl.sum(tl.exp2(((xw1 << 16).to(tl.float32, bitcast=True) - m0) * LOG2E), axis=0)
             + tl.sum(tl.exp2(((xw1 & -65536).to(tl.float32, bitcast=True) - m0) * LOG2E), axis=0))
    else:
        cols = rank * CHUNK + tl.arange(0, CHUNK)
        in_row = cols < n_cols
        x = tl.load(x_ptr + row.to(tl.int64) * x_row_stride + cols, mask=in_row, other=-float("inf"))
        xf = x.to(tl.float32)
        # The chunk's pair, exponents relative to its own max (a chunk of only -inf: (-inf, 0)).
        m = tl.max(xf, axis=0)
        e = tl.exp2((xf - tl.where(m == -float("inf"), 0.0, m)) * LOG2E)
        d = tl.sum(e, axis=0)
    slots = ws_ptr + 1 + row.to(tl.int64) * K
    # Publish: the pair is the whole message (one 64-bit word, nothing else to be seen
    # with it), so a relaxed atomic exchange at GPU scope suffices, as in the package's
    # `split` kernel: it goes to L2, where the other SMs' polls read it.
    tl.atomic_xchg(slots + rank, _pair_word(m, d), sem="relaxed", scope="gpu")
    # Poll the row's K words until none is -1. Volatile loads are not served from (or
    # cached in) this SM's L1, so each pass sees L2's current words: the same wait as
    # `split`'s, which runs on the H100/H200. Lanes past K read as 0 (published).
    ks = tl.arange(0, KP)
    live = ks < K
    words = tl.load(slots + ks, mask=live, other=0, volatile=True)
    while tl.min(words, axis=0) < 0:
        words = tl.load(slots + ks, mask=live, other=0, volatile=True)
    part_max = tl.where(live, (words & 0xFFFFFFFF).to(tl.int32).to(tl.float32, bitcast=True), -float("inf"))
    part_sum = tl.where(live, (words >> 32).to(tl.int32).to(tl.float32, bitcast=True), 0.0)
    # Merge: a chunk of only -inf adds 0 * exp(-inf) = 0; a row of only -inf gets NaN
    # (-inf - -inf), as torch.
    row_max = tl.max(part_max, axis=0)
    row_sum = tl.sum(part_sum * tl.exp2((part_max - row_max) * LOG2E), axis=0)
    if PAIRS:
        # Unpacked again, from words made distinct by another opaque 0 (every word is >= 0
        # once the wait is over).
        xw2 = xw | (tl.min(words, axis=0) >> 63).to(tl.int32)
        inv = 1.0 / row_sum
        y_lo = tl.exp2(((xw2 << 16).to(tl.float32, bitcast=True) - row_max) * LOG2E) * inv
        y_hi = tl.exp2(((xw2 & -65536).to(tl.float32, bitcast=True) - row_max) * LOG2E) * inv
        lo_bits = y_lo.to(tl.bfloat16).to(tl.int16, bitcast=True).to(tl.int32) & 0xFFFF
        hi_bits = y_hi.to(tl.bfloat16).to(tl.int16, bitcast=True).to(tl.int32) << 16
        y_words = (y_ptr + row.to(tl.int64) * y_row_stride).to(tl.pointer_type(tl.int32))
        tl.store(y_words + cols, hi_bits | lo_bits, mask=in_row)
    else:
        # exp(x - M) / D from the exps held: exp(x - m) * exp(m - M) / D.
        y = e * (tl.exp2((m - row_max) * LOG2E) / row_sum)
        tl.store(y_ptr + row.to(tl.int64) * y_row_stride + cols, y.to(y_ptr.dtype.element_ty), mask=in_row)


def oneshot_k(cols: int, chunk: int) -> int:
    return triton.cdiv(max(cols, 1), chunk)


def workspace(rows: int, k: int, device) -> torch.Tensor:
    """The ticket counter and the rows' exchange words, all -1 (`_oneshot_softmax_kernel`)."""
    return torch.full((1 + rows * k,), -1, dtype=torch.int64, device=device)


def pairs_ok(x: torch.Tensor, y: torch.Tensor) -> bool:
    """Whether the PAIRS form can run on x -> y: bf16, even widths, strides and offsets."""
    return (x.dtype == torch.bfloat16 and y.dtype == torch.bfloat16 and x.shape[1] % 2 == 0
            and x.stride(0) % 2 == 0 and y.stride(0) % 2 == 0
            and x.data_ptr() % 4 == 0 and y.data_ptr() % 4 == 0)


def oneshot_launch(x: torch.Tensor, y: torch.Tensor, ws: torch.Tensor, chunk: int, num_warps: int,
                   pairs: bool = False) -> None:
    """One launch over the (rows, cols) tensors x -> y; `ws` must be all -1 (`ws.fill_(-1)`)."""
    rows, cols = x.shape
    k = oneshot_k(cols, chunk)
    assert k <= MAX_K and ws.numel() >= 1 + rows * k and x.stride(1) == 1 and y.stride(1) == 1
    assert not pairs or pairs_ok(x, y)
    _oneshot_softmax_kernel[(rows * k,)](x, y, ws, cols, x.stride(0), y.stride(0), k,
                                         CHUNK=chunk, KP=MAX_K, PAIRS=pairs, num_warps=num_warps)


# -- self-test (Triton's CPU interpreter) -------------------------------------------------------

def host_pair_words(x: torch.Tensor, chunk: int) -> torch.Tensor:
    """The exchange words every chunk of every row publishes, computed on the host (fp32):
    the self-test pre-publishes them so that K > 1 can run under the interpreter, whose
    programs run one after another (the first would otherwise wait forever)."""
    rows, cols = x.shape
    k = oneshot_k(cols, chunk)
    padded = torch.full((rows, k * chunk), -float("inf"), dtype=torch.float32)
    padded[:, :cols] = x.float()
    parts = padded.view(rows, k, chunk)
    m = parts.amax(-1)
    d = torch.exp(parts - torch.where(m == -float("inf"), 0.0, m)[..., None]).sum(-1)
    d_bits = d.abs().view(torch.int32).to(torch.int64)
    m_bits = m.view(torch.int32).to(torch.int64) & 0xFFFFFFFF
    return ((d_bits << 32) | m_bits).reshape(-1)


def selftest() -> int:
    interp = os.environ.get("TRITON_INTERPRET", "0") not in ("", "0")
    print(f"selftest: triton {triton.__version__}, torch {torch.__version__}, interpreter {interp}", flush=True)
    device = "cpu" if interp else "cuda"
    gen = torch.Generator().manual_seed(0)
    # (rows, cols, dtype, CHUNK, pre-published): K = 1 runs the whole kernel as on the GPU
    # (ticket, publish, poll of its own word, merge); K > 1 with every word pre-published.
    cases = [(3, 1024, torch.float32, 1024, False), (3, 1000, torch.float32, 1024, False),
             (2, 1000, torch.bfloat16, 1024, False), (4, 64, torch.float32, 128, False),
             (3, 1000, torch.float32, 256, True), (2, 1024, torch.float32, 128, True),
             (2, 1000, torch.bfloat16, 256, True), (3, 1000, torch.bfloat16, 128, True)]
    failures = 0
    runs = [(c, p) for c in cases for p in ((False, True) if c[2] == torch.bfloat16 else (False,))]
    for (rows, cols, dtype, chunk, prepublish), pairs in runs:
        x = (3 * torch.randn(rows, cols, generator=gen)).to(dtype)
        if rows >= 3:
            x[1, :5] = -float("inf")  # a few -inf values in one row (not a whole chunk)
        k = oneshot_k(cols, chunk)
        x_dev = x.to(device)
        y = torch.full_like(x_dev, float("nan"))
        ws = workspace(rows, k, device)
        if prepublish:
            ws[1:] = host_pair_words(x, chunk).to(device)
        elif k > 1 and interp:
            raise AssertionError("K > 1 under the interpreter needs pre-published words")
        oneshot_launch(x_dev, y, ws, chunk, num_warps=4, pairs=pairs)
        ref = torch.softmax(x.double(), -1)
        got = y.cpu().double()
        atol, rtol = (2e-6, 1e-4) if dtype == torch.float32 else (1e-3, 1.6e-2)
        ok = torch.allclose(got, ref, atol=atol, rtol=rtol)
        tickets_ok = int(ws[0]) == rows * k - 1 and bool((ws[1:] >= 0).all())
        err = torch.nan_to_num((got - ref).abs(), nan=float("inf")).max().item()
        verdict = "ok" if ok and tickets_ok else "FAIL"
        failures += verdict != "ok"
        print(f"  {rows} x {cols} {str(dtype).removeprefix('torch.')} CHUNK {chunk} K {k} form {'p' if pairs else 'e'}"
              f"{' (pre-published)' if prepublish else ''}: max abs err {err:.2e}, last ticket "
              f"{int(ws[0])} (expect {rows * k - 1}): {verdict}", flush=True)
    print("selftest: " + ("all ok" if not failures else f"{failures} FAILED"), flush=True)
    return 1 if failures else 0


# -- residency ---------------------------------------------------------------------------------

def residency(x, y, ws, chunk: int, num_warps: int, pairs: bool, props) -> dict:
    """Compile the one-shot kernel for these arguments (no launch) and work out how many of
    its programs an SM keeps resident. Why it matters: a row's K programs wait for each
    other, and the ticket order guarantees progress only if K programs can be resident at
    once (the latest row's programs must be able to start while its earlier ones spin); a
    config where K exceeds programs per SM x SMs could deadlock, so it is never launched.
    Registers are allocated 8 per thread at a time; 1 KiB of shared memory is reserved per
    program; at most 32 programs an SM (sm_80 / sm_90); the driver's own occupancy answer
    for the loaded binary caps the figure where it can be had."""
    cols = x.shape[1]
    k = oneshot_k(cols, chunk)
    compiled = _oneshot_softmax_kernel.warmup(x, y, ws, cols, x.stride(0), y.stride(0), k, CHUNK=chunk,
                                              KP=MAX_K, PAIRS=pairs, grid=(1,), num_warps=num_warps)
    compiled._init_handles()  # loads the binary: fills n_regs and n_spills
    n_regs, n_spills = int(compiled.n_regs), int(compiled.n_spills)
    shared = int(compiled.metadata.shared)
    threads = 32 * num_warps
    regs_per_sm = getattr(props, "regs_per_multiprocessor", 0) or 65536
    threads_per_sm = getattr(props, "max_threads_per_multi_processor", 0) or 2048
    smem_per_sm = getattr(props, "shared_memory_per_multiprocessor", 0) or 228 * 1024
    per_sm = min(regs_per_sm // (-(-max(n_regs, 1) // 8) * 8 * threads),
                 threads_per_sm // threads,
                 smem_per_sm // (shared + 1024),
                 32)
    driver = driver_programs_per_sm(compiled, threads, shared)
    if driver is not None:
        per_sm = min(per_sm, driver)
    return {"n_regs": n_regs, "n_spills": n_spills, "shared": shared, "per_sm": per_sm,
            "resident": per_sm * props.multi_processor_count, "driver": driver}


# -- GPU benchmark -------------------------------------------------------------------------------

DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}
# Agreement with float64, on probabilities: allclose(atol, rtol), and the largest relative
# error within rtol (at 1M columns the probabilities are ~1e-6, under fp32's atol).
TOLERANCES = {torch.float32: (2e-6, 1e-4), torch.bfloat16: (1e-3, 1.6e-2), torch.float16: (1e-3, 1e-2)}


# What a program holds across the wait: "e" the fp32 exps (any dtype), "p" bf16 pairs of
# the input, two to an int32 (PAIRS; bf16 only, other dtypes skip it).
FORMS = {"e": False, "p": True}


def default_configs(dtype: torch.dtype, forms: list[str]) -> list[tuple[int, int, str]]:
    """(CHUNK, warps, form): chunks of 4096-32768 values (16-bit also 65536) at 4, 8 or
    16 warps, MIN_VALUES_PER_THREAD to MAX_VALUES_PER_THREAD values a thread, each form
    (PAIRS for bf16 alone; there the values a thread count the input's values)."""
    chunks = [4096, 8192, 16384, 32768] + ([65536] if dtype.itemsize == 2 else [])
    out = []
    for chunk in chunks:
        for warps in (4, 8, 16):
            if MIN_VALUES_PER_THREAD <= chunk // (32 * warps) <= MAX_VALUES_PER_THREAD:
                out.extend((chunk, warps, form) for form in forms if not FORMS[form] or dtype == torch.bfloat16)
    return out


def parse_forms(text: str) -> list[str]:
    forms = [f.strip() for f in text.split(",") if f.strip()]
    if not forms or any(f not in FORMS for f in forms):
        raise SystemExit(f"--forms: comma-separated, each one of {', '.join(FORMS)}: {text!r}")
    return forms


def parse_configs(text: str) -> list[tuple[int, int, str | None]]:
    """"8192x8,16384x16:x": CHUNK x num_warps[:form] (no form: every --forms one)."""
    out = []
    for item in filter(None, (t.strip() for t in text.split(","))):
        body, _, form = item.lower().partition(":")
        chunk, _, warps = body.partition("x")
        chunk_i, warps_i = int(chunk), int(warps)
        if chunk_i & (chunk_i - 1) or warps_i & (warps_i - 1):
            raise SystemExit(f"--configs: CHUNK and warps must be powers of two: {item!r}")
        if form and form not in FORMS:
            raise SystemExit(f"--configs: form must be one of {', '.join(FORMS)}: {item!r}")
        out.append((chunk_i, warps_i, form or None))
    return out


def parse_bytes(text: str) -> int:
    units = {"k": 2 ** 10, "m": 2 ** 20, "g": 2 ** 30}
    t = text.strip().lower().removesuffix("ib").removesuffix("b")
    if t and t[-1] in units:
        return int(float(t[:-1]) * units[t[-1]])
    return int(float(t))


def sync_or_die(label: str, seconds: float = HANG_SECONDS) -> None:
    """Wait for the GPU, but exit the process (printing which launch) if it takes longer
    than `seconds`: a deadlocked one-shot launch spins forever, and exiting tears down the
    CUDA context, which ends it (the outer `timeout` is the second line of defence)."""
    ev = torch.cuda.Event()
    ev.record()
    t0 = time.monotonic()
    while not ev.query():
        if time.monotonic() - t0 > seconds:
            print(f"HANG: {label} did not finish within {seconds:.0f} s; exiting", flush=True)
            os._exit(3)
        time.sleep(0.0005)
    torch.cuda.synchronize()


def check(x: torch.Tensor, y: torch.Tensor) -> tuple[bool, float, float]:
    """(agrees, max abs error, max relative error) of y = softmax(x) against float64,
    over every row, a few tens of MB of x at a time."""
    atol, rtol = TOLERANCES[x.dtype]
    step = max(1, (32 << 20) // max(1, x.shape[1]))
    ok, max_abs, max_rel = True, 0.0, 0.0
    for r0 in range(0, x.shape[0], step):
        ref = torch.softmax(x[r0:r0 + step].double(), -1)
        diff = torch.nan_to_num((y[r0:r0 + step].double() - ref).abs(), nan=float("inf"))
        max_abs = max(max_abs, diff.max().item())
        max_rel = max(max_rel, (diff / ref.abs().clamp_min(1e-30)).max().item())
        ok = ok and bool((diff <= atol + rtol * ref.abs()).all())
        del ref, diff
    return ok and max_rel <= rtol, max_abs, max_rel


def kernel_only_us(pre, fn, n: int = 30) -> float:
    """Median of `fn` alone, `pre` (the workspace fill) outside each timed interval. A
    sleep first keeps the GPU behind the host, so no interval holds a host launch gap."""
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(n)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(n)]
    torch.cuda.synchronize()
    torch.cuda._sleep(50_000_000)  # ~25-30 ms of GPU clock cycles
    for s, e in zip(starts, ends):
        pre()
        s.record()
        fn()
        e.record()
    torch.cuda.synchronize()
    return 1e3 * statistics.median(s.elapsed_time(e) for s, e in zip(starts, ends))


def bench_us(fn, rep: int) -> float:
    from triton.testing import do_bench
    return 1e3 * do_bench(fn, warmup=25, rep=rep, return_mode="median")


def render(headers: list[str], rows: list[list]) -> str:
    try:
        from tabulate import tabulate
        return tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True)
    except Exception:  # noqa: BLE001 (no tabulate, or one too old for these arguments)
        cells = [headers] + [[str(c) for c in r] for r in rows]
        widths = [max(len(str(r[i])) for r in cells) for i in range(len(headers))]
        return "\n".join("  ".join(str(c).rjust(w) for c, w in zip(r, widths)) for r in cells)


def package_plan_note(x: torch.Tensor) -> str:
    """What the package's Triton path plans for x (kernel, SPLIT x CHUNK, warps, registers,
    programs per SM, grid), or why that cannot be told."""
    try:
        from kernels_triton import softmax as triton_softmax
        p = triton_softmax.plan(x, "softmax")
        c = p.get("constexprs") or {}
        return (f"package triton plan: {p.get('kernel')} SPLIT {c.get('SPLIT')} x CHUNK {c.get('CHUNK')}, "
                f"{p.get('num_warps')} warps, {p.get('n_regs')} regs, {p.get('n_spills')} B spilled, "
                f"{p.get('programs_per_sm')}/SM, grid {p.get('grid')}"
                + (f", REREAD {c.get('REREAD')}, NEXT_EARLY {c.get('NEXT_EARLY')}" if "REREAD" in c else ""))
    except Exception as exc:  # noqa: BLE001 (a note only)
        return f"package triton plan: unavailable ({type(exc).__name__}: {exc})"


def run_case(dtype_name: str, cols: int, args, props) -> dict:
    dtype = DTYPES[dtype_name]
    elem = dtype.itemsize
    rows = max(1, args.bytes // (cols * elem))
    device = torch.device("cuda")
    tag = f"[{dtype_name} {rows} x {cols}]"
    print(f"\n=== {dtype_name}, {rows} rows x {cols} cols ({rows * cols * elem / 2 ** 30:.2f} GiB) ===", flush=True)
    torch.manual_seed(0)
    x = torch.randn(rows, cols, device=device, dtype=torch.float32).to(dtype)
    y = torch.empty_like(x)
    moved = 2 * x.numel() * elem
    table: list[list] = []
    headers = ["config", "K", "v/thr", "regs", "spill B", "smem B", "prog/SM", "resident", "us (fill+kern)",
               "% copy", "us kern", "% copy kern", "max abs err", "max rel err", "ok"]

    print(f"{tag} copy", flush=True)
    t_copy = bench_us(lambda: y.copy_(x), args.rep)
    table.append(["copy (ceiling)", "", "", "", "", "", "", "", f"{t_copy:.1f}", "100.0", "", "", "", "", ""])
    result = {"dtype": dtype_name, "cols": cols, "rows": rows, "copy_us": t_copy, "gbps_copy": moved / t_copy / 1e3,
              "pkg_pct": None, "best": None}

    print(f"{tag} package triton", flush=True)
    try:
        from comparison import softmax as pkg_softmax
        y.fill_(float("nan"))
        out = pkg_softmax(x, backend="triton")
        sync_or_die(f"{tag} package triton")
        ok, err, rel = check(x, out)
        del out
        t_pkg = bench_us(lambda: pkg_softmax(x, backend="triton"), args.rep)
        result["pkg_pct"] = 100 * t_copy / t_pkg
        result["pkg_ok"] = ok
        table.append(["package triton (auto)", "", "", "", "", "", "", "", f"{t_pkg:.1f}",
                      f"{result['pkg_pct']:.1f}", "", "", f"{err:.2e}", f"{rel:.2e}", "ok" if ok else "FAIL"])
        print(f"{tag} {package_plan_note(x)}", flush=True)
    except Exception as exc:  # noqa: BLE001 (report and go on)
        print(f"{tag} package triton: {type(exc).__name__}: {exc}", flush=True)
        table.append(["package triton (auto)", "", "", "", "", "", "", "", "error", "", "", "", "", "", "ERROR"])

    if args.configs:
        configs = [(c, w, f) for c, w, form in args.configs for f in ([form] if form else args.forms)]
    else:
        configs = default_configs(dtype, args.forms)
    for chunk, warps, form in configs:
        pairs = FORMS[form]
        name = f"{chunk}x{warps}w/{form}"
        if pairs and not pairs_ok(x, y):
            print(f"{tag} {name}: skipped, the pairs form takes bf16 rows of even widths", flush=True)
            continue
        k = oneshot_k(cols, chunk)
        per_thread = chunk // (32 * warps)
        if k > MAX_K:
            print(f"{tag} {name}: skipped, K = {k} > {MAX_K}", flush=True)
            continue
        if chunk > 2 * triton.next_power_of_2(cols):
            print(f"{tag} {name}: skipped, chunk wider than the row", flush=True)
            continue
        ws = workspace(rows, k, device)
        print(f"{tag} {name}: compiling (K {k}, {per_thread} values/thread)", flush=True)
        try:
            res = residency(x, y, ws, chunk, warps, pairs, props)
        except Exception as exc:  # noqa: BLE001 (a config that does not compile is reported)
            print(f"{tag} {name}: compile failed: {type(exc).__name__}: {exc}", flush=True)
            continue
        if k > res["resident"]:
            print(f"{tag} {name}: skipped, K = {k} > {res['per_sm']} programs/SM x {props.multi_processor_count} "
                  f"SMs = {res['resident']} resident at once ({res['n_regs']} regs): could deadlock", flush=True)
            continue
        print(f"{tag} {name}: {res['n_regs']} regs, {res['n_spills']} B spilled, {res['per_sm']} programs/SM "
              f"(driver {res['driver']}); checking", flush=True)
        y.fill_(float("nan"))  # poison: a chunk not written shows as NaN
        ws.fill_(-1)
        oneshot_launch(x, y, ws, chunk, warps, pairs)
        sync_or_die(f"{tag} {name} first launch")
        ok, err, rel = check(x, y)
        print(f"{tag} {name}: max abs err {err:.2e}, max rel err {rel:.2e}: {'ok' if ok else 'FAIL'}; timing",
              flush=True)

        def call(ws=ws, chunk=chunk, warps=warps, pairs=pairs):
            ws.fill_(-1)
            oneshot_launch(x, y, ws, chunk, warps, pairs)

        def launch_only(ws=ws, chunk=chunk, warps=warps, pairs=pairs):
            oneshot_launch(x, y, ws, chunk, warps, pairs)

        t = bench_us(call, args.rep)
        t_kern = kernel_only_us(lambda ws=ws: ws.fill_(-1), launch_only)
        sync_or_die(f"{tag} {name} timing")
        pct, pct_kern = 100 * t_copy / t, 100 * t_copy / t_kern
        table.append([f"oneshot {name}", k, per_thread, res["n_regs"], res["n_spills"], res["shared"], res["per_sm"],
                      res["resident"], f"{t:.1f}", f"{pct:.1f}", f"{t_kern:.1f}", f"{pct_kern:.1f}", f"{err:.2e}",
                      f"{rel:.2e}", "ok" if ok else "FAIL"])
        if ok and (result["best"] is None or pct > result["best"]["pct"]):
            result["best"] = {"name": name, "k": k, "pct": pct, "pct_kern": pct_kern, "us": t,
                              "regs": res["n_regs"], "per_sm": res["per_sm"]}
    print(f"\n{dtype_name}, {rows} x {cols}: copy {t_copy:.1f} us = {result['gbps_copy']:.0f} GB/s (read + write)")
    print(render(headers, table), flush=True)
    return result


def summary_line(r: dict) -> str:
    head = f"{r['dtype']} {r['cols']}:"
    pkg = "package triton n/a" if r["pkg_pct"] is None else f"package triton {r['pkg_pct']:.1f}%"
    if r["pkg_pct"] is not None and not r.get("pkg_ok", True):
        pkg += " (FAIL)"
    b = r["best"]
    if b is None:
        return f"{head} no one-shot config agreed and ran; {pkg}"
    delta = "" if r["pkg_pct"] is None else f" ({b['pct'] - r['pkg_pct']:+.1f} points)"
    return (f"{head} best one-shot {b['name']} (K {b['k']}, {b['regs']} regs, {b['per_sm']}/SM): {b['pct']:.1f}% "
            f"of copy with the fill, {b['pct_kern']:.1f}% kernel alone; {pkg}{delta}")


def main() -> int:
    p = argparse.ArgumentParser(description="One-shot ticketed Triton softmax against the package's `split` and a copy.")
    p.add_argument("--cols", default="262144,524288,1048576", help="row widths, comma-separated")
    p.add_argument("--dtype", default="fp32,bf16", help="comma-separated: fp32, bf16, fp16")
    p.add_argument("--bytes", default=str(2 ** 30), type=parse_bytes, help="input size (e.g. 1GiB, 512M)")
    p.add_argument("--configs", default=None, type=parse_configs,
                   help="CHUNKxWARPS[:FORM],... instead of the default sweep (e.g. 8192x4,16384x4:p)")
    p.add_argument("--forms", default="e,p", type=parse_forms,
                   help="held across the wait: e (fp32 exps), p (bf16 input pairs; output recomputed)")
    p.add_argument("--rep", type=int, default=200, help="do_bench rep (ms)")
    p.add_argument("--selftest", action="store_true",
                   help="check the kernel under TRITON_INTERPRET=1 on CPU (K = 1, and K > 1 pre-published)")
    args = p.parse_args()
    if args.selftest:
        return selftest()
    if not torch.cuda.is_available():
        print("no CUDA GPU visible: run with --selftest (TRITON_INTERPRET=1) on a CPU", flush=True)
        return 2
    dtypes = [d.strip() for d in args.dtype.split(",") if d.strip()]
    for d in dtypes:
        if d not in DTYPES:
            raise SystemExit(f"--dtype: unknown {d!r} (one of {', '.join(DTYPES)})")
    cols_list = [int(c) for c in args.cols.split(",") if c.strip()]
    props = torch.cuda.get_device_properties(0)
    print(f"device: {props.name}, {props.multi_processor_count} SMs, "
          f"{getattr(props, 'regs_per_multiprocessor', '?')} regs/SM, "
          f"{getattr(props, 'max_threads_per_multi_processor', '?')} threads/SM, "
          f"{props.total_memory / 2 ** 30:.0f} GiB")
    print(f"torch {torch.__version__} (CUDA {torch.version.cuda}), triton {triton.__version__}, "
          f"python {platform.python_version()}")
    print(f"input {args.bytes / 2 ** 30:.2f} GiB per case; do_bench median, rep {args.rep} ms; "
          f"'% copy' = copy time / time (both move 2 x numel x element bytes)", flush=True)
    t0 = time.monotonic()
    results = []
    for d in dtypes:
        for c in cols_list:
            results.append(run_case(d, c, args, props))
            torch.cuda.empty_cache()  # the case's tensors are gone: give their memory back
    print("\n== summary (best one-shot config that agrees, vs the package's Triton path) ==")
    for r in results:
        print(summary_line(r))
    print(f"total {time.monotonic() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
