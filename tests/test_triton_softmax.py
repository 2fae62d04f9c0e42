"""Triton softmax / log-softmax (kernels_triton/softmax*.py), forward: what the test
matrix does not check (the backward's: tests/test_triton_softmax_backward.py).

Agreement with float64 is the matrix's (tests/test_matrix.py on the cases of
tests/softmax_cases.py, checked by its one `run_and_check`): every variant (forward
fused, online, split, auto; backward fused, tiled, split, auto) on widths chosen by code
path, views, special values, large magnitudes, empty tensors, outputs written through
`run_into`, and gradients through autograd; on the CPU under Triton's interpreter
(tests/conftest.py sets TRITON_INTERPRET=1), on a GPU compiled, with the full sweep
(widths to 262144, 1000 rows). This file keeps what is specific to Triton:

* paths the interpreter does not take by itself, forced: 16-bit rows held in pairs
  (thresholds lowered), persistent grids of 1-3 programs, a second grid dimension past a
  lowered grid limit, `split`'s exchanges with every part pre-published;
* bf16 results rounded to nearest even where the interpreter's own conversion truncates
  (kernels_triton/downcast.py, pairs.py);
* the launch policy: register-limit refusals, auto's thresholds, row_align, occupancy
  and grid arithmetic, the resource cache key, the plans; the op module's answer for any
  tensor, unknown ops and variants;
* on a GPU: which variants decline which sweep widths and `split`'s exchange plans
  (plans only), compiled kernels without spills, side streams, more than 2**31 elements,
  the tensor's own device.
"""
from __future__ import annotations

import dataclasses
import functools
import math

import pytest
import torch

from comparison import log_softmax, softmax
from comparison.agreement import check
from comparison.api import OP_FUNCTIONS
from comparison.inputs import make_gradient, make_rows
from softmax_cases import Target, run_and_check, special_rows
from triton_support import (BACKEND, BWD_OPS, BWD_VARIANTS, CPU_ROWS, DEVICE, DTYPE_IDS, DTYPES, OPS, PYTESTMARK,
                            VARIANTS, odd_tensors)
from triton_support import MadeUpTarget, check_compiled_plan, gpu_limits, offline_fused_plan
from triton_support import interpreted as _interpreted
from triton_support import modules as _modules
from triton_support import ODD_WIDTHS, ROW_LAYOUTS, forced_oneshot, in_layout, split_parts
from triton_support import same_bits as _same_bits
from triton_support import truncated_bf16 as _truncated_bf16

pytestmark = PYTESTMARK

# -- every device: compiled on a GPU, interpreted on CPU ------------------------------------

def test_plans_are_cached_by_layout():
    """A repeated call reuses its plan (launch.PlanCache); what a plan reads of the
    tensors is in the key: a view one element off (its start no longer 4-byte aligned)
    gets its own plan, unpaired, and a different width or the backward's dy its own."""
    softmax_mod, launch, fused, *_ = _modules()
    launch.clear_plans()
    cols = fused.FUSED_PAIRS_MIN_COLS
    base = make_rows(3, cols + 2, torch.bfloat16, DEVICE, seed=1)
    aligned, shifted = base[:, :cols], base[:, 1:cols + 1]
    first = softmax_mod._cached_plan(aligned, "softmax", "fused", None)
    assert softmax_mod._cached_plan(base.clone()[:, :cols], "softmax", "fused", None) is first  # same layout
    assert first["constexprs"]["PAIRS"]
    other = softmax_mod._cached_plan(shifted, "softmax", "fused", None)
    assert other is not first and not other["constexprs"]["PAIRS"]
    assert softmax_mod._cached_plan(base, "softmax", "fused", None)["cols"] == cols + 2
    dy = make_gradient(3, cols, torch.bfloat16, DEVICE, seed=2)
    backward = softmax_mod._cached_plan(aligned, "softmax_backward", "auto", dy)
    assert backward is not first and backward["op"] == "softmax_backward"
    # plan() hands out copies: changing one changes no later call's plan.
    softmax_mod.plan(aligned, "softmax", "fused")["constexprs"]["ROWS"] = -1
    assert softmax_mod.plan(aligned, "softmax", "fused")["constexprs"]["ROWS"] > 0
    run_and_check(Target("triton", "softmax", "fused"), shifted)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=["fp16", "bf16"])
@pytest.mark.parametrize("thread_sums", [False, True], ids=["two_pass", "thread_sums"])
@pytest.mark.parametrize("op", OPS)
def test_fused_paired_rows(op, thread_sums, dtype, monkeypatch):
    # 16-bit rows held two values per 32-bit word (pairs.py). `fused` pairs only rows of
    # FUSED_PAIRS_MIN_COLS and more (and reduces max and sum in one pass only from
    # FUSED_THREAD_SUMS_MIN_COLS); lower that so the narrow CPU widths take the path:
    # even widths with 1-2 words per row, masked word tails, multi-row tiles, special
    # values, and the views that must not be paired.
    softmax_mod, _, fused, *_ = _modules()
    target = Target("triton", op, "fused")
    monkeypatch.setattr(fused, "FUSED_PAIRS_MIN_COLS", 2)
    monkeypatch.setattr(fused, "FUSED_THREAD_SUMS_MIN_COLS", 2 if thread_sums else 2 ** 40)
    for cols in (2, 4, 32, 34, 128, 1000, 4098):
        for rows in CPU_ROWS:
            x = make_rows(rows, cols, dtype, DEVICE, seed=rows)
            constexprs = softmax_mod.plan(x, op, "fused")["constexprs"]
            assert constexprs["PAIRS"] and (constexprs["SEGMENTS"] > 0) == thread_sums
            assert constexprs["BF16"] == (dtype == torch.bfloat16)
            run_and_check(target, x)
    special = special_rows(130, dtype, DEVICE)  # the matrix's SPECIAL_ROWS: NaN/inf pattern against float64
    assert softmax_mod.plan(special, op, "fused")["constexprs"]["PAIRS"]
    run_and_check(target, special)
    # One finite value in a row of -inf: all lanes but one (here lane l holds words
    # l + 512 * s of the 8 segments s) and most merges of their pairs see only -inf.
    lone = torch.full((3, 4098), -math.inf, dtype=dtype, device=DEVICE)
    lone[0, 0], lone[1, 42], lone[2, 3877] = 1.0, -3.0, 7.0  # lanes 0, 21, 402
    run_and_check(target, lone)
    # Values up to 6e4 apart: the max-sum merges rescale by exp(-huge) = 0.
    big = make_rows(3, 130, torch.float32, DEVICE, seed=5)
    run_and_check(target, (big * (6e4 / big.abs().max())).to(dtype))
    base = make_rows(6, 2 * 200, dtype, DEVICE)
    for view, paired in [(base[:, 4:204], True),     # 8-byte offset, row stride 400
                         (base[::2, 2:130], True),   # 4-byte offset, row stride 800
                         (base[:, 1:201], False),    # 2-byte offset: not 4-byte aligned
                         (base[:, 2:203], False)]:   # odd width
        assert softmax_mod.plan(view, op, "fused")["constexprs"]["PAIRS"] == paired
        run_and_check(target, view)


@pytest.mark.parametrize("kernel", ["online", "split"])
@pytest.mark.parametrize("op", OPS)
def test_persistent_loop_with_fewer_programs_than_work(op, kernel):
    # On a GPU the grid is sized to the SMs, so programs loop over rows; the interpreter
    # launches one program per row. Force grids of 1 and 2 to run that loop here.
    softmax_mod, *_ = _modules()
    x = make_rows(40, 130, torch.float32, DEVICE)
    p = softmax_mod.plan(x, op, kernel)
    for grid in (1, 2):
        out = softmax_mod.launch_plan(x, dict(p, grid=grid))
        agreement = check(op, x, out)
        assert agreement.ok, agreement.summary()


def _prepublished_pairs(x: torch.Tensor, split: int, chunk: int, groups: int, edges: int = 0) -> torch.Tensor:
    """The exchange buffer as `split` lays it out, with the word every program of a group
    would publish: its chunk's (max, sum of exp relative to that max), fp32 bits of the
    sum high and of the max low (`edges`: the plan's EDGES, whose rows the chunks cut as
    split_parts says); then the groups' arrival words, -1."""
    parts = split_parts(x, chunk, edges)
    x64 = x.double()
    maxima, sums = [], []
    for part in range(split):
        values = x64.masked_fill(parts != part, -math.inf)
        m = values.amax(-1)
        # As the kernel: exponents relative to 0 in a chunk of only -inf (its sum is 0), and
        # the sum's sign bit cleared (a NaN's), so that no published word reads as "not yet".
        maxima.append(m)
        sums.append((values - m.masked_fill(m == -math.inf, 0.0).unsqueeze(-1)).exp().sum(-1).abs())
    m, d = torch.stack(maxima, -1), torch.stack(sums, -1)
    low = m.float().view(torch.int32).to(torch.int64) & 0xFFFFFFFF
    high = d.float().view(torch.int32).to(torch.int64) << 32
    return torch.cat([(high | low).flatten(), torch.full((groups,), -1, dtype=torch.int64, device=x.device)])


@pytest.mark.parametrize("op", OPS)
def test_split_exchanges_with_every_part_published(op):
    # Under the interpreter a program cannot wait for a later one, so `split` runs one
    # chunk per row there. Force SPLIT 2 and 4 with every chunk's pair already published:
    # the chunk columns and masks, the merge of the pairs (relative to each chunk's own
    # max), and the reset of the words and arrival counts by each group's last program
    # (the buffer a launch leaves is the next launch's: it must come back all -1); in every
    # form (the next row's loads before the chunk's pair, or after it is published; or
    # no chunk held across the wait, read again after it, REREAD 1 and 2).
    # Odd rows both ways: contiguous, read as head, whole vectors and tail (the chunks
    # cut the bodies, the first program takes the edges), and one element in, element by
    # element.
    softmax_mod, _, _, _, split, *_ = _modules()
    early, late = {"NEXT_EARLY": True, "REREAD": 0}, {"NEXT_EARLY": False, "REREAD": 0}
    reread, reread_kept = {"NEXT_EARLY": False, "REREAD": 1}, {"NEXT_EARLY": False, "REREAD": 2}
    for dtype in DTYPES:
        for x in (in_layout(make_rows(7, 301, dtype, DEVICE), layout) for layout in ("contiguous", "offset by one")):
            p = softmax_mod.plan(x, op, "split")
            edges = p["constexprs"]["EDGES"]
            assert bool(edges) == (x.data_ptr() % 16 == 0), p["constexprs"]
            cases = [(2, 256, 2, early), (2, 256, 6, late), (4, 128, 4, reread), (4, 128, 8, reread_kept)]
            if dtype == torch.float32 and edges:
                cases.append((256, 2, 256, late))  # past 128 chunks: the words are reset 32 rows a step
            for n_split, chunk, grid, form in cases:
                forced = dict(p, grid=grid, constexprs=dict(p["constexprs"], SPLIT=n_split, CHUNK=chunk, **form))
                out = torch.full(x.shape, math.nan, dtype=dtype, device=DEVICE)
                slots = _prepublished_pairs(x, n_split, chunk, grid // n_split, edges)
                assert slots.numel() == split.exchange_size(x.shape[0], forced)
                split.launch_plan(x, out, forced, slots=slots)
                agreement = check(op, x, out)
                assert agreement.ok, (dtype, edges, n_split, grid, agreement.summary())
                assert (slots == -1).all(), (dtype, edges, n_split, grid, slots)


@pytest.mark.parametrize("op", OPS)
def test_split_oneshot_takes_chunks_by_ticket_and_merges_every_part(op):
    # Under the interpreter each row of `split_oneshot` is one chunk (a program cannot
    # wait for a later one). Force K = 2, 3 and 5 chunks with every chunk's pair already
    # published and the ticket counter at -1 (the interpreter starts programs in order,
    # so tickets follow program ids): the ticket's row and chunk, the masks of a row's
    # last, partial chunk, and the merge; the words are left as the kernel left them.
    # 16-bit rows of an even width whose rows start on 4-byte boundaries are held as pairs
    # of values per word (PAIRS: CHUNK counts words); one element in, they are not.
    softmax_mod, *_ = _modules()
    oneshot = softmax_mod.FAMILIES["split_oneshot"]
    for dtype in DTYPES:
        for cols, layout in ((301, "contiguous"), (301, "offset by one"), (302, "contiguous"), (302, "padded"),
                             (302, "offset by one")):
            x = in_layout(make_rows(7, cols, dtype, DEVICE), layout)
            p = softmax_mod.plan(x, op, "split_oneshot")
            paired = dtype != torch.float32 and cols % 2 == 0 and layout != "offset by one"
            assert p["constexprs"]["K"] == 1 and p["grid"] == 7 and p["constexprs"]["PAIRS"] == paired
            for k, chunk in ((2, 256), (3, 128), (5, 64)):
                forced, words = forced_oneshot(p, 7, k, chunk, paired, _prepublished_pairs(x, k, chunk, 0))
                out = torch.full(x.shape, math.nan, dtype=dtype, device=DEVICE)
                oneshot.launch_plan(x, out, forced, words=words)
                agreement = check(op, x, out)
                assert agreement.ok, (dtype, k, chunk, agreement.summary())
                assert words[0] == 7 * k - 1  # every program took one ticket


@pytest.mark.parametrize("op", OPS)
def test_fused_lays_blocks_past_the_grid_limit_on_a_second_grid_dimension(op, monkeypatch):
    # `fused` is one-shot: one program per row block, on a (x, y) grid once the blocks
    # exceed CUDA's 2^31 - 1 programs in x. Lower that limit so that the interpreter runs
    # the y programs too, including a last y row of programs past the final block.
    softmax_mod, launch, *_ = _modules()
    monkeypatch.setattr(launch, "MAX_GRID", 3)
    assert launch.grid_2d(7) == (3, 3) and launch.grid_2d(3) == (3,)
    for dtype in DTYPES:
        # (on GPUs of fast SMs 16-bit rows of 130 take the shared-vector tile's 32 rows)
        x = make_rows(100 if DEVICE == "cpu" else 400, 130, dtype, DEVICE)
        p = softmax_mod.plan(x, op, "fused")
        assert p["grid"] == math.ceil(x.shape[0] / p["constexprs"]["ROWS"]) > 3 * 2
        out = softmax_mod.launch_plan(x, p)
        agreement = check(op, x, out)
        assert agreement.ok, agreement.summary()


def _offline_fused_tile(x: torch.Tensor, op: str, limits) -> tuple[int, int]:
    """(tile rows, warps) of `offline_fused_plan`."""
    p = offline_fused_plan(x, op, limits)
    return p["constexprs"]["ROWS"], p["num_warps"]


@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
def test_fused_tiles_of_aligned_fp32_rows_by_width(op):
    # FUSED_WIDE_TILE_FP32_COLS: aligned fp32 rows of 128 columns in 64 KiB tiles at 16
    # values a thread (128 rows over 32 warps); FUSED_SMALL_TILE_FP32_COLS: aligned fp32
    # rows of 256-4096 columns, powers of two, in 4 KiB tiles at 8 a thread; narrower,
    # wider, padded, offset and 16-bit rows keep 16 KiB tiles at 32 a thread. Planned for
    # the offline H200, so this runs anywhere.
    _, _, fused, *_ = _modules()
    from kernels_triton import offline

    def plan(x):
        return _offline_fused_tile(x, op, offline.H200)

    rows = 1 << 16
    assert plan(torch.empty(rows, 128)) == (128, 32)
    assert fused.FUSED_WIDE_TILE_BYTES == 128 * 128 * 4 and fused.FUSED_WIDE_TILE_UNITS_PER_THREAD == 16
    assert fused.FUSED_SMALL_TILE_FP32_COLS == (256, 4096)
    assert fused.FUSED_SMALL_TILE_BYTES == 4 * 256 * 4 and fused.FUSED_SMALL_TILE_UNITS_PER_THREAD == 8
    assert plan(torch.empty(rows, 256)) == (4, 4)
    assert plan(torch.empty(rows, 2048)) == (1, 8)
    assert plan(torch.empty(rows, 1040)) == (2, 4)      # padded to 2048: the 16 KiB tile
    assert plan(torch.empty(rows, 4096)) == (1, 16)
    assert plan(torch.empty(rows, 8192)) == (1, 8)      # past the small tile: 32 a thread
    assert plan(torch.empty(rows, 64)) == (64, 4)
    assert plan(torch.empty(rows, 256, dtype=torch.bfloat16)) == (32, 8)
    assert plan(torch.empty(rows, 129)[:, 1:]) == (32, 4)  # offset by one value: ALIGN 1
    assert plan(torch.empty(rows, 264)[:, :256]) == (16, 4)  # row stride of 8 values: ALIGN 8


@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
def test_fused_tiles_of_aligned_16bit_rows_by_bandwidth_per_sm(op):
    # FUSED_SMALL_TILES_16BIT: on a GPU that is not `fast_sm` (the offline H100: 25 GB/s
    # of DRAM bandwidth per SM) aligned 16-bit rows of 128-256 columns take 8 KiB tiles
    # at 8 values a thread, of 512-2048 16 KiB at 16; on the offline H200 (36 GB/s per
    # SM), padded or offset rows, and past 2048, 16 KiB at 32.
    from kernels_triton import offline
    plan = functools.partial(_offline_fused_tile, op=op)
    rows = 1 << 16
    for dtype in (torch.bfloat16, torch.float16):
        assert plan(torch.empty(rows, 128, dtype=dtype), limits=offline.H100) == (32, 16)
        assert plan(torch.empty(rows, 128, dtype=dtype), limits=offline.H200) == (64, 8)
        assert plan(torch.empty(rows, 1024, dtype=dtype), limits=offline.H100) == (8, 16)
        assert plan(torch.empty(rows, 1024, dtype=dtype), limits=offline.H200) == (8, 8)
        assert plan(torch.empty(rows, 4096, dtype=dtype), limits=offline.H100) == (2, 8)
        assert plan(torch.empty(rows, 1040, dtype=dtype), limits=offline.H100) == (2, 4)   # padded: 8 KiB
        assert plan(torch.empty(rows, 129, dtype=dtype)[:, 1:], limits=offline.H100) == (64, 8)  # ALIGN 1


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("cols", [128, 256, 1024, 4096])
def test_fused_tiles_agree_in_full_and_partial_tiles(op, dtype, cols):
    # `_tile`'s tiles (FUSED_WIDE_TILE_FP32_COLS, FUSED_SMALL_TILE_FP32_COLS and, on GPUs
    # that are not `fast_sm`, FUSED_SMALL_TILES_16BIT) on a GPU: rows enough for the
    # widest tile (128 rows) on every SM and a last tile of 77 rows, every element against
    # float64; a view whose row stride is not a multiple of 16 values (ALIGN 4) keeps the
    # 16 KiB tile. Under the interpreter the plan's tiles are small
    # (INTERPRET_FUSED_TILE_UNITS) and the rows few, the same check.
    softmax_mod, _, fused, *_ = _modules()
    target = Target("triton", op, "fused")
    sms = None if _interpreted() else torch.cuda.get_device_properties(DEVICE).multi_processor_count
    rows = 7 if sms is None else sms * 128 + 77
    x = make_rows(rows, cols, dtype, DEVICE, seed=3)
    strided = make_rows(rows, cols + 4, dtype, DEVICE, seed=4)[:, :cols]
    for view, align in ((x, 16), (strided, 4)):
        if sms is not None:
            from kernels_triton import launch
            tile_bytes, _ = fused._tile(view.element_size(), cols, align, launch.device_limits(view.device.index),
                                        parts=(cols, 0))
            expected = min(fused.FUSED_MAX_TILE_ROWS, max(1, tile_bytes // (view.element_size() * cols)))
            assert softmax_mod.plan(view, op, "fused")["constexprs"]["ROWS"] == expected
        run_and_check(target, view)


@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
def test_fused_holds_aligned_rows_past_a_power_of_two_in_two_parts(op):
    # FUSED_PLAIN_TAIL_BLOCKS: aligned rows whose padded block is one of these (by element
    # size) are held as half the block and the fewest columns past it, where those are at
    # most a quarter of the half (FUSED_PLAIN_TAIL_MAX_PART), over half the padded tile's warps; other
    # blocks, rows that fill too much of the block, rows off whole 16-byte vectors and
    # powers of two keep one tile. Planned for the offline H100 and H200 (the same rule).
    _, _, fused, *_ = _modules()
    from kernels_triton import offline
    assert fused.FUSED_PLAIN_TAIL_BLOCKS == {2: (256, 512, 1024, 8192), 4: (256, 512)}
    assert fused.FUSED_PLAIN_TAIL_MAX_PART == 4
    rows = 1 << 16
    for limits in (offline.H100, offline.H200):
        def parts(x):
            p = offline_fused_plan(x, op, limits)
            return p["constexprs"]["BLOCK"], p["constexprs"]["TAIL"], p["num_warps"]

        for dtype in (torch.bfloat16, torch.float16):
            assert parts(torch.empty(rows, 136, dtype=dtype)) == (128, 8, 4)      # 32 rows: 8 warps padded
            assert parts(torch.empty(rows, 264, dtype=dtype)) == (256, 8, 4)
            assert parts(torch.empty(rows, 320, dtype=dtype)) == (256, 64, 4)      # a tail of a quarter
            assert parts(torch.empty(rows, 384, dtype=dtype))[:2] == (512, 0)     # ... not half
            # a block of 1024 and a tail of 8 at 64 values a thread (FUSED_PADDED_16BIT_PARTS_MAX_TAIL)
            assert parts(torch.empty(rows, 520, dtype=dtype)) == (512, 8, 2)
            assert parts(torch.empty(rows, 640, dtype=dtype)) == (512, 128, 4)
            assert parts(torch.empty(rows, 4160, dtype=dtype)) == (4096, 64, 4)
            assert parts(torch.empty(rows, 400, dtype=dtype))[:2] == (512, 0)     # 144 past 256: 256 more
            assert parts(torch.empty(rows, 1040, dtype=dtype))[:2] == (2048, 0)   # a block of 2048
            assert parts(torch.empty(rows, 2080, dtype=dtype))[:2] == (4096, 0)
            assert parts(torch.empty(rows, 512, dtype=dtype))[1] == 0
        assert parts(torch.empty(rows, 136)) == (128, 8, 2)
        assert parts(torch.empty(rows, 264)) == (256, 8, 2)
        assert parts(torch.empty(rows, 520))[:2] == (1024, 0)
        assert parts(torch.empty(rows, 140)) == (128, 16, 2)                      # ALIGN 4: 16-byte vectors
        assert parts(torch.empty(rows, 266)[:, :264])[1] == 0                     # row stride of 266: ALIGN 2


@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
def test_fused_tiles_of_padded_16bit_rows(op):
    # FUSED_PADDED_16BIT_TILE_BYTES: plain 16-bit rows of a width that is not a power of
    # two, on 16-byte vectors from a vector boundary, in a padded block take 8 KiB tiles
    # at 32 values a thread (bf16 1040: 2 rows of 2048 over 4 warps, not 4 over 8); rows
    # held in two parts of a block of 1024 and a tail of 8 take 64 values a thread (the
    # test above, FUSED_PADDED_16BIT_PARTS_MAX_TAIL); blocks of 8192 hold one
    # row either way; fp32 rows, powers of two and rows off whole vectors keep their
    # tiles. On the H100. On the H200 (`fast_sm`) padded blocks of 1 KiB and more take
    # 4 KiB tiles at 64 values a thread (FUSED_PADDED_16BIT_FAST_*): 1040 one row over a
    # warp; blocks of 512 B (200) keep the 8 KiB tile.
    _, _, fused, *_ = _modules()
    from kernels_triton import offline
    assert fused.FUSED_PADDED_16BIT_TILE_BYTES == 8 * 1024
    assert fused.FUSED_PADDED_16BIT_PARTS_UNITS_PER_THREAD == 64
    assert fused.FUSED_PADDED_16BIT_PARTS_MAX_TAIL == {1024: 8}
    assert fused.FUSED_PADDED_16BIT_FAST_MIN_BLOCK_BYTES == 1024
    assert fused.FUSED_PADDED_16BIT_FAST_TILE_BYTES == 4 * 1024
    assert fused.FUSED_PADDED_16BIT_FAST_UNITS_PER_THREAD == 64
    rows = 1 << 16
    for limits, fast in ((offline.H100, False), (offline.H200, True)):
        plan = functools.partial(_offline_fused_tile, op=op, limits=limits)
        for dtype in (torch.bfloat16, torch.float16):
            assert plan(torch.empty(rows, 200, dtype=dtype)) == (16, 4)       # a block of 256
            assert plan(torch.empty(rows, 400, dtype=dtype)) == ((4, 1) if fast else (8, 4))  # 512
            assert plan(torch.empty(rows, 704, dtype=dtype)) == ((2, 1) if fast else (4, 4))  # 1024
            assert plan(torch.empty(rows, 1040, dtype=dtype)) == ((1, 1) if fast else (2, 4))
            assert plan(torch.empty(rows, 1536, dtype=dtype)) == ((1, 1) if fast else (2, 4))
            assert plan(torch.empty(rows, 2080, dtype=dtype)) == ((1, 2) if fast else (1, 4))
            assert plan(torch.empty(rows, 3000, dtype=dtype)) == ((1, 2) if fast else (1, 4))  # ALIGN 8
            assert plan(torch.empty(rows, 6000, dtype=dtype)) == ((1, 4) if fast else (1, 8))  # block 8192
            assert plan(torch.empty(rows, 1044, dtype=dtype)[:, :1040]) == (4, 8)  # ALIGN 4: 16 KiB
        assert plan(torch.empty(rows, 1040)) == (2, 4)                           # fp32: 16 KiB
        assert plan(torch.empty(rows, 2080)) == (1, 4)


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
def test_fused_two_part_tiles_agree(op, dtype):
    # `plain_parts` on a GPU (or the interpreter): the row's max, NaN or inf in either
    # part, rows of -inf in the tail alone, the matrix's special rows, and rows enough
    # for full tiles on every SM and a partial last one; every element against float64.
    softmax_mod, _, fused, *_ = _modules()
    target = Target("triton", op, "fused")
    sms = None if _interpreted() else torch.cuda.get_device_properties(DEVICE).multi_processor_count
    widths = (136, 264, 320) if dtype == torch.float32 else (136, 264, 520, 4160)
    for cols in widths:
        half = 1 << (cols - 1).bit_length() - 1
        x = make_rows(7 if sms is None else sms * 64 + 5, cols, dtype, DEVICE, seed=cols)
        constexprs = softmax_mod.plan(x, op, "fused")["constexprs"]
        assert constexprs["BLOCK"] == half and constexprs["TAIL"] > 0, constexprs
        run_and_check(target, x)
        run_and_check(target, special_rows(cols, dtype, DEVICE))
        edges = make_rows(6, cols, torch.float32, DEVICE, seed=1)
        edges[0, -1] = 60.0                      # the row's max in the tail
        edges[1, 3] = 60.0                       # ... and in the first part
        edges[2, half:] = -math.inf              # a tail of -inf
        edges[3, -2] = math.inf
        edges[4, half] = math.nan
        edges[5, :half] = -math.inf              # only the tail finite
        run_and_check(target, edges.to(dtype))


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bf16", "fp16"])
def test_fused_padded_16bit_tiles_agree(op, dtype):
    # FUSED_PADDED_16BIT_TILE_BYTES on a GPU (or the interpreter): 16-bit rows padded to
    # a block of 512-8192 in 8 KiB tiles (4 KiB on `fast_sm` GPUs:
    # FUSED_PADDED_16BIT_FAST_*), rows enough for full tiles on every SM and
    # a partial last one, the matrix's special rows, the row's max in the padded block's
    # last real column; every element against float64.
    softmax_mod, _, fused, *_ = _modules()
    target = Target("triton", op, "fused")
    sms = None if _interpreted() else torch.cuda.get_device_properties(DEVICE).multi_processor_count
    for cols in (400, 704, 1040, 1536, 2080, 6000):
        x = make_rows(7 if sms is None else sms * 16 + 1, cols, dtype, DEVICE, seed=cols)
        constexprs = softmax_mod.plan(x, op, "fused")["constexprs"]
        assert constexprs["BLOCK"] == 1 << (cols - 1).bit_length() and constexprs["TAIL"] == 0, constexprs
        if sms is not None:
            fast = fused.softmax_split.fast_sm(fused.launch.device_limits(x.device.index))
            tile = fused.FUSED_PADDED_16BIT_FAST_TILE_BYTES if fast else fused.FUSED_PADDED_16BIT_TILE_BYTES
            assert constexprs["ROWS"] == max(1, tile // (2 * constexprs["BLOCK"])), constexprs
        run_and_check(target, x)
        run_and_check(target, special_rows(cols, dtype, DEVICE))
        last = make_rows(3, cols, torch.float32, DEVICE, seed=2)
        last[0, -1] = 60.0
        last[1, 0] = 60.0
        last[2, -1] = math.inf
        run_and_check(target, last.to(dtype))


@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
def test_fused_odd_rows_on_fast_sm_gpus_take_small_window_tiles(op):
    # FUSED_EDGES_FAST_*: on the H200 (`fast_sm`) rows read in three parts whose window
    # spans at most 1 KiB (16-bit, past 256 B) or 4 KiB (fp32) take 4 KiB tiles at 64
    # values a thread, one warp a program here, and fp32 rows are read so from 64 columns
    # (FUSED_EDGES_FAST_MIN_COLS), in windows, never the edge tile (FUSED_EDGE_ROWS_BYTES);
    # on the H100 fp32 rows under 1025 columns keep element loads and 16-bit windows 16
    # KiB tiles. (tile rows, BLOCK, TAIL, EDGES, WINDOW, warps), 65536 rows.
    _, _, fused, *_ = _modules()
    from kernels_triton import offline
    assert fused.FUSED_EDGES_FAST_MIN_COLS == {4: 64, 2: 32}
    assert fused.FUSED_EDGES_FAST_MIN_SPAN == {4: 0, 2: 256}
    assert fused.FUSED_EDGES_FAST_MAX_SPAN == {4: 4096, 2: 1024}
    assert (fused.FUSED_EDGES_FAST_TILE_BYTES, fused.FUSED_EDGES_FAST_UNITS_PER_THREAD) == (4096, 64)

    def plan(cols, dtype, limits):
        p = offline_fused_plan(torch.empty(1 << 16, cols, dtype=dtype), op, limits)
        c = p["constexprs"]
        return c["ROWS"], c["BLOCK"], c["TAIL"], c["EDGES"], c["WINDOW"], p["num_warps"]

    fp32, bf16 = torch.float32, torch.bfloat16
    h100, h200 = offline.H100, offline.H200
    assert plan(60, fp32, h200) == plan(60, fp32, h100) == (64, 64, 0, 0, 0, 4)  # under 64: element loads
    assert plan(65, fp32, h100) == (32, 128, 0, 0, 0, 4)
    assert plan(65, fp32, h200) == (8, 64, 4, 4, 1, 1)        # a window of 64 + 4
    assert plan(201, fp32, h100) == (16, 256, 0, 0, 0, 4)
    assert plan(201, fp32, h200) == (4, 256, 0, 4, 1, 1)
    assert plan(263, fp32, h200) == (2, 256, 16, 4, 1, 1)
    assert plan(511, fp32, h200) == (1, 512, 4, 4, 1, 1)      # a doubled window, not the edge tile
    assert plan(769, fp32, h200) == (1, 1024, 0, 4, 1, 1)     # a span of 3 KiB
    assert plan(1501, fp32, h200) == plan(1501, fp32, h100) == (2, 2048, 0, 4, 1, 4)  # 6 KiB: as before
    for dtype in (bf16, torch.float16):
        # (contiguous 16-bit rows on the H200 take the shared-vector tile: the next test)
        assert plan(97, dtype, h100) == (64, 128, 0, 8, 1, 8)  # a span of 208 B
        assert plan(131, dtype, h100) == (32, 128, 16, 8, 1, 4)
        assert plan(197, dtype, h100) == (32, 256, 0, 8, 1, 8)
        assert plan(263, dtype, h100) == (16, 256, 16, 8, 1, 4)
        strided = torch.empty(1 << 16, 271, dtype=dtype)[:, :263]  # rows 8 values apart
        c = offline_fused_plan(strided, op, h200)["constexprs"]
        assert (c["ROWS"], c["BLOCK"], c["TAIL"], c["EDGES"], c["WINDOW"]) == (4, 256, 16, 8, 1)  # 4 KiB tile
        assert plan(511, dtype, h100) == (1, 512, 0, 8, 0, 1)  # the edge tile (the H200: shared vectors)
        assert plan(1501, dtype, h200) == plan(1501, dtype, h100) == (1, 2048, 0, 8, 0, 2)


@pytest.mark.parametrize("op", OPS)
def test_fused_contiguous_16bit_odd_rows_on_fast_sm_gpus_share_vectors(op):
    # shared_vectors.py: on the H200 (`fast_sm`) contiguous 16-bit rows of odd width whose
    # window spans at most FUSED_SHARED_MAX_SPAN (fp32 ones too, under 64 columns) take the
    # shared-vector tile: WINDOW 3 where x ends on a 16-byte boundary, else 4; segments of
    # BLOCK values on the fewest lanes (from two) that hold the window in at most
    # SHARED_MAX_SEGMENTS, ROWS filling 4 warps, at least a vector's values. Not on the
    # H100, for strided or offset rows, nor wider spans.
    # (ROWS, BLOCK, SEGMENTS, WINDOW, warps).
    _, _, fused, *_ = _modules()
    from kernels_triton import offline, shared_vectors
    assert fused.FUSED_SHARED_MAX_SPAN == {2: 1536, 4: 264}
    sv = shared_vectors
    assert (sv.SHARED_MAX_SEGMENTS, sv.SHARED_MIN_LANES, sv.SHARED_WARPS) == (6, 2, 4)

    def plan(x, limits=offline.H200):
        p = offline_fused_plan(x, op, limits)
        c = p["constexprs"]
        return c["ROWS"], c["BLOCK"], c["SEGMENTS"], c["WINDOW"], p["num_warps"]

    for dtype in (torch.bfloat16, torch.float16):
        rows = lambda n, cols: torch.empty(n, cols, dtype=dtype)  # noqa: E731
        assert plan(rows(1 << 16, 17)) == (64, 16, 2, 3, 4)       # 3 vectors on 2 lanes
        assert plan(rows(1 << 16, 33)) == (64, 16, 3, 3, 4)
        assert plan(rows((1 << 16) + 1, 33)) == (64, 16, 3, 4, 4)  # x ends inside a vector
        assert plan(rows(1 << 16, 65)) == (64, 16, 5, 3, 4)
        assert plan(rows(1 << 16, 97)) == (32, 32, 4, 3, 4)        # 13 vectors: 7 on 2 lanes, 4 on 4
        assert plan(rows(1 << 16, 197)) == (16, 64, 4, 3, 4)
        assert plan(rows(1 << 16, 333)) == (16, 64, 6, 3, 4)
        assert plan(rows(1 << 16, 457)) == (8, 128, 4, 3, 4)
        assert plan(rows(1 << 16, 505)) == (8, 128, 4, 3, 4)
        assert plan(rows(1, 505)) == (8, 128, 4, 4, 4)
        assert plan(rows(1 << 16, 511)) == (8, 128, 5, 3, 4)       # 65 vectors: 5 on 16 lanes
        assert plan(rows(1 << 16, 761)) == (8, 128, 6, 3, 4)       # a span of 1536 B
        assert plan(rows(1 << 16, 769))[3] == 0                    # 1552 B: the edge tile
        assert plan(rows(1 << 16, 263), offline.H100)[3] == 1      # the H100 keeps its window
        assert plan(rows(1 << 16, 264))[3] == 0                    # whole vectors
        assert plan(torch.empty(1 << 16, 271, dtype=dtype)[:, :263])[3] == 1  # strided
        assert plan(torch.empty((1 << 16) * 263 + 1, dtype=dtype)[1:].view(1 << 16, 263))[3] == 0  # offset
    assert plan(torch.empty(1 << 16, 17)) == (64, 8, 3, 3, 4)       # fp32: 5 vectors on 2 lanes
    assert plan(torch.empty(1 << 16, 63)) == (32, 16, 5, 3, 4)      # a span of 264 B
    assert plan(torch.empty(1 << 16, 65))[3] == 1                   # 272 B: its window
    assert plan(torch.empty(1 << 16, 63), offline.H100)[3] == 0     # the H100: element loads


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
def test_fused_shared_vector_tile_agrees(op, dtype, monkeypatch):
    # The shared-vector tile (shared_vectors.py) as every fast-SM GPU runs it, here too
    # under the interpreter (fast_sm forced): x ending on a 16-byte boundary (8 rows, 200)
    # or inside a vector, its last two rows then by value (1, 5, 9, 65, 67 rows: 9 and 65
    # put the last row first in a tile of 8 or 64 rows for some widths); a row's max in
    # its head vector and in its tail, the matrix's special rows; every element against
    # float64.
    softmax_mod, _, fused, *_ = _modules()
    if _interpreted():
        monkeypatch.setattr(fused.softmax_split, "fast_sm", lambda limits: True)
    elif not fused.softmax_split.fast_sm(fused.launch.device_limits(torch.device(DEVICE).index or 0)):
        pytest.skip("the shared-vector tile is planned on GPUs of 30 GB/s of DRAM bandwidth per SM or more")
    softmax_mod._PLANS.clear()
    try:
        target = Target("triton", op, "fused")
        vec = 16 // dtype.itemsize
        for cols in (9, 17, 33, 63) if vec == 4 else (17, 33, 97, 263, 457, 577, 761):
            for n in (1, 5, 8, 9, 65, 67, 200):
                x = make_rows(n, cols, dtype, DEVICE, seed=cols + n)
                assert softmax_mod.plan(x, op, "fused")["constexprs"]["WINDOW"] == (3 if n * cols % vec == 0 else 4)
                run_and_check(target, x)
            run_and_check(target, special_rows(cols, dtype, DEVICE))
            edge = make_rows(9, cols, torch.float32, DEVICE, seed=2)
            edge[1, 0] = 60.0   # row 1's head vector holds row 0's tail
            edge[2, -1] = 60.0  # row 2's tail vector is row 3's head
            edge[3, 0] = math.inf
            run_and_check(target, edge.to(dtype))
    finally:
        softmax_mod._PLANS.clear()


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
def test_fused_odd_rows_in_windows_agree(op, dtype):
    # Odd rows through `fused` on a GPU (FUSED_EDGES_FAST_* on `fast_sm` ones: fp32 from
    # 64 columns in windows, 16-bit windows in 4 KiB tiles) or the interpreter: rows
    # enough for full tiles on every SM and a partial last one, the matrix's special
    # rows, the row's max in its head and in its tail; every element against float64.
    softmax_mod, _, fused, *_ = _modules()
    target = Target("triton", op, "fused")
    sms = None if _interpreted() else torch.cuda.get_device_properties(DEVICE).multi_processor_count
    for cols in (65, 155, 201, 263, 333, 511, 769):
        x = make_rows(7 if sms is None else sms * 16 + 1, cols, dtype, DEVICE, seed=cols)
        if sms is not None and fused.softmax_split.fast_sm(fused.launch.device_limits(x.device.index)):
            assert softmax_mod.plan(x, op, "fused")["constexprs"]["EDGES"] > 0, cols
        run_and_check(target, x)
        run_and_check(target, special_rows(cols, dtype, DEVICE))
        edge = make_rows(3, cols, torch.float32, DEVICE, seed=2)
        edge[0, 0] = 60.0
        edge[1, -1] = 60.0
        edge[2, -1] = math.inf
        run_and_check(target, edge.to(dtype))


def test_fused_refuses_rows_past_its_register_limit():
    _, _, fused, _, _, _, rows_mod = _modules()
    cases = [
        (fused.FUSED_MAX_COLS, fused.FUSED_MAX_COLS + 2, 2, "contiguous"),         # even widths, ALIGN >= 2
        (fused.FUSED_MAX_COLS - 1, fused.FUSED_MAX_COLS + 1, 1, "contiguous"),     # odd, read with EDGES
        (fused.FUSED_MAX_COLS_ODD - 1, fused.FUSED_MAX_COLS_ODD + 1, 1, "offset by one"),  # value by value
    ]
    for op in OPS:
        for fits, too_wide, align, layout in cases:
            assert BACKEND.supports(in_layout(torch.empty(2, fits, device=DEVICE), layout), op, "fused")
            x = in_layout(torch.empty(2, too_wide, device=DEVICE), layout)
            assert rows_mod.row_align(x) == align
            support = BACKEND.supports(x, op, "fused")
            limit = fused.max_cols(x)
            assert not support and "'online'" in support.reason and str(limit) in support.reason
            assert BACKEND.supports(x, op, "online") and BACKEND.supports(x, op, "auto")
            with pytest.raises(ValueError, match="online"):
                OP_FUNCTIONS[op](x, backend="triton", variant="fused")


def test_auto_sends_few_wide_rows_to_split_where_their_programs_fit_the_sms():
    # Rows past split's whole-row limit (64 KiB) that fused would hold: split when rows x
    # chunks are at most the SMs (132 here, as on an H100), fused otherwise, and fused
    # where the SM count is unknown (the interpreter) or rows load element by element.
    _, _, fused, _, split, policy, _ = _modules()
    fp32 = 2 * split.SPLIT_WHOLE_ROW_BYTES // 4          # 32768: 8 chunks of 16 KiB
    for rows, cols, dtype, sm_count, expected in [
            (1, fp32, torch.float32, 132, "split"), (16, fp32, torch.float32, 132, "split"),
            (17, fp32, torch.float32, 132, "fused"), (1, fp32, torch.float32, None, "fused"),
            (1, fp32 // 2, torch.float32, 132, "fused"),  # 64 KiB: one chunk
            (1, 2 * fp32, torch.bfloat16, 132, "split"), (33, fp32, torch.bfloat16, 132, "fused")]:
        x = torch.empty(rows, cols, dtype=dtype)
        assert policy.auto_kernel(x, gpu_limits(sm_count)) == expected, (rows, cols, dtype, sm_count)
        assert policy.few_rows_split(x, 16, sm_count) == (expected == "split")
    assert not policy.few_rows_split(torch.empty(1, fp32 + 1), 1, 132)  # odd rows


def test_auto_follows_the_thresholds():
    softmax_mod, launch, fused, _, split, policy, rows_mod = _modules()

    # As many rows as a GPU has SMs or more: fewer wide rows go to split (the next test).
    rows = 4 if DEVICE == "cpu" else torch.cuda.get_device_properties(0).multi_processor_count
    limits = None if DEVICE == "cpu" else launch.device_limits(0)

    def rows_of(cols, dtype, paired=True):
        if paired:
            return torch.empty(rows, cols, dtype=dtype, device=DEVICE)
        # even width and row stride, but a start 2 bytes past a 4-byte boundary
        return torch.empty(rows, cols + 2, dtype=dtype, device=DEVICE)[:, 1:-1]

    for key, op, dtype, paired in [("fp32", "softmax", torch.float32, False),
                                   ("pairs", "softmax", torch.bfloat16, True),
                                   ("pairs", "log_softmax", torch.bfloat16, True),
                                   ("pairs", "softmax", torch.float16, True),
                                   ("16-bit", "softmax", torch.float16, False),
                                   ("16-bit", "softmax", torch.bfloat16, False)]:
        widest = policy.AUTO_FUSED_MAX_COLS[key]
        if paired:  # and no wider than fused holds pairs of this dtype
            widest = min(widest, fused.FUSED_MAX_COLS_PAIRS[dtype])
        for cols, kernel in [(widest, "fused"), (widest + 16, "split")]:
            x = rows_of(cols, dtype, paired or dtype == torch.float32)
            assert fused.paired(x, rows_mod.row_align(x)) == paired
            if limits is not None and policy.oneshot_rows("forward", op, limits, x):
                # as many rows as SMs, of 4-5 one-shot chunks (8192 units each): a wave of
                # programs, 4 per SM, of aligned rows past 16-32K columns (the rule's own
                # test is below)
                kernel = "split_oneshot"
            assert softmax_mod.plan(x, op)["kernel"] == kernel, (key, cols)
    odd = fused.FUSED_MAX_COLS_ODD
    assert softmax_mod.plan(torch.empty(rows, odd, device=DEVICE), "log_softmax")["kernel"] == "fused"
    # odd rows value by value (one element in) to FUSED_MAX_COLS_ODD; read as head, whole
    # vectors and tail (contiguous) as aligned ones
    for cols, layout, kernel in [(odd - 1, "offset by one", "fused"), (odd + 1, "offset by one", "split"),
                                 (odd + 1, "contiguous", "fused"),
                                 (policy.AUTO_FUSED_MAX_COLS["fp32"] + 1, "contiguous", "split")]:
        x = in_layout(torch.empty(rows, cols, device=DEVICE), layout)
        assert softmax_mod.plan(x, "log_softmax")["kernel"] == kernel, (cols, layout)
    # past what a GPU keeps resident at one program per SM: online (sm_count given, as on a GPU)
    # (chunks widened up to SPLIT_MAX_CHUNK_VALUES where 16 KiB ones outnumber the SMs)
    widest = torch.empty(1, 128 * split.SPLIT_MAX_CHUNK_VALUES[4], device=DEVICE)
    assert policy.auto_kernel(widest, gpu_limits(132)) == "split"
    too_wide = torch.empty(1, 128 * split.SPLIT_MAX_CHUNK_VALUES[4] + 16, device=DEVICE)
    assert policy.auto_kernel(too_wide, gpu_limits(132)) == "online" and policy.auto_kernel(too_wide, None) == "split"
    if DEVICE == "cuda":
        sms = torch.cuda.get_device_properties(0).multi_processor_count
        too_wide = torch.empty(1, 2 * sms * split.SPLIT_MAX_CHUNK_VALUES[4], device=DEVICE)
        assert softmax_mod.plan(too_wide, "softmax")["kernel"] == "online"
        support = BACKEND.supports(too_wide, "softmax", "split")
        widest = (1 << (sms.bit_length() - 1)) * split.SPLIT_MAX_CHUNK_VALUES[4]  # a power of two of chunks
        assert not support and f"rows up to {widest} columns" in support.reason, support.reason


def test_row_align_divides_width_and_stride():
    *_, rows_mod = _modules()
    base = torch.empty(4, 1037, device=DEVICE)
    cases = [(torch.empty(3, 1000), 8), (torch.empty(3, 4096), 16), (torch.empty(3, 129), 1),
             (base[:, :1000], 1), (base[::2, :1000], 2), (torch.empty(1, 8).expand(5, 8), 8)]
    for x, align in cases:
        assert rows_mod.row_align(x) == align, (tuple(x.shape), x.stride())


def test_auto_takes_split_oneshot_for_wide_aligned_rows_of_a_wave():
    # softmax_policy.oneshot_rows: rows past AUTO_ONESHOT_ABOVE columns (by direction and
    # dtype) to AUTO_ONESHOT_MAX_COLS (AUTO_ONESHOT_PADDED's padded rows too; on a GPU of
    # 30 GB/s or more of DRAM bandwidth per SM, AUTO_ONESHOT_COLS_FAST_SM's ranges and
    # AUTO_ONESHOT_PADDED_FAST_SM's padded rows), rows starting on 16-byte vectors
    # (width, row stride and start; 16-bit rows are then held as pairs),
    # and rows x K programs at least AUTO_ONESHOT_MIN_PROGRAMS_PER_SM per SM (K: chunks of
    # 8192 units or 4096 (softmax_oneshot.chunk_units), units being words of two values for
    # 16-bit rows); with dy's layout too
    # for the backward. Else what `auto` took before: `fused` to its reach, then `split`.
    softmax_mod, _, _, _, _, policy, _ = _modules()
    oneshot = softmax_mod.FAMILIES["split_oneshot"]
    sms, wave = 132, 132 * policy.AUTO_ONESHOT_MIN_PROGRAMS_PER_SM
    h100, h200 = gpu_limits(sms), gpu_limits(sms, 48 * 10**11)  # 25 and 36 GB/s per SM
    auto = {"forward": lambda x, limits, op: policy.auto_kernel(x, limits, op),
            "backward": lambda x, limits, op: policy.auto_backward_kernel(x, x, limits, op)}
    # (direction, dtype): what auto takes at the bound, and past it with too few rows
    before = {("forward", torch.float32): ("fused", "split"), ("forward", torch.bfloat16): ("fused", "fused"),
              ("forward", torch.float16): ("fused", "fused"), ("backward", torch.float32): ("fused", "split"),
              ("backward", torch.bfloat16): ("fused", "split"), ("backward", torch.float16): ("fused", "split")}
    assert set(before) == set(policy.AUTO_ONESHOT_ABOVE)
    for (direction, dtype), (at_bound, few) in before.items():
        bound = policy.AUTO_ONESHOT_ABOVE[(direction, dtype)]
        assert bound in (8192, 16384, 32768)
        past = bound + 16
        probe = [torch.empty(1, past, dtype=dtype)] * (2 if direction == "backward" else 1)
        for op in OPS:
            k = oneshot.plan_geometry(direction, h100, op, *probe)[1]
            assert k in (1, 2, 3, 5)
            fewest = -(-wave // k)
            for rows, cols, kernel in [(1000, bound, at_bound), (fewest, past, "split_oneshot"),
                                       (fewest - 1, past, few), (100, policy.AUTO_ONESHOT_MAX_COLS, "split_oneshot")]:
                x = torch.empty(rows, cols, dtype=dtype)
                assert auto[direction](x, h100, op) == kernel, (direction, dtype, rows, cols, op)
                assert auto[direction](x, None, op) != "split_oneshot"  # the interpreter: never
        x = torch.empty(100, 2 * policy.AUTO_ONESHOT_MAX_COLS, dtype=dtype)  # past the widths measured
        assert auto[direction](x, h100, "softmax") != "split_oneshot"
    # A GPU of more bandwidth per SM: the fp16 softmax backward's rows from 8192 columns,
    # the bf16 log-softmax backward's from 16384 (every GPU: rows filling at most 5/8 of
    # `fused`'s tile; `fused` below 32768 elsewhere), and bf16 rows past 16384 that fill
    # at most 3/4 (forward) or 5/8 (backward) of that tile; fp32 and the other backwards
    # as above.
    oneshot_, fused_ = "split_oneshot", "fused"
    for width, op, h200_forward, h200_backward, h100_backward in [
            (16400, "log_softmax", oneshot_, oneshot_, oneshot_), (20480, "log_softmax", oneshot_, oneshot_, oneshot_),
            (20496, "log_softmax", oneshot_, oneshot_, fused_), (16400, "softmax", oneshot_, oneshot_, fused_),
            (20480, "softmax", oneshot_, oneshot_, fused_), (20496, "softmax", oneshot_, fused_, fused_),
            (24576, "softmax", oneshot_, fused_, fused_), (24592, "softmax", fused_, fused_, fused_),
            (24592, "log_softmax", fused_, oneshot_, fused_), (16384, "log_softmax", fused_, fused_, fused_)]:
        x = torch.empty(1000, width, dtype=torch.bfloat16)
        assert policy.auto_backward_kernel(x, x, h200, op) == h200_backward, (width, op)
        assert policy.auto_backward_kernel(x, x, h100, op) == h100_backward, (width, op)
        assert policy.auto_kernel(x, h200, op) == h200_forward, (width, op)
        assert policy.auto_kernel(x, h100, op) == "fused", (width, op)
    # ...and the fp32 forward's rows past 16384 that fill at most 3/4 of `fused`'s tile (the
    # width's next power of two): 16400-24576 columns, not 24592-32768
    for width, h200_kernel in [(16384, "fused"), (16400, "split_oneshot"), (20480, "split_oneshot"),
                               (24576, "split_oneshot"), (24592, "fused"), (32768, "fused"),
                               (32784, "split_oneshot")]:
        x = torch.empty(1000, width)
        for op in OPS:
            assert policy.auto_kernel(x, h200, op) == h200_kernel, (width, op)
            assert policy.auto_kernel(x, h100, op) == ("fused" if width <= 32768 else "split_oneshot")
    for width, dtype, op, forward, backward in [
            (131072, torch.bfloat16, "softmax", "split_oneshot", "split_oneshot"),
            (262144, torch.bfloat16, "softmax", "split_oneshot", "split_oneshot"),
            (32800, torch.float16, "softmax", "split_oneshot", "split_oneshot"),
            (131072, torch.float16, "softmax", "split_oneshot", "split_oneshot"),
            (524288, torch.float16, "softmax", "split_oneshot", "split_oneshot"),
            (1048576, torch.float16, "softmax", "split_oneshot", "split_oneshot"),
            (131072, torch.float16, "log_softmax", "split_oneshot", "split_oneshot"),
            (1048576, torch.float16, "log_softmax", "split_oneshot", "split_oneshot"),
            (131072, torch.float32, "softmax", "split_oneshot", "split_oneshot")]:
        x = torch.empty(1000, width, dtype=dtype)
        assert policy.auto_kernel(x, h200, op) == forward, (width, dtype, op)
        assert policy.auto_backward_kernel(x, x, h200, op) == backward, (width, dtype, op)
        assert policy.auto_kernel(x, h100, op) == policy.auto_backward_kernel(x, x, h100, op) == "split_oneshot"
    cols = 65536
    base = torch.empty(1000 * 4 * cols + 4)
    shifted = base[1:1 + 1000 * 4 * cols].view(1000, 4 * cols)  # 4 bytes past a vector
    aligned = base[4:4 + 1000 * 4 * cols].view(1000, 4 * cols)
    assert policy.auto_kernel(aligned, h100) == "split_oneshot" and policy.auto_kernel(shifted, h100) == "split"
    assert policy.auto_backward_kernel(aligned, shifted, h100) == "split"
    padded = torch.empty(1000, 4 * cols + 2)[:, :4 * cols]  # row stride 8 bytes past a vector
    assert policy.auto_kernel(padded, h100) == "split"
    # 16-bit rows 8 bytes past a vector: paired, but not on 16-byte vectors
    base16 = torch.empty(1000 * 4 * cols + 8, dtype=torch.bfloat16)
    assert policy.auto_kernel(base16[4:4 + 1000 * 4 * cols].view(1000, 4 * cols), h100) == "split"
    assert policy.auto_kernel(base16[8:8 + 1000 * 4 * cols].view(1000, 4 * cols), h100) == "split_oneshot"
    # bf16 rows that `fused` holds (to 65536 columns) but not on 16-byte vectors stay there
    assert policy.auto_kernel(base16[4:4 + 1000 * cols].view(1000, cols), h100) == "fused"


def test_split_oneshot_geometry():
    # 8192-value chunks at 64 values a thread (4 warps) to 128 chunks a row, then twice as
    # wide over twice the warps, to 16 warps forward and 8 backward; the poll's vector at
    # least a lane per thread (a narrower one is replicated over the warps); the whole row
    # in one chunk under the interpreter and for rows of one chunk. On a GPU the forward
    # asks for 96 registers a thread (5 programs per SM), else 128, the backward for no
    # cap; 16-bit rows held as pairs count their chunks in words.
    softmax_mod, *_ = _modules()
    oneshot = softmax_mod.FAMILIES["split_oneshot"]
    forward, backward = oneshot.GEOMETRY["forward"](), oneshot.GEOMETRY["backward"]()
    x = torch.empty(4, 262144)
    h100 = gpu_limits(132)
    assert oneshot.launch_params(x, h100, "softmax")[2] == (96, 128)
    assert oneshot.launch_params(x, None, "softmax")[2] is None
    assert oneshot.BACKWARD.launch_params(x, x, h100, "softmax")[2] is None
    x16 = torch.empty(4, 262144, dtype=torch.bfloat16)
    constexprs = oneshot.launch_params(x16, h100, "softmax")[0]
    assert constexprs["CHUNK"] == 8192 and constexprs["K"] == 16
    for cols, expected in [(65536, (8192, 8, 4)), (1048576, (8192, 128, 4)), (1048577, (16384, 65, 8)),
                           (4194304, (32768, 128, 16)), (5000, (8192, 1, 4)), (3000, (4096, 1, 2))]:
        assert oneshot.geometry(cols, *forward, False) == expected, cols
    assert oneshot.geometry(2097152, *backward, False) == (16384, 128, 4 * 2)
    assert oneshot.geometry(4194304, *backward, False) == (16384, 256, 8)  # declined on a GPU: K > 128
    assert oneshot.geometry(1048576, *forward, True) == (1048576, 1, 16)
    assert [oneshot.poll_lanes(k, w) for k, w in [(32, 4), (128, 4), (128, 8), (3, 1), (200, 4)]] == [
        128, 128, 256, 32, 256]
    regrouped = oneshot.regroup({"CHUNK": 8192, "K": 128, "KP": 128, "ALIGN": 16}, 4, 127)
    assert regrouped == ({"CHUNK": 16384, "K": 64, "KP": 256, "ALIGN": 16}, 8)
    assert oneshot.regroup({"CHUNK": 8192, "K": 128, "KP": 128, "ALIGN": 16}, 4, 128) is None
    assert oneshot.BACKWARD.regroup({"CHUNK": 16384, "K": 128, "KP": 256, "ALIGN": 16}, 8, 100) is None


def test_split_oneshot_takes_half_chunks_for_padded_pairs_and_the_fp16_backward():
    # softmax_oneshot.chunk_units: rows held as pairs of at most ONESHOT_NARROW_MAX_UNITS
    # words take 4096-word chunks where they pad fewer words than 8192-word ones: on a GPU
    # of 30 GB/s or more of DRAM bandwidth per SM at any fill, elsewhere where 8192-word
    # chunks would be at most ONESHOT_NARROW_FILL full (the log-softmax backward: on the
    # former alone, at most ONESHOT_NARROW_FILL_LOG_BACKWARD full); the fp16 softmax
    # backward as bf16's on the former, at every width on the others; fp32 rows, rows not
    # held as pairs and the interpreter keep ONESHOT_CHUNK.
    softmax_mod, *_ = _modules()
    oneshot = softmax_mod.FAMILIES["split_oneshot"]
    h100, h200 = gpu_limits(132), gpu_limits(132, 48 * 10**11)
    wide, narrow = oneshot.ONESHOT_CHUNK, oneshot.ONESHOT_CHUNK // 2
    assert oneshot.ONESHOT_NARROW_MAX_UNITS == 32768
    assert (oneshot.ONESHOT_NARROW_FILL, oneshot.ONESHOT_NARROW_FILL_LOG_BACKWARD) == (0.6, 0.625)
    # (cols, dtype, chunk on an H100, on an H200, the log-softmax backward's on an H200)
    for cols, dtype, h100_chunk, h200_chunk, h200_log_backward in [
            (17408, torch.bfloat16, narrow, narrow, narrow),  # 8704 words: 53 % of two 8192-word chunks
            (19660, torch.bfloat16, narrow, narrow, narrow),  # 9830: 60 %
            (19664, torch.bfloat16, wide, narrow, narrow),
            (20480, torch.float16, wide, narrow, narrow),     # 10240: 62.5 %
            (20496, torch.bfloat16, wide, narrow, wide),
            (24576, torch.float16, wide, narrow, wide),       # 12288 words: three 4096-word chunks
            (50304, torch.bfloat16, wide, narrow, wide),      # 25152: 7 x 4096 < 4 x 8192
            (32768, torch.bfloat16, wide, wide, wide),        # both full
            (65536 + 16, torch.bfloat16, wide, wide, wide),   # past ONESHOT_NARROW_MAX_UNITS
            (20480, torch.float32, wide, wide, wide)]:
        x = torch.empty(1000, cols, dtype=dtype)
        for op in OPS:
            assert oneshot.chunk_units("forward", h100, op, x) == h100_chunk, (cols, dtype)
            assert oneshot.chunk_units("forward", h200, op, x) == h200_chunk, (cols, dtype)
            assert oneshot.chunk_units("forward", None, op, x) == wide
        fp16 = dtype == torch.float16
        assert oneshot.chunk_units("backward", h100, "softmax", x, x) == (narrow if fp16 else h100_chunk), cols
        assert oneshot.chunk_units("backward", h200, "softmax", x, x) == h200_chunk, (cols, dtype)
        assert oneshot.chunk_units("backward", h100, "log_softmax", x, x) == wide, (cols, dtype)
        assert oneshot.chunk_units("backward", h200, "log_softmax", x, x) == h200_log_backward, (cols, dtype)
    x16 = torch.empty(4, 1048576, dtype=torch.float16)
    assert oneshot.chunk_units("backward", h100, "softmax", x16, x16) == narrow
    assert oneshot.chunk_units("backward", h200, "softmax", x16, x16) == wide
    assert oneshot.chunk_units("backward", h100, "log_softmax", x16, x16) == wide
    assert oneshot.BACKWARD.launch_params(x16, x16, h100, "softmax")[0]["CHUNK"] == narrow
    assert oneshot.BACKWARD.launch_params(x16, x16, h100, "softmax")[0]["K"] == 128
    assert oneshot.BACKWARD.launch_params(x16, x16, h200, "softmax")[0]["K"] == 64
    assert oneshot.BACKWARD.launch_params(x16, x16, h100, "log_softmax")[0]["K"] == 64
    assert (oneshot.BACKWARD.launch_params(x16, x16, h100, "softmax")[1],
            oneshot.BACKWARD.launch_params(x16, x16, h200, "softmax")[1],
            oneshot.launch_params(x16, h100, "softmax")[1]) == (2, 4, 4)
    odd = torch.empty(1000, 17409, dtype=torch.bfloat16)  # not held as pairs
    assert oneshot.chunk_units("forward", h200, "softmax", odd) == wide
    assert oneshot.chunk_units("backward", h200, "softmax", odd, odd) == wide
    # the plan's K follows the rule (what `auto`'s wave of programs counts)
    x = torch.empty(1000, 17408, dtype=torch.bfloat16)
    assert oneshot.plan_geometry("forward", h100, "softmax", x) == (narrow, 3, 2)
    assert oneshot.plan_geometry("forward", None, "softmax", x) == (16384, 1, 8)


def test_plan_takes_the_first_register_cap_that_does_not_spill():
    # softmax._compile_form: caps tried in order, the first without spills kept; where
    # every cap spills, the kernel uncapped (a build that spills under any cap below 128,
    # as Triton 3.9's ptxas does split_oneshot's 16-bit forward at 96).
    softmax_mod, launch, *_ = _modules()

    def build(constexprs, warps, cap):
        spills = 56 if cap is not None and cap < limit else 0
        return launch.CompiledResources(n_regs=cap or 139, n_spills=spills, shared=0, num_warps=warps,
                                        programs_per_sm=65536 // (128 * (cap or 139)), limited_by="registers")

    family = object()
    for limit, caps, kept, regs in [(128, (96, 128), 128, 128), (96, (96, 128), 96, 96), (200, (96, 128), None, 139),
                                    (128, 96, None, 139), (96, 96, 96, 96), (128, None, None, 139)]:
        res, warps, cap = softmax_mod._compile_form(build, family, {}, 4, caps)
        assert (cap, res.n_regs, res.n_spills, warps) == (kept, regs, 0, 4), (limit, caps)


def test_split_oneshot_declines_rows_whose_widest_chunks_outnumber_the_sms(monkeypatch):
    # A row's K programs must all be resident: on a GPU of fewer SMs than a row's widest
    # chunks (32768 values forward, 16384 backward: one program per SM), the variant
    # declines the row with a reason; up to that it serves it (`regroup` widens the chunks).
    softmax_mod, launch, *_ = _modules()
    oneshot = softmax_mod.FAMILIES["split_oneshot"]
    monkeypatch.setattr(launch, "on_gpu", lambda t: True)
    small = launch.DeviceLimits(index=0, name="20-SM GPU", sm_count=20, regs_per_sm=65536, smem_per_sm=233472,
                                max_threads_per_sm=2048, warp_size=32, l2_bytes=2**25, dram_bytes_per_s=10**12)
    monkeypatch.setattr(launch, "device_limits", lambda index: small)
    fits, too_wide = torch.empty(2, 20 * 32768), torch.empty(2, 20 * 32768 + 1)
    assert oneshot.why_unsupported(fits) is None
    why = oneshot.why_unsupported(too_wide)
    assert why is not None and "at most 20 programs" in why and str(20 * 32768) in why
    assert oneshot.BACKWARD.why_unsupported(torch.empty(2, 20 * 16384), None) is None
    assert oneshot.BACKWARD.why_unsupported(torch.empty(2, 20 * 16384 + 1), None) is not None


def test_split_geometry_by_element_size():
    _, _, _, _, split, _, _ = _modules()
    # launch params: warps = chunk / (32 x values per thread): 16-bit chunks of 16 KiB at
    # 128 values a thread are 2 warps, fp32's at 32 are 4; odd rows keep 32 at any size,
    # but for rows read as head, whole vectors and tail (EDGES), which take the aligned ones.
    # Many 16-bit rows of at most SPLIT_NARROW_MAX_SPLIT chunks of SPLIT_NARROW_CHUNK_BYTES
    # (8 KiB: 4096 values, one warp) take those; more chunks, or few rows, 16 KiB.
    narrow = split.SPLIT_NARROW_MAX_SPLIT
    for dtype, n_split, warps in ((torch.float32, 8, 4), (torch.bfloat16, 16, 1), (torch.float16, 16, 1)):
        x = torch.empty(1000, 8 * split.SPLIT_CHUNK_BYTES[dtype.itemsize] // dtype.itemsize, dtype=dtype)
        constexprs, got, maxnreg, rows = split.launch_params(x, gpu_limits(132), "softmax")
        assert (constexprs["SPLIT"], got, maxnreg, rows) == (n_split, warps, None, 1000)
        assert constexprs["CHUNK"] == got * 32 * split.SPLIT_VALUES_PER_THREAD[dtype.itemsize]
    for rows, cols, expected in ((1000, narrow * 4096, (narrow, 4096)), (1000, narrow * 4096 + 8, (32, 8192)),
                                 (1, narrow * 4096, (16, 8192)), (1000, 2 * narrow * 4096, (32, 8192))):
        assert split.chunks(cols, 2, 8, False, 132, rows) == expected, (rows, cols)
    assert split.chunks(narrow * 4096, 2, 8, False, 132) == (16, 8192)  # rows unknown (`fits`): 16 KiB
    cols = 8 * split.SPLIT_CHUNK_ODD - 1
    odd = in_layout(torch.empty(1000, cols, dtype=torch.bfloat16), "offset by one")
    constexprs, warps, _, _ = split.launch_params(odd, gpu_limits(132), "softmax")
    assert constexprs["CHUNK"] == split.SPLIT_CHUNK_ODD == warps * 32 * split.SPLIT_VALUES_PER_THREAD_ODD
    assert constexprs["EDGES"] == 0 and constexprs["ALIGN"] == 1
    realigned = torch.empty(1000, cols, dtype=torch.bfloat16)
    constexprs, warps, _, _ = split.launch_params(realigned, gpu_limits(132), "softmax")
    assert (constexprs["SPLIT"], constexprs["CHUNK"]) == split.chunks(cols, 2, 8, False, 132, 1000)
    assert constexprs["CHUNK"] == warps * 32 * split.SPLIT_VALUES_PER_THREAD[2]
    assert constexprs["EDGES"] == 8 and constexprs["ALIGN"] == 1
    # the backward: 32 values of each tensor a thread, chunks of 4096 values, 4 warps
    for dtype in (torch.float32, torch.bfloat16, torch.float16):
        y = torch.empty(1000, 65536, dtype=dtype)
        constexprs, warps, _, _ = split.backward_launch_params(y, y, gpu_limits(132), "softmax")
        assert (constexprs["SPLIT"], constexprs["CHUNK"], warps) == (16, 4096, 4)
    # a compiled chunk that spills more than tolerated is spread over twice the warps
    # (softmax.plan compiles it again), up to SPLIT_MAX_WARPS and one value a thread
    tolerated = split.SPLIT_SPILL_BYTES_TOLERATED
    assert split.respread(2, tolerated, {"CHUNK": 8192}) is None
    assert split.respread(2, tolerated + 1, {"CHUNK": 8192}) == 4
    assert split.respread(split.SPLIT_MAX_WARPS, 1000, {"CHUNK": 1 << 20}) is None
    assert split.respread(4, 1000, {"CHUNK": 256}) == 8 and split.respread(4, 1000, {"CHUNK": 128}) is None


@pytest.mark.parametrize("op", ["softmax", "softmax_backward"])
def test_split_chunks_finer_than_one_per_sm_widen_where_a_group_is_not_resident(op, monkeypatch):
    # With SPLIT_[BWD_]CHUNKS_PER_SM past 1, fp32 rows of 1048576 are cut in 256 chunks of
    # 4096 (at 1: 128 of 8192); the plan keeps them only where the compiled kernel holds
    # all 256 programs at once (132 SMs here), else widens them again (`regroup`), and
    # `fits` still answers by one widest chunk per SM. The residency is made up (a target
    # that compiles nothing), so this runs anywhere.
    softmax_mod, _, _, _, split, *_ = _modules()
    from kernels_triton import offline
    backward = op == "softmax_backward"
    monkeypatch.setattr(split, "SPLIT_BWD_CHUNKS_PER_SM" if backward else "SPLIT_CHUNKS_PER_SM", 4)
    chunks = split.backward_chunks if backward else split.chunks
    assert chunks(1048576, 4, 16, False, 132) == (256, 4096)
    assert chunks(1048576, 4, 16, False, 132, per_sm=1) == (128, 8192)
    assert (split.backward_fits if backward else split.fits)(1048576, 4, 16, 132)
    x = torch.empty(64, 1048576)
    dy = x if backward else None
    for per_sm, (n_split, chunk, warps) in [(2, (256, 4096, 4)), (1, (128, 8192, 8))]:
        p = softmax_mod.plan_offline(x, op, "split", dy, MadeUpTarget(per_sm))
        assert (p["constexprs"]["SPLIT"], p["constexprs"]["CHUNK"], p["num_warps"]) == (n_split, chunk, warps), p
        assert p["grid"] % n_split == 0 and n_split <= p["grid"] <= per_sm * offline.H100.sm_count, p
    # regroup itself: half the chunks, twice as wide, twice the warps, until a group fits
    assert split.regroup({"SPLIT": 256, "CHUNK": 4096}, 4, 132) == ({"SPLIT": 128, "CHUNK": 8192}, 8)
    assert split.regroup({"SPLIT": 256, "CHUNK": 4096}, 4, 264) is None
    assert split.regroup({"SPLIT": 256, "CHUNK": 4096}, split.SPLIT_MAX_WARPS, 132) is None


@pytest.mark.parametrize("op", ["softmax", "log_softmax", "softmax_backward", "log_softmax_backward"])
def test_split_rereads_rows_within_its_range(op, monkeypatch):
    # Rows whose chunks hold SPLIT_[BWD_]REREAD_VALUES[LOG_SOFTMAX] values in all plan the
    # REREAD form alone; other rows, and ops whose range is None, compile both held forms.
    # The target is made up (it compiles nothing), so this runs anywhere.
    softmax_mod, _, _, _, split, *_ = _modules()
    from kernels_triton import offline
    backward, log = op.endswith("_backward"), op.startswith("log")
    name = "SPLIT_BWD_REREAD_VALUES" if backward else "SPLIT_REREAD_VALUES"
    target = MadeUpTarget(4)
    compiled = target.compiled

    def planned(cols: int) -> dict:
        compiled.clear()
        x = torch.empty(8, cols)
        return softmax_mod.plan_offline(x, op, "split", x if backward else None, target)["constexprs"]

    def ranges(within, other):  # the range of this op (LOG_SOFTMAX `log`) for fp32 rows
        return {4: {log: within, not log: other}, 2: {log: None, not log: None}}
    monkeypatch.setattr(split, name, ranges((1 << 17, 1 << 19), None))
    for cols, rereads in ((1 << 16, False), ((1 << 16) + 8, True), (1 << 17, True), (1 << 19, True),
                          ((1 << 19) + 8, False)):
        c = planned(cols)
        assert bool(c["REREAD"]) is rereads and len(compiled) == (1 if rereads else 2), (cols, compiled)
        if rereads:
            assert (c["REREAD"], c["NEXT_EARLY"]) == (split.SPLIT_REREAD, False), c
        else:
            assert {f["NEXT_EARLY"] for f in compiled} == {True, False} and c["REREAD"] == 0, compiled
    monkeypatch.setattr(split, name, ranges(None, (1, 1 << 30)))
    assert planned(1 << 18)["REREAD"] == 0
    # As shipped, fp32 on the (offline) H100: only log-softmax's backward rereads, rows of
    # 131072 to 1048576 values (test_split_rules_by_bandwidth_per_sm: the other GPU class).
    monkeypatch.undo()
    for cols in (65536, 131072, 524288, 1048576):
        assert planned(cols)["REREAD"] == (split.SPLIT_REREAD if op == "log_softmax_backward" and
                                           131072 <= cols <= 1 << 20 else 0), (op, cols)
    # A GPU whose L2 would not keep the resident groups' chunks between their two reads
    # (4 programs per SM x 132 SMs / 32 chunks = 16 groups of 131072 fp32 values: 8 MiB
    # per tensor pending) gets the held forms; the H100's 50 MiB keeps them.
    monkeypatch.setattr(split, name, ranges((1 << 17, 1 << 19), None))
    pending = 16 * (1 << 17) * 4 * (2 if backward and not log else 1)
    for l2_bytes, rereads in ((offline.H100.l2_bytes, True), (math.ceil(pending / split.SPLIT_REREAD_L2_SHARE), True),
                              (math.ceil(pending / split.SPLIT_REREAD_L2_SHARE) - 2, False), (0, False)):
        small = MadeUpTarget(4, dataclasses.replace(offline.H100, l2_bytes=l2_bytes))
        x = torch.empty(64, 1 << 17)
        p = softmax_mod.plan_offline(x, op, "split", x if backward else None, small)
        assert bool(p["constexprs"]["REREAD"]) is rereads and p["grid"] == 16 * 32, (l2_bytes, p)
        assert len(small.compiled) == (1 if rereads else 3), small.compiled  # REREAD, then both held forms


def test_split_rules_by_bandwidth_per_sm():
    # GPUs of SPLIT_FAST_SM_BANDWIDTH or more DRAM bandwidth per SM (an H200's 37 GB/s,
    # not an H100's 25) take the *_FAST_SM REREAD ranges; 16-bit REREAD backward forms
    # hold SPLIT_BWD_REREAD_VALUES_PER_THREAD values a thread, but at least a thread per
    # chunk. Made-up residency (a target that compiles nothing), so this runs anywhere.
    softmax_mod, _, _, _, split, *_ = _modules()
    from kernels_triton import offline
    h200 = dataclasses.replace(offline.H100, name="H200-like", dram_bytes_per_s=48 * 10**11)
    assert not split.fast_sm(offline.H100) and split.fast_sm(h200)
    assert not split.fast_sm(None) and not split.fast_sm(dataclasses.replace(h200, dram_bytes_per_s=0))

    def planned(limits, op: str, dtype: torch.dtype, cols: int, odd: bool = False) -> tuple[int, int]:
        target = MadeUpTarget(4, limits)
        x = torch.empty(1000, cols + 1, dtype=dtype)[:, :cols] if odd else torch.empty(1000, cols, dtype=dtype)
        p = softmax_mod.plan_offline(x, op, "split", x if op.endswith("_backward") else None, target)
        # a form's own warps are the launch's, never one of the kernel's constexprs
        assert "num_warps" not in p["constexprs"] and all("num_warps" not in c for c in target.compiled), p
        assert target.warps[-1] == p["num_warps"] or p["grid"] == 0, (target.warps, p)
        return p["constexprs"]["REREAD"], p["num_warps"]

    widths = (65536, 131072, 262144, 524288, 1 << 20)
    for limits in (offline.H100, h200):
        fast = limits is h200
        for op in ("softmax", "log_softmax", "softmax_backward", "log_softmax_backward"):
            backward, log = op.endswith("_backward"), op.startswith("log")
            for dtype in (torch.float32, torch.bfloat16, torch.float16):
                for cols in widths:
                    reread, warps = planned(limits, op, dtype, cols)
                    if backward and dtype == torch.float32:
                        expected = log and cols >= 131072
                    elif backward:
                        expected = log or fast or cols >= 524288
                    else:
                        expected = fast and not log and dtype == torch.float32 and 262144 <= cols <= 524288
                    assert bool(reread) is expected, (limits.name, op, dtype, cols)
                    if reread and backward and dtype != torch.float32:
                        # 4096-value chunks up to 1 << 19 columns, 8192 at 1 << 20 (128 chunks)
                        n_split, chunk = split.backward_chunks(cols, 2, 8, False, 132)
                        assert warps == max(n_split // 32, chunk // (32 * 64)), (op, cols, warps)
                        assert warps == {65536: 2, 131072: 2, 262144: 2, 524288: 4, 1 << 20: 4}[cols]
                # odd rows (element by element) keep the ranges measured before: log-softmax's
                # backward from 131072, nothing else
                for cols in (65536, 262144):
                    reread, _ = planned(limits, op, torch.bfloat16, cols, odd=True)
                    assert bool(reread) is (op == "log_softmax_backward" and cols >= 131072), (op, cols)
    # Where the L2 would not keep the pending chunks, a 16-bit REREAD backward plan falls
    # back to both held forms, at the plan's own warps (32 values a thread), not REREAD's.
    small = MadeUpTarget(4, dataclasses.replace(h200, l2_bytes=1 << 20))
    y = torch.empty(1000, 65536, dtype=torch.bfloat16)
    p = softmax_mod.plan_offline(y, "softmax_backward", "split", y, small)
    assert p["constexprs"]["REREAD"] == 0 and p["num_warps"] == 4, p
    assert [c["REREAD"] for c in small.compiled] == [split.SPLIT_REREAD, 0, 0] and small.warps == [2, 4, 4]


def test_occupancy_and_grid_arithmetic():
    _, launch, fused, online, split, _, _ = _modules()
    h100 = launch.DeviceLimits(index=0, name="H100-like", sm_count=132, regs_per_sm=65536,
                               smem_per_sm=233472, max_threads_per_sm=2048, warp_size=32,
                               l2_bytes=50 * 2**20)
    assert launch.programs_per_sm(64, 0, 4, h100) == (8, "registers")   # 64 x 128 threads
    assert launch.programs_per_sm(57, 0, 4, h100)[0] == 8               # 57 rounds up to 64
    assert launch.programs_per_sm(16, 0, 4, h100) == (16, "warps")      # 2048 / 128 threads
    assert launch.programs_per_sm(32, 100_000, 4, h100) == (2, "shared memory")
    assert launch.programs_per_sm(255, 0, 32, h100)[0] == 1             # never below one
    # fused: one program per row block (one-shot grid), past CUDA's grid limit on 2-D
    assert fused.grid(10**6, 512, {}, h100, 8) == (10**6, 8)
    assert fused.grid(2**40, 512, {}, h100, 8) == (2**40, 8)
    assert launch.grid_2d(2**40) == (2**31 - 1, math.ceil(2**40 / (2**31 - 1)))
    assert fused.grid(100, 512, {}, h100, 8) == (100, 8)
    # online: the rows in flight must fit half the L2 (25 MiB here)...
    assert online.grid(10**6, 32768 * 2, {}, h100, 4) == (132 * 3, 3)
    # ...but every SM gets a program even when they do not (256 KiB rows: 33 MiB)
    assert online.grid(10**6, 65536 * 4, {}, h100, 4) == (132, 1)
    # split: whole groups, all resident at once (132 x 3 = 396 programs: 49 groups of 8)...
    assert split.grid(10**6, 65536 * 4, {"SPLIT": 8}, h100, 3) == (49 * 8, 3)
    # ...and no more groups than rows
    assert split.grid(5, 65536 * 4, {"SPLIT": 8}, h100, 3) == (40, 3)
    # the interpreter (no limits): one program per unit, split a few
    assert online.grid(7, 512, {}) == (7, 1) and split.grid(7, 512, {"SPLIT": 1}) == (2, 1)
    # SPLIT: one chunk up to SPLIT_WHOLE_ROW_BYTES, else the fewest power-of-two chunks of
    # at most SPLIT_CHUNK_BYTES (odd rows: SPLIT_CHUNK_ODD elements)
    whole = split.SPLIT_WHOLE_ROW_BYTES
    assert split.chunks(whole // 2, 2, 16, False) == (1, whole // 2)
    assert split.chunks(100, 4, 4, False) == (1, 128)
    for elem in (4, 2):
        chunk = split.SPLIT_CHUNK_BYTES[elem] // elem
        assert split.chunks(8 * chunk, elem, 16, False) == (8, chunk)
        assert split.chunks(8 * chunk + 16, elem, 16, False) == (16, chunk)
        assert split.chunks(5 * chunk, elem, 16, False) == (8, chunk)  # 5 rounds up
    # more 16 KiB chunks than SMs: wider chunks (1048576 fp32: 128 of 32 KiB)
    assert split.chunks(1048576, 4, 16, False) == (256, 4096)
    assert split.chunks(1048576, 4, 16, False, 132) == (128, 8192)
    assert split.chunks(524288, 4, 16, False, 132) == (128, 4096)
    assert split.chunks(2097152, 2, 16, False, 132) == (128, 16384)
    assert split.chunks(2097152 + 8, 4, 16, False, 132) == (256, 16384)  # past 128 x 64 KiB
    odd = split.SPLIT_CHUNK_ODD
    assert split.chunks(4 * odd, 4, 1, False) == (4, odd)
    assert split.chunks(256 * odd, 4, 1, False, 132) == (256, odd)  # odd rows: element-wise chunks
    assert split.chunks(10**6, 4, 16, True) == (1, 2**20)  # interpreter: one chunk
    # rows of no columns (empty inputs ask whether split fits before anything is skipped)
    for align in (1, 16):
        assert split.chunks(0, 4, align, False) == (1, 1) and split.fits(0, 4, align, 132)
        assert split.backward_chunks(0, 2, align, False) == (1, 1) and split.backward_fits(0, 2, align, 132)


def test_resource_cache_keys_on_what_triton_specialises():
    _, launch, *_ = _modules()
    base = torch.empty(64, dtype=torch.float16)
    key = launch.specialization
    assert key((base, 32, 7)) == key((base, 48, 9))                  # same divisibility, same binary
    assert key((base, 32, 7)) != key((base[1:], 32, 7))              # unaligned pointer
    assert key((base, 32, 7)) != key((base, 33, 7))                  # divisibility by 16
    assert key((base, 32, 7)) != key((base, 32, 1))                  # an integer equal to 1
    assert key((base, 32, 7)) != key((base, 32, 2**31 + 7))          # a 64-bit integer
    assert key((base, 32, 7)) != key((base.float(), 32, 7))          # dtype


def test_plan_reports_the_launch():
    softmax_mod, _, fused, online, *_ = _modules()
    x = make_rows(7, 1000, torch.float16, DEVICE)
    p_fused, p_online = softmax_mod.plan(x, "softmax", "fused"), softmax_mod.plan(x, "log_softmax", "online")
    assert p_fused["kernel"] == "fused" and p_online["kernel"] == "online"
    assert p_fused["unsupported"] is None and p_fused["kernel_fn"] == "_softmax_fused_kernel"
    assert p_fused["constexprs"]["BLOCK"] == 1024 and p_fused["constexprs"]["ALIGN"] == 8
    assert not p_fused["constexprs"]["PAIRS"]  # narrower than FUSED_PAIRS_MIN_COLS
    assert p_fused["constexprs"]["INTERPRETER"] == (DEVICE == "cpu")
    # wide 16-bit rows are held as pairs: BLOCK counts 32-bit words of two values
    wide = softmax_mod.plan(torch.empty(2, fused.FUSED_PAIRS_MIN_COLS, dtype=torch.float16, device=DEVICE),
                            "softmax", "fused")
    assert wide["constexprs"]["PAIRS"] and wide["constexprs"]["BLOCK"] == fused.FUSED_PAIRS_MIN_COLS // 2
    assert not p_fused["constexprs"]["LOG_SOFTMAX"] and p_online["constexprs"]["LOG_SOFTMAX"]
    assert softmax_mod.plan(x, "softmax")["kernel"] == "fused"
    if DEVICE == "cpu":  # interpreter: one program per row block / row, small tiles
        assert p_fused["grid"] == math.ceil(7 / p_fused["constexprs"]["ROWS"])
        assert p_online["grid"] == 7 and p_online["constexprs"]["TILE"] == online.INTERPRET_ONLINE_TILE


# -- odd rows: head, whole 16-byte vectors and tail (kernels_triton/row_edges.py) ------------

@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
def test_odd_rows_plan_head_whole_vectors_and_tail(dtype):
    # Odd widths start each row of a contiguous tensor at another offset from 16 bytes
    # (ALIGN 1). Where x's rows and a fresh output's share their offsets (a 16-byte
    # aligned start and row strides a whole number of vectors apart, or one row), `fused`
    # and `split` read them as head, whole vectors and tail: EDGES, a 16-byte vector's
    # values. Not one element in, nor rows narrower than two vectors (some would hold no
    # whole vector), nor fp32 rows `fused` packs several to a tile (FUSED_EDGES_MIN_COLS;
    # on `fast_sm` GPUs FUSED_EDGES_FAST_MIN_COLS, but for contiguous ones whose window
    # spans at most FUSED_SHARED_MAX_SPAN, the shared-vector tile's), nor rows already
    # whole vectors (ALIGN), nor paired rows in `fused`.
    softmax_mod, _, fused, _, _, _, rows_mod = _modules()
    from kernels_triton import row_edges
    vec = 16 // dtype.itemsize
    for cols in ODD_WIDTHS:
        for layout in ROW_LAYOUTS:
            x = in_layout(torch.zeros(3, cols, dtype=dtype, device=DEVICE), layout)
            edges = vec if layout != "offset by one" and cols >= 2 * vec else 0
            assert rows_mod.row_align(x) == 1 and row_edges.edge_vector(x) == edges, (cols, layout)
            fast = DEVICE != "cpu" and fused.softmax_split.fast_sm(fused.launch.device_limits(x.device.index))
            min_cols = (fused.FUSED_EDGES_FAST_MIN_COLS if fast else fused.FUSED_EDGES_MIN_COLS)[dtype.itemsize]
            shared = (fast and layout == "contiguous"
                      and (cols + vec - 1) * dtype.itemsize <= fused.FUSED_SHARED_MAX_SPAN[dtype.itemsize])
            fused_edges = edges if cols >= min_cols or shared else 0
            for op in OPS:
                for variant, expected in (("split", edges), ("fused", fused_edges)):
                    p = softmax_mod.plan(x, op, variant)
                    assert p["constexprs"]["EDGES"] == expected and p["realigned"] == bool(expected), \
                        (op, variant, cols, layout)
    base = torch.zeros(4, 3 * vec + 2, dtype=dtype, device=DEVICE)
    for x, edges in [(base[:, :3 * vec + 1], 0),                              # row stride cols + 1
                     (base[:1, 1:3 * vec + 2], 0),                            # one row, one element in
                     (base[:1, :3 * vec + 1], vec),                           # one row: any stride
                     (torch.zeros(4, 3 * vec, dtype=dtype, device=DEVICE), 0),  # whole vectors
                     (torch.zeros(4, 2 * vec + 2, dtype=dtype, device=DEVICE), vec)]:  # ALIGN 2
        assert row_edges.edge_vector(x) == edges, (tuple(x.shape), x.stride(), x.data_ptr() % 16)
    wide = torch.zeros(2, fused.FUSED_PAIRS_MIN_COLS + 2, dtype=dtype, device=DEVICE)  # ALIGN 2
    assert softmax_mod.plan(wide, "softmax", "fused")["constexprs"]["EDGES"] == (vec if dtype == torch.float32 else 0)
    assert softmax_mod.plan(wide, "softmax", "split")["constexprs"]["EDGES"] == vec


@pytest.mark.parametrize("op", ["softmax", "softmax_backward"])
def test_auto_cuts_odd_rows_as_their_loads_see_them(op):
    # On a GPU (here a made-up 132-SM one that compiles nothing), odd rows past fused's
    # widest go to `split`: in the chunks of aligned rows where they are read as head,
    # whole vectors and tail, in element-wise chunks one element in.
    softmax_mod, _, _, _, split, *_ = _modules()
    backward = op == "softmax_backward"
    chunks = split.backward_chunks if backward else split.chunks
    for dtype in DTYPES:
        vec = 16 // dtype.itemsize
        for layout, edges, align in (("contiguous", vec, vec), ("offset by one", 0, 1)):
            x = in_layout(torch.zeros(1000, 50257, dtype=dtype, device="meta"), layout)
            p = softmax_mod.plan_offline(x, op, "auto", x if backward else None, MadeUpTarget(4))
            c = p["constexprs"]
            expected = chunks(50257, dtype.itemsize, align, False, 132) if backward else \
                chunks(50257, dtype.itemsize, align, False, 132, 1000)
            assert p["kernel"] == "split" and c["EDGES"] == edges and c["ALIGN"] == 1, (dtype, layout, c)
            assert (c["SPLIT"], c["CHUNK"]) == expected, (dtype, layout, c)


@pytest.mark.parametrize("layout", ROW_LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("op", OPS)
def test_odd_rows_agree_in_every_layout(op, dtype, layout):
    # Every ODD_WIDTHS width through `fused`, `split` and `auto` against float64, laid out
    # so that it is read as head, whole vectors and tail (contiguous, padded) or element
    # by element (one element in); special values in the head, the body and the tail
    # (SPECIAL_ROWS puts them in the first, middle and last columns).
    for cols in ODD_WIDTHS:
        x = in_layout(make_rows(7, cols, dtype, DEVICE, seed=cols), layout)
        for variant in ("fused", "split", "auto") if cols == ODD_WIDTHS[-1] else ("fused", "split"):
            run_and_check(Target("triton", op, variant), x)
    for cols in (33, 1025):
        x = in_layout(special_rows(cols, dtype, DEVICE), layout)
        for variant in ("fused", "split"):
            run_and_check(Target("triton", op, variant), x)


@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("op", OPS)
def test_odd_rows_read_whole_from_the_boundary_before(op, dtype):
    # Odd rows whose head and tail vectors fit `fused`'s tile (width + EDGES - 1 <= BLOCK)
    # are read as whole 16-byte vectors from the boundary at or before each row's start
    # (WINDOW), their neighbours' values masked: NaN in the padding, the next row's values
    # in contiguous rows. WINDOW 1 where the tensor ends on a 16-byte boundary (the last
    # row's tail vector is its own: 8 rows of odd width); 2 where it does not and the
    # tile holds more than one row (the last row read by value after the tile: every
    # special row is also tried last, as it is and reversed); none where the row does not
    # fit (1025: head and tail beside the body), or whose window spans 1 KiB or more in
    # a row of less than 4 KiB (FUSED_EDGE_ROWS_BYTES: 16-bit 511 and 577; the edge tile,
    # one row a program). A window that would leave a quarter of its tile or more masked
    # is two tiles (BLOCK + TAIL: 300 as 256 + 64; 260, whose head and tail vectors spill
    # past 256, as 256 + 16; 197 stays one tile of 256, fp32 1501 one of 2048). On a GPU a
    # few rows take a tile each, so the tensors there have enough rows for tiles of several.
    # On GPUs of fast SMs contiguous 16-bit rows take the shared-vector tile instead (WINDOW
    # 3 / 4: test_fused_shared_vector_tile_agrees).
    softmax_mod, *_ = _modules()
    for cols, parts in ([(1501, (2048, 0))] if dtype == torch.float32 else
                        [(197, (256, 0)), (260, (256, 16)), (300, (256, 64))]):
        _check_windows(softmax_mod, op, dtype, cols, parts)
    for cols in (1025,) if dtype == torch.float32 else (511, 577, 1025):
        x = in_layout(make_rows(8, cols, dtype, DEVICE), "padded")
        c = softmax_mod.plan(x, op, "fused")["constexprs"]
        assert c["EDGES"] and not c["WINDOW"] and c["ROWS"] == 1, (cols, c)
        run_and_check(Target("triton", op, "fused"), x)


def _check_windows(softmax_mod, op, dtype, cols, parts):
    many = 0 if DEVICE == "cpu" else 1024  # rows past 132 SMs x 4: tiles of 8 rows
    _, launch, fused, *_ = _modules()
    fast = DEVICE != "cpu" and fused.softmax_split.fast_sm(launch.device_limits(torch.device(DEVICE).index or 0))
    shares = fast and dtype != torch.float32  # contiguous rows: shared vectors
    special = special_rows(cols, dtype, DEVICE)
    windows = set()
    for rows, layout in ((8, "padded"), (8, "contiguous"), (7, "contiguous"), (7, "padded")):
        values = make_rows(many + rows, cols, dtype, DEVICE, seed=rows)
        values[many:many + rows - 1] = special[:rows - 1]  # -inf, inf, NaN rows ... and one plain
        x = in_layout(values, layout)
        ends = (x.data_ptr() + ((x.shape[0] - 1) * x.stride(0) + cols) * x.element_size()) % 16 == 0
        assert ends == (x.numel() * x.element_size() % 16 == 0), (rows, layout)
        c = softmax_mod.plan(x, op, "fused")["constexprs"]
        window = ((3 if ends else 4) if shares and layout == "contiguous" else
                  1 if ends else 2 if c["ROWS"] > 1 else 0)
        assert c["EDGES"] and c["WINDOW"] == window, (rows, layout, c)
        if c["WINDOW"] in (1, 2):
            assert (c["BLOCK"], c["TAIL"]) == parts, (cols, rows, layout, c)
        windows.add(c["WINDOW"])
        run_and_check(Target("triton", op, "fused"), x)
    assert windows == ({1, 2, 3, 4} if shares else {1, 2} if dtype != torch.float32 or DEVICE != "cpu"
                       else {0, 1}), windows
    for i in range(2 * len(special)):
        values = make_rows(many + 3, cols, dtype, DEVICE, seed=i)
        values[-1] = special[i // 2].flip(0) if i % 2 else special[i // 2]
        x = in_layout(values, "contiguous" if i % 4 < 2 else "padded")
        assert softmax_mod.plan(x, op, "fused")["constexprs"]["WINDOW"] in (0, 2, 4)
        run_and_check(Target("triton", op, "fused"), x)


# -- any tensor: an answer, never an exception ------------------------------------------------

def expected_softmax(op, x):
    fn = torch.softmax if op == "softmax" else torch.log_softmax
    return fn(x.float(), -1).to(x.dtype) if x.dim() else fn(x.float().reshape(1), 0).to(x.dtype).reshape(())


@pytest.mark.parametrize("name", [name for name, _ in odd_tensors("cpu")])
def test_any_tensor_gets_an_answer(name):
    softmax_mod, *_ = _modules()
    x = dict(odd_tensors(DEVICE))[name]
    for op in OPS:
        for variant in ("auto", *softmax_mod.VARIANTS[op]):
            support = BACKEND.supports(x, op, variant)                # the backend's own question
            assert isinstance(bool(support), bool)
            why = softmax_mod.why_unsupported(x, op, variant)          # the op module's, as given
            assert why is None or (isinstance(why, str) and why)
            p = softmax_mod.plan(x, op, variant)
            assert p["unsupported"] == why
            if why is not None:
                assert p["kernel"] is None
                error = TypeError if x.dtype not in DTYPES else ValueError
                with pytest.raises(error) as raised:
                    softmax_mod.run(x, op, variant)
                assert str(raised.value) == why
                continue
            assert p["kernel"] in softmax_mod.FAMILIES and (p["grid"] == 0) == (x.numel() == 0)
            out = softmax_mod.run(x, op, variant)
            assert out.shape == x.shape and out.dtype == x.dtype and out.is_contiguous()
            torch.testing.assert_close(out, expected_softmax(op, x), atol=1e-6, rtol=1e-2 if
                                       x.dtype == torch.bfloat16 else 1e-5)
    if x.dtype in (torch.int32, torch.int64, torch.float64, torch.bool):
        assert not BACKEND.supports(x, "softmax") and "dtype" in softmax_mod.why_unsupported(x, "softmax", "auto")
    if name == "1-D strided":
        assert "no such view" in softmax_mod.why_unsupported(x, "softmax", "auto")


H100_LIKE = dict(index=0, name="H100-like", sm_count=132, regs_per_sm=65536, smem_per_sm=233472,
                 max_threads_per_sm=2048, warp_size=32, l2_bytes=50 * 2**20)


@pytest.mark.parametrize("name", [name for name, _ in odd_tensors("cpu")])
def test_gpu_planning_answers_any_tensor_without_a_gpu(name, monkeypatch):
    # The planning a GPU runs (why_unsupported's residency checks, auto's choice, the
    # launch parameters) differs from the interpreter's, which skips it: pretend to be on
    # an H100 so that CI asks those questions too. An empty row once raised
    # ZeroDivisionError there (split's chunks) and was caught only on the GPU.
    softmax_mod, launch, _, _, _, policy, _ = _modules()
    monkeypatch.setattr(launch, "on_gpu", lambda x: True)
    monkeypatch.setattr(launch, "device_limits", lambda index: launch.DeviceLimits(**H100_LIKE))
    x = dict(odd_tensors(DEVICE))[name]
    x2d = launch.rows_view(x)
    for op in (*OPS, *BWD_OPS):
        for variant in ("auto", *softmax_mod.VARIANTS[op]):
            why = softmax_mod.why_unsupported(x, op, variant)
            assert why is None or (isinstance(why, str) and why), (op, variant, why)
    if x2d is None or x.dtype not in DTYPES:
        return
    sm_count = H100_LIKE["sm_count"]
    kernel = policy.auto_kernel(x2d, gpu_limits(sm_count))
    backward_kernel = policy.auto_backward_kernel(x2d, x2d, gpu_limits(sm_count))
    assert kernel in softmax_mod.FAMILIES and backward_kernel in softmax_mod.BACKWARD_FAMILIES
    if x.numel() == 0:  # nothing is launched: plans stop before the launch parameters
        return
    for family in softmax_mod.FAMILIES.values():
        if family.why_unsupported(x2d) is None:
            family.launch_params(x2d, gpu_limits(sm_count), "softmax")
    for family in softmax_mod.BACKWARD_FAMILIES.values():
        if family.why_unsupported(x2d, x2d) is None:
            family.launch_params(x2d, x2d, gpu_limits(sm_count), "softmax")


def test_unknown_ops_and_variants_get_a_reason():
    softmax_mod, *_ = _modules()
    x = torch.zeros(2, 3, device=DEVICE)
    assert "reduce_sum" in softmax_mod.why_unsupported(x, "reduce_sum", "auto")
    assert "'block'" in softmax_mod.why_unsupported(x, "softmax", "block")
    assert softmax_mod.plan(x, "softmax", "block")["kernel"] is None


# -- bf16 rounding ------------------------------------------------------------------------------

if BACKEND.is_available():  # Triton is importable (and TRITON_INTERPRET set where needed)
    import triton
    import triton.language as tl

    from kernels_triton import downcast, pairs

    @triton.jit
    def _convert_kernel(x_ptr, y_ptr, w_ptr, n, INTERPRETER: tl.constexpr, BLOCK: tl.constexpr):
        # fp32 x through downcast.rounded into y (y's dtype), and through pairs.pack (bf16)
        # two values per word into w.
        i = tl.arange(0, BLOCK)
        x = tl.load(x_ptr + i, mask=i < n)
        tl.store(y_ptr + i, downcast.rounded(x, y_ptr.dtype.element_ty, INTERPRETER), mask=i < n)
        lo = tl.load(x_ptr + 2 * i, mask=2 * i < n)
        hi = tl.load(x_ptr + 2 * i + 1, mask=2 * i + 1 < n)
        tl.store(w_ptr + i, pairs.pack(lo, hi, True, INTERPRETER), mask=2 * i + 1 < n)


def test_bf16_rounding_helpers_round_to_nearest_even():
    # downcast.rounded and pairs.pack on values chosen for rounding: ties to even both
    # ways, values just off a tie, the largest finite values (which round to inf),
    # subnormals, signed zeros, infinities and NaNs with payloads that truncation or a
    # careless rounding turns into inf. Compared bit for bit with torch's conversion.
    bits = [0x3F808000, 0x3F818000, 0x3F808001, 0x3F807FFF, 0x3F817FFF, 0xBF808000, 0xBF818000,
            0x7F7FFFFF, 0x7F7F8000, 0x7F7F7FFF, 0xFF7FFFFF, 0x00008000, 0x00018000, 0x00000001,
            0x80000001, 0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001,
            0xFF800001, 0x7FFFFFFF, 0xFFC00001]
    special = torch.tensor(bits, dtype=torch.int64).to(torch.int32).view(torch.float32)
    gen = torch.Generator().manual_seed(0)
    spread = torch.randn(4000, generator=gen) * torch.logspace(-40, 38, 4000)
    x = torch.cat([special, spread.float()]).to(DEVICE)
    n = x.numel()
    expected = x.to(torch.bfloat16)
    assert not _same_bits(_truncated_bf16(x), expected).all()  # the data tells truncation apart
    for interpreter in ((True,) if _interpreted() else (False, True)):  # GPU: cvt.rn and the bit path
        y = torch.empty(n, dtype=torch.bfloat16, device=DEVICE)
        w = torch.empty(n // 2, dtype=torch.int32, device=DEVICE)
        _convert_kernel[(1,)](x, y, w, n, INTERPRETER=interpreter, BLOCK=1 << (n - 1).bit_length())
        assert _same_bits(y, expected).all(), x[~_same_bits(y, expected)]
        packed = w.view(torch.bfloat16)  # little-endian: low halves are the even values
        assert _same_bits(packed, expected[: 2 * (n // 2)]).all()


@pytest.mark.parametrize("variant", ["fused", "online", "split", "split_oneshot"])
@pytest.mark.parametrize("op", OPS)
def test_bf16_results_are_rounded_to_nearest_even(op, variant):
    # A kernel's bf16 output is its fp32 result rounded to nearest even. The fp32 result
    # of the same arithmetic is what the kernel gives for the same values as fp32 input
    # (same tiles under the interpreter: `online` and `split` take one tile or chunk per
    # row here; `fused` widens the 16-bit values to the same fp32 ones), so the bf16
    # output must equal torch's rounding of the fp32 output bit for bit. Truncation (the
    # interpreter's own conversion) differs on about half the elements. `split_oneshot`
    # holds 16-bit rows of even widths as pairs of values per word (another arithmetic:
    # the rounding of pairs.pack is tested above), so it takes an odd width.
    softmax_mod, *_ = _modules()
    x16 = make_rows(7, 201 if variant == "split_oneshot" else 200, torch.bfloat16, DEVICE, seed=11)
    p16, p32 = softmax_mod.plan(x16, op, variant), softmax_mod.plan(x16.float(), op, variant)
    same = ("ROWS", "BLOCK", "TILE", "SPLIT", "CHUNK", "ALIGN")  # the premise: the same tiles
    assert [p16["constexprs"].get(k) for k in same] == [p32["constexprs"].get(k) for k in same]
    assert p16["num_warps"] == p32["num_warps"] and not p16["constexprs"].get("PAIRS")
    y16 = OP_FUNCTIONS[op](x16, -1, backend="triton", variant=variant)
    y32 = OP_FUNCTIONS[op](x16.float(), -1, backend="triton", variant=variant)
    finite = y32.isfinite()
    assert not _same_bits(_truncated_bf16(y32), y32.to(torch.bfloat16))[finite].all()
    assert _same_bits(y16, y32.to(torch.bfloat16)).all()


# -- GPU only --------------------------------------------------------------------------------

# Widths of the matrix's GPU sweep with the Triton paths they take (their results are the
# matrix's); here for which variants decline them and how `split` cuts them.
GPU_WIDTHS = [
    1, 3,           # degenerate rows: up to 512 rows per fused block, element-by-element loads
    127, 128, 129,  # narrow: 32-64 rows per 16 KiB fused block; 129: ALIGN 1 (16-bit: EDGES)
    512,            # fused 8-16 rows per block
    1000,           # ALIGN 8: 16-byte loads through the divisibility hint
    1024, 1025,     # 1025: fused BLOCK 2048, ALIGN 1: head, 16-byte vectors and tail (EDGES)
    4096, 4099,     # one row per fused block; 4099 odd
    8192,           # online: exactly one tile (second tile of the pair empty)
    16384,          # fused 16 warps; online: one full pair of tiles
    16385,          # odd, past fused's value-by-value widest (16384): read with EDGES, as aligned rows
    32768,          # FUSED_MAX_COLS: fused 32 warps (16-bit: 16 warps of pairs)
    32769,          # first odd width past fused (refuses); auto: split, ALIGN 1 read with EDGES
    65536,          # fused: paired 16-bit only; split: 16 (fp32) or 8 (16-bit) programs per row
    262144,         # split: 32-64 programs per row; online: rows in flight exceed L2
]
GPU_ROWS = [1, 2, 7, 1000]  # 1000: more rows than SMs, so persistent programs loop


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("op", OPS + BWD_OPS)
def test_gpu_refusals_and_split_exchanges(op, dtype):
    # The matrix runs every variant on these widths and accepts any refusal with a reason.
    # Here: only `fused` refuses (past its register limit for the row's alignment), and
    # backward `split` past what this GPU keeps resident, each naming the fallback; and
    # `split` cuts rows of 65536 and more over programs that exchange (SPLIT >= 4, backward
    # >= 8). Plans only: nothing is launched.
    softmax_mod, _, fused, _, split, *_ = _modules()
    backward = op in BWD_OPS
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    for cols in GPU_WIDTHS:
        for rows in GPU_ROWS:
            x = torch.empty(rows, cols, dtype=dtype, device="cuda")  # backward: y and dy alike
            for variant in (BWD_VARIANTS if backward else VARIANTS):
                support = BACKEND.supports(x, op, variant)
                if not support and backward:
                    assert (variant == "fused" and cols > fused.backward_max_cols(x, x)) or (
                        variant == "split" and not split.backward_fits(cols, x.element_size(), 16, sms)), support.reason
                    assert "'tiled'" in support.reason
                elif not support:
                    assert variant == "fused" and cols > fused.max_cols(x), support.reason
                    assert "'online'" in support.reason
                elif variant == "split" and cols >= 65536:
                    p = softmax_mod.plan(x, op, variant, x) if backward else softmax_mod.plan(x, op, variant)
                    assert p["constexprs"]["SPLIT"] >= (8 if backward else 4), (cols, p)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("op", OPS)
def test_gpu_compiled_kernels_do_not_spill(op, dtype):
    # Each configuration's widest case, compiled (plan compiles, nothing is launched).
    softmax_mod, _, fused, _, split, *_ = _modules()
    shifted = torch.empty(4, fused.FUSED_MAX_COLS + 2, dtype=dtype, device="cuda")
    groups = 1 << (torch.cuda.get_device_properties(0).multi_processor_count.bit_length() - 1)  # SPLIT's most
    cases = [
        ("fused", torch.empty(1 << 16, 128, dtype=dtype, device="cuda")),  # 32-64 rows per block
        ("fused", torch.empty(1 << 16, 1, dtype=dtype, device="cuda")),    # 512 rows, scalar loads
        ("fused", torch.empty(4, fused.FUSED_MAX_COLS, dtype=dtype, device="cuda")),
        ("fused", shifted[:, 2:]),                                          # misaligned, ALIGN 2
        ("fused", torch.empty(4, fused.FUSED_MAX_COLS_ODD - 1, dtype=dtype, device="cuda")),  # EDGES
        ("fused", in_layout(torch.empty(4, fused.FUSED_MAX_COLS_ODD - 1, dtype=dtype, device="cuda"),
                            "offset by one")),                     # odd: element by element
        ("fused", torch.empty(4, fused.FUSED_PAIRS_MIN_COLS, dtype=dtype, device="cuda")),  # 16-bit: pairs
        ("fused", torch.empty(4, fused.FUSED_MAX_COLS_PAIRS.get(dtype, fused.FUSED_MAX_COLS),
                              dtype=dtype, device="cuda")),
        ("online", torch.empty(1000, 65536, dtype=dtype, device="cuda")),   # 8192 tiles
        ("online", torch.empty(1000, 65537, dtype=dtype, device="cuda")),   # odd: 4096 tiles
        ("online", torch.empty(1000, 262144, dtype=dtype, device="cuda")),
        ("split", torch.empty(1000, 65536, dtype=dtype, device="cuda")),    # SPLIT_[NARROW_]CHUNK_BYTES chunks
        ("split", torch.empty(1000, 16384, dtype=dtype, device="cuda")),    # one chunk, a whole row
        ("split", torch.empty(1000, 65537, dtype=dtype, device="cuda")),    # odd, EDGES: aligned chunks
        ("split", in_layout(torch.empty(1000, 65537, dtype=dtype, device="cuda"), "offset by one")),  # SPLIT_CHUNK_ODD
        ("split", torch.empty(2, groups * 32768 // dtype.itemsize, dtype=dtype, device="cuda")),  # 32 KiB chunks
        ("split", torch.empty(2, groups * split.SPLIT_MAX_CHUNK_VALUES[dtype.itemsize], dtype=dtype, device="cuda")),
    ]
    for kernel, x in cases:
        p = softmax_mod.plan(x, op, kernel)
        check_compiled_plan(p, kernel, x.shape[0], f"{kernel} {tuple(x.shape)} stride {x.stride()}: {p}")


# Odd rows past fused's widest: `split` groups that exchange (SPLIT > 1, which the
# interpreter never runs), the chunks cutting the rows' bodies of whole vectors and the
# first program taking the edges (contiguous, padded), or element by element (one
# element in). 50257: GPT-2's vocabulary; 70001: 32 chunks of 4096 values.
@pytest.mark.gpu
@pytest.mark.parametrize("cols", [50257, 70001])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=["fp32", "bf16"])
@pytest.mark.parametrize("op", OPS)
def test_gpu_odd_rows_split_exchanges(op, dtype, cols):
    softmax_mod, *_ = _modules()
    values = make_rows(7, cols, dtype, "cuda", seed=cols)
    for layout in ROW_LAYOUTS:
        x = in_layout(values, layout)
        for variant in ("split", "auto"):
            p = softmax_mod.plan(x, op, variant)
            assert p["kernel"] == "split" and p["constexprs"]["SPLIT"] > 1, (layout, p["constexprs"])
            assert p["realigned"] == (layout != "offset by one"), (layout, p["constexprs"])
            run_and_check(Target("triton", op, variant), x)


# The matrix checks the results on these views ("misaligned odd row stride", bf16);
# here the same call on a side stream must give the same bits. Row stride cols + 1 is odd
# (ALIGN 1): 4096 fused; 20000 past the odd-row fused limit (fused refuses, auto takes
# online); 40000 online.
@pytest.mark.gpu
@pytest.mark.parametrize("cols", [4096, 20000, 40000])
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_gpu_side_stream(op, variant, cols):
    base = make_rows(301, cols + 1, torch.bfloat16, "cuda")
    view = base[1:, 1:]  # 2-byte offset: not 16-byte aligned
    support = BACKEND.supports(view, op, variant)
    if not support:
        assert variant == "fused" and cols > _modules()[2].FUSED_MAX_COLS_ODD, support.reason
        return
    expected = OP_FUNCTIONS[op](view, -1, backend="triton", variant=variant)
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        out = OP_FUNCTIONS[op](view, -1, backend="triton", variant=variant)
    stream.synchronize()
    assert torch.equal(out, expected)


@pytest.mark.gpu
@pytest.mark.slow
@pytest.mark.parametrize("variant", ["auto", "online", "split", "split_oneshot"])  # auto: fused, 4096 wide
def test_gpu_more_than_2_to_the_31_elements(variant, gpu_memory_in_turn):
    # split_oneshot: rows of 8 chunks, each taken by ticket.
    cols = 65536 if variant == "split_oneshot" else 4096
    rows = 2 ** 31 // cols + 8
    x = make_rows(rows, cols, torch.float16, "cuda")
    assert x.numel() > 2 ** 31
    out = softmax(x, backend="triton", variant=variant)
    tail = slice(rows - 64, rows)  # rows past element 2**31: 64-bit offsets
    agreement = check("softmax", x[tail], out[tail])
    assert agreement.ok, agreement.summary()
    agreement = check("softmax", x, out)
    assert agreement.ok, agreement.summary()
    del out
    agreement = check("log_softmax", x[tail], log_softmax(x, backend="triton", variant=variant)[tail])
    assert agreement.ok, agreement.summary()


@pytest.mark.gpu
@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two CUDA GPUs")
@pytest.mark.parametrize("variant", VARIANTS)
def test_gpu_runs_on_the_tensors_own_device(variant):
    x = make_rows(300, 3000, torch.float32, "cuda:1")
    with torch.cuda.device(0):
        out, _ = run_and_check(Target("triton", "softmax", variant), x)
    assert out.device == x.device


@pytest.mark.gpu
@pytest.mark.parametrize("op", ["softmax", "log_softmax", "softmax_backward", "log_softmax_backward"])
@pytest.mark.parametrize("offset", [0, 1], ids=["aligned", "offset"])
def test_gpu_repeated_calls_launch_the_bound_kernel_and_agree(op, offset):
    """A plan's first launch goes through Triton's JIT and binds the compiled kernel;
    later calls of the plan launch it directly (fresh outputs: `direct`, with the plan's
    grid and scalars baked in). Each call must agree, the offset rows (another binary:
    unaligned loads) must not get the aligned one, and a poisoned `out` (the other path)
    must be filled too."""
    from kernels_triton import softmax as triton_softmax

    rows, cols = 33, 1000
    backward = op.endswith("_backward")
    for call in range(3):
        x = make_rows(rows, cols + offset, torch.float16, "cuda")[:, offset:]
        dy = make_gradient(rows, cols, x.dtype, "cuda", seed=call) if backward else None
        if backward:  # y, the forward output, at the same offset
            y = (torch.softmax if op == "softmax_backward" else torch.log_softmax)(x.float(), -1).to(x.dtype)
            x = torch.empty(rows, cols + offset, dtype=x.dtype, device="cuda")[:, offset:].copy_(y)
        out = triton_softmax.run(x, op, "auto", dy=dy)
        agreement = check(op, x, out, dy=dy)
        assert agreement.ok, (call, agreement.summary())
        poisoned = torch.full((rows, cols), float("nan"), dtype=x.dtype, device="cuda")
        assert torch.equal(triton_softmax.run(x, op, "auto", out=poisoned, dy=dy), out)
    p = triton_softmax._cached_plan(x, op, "auto", dy)
    assert p["kernel"] in triton_softmax.DIRECT_KERNELS
    assert (p.get("direct") is not None) == (offset == 0), p.get("direct")


def test_bound_kernel_passes_the_launcher_what_the_jit_would(monkeypatch):
    """`launch.launch` goes through the JIT once per plan and argument alignment and then
    calls the compiled kernel's launcher itself: with the grid padded to three, the
    current stream, and every argument in signature order (constexprs and defaults after
    the positional ones), as Triton's JIT does. A misaligned tensor gets its own binding;
    `tensors_only` bakes the plan's grid and scalars in. (CPU: stand-ins for Triton's
    objects; the real ones are exercised by the GPU tests.)"""
    import inspect as _inspect

    _, launch, *_ = _modules()
    monkeypatch.setattr(launch, "_raw_stream", lambda device: 1000 + device)
    launched = []

    class Param:
        def __init__(self, name, constexpr=False, default=_inspect.Parameter.empty):
            self.name, self.is_constexpr, self.default = name, constexpr, default

    class Compiled:
        function, packed_metadata = "function", "packed"

        def run(self, *args):
            launched.append(("bound", args))

        def launch_metadata(self, grid, stream, *args):
            return ("metadata", grid, stream)

    class Kernel:
        params = [Param("x"), Param("y"), Param("n"), Param("BLOCK", True), Param("EXTRA", True, 7)]

        def __getitem__(self, grid):
            def jit(*args, **kwargs):
                launched.append(("jit", grid, args, kwargs))
                return Compiled()
            return jit

    kernel, p = Kernel(), {"bound_launch": {}, "device": 1}
    x, y = torch.zeros(4, 8), torch.zeros(4, 8)
    launch.launch(kernel, (5,), (x, y, 32), p, 4, {"maxnreg": 64}, {"BLOCK": 16})
    # launch.COMPILE_OPTIONS with every compile: fusion pinned whatever Triton's default.
    assert launched.pop() == ("jit", (5,), (x, y, 32), {"num_warps": 4, "enable_fp_fusion": True, "maxnreg": 64,
                                                         "BLOCK": 16})
    launch.launch(kernel, (5,), (x, y, 32), p, 4, {"maxnreg": 64}, {"BLOCK": 16})
    (kind, args), = launched
    # No profiler hooked: no hook and no metadata reach the launcher, whether Triton keeps
    # an unset hook as None or (3.4+) as an empty chain.
    assert kind == "bound" and args[:9] == (5, 1, 1, 1001, "function", "packed", None, None, None)
    assert args[9:11] == (x, y) and args[11:] == (32, 16, 7)
    hooks = launch.BoundKernel.bind(kernel, Compiled(), 3, {"BLOCK": 16}).hooks
    enter = hooks.launch_enter_hook
    if hasattr(enter, "add"):  # a chain: a hook added after the binding is called from then on
        def profiler(metadata):
            return None
        enter.add(profiler)
        try:
            launch.launch(kernel, (5,), (x, y, 32), p, 4, {"maxnreg": 64}, {"BLOCK": 16})
        finally:
            enter.remove(profiler)
        assert launched.pop()[1][6:9] == (("metadata", (5,), 1001), enter, None)
    launched.clear()
    launch.launch(kernel, (5,), (x, y, 32), p, 4, {"maxnreg": 64}, {"BLOCK": 16})
    assert launched.pop()[1][6:9] == (None, None, None)
    launched.clear()
    direct = launch.tensors_only_launcher(p, 2)
    direct(x, y)
    assert launched.pop()[1][9:] == (x, y, 32, 16, 7)
    misaligned = torch.zeros(33)[1:].view(4, 8)
    launch.launch(kernel, (5,), (misaligned, y, 32), p, 4, {}, {"BLOCK": 16})
    assert launched.pop()[0] == "jit" and len(p["bound_launch"]) == 2
    assert launch.tensors_only_launcher(p, 2) is None  # two bindings: no one direct launch
    # A kernel without the attributes this relies on: the JIT launches every time.
    Kernel.params = None
    p = {"bound_launch": {}, "device": 0}
    for _ in range(2):
        launch.launch(kernel, (2, 3), (x, y, 32), p, 4, {}, {"BLOCK": 16})
        assert launched.pop()[0] == "jit"
    assert p["bound_launch"] is None


def _split_call(op: str, rows: int, cols: int, dtype: torch.dtype, seed: int):
    """(input, dy or None) of a `split` call that exchanges (SPLIT > 1 on a GPU)."""
    x = make_rows(rows, cols, dtype, "cuda", seed=seed)
    if not op.endswith("_backward"):
        return x, None
    y = (torch.softmax if op == "softmax_backward" else torch.log_softmax)(x.float(), -1).to(dtype)
    return y, make_gradient(rows, cols, dtype, "cuda", seed=seed + 1)


@pytest.mark.gpu
@pytest.mark.parametrize("variant", ["split", "split_oneshot"])
@pytest.mark.parametrize("op", ["softmax", "log_softmax", "softmax_backward", "log_softmax_backward"])
def test_gpu_split_exchange_words_between_calls_streams_and_graphs(op, variant):
    """`split` keeps its exchange words per device and stream, all -1 between launches
    (each group's last program resets them), so that a call launches one kernel;
    `split_oneshot` uses the same words and puts them back by a fill after its launch.
    Repeated calls (`split`: the `direct` path after the first), fewer rows after more,
    calls on two streams at once, and replays of a captured call must each agree, and
    every kept buffer must be all -1 afterwards: a word left set would let the next
    launch's wait pass on a stale partner's value. The other variant's calls between
    (sharing the words) must find them so too."""
    from kernels_triton import softmax as triton_softmax
    from kernels_triton import softmax_split
    other = "split_oneshot" if variant == "split" else "split"

    def call(x, dy):
        out = triton_softmax.run(x, op, variant, dy=dy)
        if x.shape[0] <= 4 and not torch.cuda.is_current_stream_capturing():
            # the other variant on the same words, in between
            agrees(x, dy, triton_softmax.run(x, op, other, dy=dy), other)
        return out

    def agrees(x, dy, out, what):
        agreement = check(op, x, out, dy=dy)
        assert agreement.ok, (what, agreement.summary())

    def all_reset():
        torch.cuda.synchronize()
        for key, words in softmax_split._EXCHANGE.items():
            assert (words == -1).all(), (key, (words != -1).sum().item())

    for rows, cols, dtype in [(4, 262144, torch.float32), (1, 131072, torch.bfloat16), (64, 65536, torch.float16)]:
        for seed in range(3):
            x, dy = _split_call(op, rows, cols, dtype, seed)
            agrees(x, dy, call(x, dy), (rows, cols, dtype, seed))
        p = triton_softmax._cached_plan(x, op, variant, dy)
        if variant == "split":
            assert p["constexprs"]["SPLIT"] > 1 and p.get("direct") is not None, p
        else:
            assert p["constexprs"]["K"] > 1, p
        all_reset()
    # Two streams at once, each with its own words.
    streams = [torch.cuda.Stream(), torch.cuda.Stream()]
    inputs = [_split_call(op, 16, 131072, torch.float32, seed) for seed in (5, 6)]
    outs = []
    for stream in streams:
        stream.wait_stream(torch.cuda.current_stream())
    for stream, (x, dy) in zip(streams, inputs):
        with torch.cuda.stream(stream):
            for _ in range(4):
                out = call(x, dy)
            outs.append(out)
    for stream in streams:
        torch.cuda.current_stream().wait_stream(stream)
    for (x, dy), out in zip(inputs, outs):
        agrees(x, dy, out, "two streams")
    all_reset()
    # Captured: the graph gets its own words, filled by a captured fill on each replay.
    x, dy = _split_call(op, 4, 262144, torch.float32, 7)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        call(x, dy)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = call(x, dy)
    for seed in (8, 9):
        source, source_dy = _split_call(op, 4, 262144, torch.float32, seed)
        x.copy_(source)
        if dy is not None:
            dy.copy_(source_dy)
        out.fill_(math.nan)
        graph.replay()
        torch.cuda.synchronize()
        agrees(source, source_dy, out, f"replay {seed}")
    agrees(x, dy, call(x, dy), "after the capture")
    all_reset()
