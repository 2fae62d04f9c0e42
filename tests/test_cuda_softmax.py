"""CUDA softmax / log-softmax (kernels_cuda/softmax.py, csrc/softmax/): what the test matrix
does not check. GPU only.

Agreement with float64 is the matrix's (tests/test_matrix.py on the cases of
tests/softmax_cases.py, checked by its one `run_and_check`): every variant on every
width of the sweep (to 262144) x rows (to 1000) x dtype, views and misaligned views,
special values, large magnitudes, empty tensors, every output element written (NaN-
poisoned outputs), backward ops and gradients. This file keeps what is specific to this
backend:

* the variant table: which widths each variant declines, against `supports()` and the
  C++ planner's constants (the matrix accepts any refusal that gives a reason);
* the planner: plan fields, auto's thresholds and reasons, the pack width a misaligned
  view gets, refusals at the limits, the plan cache, the kernel instance names;
* the op module on empty inputs (the public API answers those without calling it);
* a tensor of more than 2**31 elements, the current stream, a second device.

    python -m pytest tests/test_cuda_softmax.py -q
"""
from __future__ import annotations

import math
import re

import pytest
import torch

if not torch.cuda.is_available():
    pytest.skip("needs a CUDA GPU (none is visible to PyTorch)", allow_module_level=True)

import comparison  # noqa: E402
import kernels_cuda.softmax as cuda_softmax  # noqa: E402
from comparison import get_backend  # noqa: E402
from comparison.agreement import check, gradient_agreement  # noqa: E402
from comparison.inputs import make_gradient, make_rows  # noqa: E402
from softmax_cases import Target, check_declined, check_double_backward_refused, run_and_check, special_rows  # noqa: E402

BACKEND = get_backend("cuda")
_UNAVAILABLE = BACKEND.unavailable_reason()
if _UNAVAILABLE is not None:
    pytest.skip(f"the cuda backend is unavailable: {_UNAVAILABLE}", allow_module_level=True)

pytestmark = pytest.mark.gpu

OPS = ("softmax", "log_softmax")
OP_FN = {"softmax": comparison.softmax, "log_softmax": comparison.log_softmax}
DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}


def limit(name: str) -> int:
    """A planner constant (kernels_cuda.softmax.constants: from the C++, via the binding)."""
    return cuda_softmax.constants()[name]


def _warp_row_max_cols(x: torch.Tensor) -> int:
    """warp_per_row's widest forward row for x: WARP_PER_ROW_MAX_COLS_16BIT for contiguous
    16-bit rows from a 16-byte boundary (read in 16-byte packs, whole or realigned), else
    WARP_PER_ROW_MAX_COLS."""
    packed16 = x.element_size() == 2 and x.is_contiguous() and x.data_ptr() % 16 == 0
    return limit("WARP_PER_ROW_MAX_COLS_16BIT" if packed16 else "WARP_PER_ROW_MAX_COLS")


# The variant table: which widths each variant may decline (None: serves every width).
# Static limits are the planner's constants; shared-memory limits come from the GPU.
VARIANT_LIMITS = {
    "auto": None,
    "naive": lambda x, plan: x.shape[1] > limit("NAIVE_MAX_COLS"),
    "smem_tree": None,
    "coalesced": None,
    "warp_shuffle": None,
    "warp_per_row": lambda x, plan: x.shape[1] > _warp_row_max_cols(x),
    "block_smem": lambda x, plan: plan["status"] == "row_exceeds_smem",
    "block_uncached": None,
    "online": None,
    "cluster_smem": lambda x, plan: plan["status"] != "ok",
    "cluster_regs": lambda x, plan: plan["status"] != "ok",
    "cluster_tma": lambda x, plan: plan["status"] != "ok",
    "block_hybrid": lambda x, plan: plan["status"] != "ok",
    "split": lambda x, plan: plan["status"] == "too_many_chunks",
    "split_smem": lambda x, plan: plan["status"] == "too_many_chunks",
    "split_hybrid": lambda x, plan: plan["status"] != "ok",
}
VARIANTS = list(VARIANT_LIMITS)
assert VARIANTS[1:] == list(cuda_softmax.LADDER)

WIDTHS = [
    1,      # one column: warp_per_row 1-lane groups, four rows each; clusters with empty CTAs
    3,      # odd: scalar packs everywhere; 2-lane groups with a padded slot
    8,      # 16-bit: one pack of 8, kept packed, four rows per access; fp32: 2 packs, 1 lane
    24,     # 16-bit: 3 packs -> 2-lane groups of 2 packs, one padded pack
    31,     # just under a warp of scalars
    32,     # fp32: 8 packs of 4 -> 4-lane groups of 2; bf16: 4 packs of 8 -> 2-lane groups
    33,     # odd, one past a warp: 32 lanes x 2 scalars, 31 padded slots
    127,    # odd: 32 lanes x 4 scalars, one padded slot
    128,    # fp32: 16-lane groups of two 16-byte packs; bf16: 4-lane groups of four
    129,    # odd: cols_per_thread 8 (the next instantiated) for 5 needed
    511,    # odd: 16 scalars per lane
    512,    # fp32: 4 packs per lane
    1000,   # multiple of 8 only: full packs, last lanes padded (cols_per_thread 32)
    1024,   # widest warp_per_row of fp32: 32 values per lane; auto's widest warp_per_row
    1025,   # first width past auto's warp_per_row (cluster_regs, rows sharing a CTA); odd: scalar
            # packs; 16-bit warp_per_row realigned, 40 values per lane
    2047,   # odd: block paths with scalar packs; 16-bit warp_per_row realigned, 64 values per lane
    2048,   # block_smem with 16-byte packs; widest 16-bit warp_per_row
    2049,   # 16-bit warp_per_row declines
    4096,   # naive's widest (NAIVE_MAX_COLS)
    4097,   # naive declines; odd
    8192,   # block_smem, 32 KB fp32 rows
    12345,  # odd: scalar packs in every block path; uneven cluster slices
    16384,  # fp32 64 KB rows: one 512-thread cluster_regs CTA; three block_smem blocks per SM
    32768,  # fp32 128 KB: one 1024-thread cluster_regs CTA; one block_smem block per SM
    65536,  # fp32 256 KB: block_smem declines; block_hybrid 64 KB registers + 192 KB smem;
            # cluster_regs in a 4-CTA cluster
]
ROWS = [1, 2, 7, 1000]  # 7: all make_rows extremes plus normal rows; 1000: grids loop


def declines(variant: str, x: torch.Tensor, op: str = "softmax") -> bool:
    """Whether the variant table says `variant` declines x."""
    limit = VARIANT_LIMITS[variant]
    if limit is None:
        return False
    needs_plan = variant in ("block_smem", "cluster_smem", "cluster_regs", "cluster_tma", "block_hybrid", "split",
                             "split_smem", "split_hybrid")
    return bool(limit(x, cuda_softmax.plan(x, op, variant) if needs_plan else None))


def check_result(op: str, x: torch.Tensor, y: torch.Tensor, what: str = "") -> None:
    """y against float64 (for results the matrix's run_and_check cannot take: a 4 GiB input,
    a result made on another stream)."""
    result = check(op, x, y)
    assert result.ok, f"{what} {result.summary()}"


# -- the variant table ------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES.values(), ids=DTYPES.keys())
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_variants_decline_exactly_where_the_table_says(op, variant, dtype):
    """Each variant serves every width of the table that VARIANT_LIMITS does not exclude,
    and declines the others (the matrix runs them and checks the refusals' reasons; a
    variant that wrongly declined with a reason would pass there). Plans only: nothing is
    launched."""
    for cols in WIDTHS:
        for rows in ROWS:
            x = torch.empty(rows, cols, dtype=dtype, device="cuda")
            support = BACKEND.supports(x, op, variant)
            assert bool(support) != declines(variant, x, op), \
                f"{variant} on {rows} x {cols} {dtype}: the table says {'no' if declines(variant, x, op) else 'yes'}, " \
                f"supports() says {support}"


# -- misaligned views: the pack width -------------------------------------------------------

def _max_pack(x: torch.Tensor) -> int:
    """The widest pack (elements, <= 16 bytes) the input's alignment allows."""
    size, rows, cols = x.element_size(), x.shape[0], x.shape[1]
    pack = 16 // size
    while pack > 1 and not (x.data_ptr() % (pack * size) == 0 and cols % pack == 0
                            and (rows == 1 or x.stride(0) % pack == 0)):
        pack //= 2
    return pack


@pytest.mark.parametrize("cols", [128, 1000, 4096, 16384])
@pytest.mark.parametrize("dtype", DTYPES.values(), ids=DTYPES.keys())
@pytest.mark.parametrize("variant", VARIANTS)
def test_misaligned_views_get_the_widest_pack_their_alignment_allows(variant, dtype, cols):
    """The pack never breaks the view's alignment, and the vectorised variants take the
    widest it allows (the results on these views: the matrix's GPU views)."""
    base = make_rows(65, cols + 2, dtype, "cuda", seed=cols)
    views = {
        "column offset": base[:, 1:cols + 1],            # pointer and row stride off by one element
        "row stride": base[:, :cols],                    # aligned pointer, stride cols + 2
        "flat offset": base.view(-1)[1:1 + 64 * cols].view(64, cols),  # pointer off, stride cols
    }
    for name, x in views.items():
        if declines(variant, x):
            continue
        p = cuda_softmax.plan(x, "softmax", variant)
        assert p["status"] == "ok"
        assert p["pack"] <= _max_pack(x), f"{name}: pack {p['pack']} breaks alignment"
        if p["variant"] in ("warp_per_row", "block_smem", "block_uncached", "online", "cluster_smem", "cluster_regs",
                            "cluster_tma", "block_hybrid", "split", "split_smem", "split_hybrid"):
            assert p["pack"] == _max_pack(x), f"{name}: pack {p['pack']}, alignment allows {_max_pack(x)}"
        if name != "row stride":
            assert x.data_ptr() % 16 != 0


# -- huge tensors -----------------------------------------------------------------------------

HUGE_COLS = 4096
HUGE_ROWS = 2 ** 31 // HUGE_COLS + 8  # 2^31 + 32768 elements: offsets need 64 bits


@pytest.fixture(scope="module")
def huge_input():
    """A (HUGE_ROWS, 4096) fp16 input (4 GiB), extremes in the rows past 2^31 elements."""
    gen = torch.Generator(device="cuda").manual_seed(5)
    x = torch.empty(HUGE_ROWS, HUGE_COLS, dtype=torch.float16, device="cuda").normal_(0, 3, generator=gen)
    x += ((torch.rand(HUGE_ROWS, 1, generator=gen, device="cuda") - 0.5) * 100).half()
    x[-1, -1] = 6e4
    x[-2, 0] = 6e4
    x[-3] = -math.inf
    yield x
    del x
    torch.cuda.empty_cache()


def _boundary_rows(x: torch.Tensor) -> list[slice]:
    """Rows at the start, around element 2^31 and at the end."""
    rows, edge = x.shape[0], 2 ** 31 // x.shape[1]
    return [slice(0, 64), slice(edge - 64, edge + 8), slice(rows - 64, rows)]


# naive is left out: it would re-read 2^31 rows' worth of data 4096 times.
@pytest.mark.parametrize("variant", [v for v in VARIANTS if v != "naive"])
@pytest.mark.parametrize("op", OPS)
def test_over_two_billion_elements(op, variant, huge_input):
    x = huge_input
    if variant == "warp_per_row":
        x = x.view(-1, 1024)  # the same 2^31 + 32768 elements as 1024-wide rows
    if declines(variant, x, op):
        pytest.skip(f"{variant} declines {x.shape[1]} columns")
    out = torch.full_like(x, math.nan)
    y = cuda_softmax.run(x, op, variant, out=out)
    if variant == "auto":
        check_result(op, x, y)  # every element, in row chunks
    else:
        for rows in _boundary_rows(x):
            check_result(op, x[rows], y[rows], f"rows {rows.start}-{rows.stop}:")
        # Every other row was written (no NaN poison left, except the all -inf row).
        written = ~torch.isnan(y).any(-1)
        all_inf = torch.isneginf(x).all(-1)
        assert torch.equal(written, ~all_inf), f"{int((~written & ~all_inf).sum())} rows left unwritten"
    del out, y


BACKWARD_OPS = ("softmax_backward", "log_softmax_backward")


@pytest.mark.parametrize("variant", ["auto", *cuda_softmax.BACKWARD])
@pytest.mark.parametrize("op", BACKWARD_OPS)
def test_backward_over_two_billion_elements(op, variant, huge_input):
    """dx of 2^31 + 32768 fp16 elements (y, dy and dx: 12 GiB): row offsets past 2^31
    elements in all three tensors, dy with its own row stride (a view of a wider buffer)."""
    x = huge_input if variant != "warp_per_row" else huge_input.view(-1, 1024)
    forward = "log_softmax" if op == "log_softmax_backward" else "softmax"
    y = cuda_softmax.run(x, forward, "auto")
    gen = torch.Generator(device="cuda").manual_seed(7)
    wide = torch.empty(x.shape[0], x.shape[1] + 8, dtype=x.dtype, device="cuda").normal_(0, 1, generator=gen)
    dy = wide[:, :x.shape[1]]
    support = BACKEND.supports(y, op, variant)
    assert support, f"{variant} should serve {tuple(y.shape)}: {support.reason}"
    out = torch.full_like(y, math.nan)
    dx = cuda_softmax.run(y, op, variant, out=out, dy=dy)
    for rows in _boundary_rows(y):
        result = check(op, y[rows], dx[rows], dy=dy[rows])
        assert result.ok, f"rows {rows.start}-{rows.stop}: {result.summary()}"
    written = ~torch.isnan(dx).any(-1) | torch.isnan(y).any(-1)  # rows of -inf give NaN y, NaN dx
    assert bool(written.all()), f"{int((~written).sum())} rows left unwritten"
    del y, wide, dy, out, dx


# -- streams, devices --------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_runs_on_the_current_stream(op, variant):
    source = make_rows(512, 1000, torch.float32, "cuda", seed=17)
    x = torch.full_like(source, math.nan)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        # The side stream is busy for a while before x gets its values: a kernel launched on
        # any other stream would read the NaN placeholder.
        torch.cuda._sleep(50_000_000)
        x.copy_(source)
        y = OP_FN[op](x, backend="cuda", variant=variant)
    side.synchronize()
    check_result(op, source, y, "side stream:")


@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs a second CUDA GPU")
@pytest.mark.parametrize("variant", VARIANTS)
def test_second_device(variant):
    x = make_rows(300, 3000, torch.bfloat16, "cuda:1", seed=23)
    current = torch.cuda.current_device()
    for op in OPS:
        y, _ = run_and_check(Target("cuda", op, variant), x)
        assert y is None or y.device == x.device
    assert torch.cuda.current_device() == current, "the launcher left another device current"


# -- the plan ---------------------------------------------------------------------------------

def _is_hopper(device) -> bool:
    return torch.cuda.get_device_capability(device)[0] >= limit("CLUSTER_MIN_MAJOR")


def _expected_auto(x: torch.Tensor) -> tuple[str, str]:
    """softmax/auto.cuh's rule, restated from the plans of the variants it tries, with
    the name of the rule that applies (an aligned, contiguous x: the plans auto tries)."""
    if x.shape[1] <= limit("WARP_PER_ROW_MAX_COLS"):
        return "warp_per_row", "narrow_row"
    if x.element_size() == 2 and x.shape[1] <= limit("WARP_PER_ROW_MAX_COLS_16BIT") \
            and cuda_softmax.plan(x, "softmax", "warp_per_row")["status"] == "ok":
        return "warp_per_row", "narrow_row"   # rows read in 16-byte packs (whole or realigned)
    hopper = _is_hopper(x.device)
    if _few_rows_cluster(x):
        return "cluster_regs", "few_rows_cluster"
    regs = cuda_softmax.plan(x, "softmax", "cluster_regs")
    if _takes_unpacked_clusters(x):
        return "cluster_regs", "unpacked_clusters"  # rule 0c: 16-bit rows of 64-512 KB on fast SMs
    hybrid = cuda_softmax.plan(x, "softmax", "block_hybrid") if hopper else None
    if regs["status"] == "ok" and regs["cluster_size"] == 1:
        if (hybrid and x.element_size() == 2 and regs["threads"] > limit("CLUSTER_REGS_MAX_THREADS")
                and hybrid["status"] == "ok" and hybrid["cluster_size"] == 1
                and hybrid["threads"] == limit("HYBRID_SMALL_THREADS")):
            return "block_hybrid", "pair_hybrid"
        return "cluster_regs", "one_cta_registers"
    if hybrid and hybrid["status"] == "ok" and hybrid["cluster_size"] == 1:
        return "block_hybrid", "one_cta_hybrid"
    sms = cuda_softmax.gpu_properties(x.device.index)["sm_count"]
    if hybrid and (hybrid["status"] == "row_exceeds_smem" or _hybrid_clusters_leave_sms_idle(hybrid, sms)
                   or _hybrid_pair_slices_thin(x, hybrid)):
        spread = cuda_softmax.plan(x, "softmax", "split_hybrid")  # rule 2c: its CTAs fill the GPU twice or more
        if spread["status"] == "ok" and _split_hybrid_rows_fill_gpu(spread, x.shape[0], sms):
            return "split_hybrid", "split_hybrid_rows"
    if hybrid and hybrid["status"] == "ok" and x.shape[0] >= sms:
        return "block_hybrid", "cluster_hybrid"
    if (x.shape[0] >= sms and x.shape[1] * x.element_size() >= limit("SPLIT_SMEM_MIN_ROW_BYTES")
            and cuda_softmax.plan(x, "softmax", "split_smem")["status"] == "ok"):
        return "split_smem", "split_smem_rows"
    if regs["status"] == "ok":
        return "cluster_regs", "cluster_registers"
    if cuda_softmax.plan(x, "softmax", "block_smem")["status"] == "ok":
        return "block_smem", "block_smem"
    if x.shape[0] < sms and cuda_softmax.plan(x, "softmax", "split")["status"] == "ok":
        return "split", "split_rows"
    return "online", "fallback_online"


def _takes_unpacked_clusters(x: torch.Tensor) -> bool:
    """auto's rule 0c restated for the aligned, contiguous rows of x: cluster_regs' plan
    holds them as fp32 (unpacked), unless its clusters are of UNPACK_YIELD_MIN_CTAS CTAs or
    more (not MAX_CLUSTER_SIZE CTAs holding shared memory too) and block_hybrid's plan is
    a cluster of its HYBRID_SMALL_THREADS CTAs for as many rows as the SMs (rule 2b takes
    those)."""
    regs = cuda_softmax.plan(x, "softmax", "cluster_regs")
    if regs["status"] != "ok" or not regs["unpacked"]:
        return False
    if regs["cluster_size"] < limit("UNPACK_YIELD_MIN_CTAS") or (
            regs["cluster_size"] >= limit("MAX_CLUSTER_SIZE") and regs["smem_bytes"] > 0):
        return True
    hybrid = cuda_softmax.plan(x, "softmax", "block_hybrid")
    yields = (x.shape[0] >= cuda_softmax.gpu_properties(x.device.index)["sm_count"] and hybrid["status"] == "ok"
              and hybrid["cluster_size"] > 1 and hybrid["threads"] == limit("HYBRID_SMALL_THREADS"))
    return not yields


def _few_rows_cluster(x: torch.Tensor) -> int:
    """auto's rule 0b restated: the cluster size it spreads each row of x over (0: the
    rule does not apply), from the SM count, the row's bytes and the two limits: CTAs of
    FEW_ROWS_CTA_BYTES halved until rows x CTAs fit the SMs, more where registers need."""
    rows, cols = x.shape
    sms = cuda_softmax.gpu_properties(x.device.index)["sm_count"]
    row_bytes = cols * x.element_size()
    if not _is_hopper(x.device) or row_bytes <= limit("FEW_ROWS_MIN_ROW_BYTES"):
        return 0
    k = min(1 << (math.ceil(row_bytes / limit("FEW_ROWS_CTA_BYTES")) - 1).bit_length(), limit("MAX_CLUSTER_SIZE"))
    while k > 1 and rows * k > sms:
        k //= 2
    regs = cuda_softmax.plan(x, "softmax", "cluster_regs")  # the fewest CTAs that hold the row
    fewest = regs["cluster_size"]
    if regs["unpacked"]:  # the rule spreads packed CTAs: 512 threads of 128 bytes, a power of two of them
        per_cta = limit("CLUSTER_REGS_MAX_THREADS") * limit("CLUSTER_REGS_MAX_BYTES")
        fewest = 1 << (math.ceil(row_bytes / per_cta) - 1).bit_length()
    return max(k, fewest) if k >= 2 and regs["status"] == "ok" else 0


# What the thresholds give on an H100/H200 (sm_90, 227 KB of shared memory per block):
# rows up to 1 MB for twice as many rows as SMs (fewer: rule 0b, HOPPER_FEW_ROWS), wider
# rows for 4 rows (rows past 1 MB for as many rows as SMs or more: below).
HOPPER_AUTO = {
    (torch.float32, 1024): "warp_per_row",
    (torch.float32, 1025): "cluster_regs",    # two rows per CTA
    (torch.float32, 2048): "cluster_regs",
    (torch.float32, 16384): "cluster_regs",   # 64 KB rows: one CTA of 512 threads x 128 B
    (torch.float32, 32768): "cluster_regs",   # 128 KB rows: one CTA of 1024 threads x 128 B
    (torch.float32, 65536): "block_hybrid",   # 256 KB rows: 64 KB in registers, 192 KB in shared memory
    (torch.float32, 131072): "block_hybrid",  # 512 KB rows: a 2-CTA cluster (rule 2b)
    (torch.float32, 262144): "block_hybrid",  # 1 MB rows: a 4-CTA cluster, 256 KB of the row per CTA
    (torch.float32, 524288): "split",         # 2 MB rows: past a cluster's registers; 128 chunks of 16 KB
    (torch.float32, 1048576): "split",        # 4 MB rows, 256 chunks: 4 rows are fewer than the SMs
    (torch.bfloat16, 32768): "cluster_regs",  # 64 KB rows: one CTA
    (torch.bfloat16, 65536): "cluster_regs",  # 128 KB rows: one CTA of 1024 threads (rule 1)
    (torch.bfloat16, 262144): "block_hybrid",  # 512 KB rows: 4 CTAs of 512 threads, two per SM
}
# Where GPUs of HYBRID_PAIR_MIN_SM_BANDWIDTH or more of DRAM bandwidth per SM (H200) differ.
HOPPER_AUTO_FAST_SM = {
    (torch.bfloat16, 65536): "cluster_regs",   # a cluster of CTAs holding fp32, 768 threads per SM (rule 0c)
}


@pytest.mark.parametrize("cols", [1, 128, 1024, 1025, 1040, 2048, 2049, 4096, 16384, 32768, 65536, 131072, 262144,
                                  524288, 1048576])
@pytest.mark.parametrize("dtype", DTYPES.values(), ids=DTYPES.keys())
def test_auto_plan_follows_the_thresholds(dtype, cols):
    x = make_rows(4, cols, dtype, "cuda", seed=cols)
    sms = cuda_softmax.gpu_properties(x.device.index)["sm_count"]
    # The plans of as many rows as SMs (rules 1-6) from a view of x's first row repeated:
    # planning reads the shape, strides and alignment, not the values.
    many = x[:1].expand(2 * sms, cols)
    for rows in (x, many):
        p = cuda_softmax.plan(rows, "softmax", "auto")
        assert p["status"] == "ok", p
        assert (p["variant"], p["reason_code"]) == _expected_auto(rows), p["reason"]
        assert p["reason"] not in ("", "requested"), p
    if _is_hopper(x.device) and (dtype, cols) in HOPPER_AUTO:
        checked = many if cols * x.element_size() <= 1 << 20 else x
        p = cuda_softmax.plan(checked, "softmax", "auto")
        fast = _hybrid_pairs(cuda_softmax.gpu_properties(x.device.index))
        assert p["variant"] == (HOPPER_AUTO_FAST_SM if fast else {}).get((dtype, cols), HOPPER_AUTO[dtype, cols]), p
    for op in OPS:
        run_and_check(Target("cuda", op, "auto"), x)


# Rule 0b on sm_90 with 132 SMs (H100 SXM, H200): (dtype, cols, rows) -> CTAs per row
# (0: not spread).
HOPPER_FEW_ROWS = {
    (torch.float32, 8192, 1): 0,         # 32 KB rows: one CTA (rule 1)
    (torch.float32, 16384, 1): 4,        # 64 KB: 4 CTAs of 16 KB
    (torch.bfloat16, 32768, 64): 2,      # 64 x 4 CTAs would pass the SMs
    (torch.float32, 32768, 1): 8,        # 128 KB: 8 CTAs of 16 KB
    (torch.float32, 65536, 16): 8,       # 256 KB: 16 x 16 CTAs would pass the SMs, 16 x 8 do not
    (torch.float32, 65536, 64): 4,       # 2 CTAs by the SMs, 4 by the registers
    (torch.bfloat16, 131072, 1): 16,
    (torch.bfloat16, 65536, 66): 2,      # 66 x 2 = 132
    (torch.bfloat16, 65536, 67): 0,      # one CTA per row (rule 1; 1a on the H200)
    (torch.float32, 65536, 132): 0,      # as many rows as SMs: block_hybrid (rule 2)
}


@pytest.mark.parametrize("dtype, cols, rows", list(HOPPER_FEW_ROWS), ids=str)
def test_auto_spreads_few_wide_rows_over_clusters(dtype, cols, rows):
    x = make_rows(rows, cols, dtype, "cuda", seed=rows)
    p = cuda_softmax.plan(x, "softmax", "auto")
    k = _few_rows_cluster(x)
    if k:
        assert (p["variant"], p["reason_code"], p["cluster_size"]) == ("cluster_regs", "few_rows_cluster", k), p
        assert f"over a cluster of {k} CTAs" in p["reason"], p
    else:
        assert p["reason_code"] != "few_rows_cluster", p
    if _is_hopper(x.device) and cuda_softmax.gpu_properties(0)["sm_count"] == 132:
        assert k == HOPPER_FEW_ROWS[dtype, cols, rows], p
    for op in OPS:
        run_and_check(Target("cuda", op, "auto"), x)


# Rule 0c on a 132-SM GPU of REGS_UNPACK_MIN_SM_BANDWIDTH or more per SM (the H200), 16-bit
# rows of as many rows as the SMs: width -> whether its unpacked clusters give way to
# block_hybrid's (their size and shape from call 93's plans, benchmarks/h200_2026-11-28/
# zone0c_plans_h200_c96aae7.txt).
H200_UNPACKED_YIELD = {
    131072: False,  # 8 CTAs of 256 threads
    200000: True,   # 9 of 192
    245760: False,  # 8 of 256, shared memory too
    262144: True,   # 16 of 256, registers only
    294912: True,   # 10 of 256
    393216: True,   # 13 of 256
    458752: True,   # 15 of 256
    491520: False,  # 16 of 256, shared memory too
    589824: False,  # 16 of 384, shared memory too
}


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bf16", "fp16"])
def test_auto_large_unpacked_clusters_give_way_to_block_hybrid(dtype):
    """Rule 0c's clusters of UNPACK_YIELD_MIN_CTAS CTAs or more (not MAX_CLUSTER_SIZE that
    hold shared memory too) give way to block_hybrid's clusters of two CTAs per SM for as
    many rows as the SMs; fewer rows keep them (block_hybrid's clusters need the rows)."""
    if not _is_hopper(0):
        pytest.skip("rule 0c follows the cluster rules of sm_90")
    props = cuda_softmax.gpu_properties(0)
    sms = props["sm_count"]
    moved = set()
    for cols in H200_UNPACKED_YIELD:
        many = torch.empty(1, cols, dtype=dtype, device="cuda").expand(2 * sms, cols)
        a = cuda_softmax.plan(many, "softmax", "auto")
        assert (a["variant"], a["reason_code"]) == _expected_auto(many), a
        if a["reason_code"] == "cluster_hybrid" and cuda_softmax.plan(many, "softmax", "cluster_regs")["unpacked"]:
            moved.add(cols)
            fewer = many[:sms - 1]  # fewer rows than SMs: rule 0c keeps them
            assert cuda_softmax.plan(fewer, "softmax", "auto")["reason_code"] == "unpacked_clusters", cols
    if sms == 132 and _sm_bandwidth(props) >= limit("REGS_UNPACK_MIN_SM_BANDWIDTH"):
        assert moved == {c for c, yields in H200_UNPACKED_YIELD.items() if yields}, moved
    elif _sm_bandwidth(props) < limit("REGS_UNPACK_MIN_SM_BANDWIDTH"):
        assert not moved, moved
    x = make_rows(sms, 294912, dtype, "cuda", seed=44)
    for op in OPS:
        run_and_check(Target("cuda", op, "auto"), x)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bf16", "fp16"])
def test_auto_thin_pair_clusters_take_split_hybrid(dtype):
    # Rule 2c for 16-bit rows on GPUs of HYBRID_PAIR_MIN_SM_BANDWIDTH per SM: where
    # block_hybrid's clusters of two CTAs per SM fill under SPLIT_HYBRID_CLUSTER_BUSY_PERCENT
    # of the CTA slots with slices under SPLIT_HYBRID_THIN_SLICE_BYTES, split_hybrid; on a
    # 132-SM GPU (the H200) 1.25 and 1.375 MB rows (16 CTAs of 80 and 88 KB, 14 clusters),
    # not 1 MB (8 of 128 KB, 30 clusters) nor 1.5, 1.75 and 2 MB (16 of 96, 112 and 128 KB).
    if not _is_hopper(0):
        pytest.skip("rule 2c follows the cluster rules of sm_90")
    props = cuda_softmax.gpu_properties(0)
    sms = props["sm_count"]
    thin = set()
    for cols in (524288, 655360, 720896, 786432, 917504, 1048576):
        x = torch.empty(1, cols, dtype=dtype, device="cuda").expand(2 * sms, cols)
        p = cuda_softmax.plan(x, "softmax", "auto")
        assert (p["variant"], p["reason_code"]) == _expected_auto(x), p
        if _hybrid_pair_slices_thin(x, cuda_softmax.plan(x, "softmax", "block_hybrid")):
            thin.add(cols)
            assert p["variant"] == "split_hybrid" and "CTA slots" in p["reason"], p
    if sms == 132 and _sm_bandwidth(props) >= limit("HYBRID_PAIR_MIN_SM_BANDWIDTH"):
        assert thin == {655360, 720896}, thin
    elif _sm_bandwidth(props) < limit("HYBRID_PAIR_MIN_SM_BANDWIDTH"):
        assert not thin, thin
    x = make_rows(80, 655360, dtype, "cuda", seed=43)  # 80 rows x 9 CTAs fill 264 slots twice
    for op in OPS:
        run_and_check(Target("cuda", op, "auto"), x)


def test_auto_rules_for_rows_past_1_mb():
    # `split` when the rows are few (fp32 1048576: 256 chunks spread over every SM); for
    # as many rows as the SMs or more, block_hybrid over a cluster while 16 CTAs hold the
    # row (fp32 to ~4.6 MB), but split_hybrid where those clusters are of one CTA per SM
    # and leave SMs idle (fp32 1048576 on a 132-SM GPU: 7 clusters of 16), and past 16
    # CTAs (fp32 2097152), wherever the rows' CTAs fill the GPU twice (so also for 128
    # rows); a misaligned row whose parts no longer fit the GPU at once: online.
    sms = cuda_softmax.gpu_properties(0)["sm_count"]
    if not _is_hopper(0):
        pytest.skip("rules 2b, 3a and 5 follow the cluster rules of sm_90")
    wide, wider = 1048576, 2097152
    for rows, dtype, cols, expected in [(1, torch.float32, wide, "split"), (8, torch.float32, wide, "split"),
                                        (sms - 1, torch.float32, wide, "cluster"),
                                        (sms, torch.float32, wide, "cluster"),
                                        (sms, torch.bfloat16, wide, "cluster"),
                                        (2 * sms, torch.float32, wide, "cluster"),
                                        (sms, torch.float32, wider, "split_hybrid"),
                                        (sms - 4, torch.float32, wider, "split_hybrid")]:  # 1 GiB's 128 rows
        x = torch.empty(1, cols, dtype=dtype, device="cuda").expand(rows, cols)  # plans read shape and strides
        p = cuda_softmax.plan(x, "softmax", "auto")
        if expected == "cluster":
            idle = _hybrid_clusters_leave_sms_idle(cuda_softmax.plan(x, "softmax", "block_hybrid"), sms)
            expected = "split_hybrid" if idle else "block_hybrid" if rows >= sms else "split"
            if sms == 132:  # H100, H200: 7 clusters of 16 one-CTA-per-SM at fp32, 14 of 16 pairs at bf16
                assert idle == (dtype == torch.float32), p
        assert p["variant"] == expected, (rows, dtype, p)
        reason = {"split": ("split_rows", "chunks"), "block_hybrid": ("cluster_hybrid", "over a cluster of"),
                  "split_smem": ("split_smem_rows", "parts"),
                  "split_hybrid": ("split_hybrid_rows", "exchanging through global memory")}[expected]
        assert p["reason_code"] == reason[0] and reason[1] in p["reason"], p
        if expected == "block_hybrid":
            slice_bytes = -(-cols // p["cluster_size"]) * x.element_size()
            assert 2 <= p["cluster_size"] <= 16 and slice_bytes <= 300 * 1024, p
    x = make_rows(3, wide, torch.float32, "cuda", seed=41)
    for op in OPS:
        run_and_check(Target("cuda", op, "auto"), x)
    x = make_rows(sms, 262145, torch.float32, "cuda", seed=44)  # odd width: rows read in three parts
    p = cuda_softmax.plan(x, "softmax", "auto")
    assert p["variant"] == "block_hybrid" and (p["pack"], p["realigned"]) == (4, 1), p
    for op in OPS:
        run_and_check(Target("cuda", op, "auto"), x)


@pytest.mark.parametrize("dtype, cols", [(torch.float32, 131072), (torch.float32, 524288), (torch.bfloat16, 262144),
                                         (torch.float16, 1048576), (torch.bfloat16, 1572864),
                                         (torch.float32, 151936), (torch.bfloat16, 151936),
                                         (torch.float32, 196608)], ids=str)
def test_block_hybrid_clusters_by_element_size(dtype, cols):
    """Rows past one CTA: 16-bit over 512-thread CTAs of at most HYBRID_SMALL_SLICE_BYTES
    each, two per SM, while 16 of them hold the row (bf16 1572864, 3 MB: fp32's shape);
    fp32 the same on GPUs of fast SMs (HYBRID_PAIR_MIN_SM_BANDWIDTH), else over
    1024-thread CTAs that hold the row (one per SM). Of any number, not a power of two: from the fewest that hold
    the row, the size that keeps the most CTAs resident (K x the clusters co-scheduled),
    so never fewer than the fewest, and a larger K only where it keeps more resident."""
    if not _is_hopper(0):
        pytest.skip("block_hybrid needs sm_90")
    x = make_rows(2, cols, dtype, "cuda", seed=cols)
    p = cuda_softmax.plan(x, "softmax", "block_hybrid")
    k, size = p["cluster_size"], x.element_size()
    assert p["status"] == "ok" and 2 <= k <= 16, p
    small = (size == 2 or _hybrid_pairs(cuda_softmax.gpu_properties(0))) and \
        cols * size <= limit("MAX_CLUSTER_SIZE") * limit("HYBRID_SMALL_SLICE_BYTES")
    if not small:
        cap = limit("HYBRID_THREADS") * p["cols_per_thread"] * size + p["smem_limit"]
        assert p["threads"] == limit("HYBRID_THREADS"), p
    else:
        cap = limit("HYBRID_SMALL_SLICE_BYTES")
        assert p["threads"] == limit("HYBRID_SMALL_THREADS") and p["resident_per_sm"] >= 2, p
    fewest = max(2, -(-cols * size // cap))  # the fewest CTAs whose slices fit
    assert -(-cols // k) * size <= cap and fewest <= k, (fewest, p)
    if cols == 1048576 and cuda_softmax.gpu_properties(0)["sm_count"] == 132:
        # H100 and H200 (132 SMs): 15 CTAs hold the row, and 16 fit as many clusters at
        # once (7 of 1024-thread CTAs, 14 of 512), so 16 keep more CTAs busy.
        assert k == 16 and fewest == 15, (fewest, p)
    assert p["kernel"].endswith(f"threads={p['threads']}>"), p
    for op in OPS:
        run_and_check(Target("cuda", op, "block_hybrid"), x)


@pytest.mark.parametrize("dtype, cols", [(torch.bfloat16, 32768), (torch.bfloat16, 65536), (torch.float16, 70000),
                                         (torch.bfloat16, 65537)], ids=str)
def test_block_hybrid_pairs_16_bit_rows_that_one_small_cta_holds(dtype, cols):
    """On GPUs of HYBRID_PAIR_MIN_SM_BANDWIDTH or more of DRAM bandwidth per SM, a 16-bit
    row that one CTA of HYBRID_SMALL_THREADS holds (its registers' share and the shared
    memory left with two such CTAs per SM): one such CTA per row, two per SM (an odd
    width's rows, read as head, whole packs and tail, hold their whole packs so). `auto`
    takes the pair for rows past one 512-thread cluster_regs CTA."""
    if not _is_hopper(0):
        pytest.skip("block_hybrid needs sm_90")
    x = make_rows(3, cols, dtype, "cuda", seed=cols)
    p = cuda_softmax.plan(x, "softmax", "block_hybrid")
    assert p["status"] == "ok" and p["cluster_size"] == 1, p
    held = p["threads"] * p["cols_per_thread"] * x.element_size() + p["smem_bytes"]
    whole = cols // p["pack"] * p["pack"] if p["realigned"] else cols  # the edges: one value per thread
    assert held >= whole * x.element_size(), p
    pairs = _hybrid_pairs(cuda_softmax.gpu_properties(0))
    if not pairs:
        assert p["threads"] == limit("HYBRID_THREADS"), p
    elif p["pack"] == 8:  # 16-byte packs (an odd width's rows in three parts too)
        assert p["threads"] == limit("HYBRID_SMALL_THREADS") and p["resident_per_sm"] >= 2, p
    else:
        assert p["threads"] in (limit("HYBRID_SMALL_THREADS"), limit("HYBRID_THREADS")), p
    # auto: the pair for rows past one 512-thread cluster_regs CTA that one 1024-thread
    # CTA holds (rule 1a: 64-128 KB of 16-byte packs); past that rule 2 takes the plan.
    many = torch.empty(264, cols, dtype=dtype, device="cuda")  # plans read shape, strides and alignment
    a = cuda_softmax.plan(many, "softmax", "auto")
    assert (a["variant"], a["reason_code"]) == _expected_auto(many), a
    whole_packs = cols // 8 * 8 * x.element_size()  # what registers hold of a row read in three parts
    unpacked = _takes_unpacked_clusters(many)  # rule 0c comes first
    assert not (unpacked and cols % 8), "rows read in three parts keep their values packed"
    rule_1a = pairs and 64 * 1024 < whole_packs <= 128 * 1024 and not unpacked
    assert (a["reason_code"] == "pair_hybrid") == rule_1a, a
    for op in OPS:
        run_and_check(Target("cuda", op, "block_hybrid"), x)
        run_and_check(Target("cuda", op, "auto"), x)


@pytest.mark.parametrize("dtype, cols", [(torch.bfloat16, 98304), (torch.float16, 131072), (torch.bfloat16, 139265)],
                         ids=str)
def test_block_hybrid_16_bit_rows_past_one_small_cta(dtype, cols):
    """16-bit rows past one HYBRID_SMALL_THREADS CTA that one HYBRID_THREADS CTA would hold
    (144-290 KB): on GPUs of HYBRID_PAIR_MIN_SM_BANDWIDTH or more of DRAM bandwidth per SM
    a cluster of 2-3 HYBRID_SMALL_THREADS CTAs, two per SM, elsewhere that one CTA; `auto`
    runs the plan for as many rows as the SMs (rule 2b, rule 2); both agree with float64
    (139265: rows read as head, whole packs and tail)."""
    if not _is_hopper(0):
        pytest.skip("block_hybrid needs sm_90")
    x = make_rows(3, cols, dtype, "cuda", seed=cols)
    p = cuda_softmax.plan(x, "softmax", "block_hybrid")
    pairs = _hybrid_pairs(cuda_softmax.gpu_properties(0))
    if pairs:
        assert p["threads"] == limit("HYBRID_SMALL_THREADS") and 2 <= p["cluster_size"] <= 3, p
        assert p["resident_per_sm"] >= 2, p
    else:
        assert p["threads"] == limit("HYBRID_THREADS") and p["cluster_size"] == 1, p
    many = torch.empty(cuda_softmax.gpu_properties(0)["sm_count"], cols, dtype=dtype, device="cuda")
    a = cuda_softmax.plan(many, "softmax", "auto")
    expected = ("block_hybrid", "cluster_hybrid" if pairs else "one_cta_hybrid")
    if _takes_unpacked_clusters(many):  # rule 0c (aligned 16-bit rows, fast SMs)
        expected = ("cluster_regs", "unpacked_clusters")
    assert (a["variant"], a["reason_code"]) == expected, a
    assert (a["variant"], a["reason_code"]) == _expected_auto(many), a
    for op in OPS:
        run_and_check(Target("cuda", op, "block_hybrid"), x)
        run_and_check(Target("cuda", op, "auto"), x)


def test_auto_serves_misaligned_views_of_rows_past_one_cta():
    """A view one element in keeps fewer bytes per thread in block_hybrid's registers: where
    the aligned row fits one CTA and the view's does not, auto's choice (and its words)
    stay the aligned row's and the view's plan takes a cluster. Rule 0c (an aligned 16-bit
    row in unpacked clusters, GPUs of fast SMs) runs the view's own cluster_regs plan
    under the aligned row's words where one holds it; where the view's two-byte packs
    leave too few bytes per thread for 16 CTAs (bf16 139264), the rules after it serve
    the view."""
    if not _is_hopper(0):
        pytest.skip("block_hybrid needs sm_90")
    sms = cuda_softmax.gpu_properties(0)["sm_count"]
    for dtype, cols in ((torch.float32, 70000), (torch.bfloat16, 139264), (torch.bfloat16, 65536)):
        base = make_rows(sms, cols + 8, dtype, "cuda", seed=cols)
        aligned = cuda_softmax.plan(base[:, :cols], "softmax", "auto")
        view = base[:, 1:cols + 1]
        p = cuda_softmax.plan(view, "softmax", "auto")
        if (aligned["reason_code"] == "unpacked_clusters"
                and cuda_softmax.plan(view, "softmax", "cluster_regs")["status"] != "ok"):
            assert p["status"] == "ok" and p["variant"] == "block_hybrid", (aligned, p)
        else:
            assert p["status"] == "ok" and (p["variant"], p["reason_code"], p["reason"]) == (
                aligned["variant"], aligned["reason_code"], aligned["reason"]), (aligned, p)
            if aligned["variant"] == "block_hybrid":
                assert p["cluster_size"] >= aligned["cluster_size"], (aligned, p)
        for op in OPS:
            run_and_check(Target("cuda", op, "auto"), view)


def _realigned(x: torch.Tensor) -> bool:
    """Whether every row of x sits at the same offset from a 16-byte boundary as the row
    of a fresh contiguous output does (so one split into head, packs and tail serves both)."""
    size, rows, cols = x.element_size(), x.shape[0], x.shape[1]
    return x.data_ptr() % 16 == 0 and (rows == 1 or (x.stride(0) - cols) * size % 16 == 0)


@pytest.mark.parametrize("dtype", DTYPES.values(), ids=DTYPES.keys())
@pytest.mark.parametrize("cols", [1, 3, 7, 9, 15, 33, 197, 577, 1023, 1025, 3001, 20001, 50257, 70001, 151937])
def test_odd_widths_read_rows_in_three_parts(dtype, cols):
    """An odd width starts each row of a contiguous tensor at another offset from a 16-byte
    boundary: warp_per_row, cluster_regs, block_hybrid and split (and auto through them),
    forward and backward, read such rows as a head of single values, 16-byte packs and a
    tail, where the rows of every tensor share their offsets (contiguous rows, or a row
    stride that differs from the width by whole 16-byte packs), and every value of every row agrees
    with float64: make_rows puts spikes in the first and last columns, which are edges
    here. Rows with no whole pack (cols < 8) are all edges; a warp's lane groups (fewer
    lanes than edges, some) and a CTA's rows take each row's edges; wide rows span
    clusters or split's chunks (the first CTA takes the edges; split's next row is
    requested with its own head)."""
    rows = 5 if cols * 4 <= 1 << 20 else 3
    full = 16 // torch.empty(0, dtype=dtype).element_size()
    layouts = {  # each tensor of a case laid out alike
        "contiguous": lambda t: t,
        "padded": lambda t: torch.empty(rows, cols + full, dtype=dtype, device="cuda")[:, :cols].copy_(t),
        "shifted": lambda t: torch.empty(rows, cols + 1, dtype=dtype, device="cuda")[:, 1:].copy_(t),  # no split
    }
    x = make_rows(rows, cols, dtype, "cuda", seed=cols)
    dy = make_gradient(rows, cols, dtype, "cuda", seed=cols + 1)
    for layout in layouts.values():
        cases = [(op, layout(x), None) for op in OPS]
        for op in BACKWARD_OPS:
            forward = torch.log_softmax if op == "log_softmax_backward" else torch.softmax
            cases.append((op, layout(forward(x.double(), -1).to(dtype)), layout(dy)))
        for op, t, g in cases:
            for variant in ("warp_per_row", "cluster_regs", "block_hybrid", "split", "auto"):
                p = cuda_softmax.plan(t, op, variant, dy=g) if g is not None else cuda_softmax.plan(t, op, variant)
                if p["status"] != "ok" or p["variant"] not in ("warp_per_row", "cluster_regs", "block_hybrid", "split"):
                    continue
                # warp_per_row's backward keeps 16-bit rows of one pack per lane whole-row packed.
                one_pack_per_lane = (p["variant"] == "warp_per_row" and g is not None and full == 8
                                     and cols // full <= 32)
                split = _realigned(t) and _max_pack(t) < full and not one_pack_per_lane
                assert (p["realigned"], p["pack"]) == ((1, full) if split else (0, _max_pack(t))), (op, variant, p)
                assert ("edges=true" in p["kernel"]) == split, p
                run_and_check(Target("cuda", op, variant), t, dy=g)


def _split_serves_groups(y: torch.Tensor, op: str) -> bool:
    """split's backward plans y and runs SPLIT_GRAD_MIN_GROUPS row groups or more at once."""
    p = cuda_softmax.plan(y, op, "split")
    groups = p["blocks"] // p["split"] if p["status"] == "ok" else 0
    # One group in chunks of SPLIT_GRAD_WIDE_THREADS (which the plan takes only where
    # its narrower chunks leave fewer than SPLIT_GRAD_WIDE_GROUPS).
    return groups >= limit("SPLIT_GRAD_MIN_GROUPS") or (groups >= 1 and p["threads"] == limit("SPLIT_GRAD_WIDE_THREADS"))


def _sm_bandwidth(props: dict) -> int:
    """The GPU's DRAM bandwidth per SM (bytes/s), as the planner's rules read it."""
    return props["dram_bytes_per_s"] // max(props["sm_count"], 1)


def _hybrid_pairs(props: dict) -> bool:
    """block_hybrid's forward rows in 512-thread CTAs, two per SM, one per row where one
    holds the row (16-bit rows from 64 KB, fp32 rows past one 1024-thread cluster_regs
    CTA): GPUs of HYBRID_PAIR_MIN_SM_BANDWIDTH or more of DRAM bandwidth per SM."""
    return _sm_bandwidth(props) >= limit("HYBRID_PAIR_MIN_SM_BANDWIDTH")


def _fast_sm(props: dict) -> bool:
    """The GPU's SMs have SPLIT_GRAD_FAST_SM_BANDWIDTH of DRAM bandwidth each or more."""
    return _sm_bandwidth(props) >= limit("SPLIT_GRAD_FAST_SM_BANDWIDTH")


def _split_backward_row_bytes(y: torch.Tensor) -> bool:
    """Rows of y from SPLIT_GRAD_MIN_ROW_BYTES (SPLIT_GRAD_FAST_SM_MIN_ROW_BYTES on fast
    SMs): the row width of auto backward's rules 1a and 1b."""
    props = cuda_softmax.gpu_properties(y.device.index)
    min_row_bytes = limit("SPLIT_GRAD_FAST_SM_MIN_ROW_BYTES" if _fast_sm(props) else "SPLIT_GRAD_MIN_ROW_BYTES")
    return y.shape[1] * y.element_size() >= min_row_bytes


def _wide_for_split_backward(y: torch.Tensor) -> bool:
    """As many rows as the SMs or more, of _split_backward_row_bytes: the rows of auto
    backward's rules 1a and 1b."""
    return y.shape[0] >= cuda_softmax.gpu_properties(y.device.index)["sm_count"] and _split_backward_row_bytes(y)


def _split_hybrid_rows_fill_gpu(p: dict, rows: int, sms: int) -> bool:
    """`rows` rows of split_hybrid's plan p fill the GPU's `sms` SMs SPLIT_HYBRID_MIN_WAVES
    times (auto's forward rule 2c, the backward's 1a' for fewer rows than the SMs)."""
    return rows * p["split"] >= limit("SPLIT_HYBRID_MIN_WAVES") * p["resident_per_sm"] * sms


def _hybrid_clusters_fill_under(p: dict, threads: int, slots: int) -> bool:
    """block_hybrid's plan p is a cluster of CTAs of `threads` whose clusters at once fill
    fewer than SPLIT_HYBRID_CLUSTER_BUSY_PERCENT of the GPU's `slots` for them."""
    return (p["status"] == "ok" and p["cluster_size"] > 1 and p["threads"] == threads
            and p["cluster_size"] * p["active_clusters"] * 100 < limit("SPLIT_HYBRID_CLUSTER_BUSY_PERCENT") * slots)


def _hybrid_clusters_leave_sms_idle(p: dict, sms: int) -> bool:
    """block_hybrid's plan p is a cluster of one 1024-thread CTA per SM whose clusters at
    once hold fewer than SPLIT_HYBRID_CLUSTER_BUSY_PERCENT of the SMs (auto's rules 2c, 1a')."""
    return _hybrid_clusters_fill_under(p, limit("HYBRID_THREADS"), sms)


def _hybrid_pair_slices_thin(x: torch.Tensor, p: dict) -> bool:
    """block_hybrid's forward plan p for the 16-bit rows of x, on a GPU of
    HYBRID_PAIR_MIN_SM_BANDWIDTH or more per SM, is a cluster of HYBRID_SMALL_THREADS CTAs
    (two per SM) filling under SPLIT_HYBRID_CLUSTER_BUSY_PERCENT of the CTA slots with
    slices under SPLIT_HYBRID_THIN_SLICE_BYTES (auto's rule 2c)."""
    props = cuda_softmax.gpu_properties(x.device.index)
    slots = props["sm_count"] * limit("HYBRID_THREADS") // limit("HYBRID_SMALL_THREADS")
    if not (x.element_size() == 2 and _sm_bandwidth(props) >= limit("HYBRID_PAIR_MIN_SM_BANDWIDTH")
            and _hybrid_clusters_fill_under(p, limit("HYBRID_SMALL_THREADS"), slots)):
        return False
    slice_bytes = -(-(x.shape[1] // p["pack"]) // p["cluster_size"]) * p["pack"] * x.element_size()
    return slice_bytes < limit("SPLIT_HYBRID_THIN_SLICE_BYTES")


def _takes_split_hybrid_backward(y: torch.Tensor, op: str) -> bool:
    """auto backward's rule 1a' restated: rows of rule 1a's width whose block_hybrid
    clusters would leave SMs idle or which 16 CTAs cannot hold, where split_hybrid serves
    them, not read in three parts; fewer rows than the SMs only past 16 CTAs, where their
    CTAs fill the GPU SPLIT_HYBRID_MIN_WAVES times (an aligned y)."""
    if not (_is_hopper(y.device) and _split_backward_row_bytes(y)):
        return False
    sms = cuda_softmax.gpu_properties(y.device.index)["sm_count"]
    many = _wide_for_split_backward(y)
    hybrid = cuda_softmax.plan(y, op, "block_hybrid")
    if not (hybrid["status"] == "row_exceeds_smem" or (many and _hybrid_clusters_leave_sms_idle(hybrid, sms))):
        return False
    p = cuda_softmax.plan(y, op, "split_hybrid")
    return p["status"] == "ok" and not p["realigned"] and (many or _split_hybrid_rows_fill_gpu(p, y.shape[0], sms))


def _takes_hybrid_cluster_backward(y: torch.Tensor, op: str) -> bool:
    """auto backward's rule 1a restated: rows of that width on sm_90 that block_hybrid's
    clusters hold, not read in three parts (odd widths), that rule 1a' leaves."""
    if not (_is_hopper(y.device) and _wide_for_split_backward(y)) or _takes_split_hybrid_backward(y, op):
        return False
    p = cuda_softmax.plan(y, op, "block_hybrid")
    return p["status"] == "ok" and not p["realigned"]


def _takes_split_backward(y: torch.Tensor, op: str) -> bool:
    """auto backward's rule 1b restated: rows of that width that rules 1a' and 1a leave,
    enough row groups."""
    return (_wide_for_split_backward(y) and not _takes_split_hybrid_backward(y, op)
            and not _takes_hybrid_cluster_backward(y, op) and _split_serves_groups(y, op))


def _expected_auto_backward(y: torch.Tensor) -> tuple[str, str]:
    """softmax/auto.cuh's backward rule, restated from the plans of the variants it tries
    and the GPU's DRAM bandwidth per SM (an aligned, contiguous y)."""
    op = "softmax_backward"
    if y.shape[1] <= limit("WARP_PER_ROW_MAX_COLS"):
        return "warp_per_row", "narrow_row"
    if y.element_size() == 2 and y.shape[1] * 2 <= limit("GRAD_SMEM_16BIT_MAX_ROW_BYTES"):
        smem = cuda_softmax.plan(y, op, "block_smem")
        if smem["status"] == "ok" and not smem["realigned"] and smem["pack"] == 8:
            return "block_smem", "grad_smem_16bit"
    regs = cuda_softmax.plan(y, op, "cluster_regs")
    regs_ok = regs["status"] == "ok"
    if regs_ok and regs["cluster_size"] == 1:
        return "cluster_regs", "one_cta_registers"
    if _takes_split_hybrid_backward(y, op):
        return "split_hybrid", "split_hybrid_rows"
    if _takes_hybrid_cluster_backward(y, op):
        return "block_hybrid", "grad_cluster_hybrid"
    if _takes_split_backward(y, op):
        return "split", "split_grad_rows"
    if (y.shape[1] * y.element_size() >= limit("SPLIT_SMEM_MIN_ROW_BYTES")
            and cuda_softmax.plan(y, op, "split_smem")["status"] == "ok"):
        return "split_smem", "split_smem_rows"
    if _is_hopper(y.device):
        props = cuda_softmax.gpu_properties(y.device.index)
        sm_bandwidth = _sm_bandwidth(props)
        hybrid = cuda_softmax.plan(y, op, "block_hybrid")
        one_cta = hybrid["status"] == "ok" and hybrid["cluster_size"] == 1  # auto asks for one CTA
        if one_cta and hybrid["cols_per_thread"] * y.element_size() >= limit("GRAD_HYBRID_FIRST_BYTES"):
            return "block_hybrid", "one_cta_hybrid"
        sm_threads = regs["resident_per_sm"] * regs["threads"]
        widest_cluster = (regs["cluster_size"] >= limit("MAX_CLUSTER_SIZE") and one_cta
                          and sm_bandwidth >= limit("GRAD_CLUSTER_MAX_SM_BANDWIDTH"))
        if regs_ok and not widest_cluster and (
                regs["resident_per_sm"] >= 2 or (sm_bandwidth < limit("GRAD_CLUSTER_MAX_SM_BANDWIDTH")
                                                 and sm_threads >= limit("GRAD_CLUSTER_MIN_SM_THREADS"))):
            return "cluster_regs", "cluster_registers"
        if one_cta:
            return "block_hybrid", "one_cta_hybrid"
    if cuda_softmax.plan(y, op, "block_smem")["status"] == "ok":
        return "block_smem", "block_smem"
    if regs_ok:
        return "cluster_regs", "cluster_registers"
    return "block_uncached", "fallback_uncached"


@pytest.mark.parametrize("dtype, cols", [(torch.float32, 131072), (torch.float32, 262144), (torch.bfloat16, 524288),
                                         (torch.float32, 262145), (torch.float32, 524288), (torch.bfloat16, 1048576)],
                         ids=str)
def test_backward_split_smem_pipelines_rows_up_to_its_limit(dtype, cols):
    """Rows of y and dy of up to SPLIT_SMEM_PIPELINED_MAX_ROW_BYTES together take the
    pipelined kernel (two buffers: the next row's part read while the row's sums are
    gathered), wider rows the one-buffer kernel; both agree with float64."""
    y = torch.softmax(make_rows(3, cols, torch.float32, "cuda", seed=cols), -1).to(dtype)
    pipelined = 2 * cols * y.element_size() <= limit("SPLIT_SMEM_PIPELINED_MAX_ROW_BYTES")
    for op in BACKWARD_OPS:
        p = cuda_softmax.plan(y, op, "split_smem")
        assert p["status"] == "ok" and p["stages"] == (2 if pipelined else 1), p
        assert ("_pipelined_" in p["kernel"]) == pipelined, p
        part = -(-(cols // p["pack"]) // p["split"]) * p["pack"]
        assert p["smem_bytes"] == p["stages"] * 2 * part * y.element_size(), p
        run_and_check(Target("cuda", op, "split_smem"), y, dy=torch.randn_like(y))


@pytest.mark.parametrize("dtype, cols", [(torch.float32, 131072), (torch.float32, 262144), (torch.bfloat16, 262144),
                                         (torch.float16, 524288), (torch.float32, 70001), (torch.float32, 4000)],
                         ids=str)
def test_backward_split_holds_chunks_and_requests_the_next_row(dtype, cols):
    """split's backward: chunks of up to SPLIT_GRAD_THREADS x SPLIT_GRAD_BYTES bytes of y
    and of dy per CTA, the next row's requested while the row's sum is gathered; rows past
    the grid's row groups (the loop, both slices) and one-chunk rows (no exchange) agree
    with float64, y also as an offset view. 70001 columns: y's rows (a row stride 8 values
    past the width) and dy's and dx's (contiguous) share their offsets from 16 bytes, so
    they are read in three parts, each row's chunks moved by its own head (the next row's
    too); the view one value in loads scalars."""
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    probe = torch.empty(1, cols, dtype=dtype, device="cuda")
    p = cuda_softmax.plan(probe, "softmax_backward", "split", dy=probe)
    if p["status"] != "ok":
        pytest.skip(f"split's backward declines {cols} columns here: {p['status']}")
    groups = p["resident_per_sm"] * sms // p["split"]  # row groups resident at once
    rows = 2 * groups + 1  # every CTA of the aligned rows takes a second row; an odd count ends on either slice
    base = torch.softmax(make_rows(rows, cols + 8, torch.float32, "cuda", seed=cols), -1).to(dtype)
    for y, three_parts in ((base[:, :cols], cols % 4 != 0), (base[:, 1:cols + 1], False)):
        dy = torch.randn_like(y)
        for op in BACKWARD_OPS:
            p = cuda_softmax.plan(y, op, "split", dy=dy)
            assert p["status"] == "ok", p
            assert p["realigned"] == three_parts and ("edges=true" in p["kernel"]) == three_parts, p
            chunk = p["threads"] * p["cols_per_thread"]
            assert chunk * y.element_size() <= limit("SPLIT_GRAD_THREADS") * limit("SPLIT_GRAD_BYTES"), p
            assert p["split"] == -(-cols // chunk), p
            assert p["workspace_bytes"] == (rows * p["split"] * 8 if p["split"] > 1 else 0), p
            run_and_check(Target("cuda", op, "split"), y, dy=dy)


@pytest.mark.parametrize("dtype, cols", [(torch.float32, 65536), (torch.float32, 131072), (torch.float32, 262144),
                                         (torch.float32, 1 << 20), (torch.bfloat16, 131072), (torch.bfloat16, 262144),
                                         (torch.float16, 524288), (torch.bfloat16, 262145)], ids=str)
def test_backward_auto_takes_split_for_many_rows_by_dram_bandwidth_per_sm(dtype, cols):
    """As many rows as the SMs: from SPLIT_GRAD_MIN_ROW_BYTES rows of y, from
    SPLIT_GRAD_FAST_SM_MIN_ROW_BYTES where an SM has SPLIT_GRAD_FAST_SM_BANDWIDTH of DRAM
    bandwidth or more (the H200, not the H100), aligned rows take block_hybrid's clusters
    where they hold them (rule 1a, sm_90) and the others split, only with SPLIT_GRAD_MIN_GROUPS row groups at
    once (not fp32 1048576's one group of 256 chunks); the rule restated, and the choice
    run on a misaligned view."""
    props = cuda_softmax.gpu_properties(0)
    y = torch.softmax(make_rows(props["sm_count"], cols, torch.float32, "cuda", seed=cols), -1).to(dtype)
    fast_sm = _fast_sm(props)
    takes_split = _takes_split_backward(y, "softmax_backward")  # y has as many rows as the SMs
    takes_hybrid = _takes_hybrid_cluster_backward(y, "softmax_backward")
    takes_split_hybrid = _takes_split_hybrid_backward(y, "softmax_backward")
    if (dtype, cols) == (torch.float32, 1 << 20) and props["sm_count"] <= 132:
        p = cuda_softmax.plan(y, "softmax_backward", "split")
        assert p["threads"] == limit("SPLIT_GRAD_WIDE_THREADS") and p["split"] == 128, \
            "one row group of 256 chunks of 128 threads: 128 of 256 threads instead"
        # Past 16 CTAs of block_hybrid: split_hybrid on sm_90 (rule 1a'), split elsewhere.
        assert (takes_split_hybrid, takes_split) == (_is_hopper(y.device), not _is_hopper(y.device)), p
        run_and_check(Target("cuda", "softmax_backward", "split"), y, dy=torch.randn_like(y))
    if (dtype, cols) == (torch.float32, 65536):
        assert not takes_split and takes_hybrid == (fast_sm and _is_hopper(y.device)), \
            "256 KB rows: block_hybrid's clusters only on GPUs of fast SMs"
    if _is_hopper(y.device) and cols % 8 == 0 and (dtype, cols) != (torch.float32, 1 << 20):
        assert not takes_split and (takes_hybrid or takes_split_hybrid) == _wide_for_split_backward(y), \
            "aligned rows: rule 1a or 1a'"
    if cols % 8:
        assert not takes_hybrid and takes_split == _wide_for_split_backward(y), "odd rows: split"
    if (dtype, cols) == (torch.bfloat16, 131072):
        assert takes_hybrid == (fast_sm and _is_hopper(y.device)), "256 KB rows: only on GPUs of fast SMs"
    for op in BACKWARD_OPS:
        p = cuda_softmax.plan(y, op, "auto")
        assert (p["variant"], p["reason_code"]) == _expected_auto_backward(y), p["reason"]
        assert (p["variant"] == "split") == takes_split, p
        assert (p["reason_code"] == "grad_cluster_hybrid") == takes_hybrid, p
        assert (p["variant"] == "split_hybrid") == takes_split_hybrid, p
    if takes_split or takes_hybrid:
        assert "MB/s of DRAM bandwidth per SM" in p["reason"], p
        wide = torch.softmax(make_rows(props["sm_count"], cols + 1, torch.float32, "cuda", seed=3), -1).to(dtype)
        run_and_check(Target("cuda", "softmax_backward", "auto"), wide[:, 1:], dy=torch.randn_like(y))


@pytest.mark.parametrize("dtype, cols", [(torch.float32, 2097152), (torch.bfloat16, 4194304)], ids=str)
def test_backward_auto_takes_split_hybrid_for_few_rows_past_sixteen_ctas(dtype, cols):
    """Fewer rows than the SMs, each past 16 CTAs of block_hybrid (8 MB of y): split_hybrid
    from as many rows as fill the GPU SPLIT_HYBRID_MIN_WAVES times with its CTAs (rule
    1a', as the forward's rule 2c), the rules below for one row fewer; the rule restated,
    and the choice agrees with float64."""
    if not _is_hopper(torch.device("cuda", 0)):
        pytest.skip("block_hybrid and split_hybrid need sm_90 (clusters, TMA bulk copies)")
    sms = cuda_softmax.gpu_properties(0)["sm_count"]
    one = torch.empty(1, cols, dtype=dtype, device="cuda")
    spread = cuda_softmax.plan(one, "softmax_backward", "split_hybrid", dy=one)
    assert spread["status"] == "ok" and cuda_softmax.plan(one, "softmax_backward", "block_hybrid")["status"] \
        == "row_exceeds_smem", spread
    rows = -(-limit("SPLIT_HYBRID_MIN_WAVES") * spread["resident_per_sm"] * sms // spread["split"])
    if rows >= sms:
        pytest.skip(f"{cols} columns fill this GPU's {sms} SMs twice only from {rows} rows")
    y = torch.softmax(make_rows(rows, cols, torch.float32, "cuda", seed=rows), -1).to(dtype)
    dy = torch.randn_like(y)
    for op in BACKWARD_OPS:
        for t, takes in ((y, True), (y[:rows - 1], False)):
            p = cuda_softmax.plan(t, op, "auto", dy=dy[:t.shape[0]])
            assert (p["variant"], p["reason_code"]) == _expected_auto_backward(t), p["reason"]
            assert (p["variant"] == "split_hybrid") == takes, (t.shape, p["variant"], p["reason"])
        run_and_check(Target("cuda", op, "auto"), y, dy=dy)


@pytest.mark.parametrize("dtype, cols", [(torch.float32, 3001), (torch.bfloat16, 3001), (torch.float32, 8193),
                                         (torch.bfloat16, 1025), (torch.bfloat16, 1537), (torch.float32, 50257),
                                         (torch.bfloat16, 70001), (torch.float32, 100001)], ids=str)
def test_backward_auto_takes_split_for_odd_rows_that_cluster_regs_would_read_in_three_parts(dtype, cols):
    """Rule 1c: as many odd rows as the SMs (read in three parts) that the rules by width
    give to cluster_regs go to split where two row groups or more fit at once, on GPUs of
    SPLIT_GRAD_FAST_SM_BANDWIDTH of DRAM bandwidth per SM or more from
    SPLIT_EDGES_FAST_SM_MIN_ROW_BYTES rows of y, elsewhere only where cluster_regs' plan is
    a cluster of 2-16 CTAs; the choice agrees with float64."""
    props = cuda_softmax.gpu_properties(0)
    rows = props["sm_count"]
    y = torch.softmax(make_rows(rows, cols, torch.float32, "cuda", seed=cols), -1).to(dtype)
    dy = make_gradient(rows, cols, dtype, "cuda", seed=cols + 1)
    for op in BACKWARD_OPS:
        regs = cuda_softmax.plan(y, op, "cluster_regs", dy=dy)
        split = cuda_softmax.plan(y, op, "split", dy=dy)
        p = cuda_softmax.plan(y, op, "auto", dy=dy)
        assert regs["realigned"] and split["realigned"], (regs, split)
        if p["variant"] not in ("cluster_regs", "split"):
            continue  # block_hybrid's rows (its plan is not cluster_regs')
        fast = _fast_sm(props) and cols * y.element_size() >= limit("SPLIT_EDGES_FAST_SM_MIN_ROW_BYTES")
        cluster = regs["cluster_size"] > 1
        groups = split["status"] == "ok" and split["blocks"] // split["split"] >= limit("SPLIT_GRAD_MIN_GROUPS")
        # rule 1b (rows wide enough for split by their bytes) comes first where cluster_regs
        # would not hold the row in one CTA: fp32 100001 on GPUs of fast SMs
        by_width = not (regs["status"] == "ok" and regs["cluster_size"] == 1) and _takes_split_backward(y, op)
        if by_width:
            expected = ("split", "split_grad_rows")
        elif groups and (fast or cluster):
            expected = ("split", "split_edges_rows")
        else:
            expected = ("cluster_regs", p["reason_code"])
        assert (p["variant"], p["reason_code"]) == expected, p["reason"]
        if _is_hopper(y.device) and (dtype, cols) == (torch.float32, 50257):
            # cluster_regs' plan: a cluster of 512-thread CTAs on the H100 and the H200
            assert p["variant"] == "split", p["reason"]
        assert ("edges=true" in p["kernel"]), p
        run_and_check(Target("cuda", op, "auto"), y, dy=dy)


@pytest.mark.parametrize("dtype, cols", [(torch.float32, 36000), (torch.float32, 40000), (torch.float32, 44000),
                                         (torch.bfloat16, 60000), (torch.bfloat16, 70000), (torch.bfloat16, 73000)],
                         ids=str)
def test_backward_auto_serves_misaligned_views_near_one_cta(dtype, cols):
    """Rows that one block_hybrid CTA holds aligned, as an offset view (narrower packs,
    fewer bytes per thread in registers): auto's backward plan is never refused, and the
    result agrees with float64."""
    base = torch.softmax(make_rows(3, cols + 8, torch.float32, "cuda", seed=cols), -1).to(dtype)
    y = base[:, 1:cols + 1]
    dy = torch.randn_like(y)
    for op in BACKWARD_OPS:
        p = cuda_softmax.plan(y, op, "auto", dy=dy)
        assert p["status"] == "ok", p
        run_and_check(Target("cuda", op, "auto"), y, dy=dy)


@pytest.mark.parametrize("dtype, cols", [(torch.float32, 131073), (torch.float32, 131075), (torch.float32, 131080),
                                         (torch.bfloat16, 262145), (torch.bfloat16, 262147),
                                         (torch.float16, 262151)], ids=str)
def test_auto_serves_offset_views_past_the_widest_register_cluster(dtype, cols):
    """A few rows just past what 16 CTAs of cluster_regs hold in registers at narrow packs,
    y, dy and x all viewed one element in (row stride cols + 1, as sanitize.py's misaligned
    cases): the aligned twin's rule picks cluster_regs, whose plan for the view's packs
    does not hold the row. auto must fall to a rule that serves the view (this raised
    before, H200: fp32 4 x 131075 backward), forward and backward."""
    base = make_rows(4, cols + 1, torch.float32, "cuda", seed=cols)
    x = base.to(dtype)[:, 1:]
    y = torch.softmax(base, -1).to(dtype)[:, 1:]
    dy = make_rows(4, cols + 1, dtype, "cuda", seed=cols + 1)[:, 1:]
    for op in OPS:
        p = cuda_softmax.plan(x, op, "auto")
        assert p["status"] == "ok", p
        run_and_check(Target("cuda", op, "auto"), x)
    for op in BACKWARD_OPS:
        p = cuda_softmax.plan(y, op, "auto", dy=dy)
        assert p["status"] == "ok", p
        run_and_check(Target("cuda", op, "auto"), y, dy=dy)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bf16", "fp16"])
def test_backward_auto_takes_block_smem_for_16bit_rows_to_4kb(dtype):
    """auto backward's rule 0b (GRAD_SMEM_16BIT_MAX_ROW_BYTES): 16-bit rows of 1025-2048
    columns in whole 16-byte packs take block_smem; wider rows, fp32 rows and views off
    the 16-byte packs (offset by one value) keep the rules after it. Every value of the
    chosen plans against float64, outputs poisoned first."""
    assert limit("GRAD_SMEM_16BIT_MAX_ROW_BYTES") == 4096
    for cols, smem in ((1040, True), (1664, True), (2048, True), (2080, False)):
        y = torch.softmax(make_rows(67, cols, torch.float32, "cuda", seed=cols), -1).to(dtype)
        shifted = torch.softmax(make_rows(67, cols + 1, torch.float32, "cuda", seed=cols), -1).to(dtype)[:, 1:]
        for op in BACKWARD_OPS:
            p = cuda_softmax.plan(y, op, "auto")
            assert ((p["variant"], p["reason_code"]) == ("block_smem", "grad_smem_16bit")) == smem, p
            assert "in whole 16-byte packs" in p["reason"] or not smem, p
            assert cuda_softmax.plan(shifted, op, "auto")["reason_code"] != "grad_smem_16bit"
            run_and_check(Target("cuda", op, "auto"), y, dy=torch.randn_like(y))
            run_and_check(Target("cuda", op, "auto"), shifted, dy=torch.randn_like(shifted))
    fp32 = make_rows(4, 1040, torch.float32, "cuda")
    assert cuda_softmax.plan(fp32, "softmax_backward", "auto")["reason_code"] != "grad_smem_16bit"


@pytest.mark.parametrize("cols", [1000, 1025, 1040, 1664, 2080, 16384, 20480, 24576, 32768, 36864, 49152, 73728,
                                  262144, 1 << 20])
@pytest.mark.parametrize("dtype", DTYPES.values(), ids=DTYPES.keys())
def test_backward_auto_plan_follows_the_rule(dtype, cols):
    y = torch.softmax(make_rows(2, cols, torch.float32, "cuda", seed=cols), -1).to(dtype)
    for op in BACKWARD_OPS:
        p = cuda_softmax.plan(y, op, "auto")
        assert p["status"] == "ok", p
        assert (p["variant"], p["reason_code"]) == _expected_auto_backward(y), p["reason"]
    props = cuda_softmax.gpu_properties(y.device.index)
    if _is_hopper(y.device):  # HBM3/HBM3e: 2-5 TB/s; a zero would silently take the H100's branch
        assert 1e12 < props["dram_bytes_per_s"] < 2e13, props
    if _is_hopper(y.device) and (dtype, cols) == (torch.float32, 24576):
        # 64 B of y and of dy per thread in registers, the rest in shared memory
        assert p["variant"] == "block_hybrid" and p["cols_per_thread"] == 16, p
    if _is_hopper(y.device) and (dtype, cols) in ((torch.float32, 49152), (torch.bfloat16, 49152)):
        # clusters of 256-thread CTAs, four or more resident per SM
        assert p["variant"] == "cluster_regs" and p["threads"] <= 256 and p["resident_per_sm"] >= 4, p
    if _is_hopper(y.device) and (dtype, cols) == (torch.bfloat16, 73728):
        # its register plan is a 16-CTA cluster: block_hybrid holds the rows instead
        # where each SM moves 30 GB/s or more (H200), not on the H100 (25 GB/s)
        fast_sm = _sm_bandwidth(props) >= limit("GRAD_CLUSTER_MAX_SM_BANDWIDTH")
        assert p["variant"] == ("block_hybrid" if fast_sm else "cluster_regs"), p


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("cols", [1, 100, 1024, 4096, 65536])
def test_plan_fields(variant, cols):
    x = make_rows(1000, cols, torch.float32, "cuda")
    if declines(variant, x):
        return
    p = cuda_softmax.plan(x, "softmax", variant)
    assert p["status"] == "ok", p
    assert p["threads"] % 32 == 0 and 32 <= p["threads"] <= 1024, p
    assert 1 <= p["blocks"] <= 2 ** 31 - 1 and p["blocks"] % p["cluster_size"] == 0, p
    assert p["resident_per_sm"] >= 1, p
    if p["variant"] == "cluster_tma":
        # Persistent: the resident clusters, at most one per row.
        assert p["cluster_size"] in (1, 2, 4, 8, 16) and p["active_clusters"] >= 1, p
        assert p["blocks"] == p["cluster_size"] * min(1000, p["active_clusters"]), p
        assert p["cluster_size"] * p["smem_bytes"] >= 2 * cols * 4, "two stages of every slice"
        assert p["smem_bytes"] <= p["smem_limit"], p
    elif p["variant"] == "split":
        # Persistent and cooperative: `split` CTAs per row, as many row groups as fit the
        # GPU at once (at most one per row); rows of one chunk need no workspace.
        chunk_values = p["threads"] * p["cols_per_thread"]
        assert p["split"] == -(-cols // chunk_values) or p["split"] * chunk_values >= cols, p
        assert p["blocks"] % p["split"] == 0 and p["blocks"] // p["split"] <= 1000, p
        assert p["blocks"] <= p["resident_per_sm"] * torch.cuda.get_device_properties(0).multi_processor_count, p
        assert p["workspace_bytes"] == (1000 * p["split"] * 8 if p["split"] > 1 else 0), p
    elif p["variant"] == "split_smem":
        # Persistent and cooperative: parts of at most 64 KB of shared memory, as few as
        # that allows, every CTA of a row resident at once.
        sms = torch.cuda.get_device_properties(0).multi_processor_count
        part = -(-(cols // p["pack"]) // p["split"]) * p["pack"]
        assert p["stages"] == 1 and p["smem_bytes"] == part * 4, p
        fewest, most = -(-cols * 4 // (64 * 1024)), -(-cols * 4 // (16 * 1024))
        assert p["smem_bytes"] <= 64 * 1024 and fewest <= p["split"] <= max(fewest, most), p
        assert p["blocks"] % p["split"] == 0 and p["blocks"] // p["split"] <= 1000, p
        assert p["blocks"] <= p["resident_per_sm"] * sms, p
        assert p["workspace_bytes"] == (1000 * p["split"] * 8 if p["split"] > 1 else 0), p
    elif p["variant"] == "split_hybrid":
        # One-shot, no cluster: `split` CTAs per row, each with a ticket; the workspace
        # is the ticket counter and a word per CTA (none for rows of one slice).
        assert p["cluster_size"] == 1 and p["blocks"] == 1000 * p["split"] and p["grid_y"] == 1, p
        assert p["workspace_bytes"] == ((1 + 1000 * p["split"]) * 8 if p["split"] > 1 else 0), p
        assert p["split"] <= min(limit("SPLIT_HYBRID_MAX_SLICES"),
                                 p["resident_per_sm"] * torch.cuda.get_device_properties(0).multi_processor_count), p
    elif p["variant"] not in ("naive", "warp_per_row"):
        per_block = p["rows_per_access"] if p["variant"] == "cluster_regs" else 1
        assert p["blocks"] == p["cluster_size"] * math.ceil(1000 / per_block) and p["grid_y"] == 1, \
            "one-shot grid: a block (or cluster) per row (cluster_regs: per rows_per_access rows)"
    if p["variant"] == "warp_per_row":
        assert p["group_width"] in (1, 2, 4, 8, 16, 32) and p["cols_per_thread"] % p["pack"] == 0
        assert p["group_width"] * p["cols_per_thread"] >= cols, p
    if p["variant"] == "cluster_smem":
        assert p["cluster_size"] in (2, 4, 8, 16) and p["active_clusters"] >= 1, p
        assert p["cluster_size"] * p["smem_bytes"] >= cols * 4, p
    if p["variant"] == "block_smem":
        assert cols * 4 <= p["smem_bytes"] <= p["smem_limit"], p
    if p["variant"] == "block_hybrid":
        # One CTA of 1024 threads per row, or on GPUs of fast SMs (HYBRID_PAIR_MIN_SM_BANDWIDTH)
        # 512-thread CTAs, two per SM, one per row to HYBRID_SMALL_SLICE_BYTES and clusters
        # of them past it (65536: two); 16 values each in registers (8 for scalar packs of
        # width 1 rows), the rest of the CTA's slice in shared memory.
        if _hybrid_pairs(cuda_softmax.gpu_properties(0)):
            assert p["threads"] == limit("HYBRID_SMALL_THREADS") and p["resident_per_sm"] >= 2, p
            assert p["cluster_size"] == -(-cols * 4 // limit("HYBRID_SMALL_SLICE_BYTES")), p
        else:
            assert p["threads"] == 1024 and p["cluster_size"] == 1, p
        # The rest, if any, with the slack that starts it on a 128-byte boundary
        # (kTmaAlignSlack: the dynamic shared memory itself starts 16-byte aligned).
        slice_cols = -(-cols // p["pack"] // p["cluster_size"]) * p["pack"]
        in_registers = min(slice_cols, p["threads"] * p["cols_per_thread"])
        rest = -(-(slice_cols - in_registers) * 4 // 16) * 16
        assert p["smem_bytes"] == (rest + 128 - 16 if rest else 0) <= p["smem_limit"], p
    if p["variant"] == "cluster_regs":
        assert p["cluster_size"] in (1, 2, 4, 8, 16) and p["cols_per_thread"] * 4 in (32, 64, 128), p
        assert p["cols_per_thread"] % p["pack"] == 0 and p["smem_bytes"] == 0, p
        assert p["group_width"] % 32 == 0 and p["threads"] == p["group_width"] * p["rows_per_access"], p
        # 512 threads, or one CTA of up to 1024 for rows that 512 cannot hold.
        assert p["threads"] <= 512 or (p["cluster_size"] == 1 and cols * 4 > 512 * 128), p
        assert p["cluster_size"] * p["group_width"] * p["cols_per_thread"] >= cols, p
        assert p["cluster_size"] == 1 or (p["active_clusters"] >= 1 and p["rows_per_access"] == 1), p


@pytest.mark.parametrize("op", OPS + BACKWARD_OPS)
@pytest.mark.parametrize("dtype, cols, view", [
    (torch.float32, 1048576, "contiguous"),  # forward ~29 CTAs of 512 threads; backward ~48 (8 MB of y and dy)
    (torch.bfloat16, 1048576, "contiguous"),
    (torch.float32, 2097152, "contiguous"),  # forward over 32 CTAs: the merge's second word per lane
    (torch.float16, 98304, "contiguous"),    # 192 KB: two CTAs
    (torch.float32, 262147, "contiguous"),   # odd: rows read as head, 16-byte packs and tail
    (torch.bfloat16, 524288, "offset"),      # one element in: edges, the first CTA of each row takes them
], ids=str)
def test_split_hybrid_spreads_rows_over_any_number_of_ctas(op, dtype, cols, view):
    """split_hybrid: block_hybrid's slices (registers, then shared memory by TMA) over as
    many CTAs as the row needs, two 512-thread CTAs per SM first, exchanging through global
    memory: no cluster, a one-shot grid of rows x K CTAs, each taking its row and slice
    from a ticket, the workspace the ticket counter and one word per CTA. It serves rows
    that block_hybrid's 16-CTA clusters cannot hold (the fp32 backward at 1048576, in
    the register slices of its aligned rows: test_split_hybrid_fp32_backward_takes_register_slices),
    and every value of every row agrees with float64 (outputs poisoned first)."""
    if not _is_hopper(0):
        pytest.skip("split_hybrid needs sm_90 (TMA bulk copies)")
    rows = 2 if cols * 4 > 1 << 22 else 3
    backward = op in BACKWARD_OPS
    def laid_out(t: torch.Tensor) -> torch.Tensor:
        # "offset": one element in, row strides a whole number of 16-byte packs past the
        # width, so every row (of x, y, dy, out) shares its offset: read in three parts.
        if view == "contiguous":
            return t
        return torch.empty(rows, cols + 16, dtype=dtype, device="cuda")[:, 1:cols + 1].copy_(t)

    x = make_rows(rows, cols, dtype, "cuda", seed=cols)
    dy = None
    if backward:
        forward = torch.log_softmax if op == "log_softmax_backward" else torch.softmax
        x = forward(x.double(), -1).to(dtype)
        dy = laid_out(make_gradient(rows, cols, dtype, "cuda", seed=cols + 1))
    x = laid_out(x)
    p = cuda_softmax.plan(x, op, "split_hybrid", dy=dy) if backward else cuda_softmax.plan(x, op, "split_hybrid")
    assert p["status"] == "ok" and p["variant"] == "split_hybrid", p
    assert p["cluster_size"] == 1 and p["blocks"] == rows * p["split"], p
    assert p["workspace_bytes"] == ((1 + rows * p["split"]) * 8 if p["split"] > 1 else 0), p
    form = _split_hybrid_register_form(x, p, backward)
    if form:
        assert p["threads"] == limit("SPLIT_HYBRID_REGS_THREADS") and (p["smem_bytes"] == 0) == (form == "regs"), p
    else:
        assert p["threads"] == limit("HYBRID_SMALL_THREADS") and p["resident_per_sm"] >= 2, p
    # Each CTA's slice: cols_per_thread values per thread in registers, the rest (of y
    # and of dy, backward) in shared memory within the CTA's limit.
    size, tensors = x.element_size(), 2 if backward else 1
    slice_cols = -(-(cols // p["pack"]) // p["split"]) * p["pack"]
    rest = max(slice_cols - p["threads"] * p["cols_per_thread"], 0)
    assert tensors * rest * size <= p["smem_bytes"] <= p["smem_limit"], p
    # Odd contiguous rows (every tensor's rows at the same offsets) are read in three
    # parts; a view one element in (the output's rows aligned) takes scalar packs.
    full = 16 // size
    expected = (1, full) if view == "contiguous" and cols % full else (0, _max_pack(x))
    assert (p["realigned"], p["pack"]) == expected, p
    if dtype == torch.float32 and cols == 1048576 and backward:
        assert cuda_softmax.plan(x, op, "block_hybrid", dy=dy)["status"] == "row_exceeds_smem"
        assert p["split"] > limit("MAX_CLUSTER_SIZE"), p
    if cols == 2097152 and not backward:
        assert p["split"] > 32, p
    out, agreements = run_and_check(Target("cuda", op, "split_hybrid"), x, dy=dy)
    assert out is not None and agreements, "split_hybrid declined a row its plan serves"


def _split_hybrid_register_form(y: torch.Tensor, p: dict, backward: bool) -> str | None:
    """Which of the fp32 backward's register slices split_hybrid's plan p for y takes:
    "regs" (registers alone: the fewest slices of SPLIT_HYBRID_REGS_BYTES of y and of dy a
    thread over SPLIT_HYBRID_REGS_THREADS threads, at most SPLIT_HYBRID_MAX_SLICES of
    them, leaving SPLIT_HYBRID_REGS_MIN_ROWS_RESIDENT rows' CTAs resident), "smem" (else,
    where slices that also hold up to SPLIT_HYBRID_REGS_SMEM_BYTES of both in shared
    memory need at most SPLIT_HYBRID_MAX_SLICES), "regs" again where only registers
    alone serve, or None: not aligned fp32 rows of 16-byte packs (block_hybrid's slices)."""
    if not (backward and y.dtype == torch.float32 and p["pack"] == 4 and not p["realigned"]):
        return None
    row_bytes, most = y.shape[1] * 4, limit("SPLIT_HYBRID_MAX_SLICES")
    regs_bytes = limit("SPLIT_HYBRID_REGS_THREADS") * limit("SPLIT_HYBRID_REGS_BYTES")
    regs = -(-row_bytes // regs_bytes)
    slots = limit("SPLIT_HYBRID_REGS_MIN_BLOCKS") * torch.cuda.get_device_properties(y.device).multi_processor_count
    if regs <= most and regs * limit("SPLIT_HYBRID_REGS_MIN_ROWS_RESIDENT") <= slots:
        return "regs"
    if -(-row_bytes // (regs_bytes + limit("SPLIT_HYBRID_REGS_SMEM_BYTES") // 2)) <= most:
        return "smem"
    return "regs" if regs <= most else None


@pytest.mark.parametrize("rows, cols, view", [
    (3, 8192, "contiguous"),     # one slice: no exchange, rows by a grid-stride loop
    (300, 131072, "contiguous"),  # 16 CTAs a row, 4800 tickets: many waves of three CTAs per SM
    (5, 262148, "contiguous"),   # 33 slices, the last of 16 values
    (3, 524288, "contiguous"),   # 64 register slices leave 6 rows resident on 132 SMs: shared memory too
    (2, 1048576, "contiguous"),  # SPLIT_HYBRID_MAX_SLICES register slices; 74 with shared memory
    (2, 1048580, "contiguous"),  # one pack past them: with shared memory, the last slice short
    (2, 2097152, "contiguous"),  # past SPLIT_HYBRID_MAX_SLICES either way: block_hybrid's slices
    (3, 262144, "offset"),       # one element in: block_hybrid's slices, read in three parts
], ids=str)
def test_split_hybrid_fp32_backward_takes_register_slices(rows, cols, view):
    """split_hybrid's fp32 backward: aligned rows that slices of SPLIT_HYBRID_REGS_BYTES of y
    and of dy a thread over SPLIT_HYBRID_REGS_THREADS threads hold in few enough CTAs run
    softmax_backward_split_hybrid_regs_kernel with no shared memory; rows whose CTAs would
    leave fewer than SPLIT_HYBRID_REGS_MIN_ROWS_RESIDENT rows resident take the same
    kernel with up to SPLIT_HYBRID_REGS_SMEM_BYTES of y and dy a CTA in shared memory
    (the fewest such slices, three CTAs per SM); wider or misaligned rows run
    block_hybrid's slices. Every value agrees with float64 (outputs poisoned first),
    softmax and log-softmax (whose mode the kernel compiles in)."""
    if not _is_hopper(0):
        pytest.skip("split_hybrid needs sm_90")
    for op in BACKWARD_OPS:
        forward = torch.log_softmax if op == "log_softmax_backward" else torch.softmax
        y = forward(make_rows(rows, cols + 4, torch.float32, "cuda", seed=cols).double(), -1).float()
        dy = make_gradient(rows, cols + 4, torch.float32, "cuda", seed=cols + 1)
        if view == "contiguous":
            y, dy = y[:, :cols].contiguous(), dy[:, :cols].contiguous()
        else:
            y, dy = y[:, 1:cols + 1], dy[:, 1:cols + 1]
        p = cuda_softmax.plan(y, op, "split_hybrid", dy=dy)
        assert p["status"] == "ok", p
        form = _split_hybrid_register_form(y, p, True)
        assert (form is None) == (view != "contiguous" or cols == 2097152), (form, p)
        assert ("softmax_backward_split_hybrid_regs_kernel<" in p["kernel"]) == (form is not None), p
        assert ("smem=true" in p["kernel"]) == (form == "smem"), p
        if form:
            assert p["threads"] == limit("SPLIT_HYBRID_REGS_THREADS"), p
            assert p["cols_per_thread"] * 4 == limit("SPLIT_HYBRID_REGS_BYTES"), p
            assert p["resident_per_sm"] >= limit("SPLIT_HYBRID_REGS_MIN_BLOCKS") and p["blocks"] == rows * p["split"], p
            slice_bytes = p["threads"] * limit("SPLIT_HYBRID_REGS_BYTES")
            if form == "smem":
                slice_bytes += limit("SPLIT_HYBRID_REGS_SMEM_BYTES") // 2
                # Each CTA's packs past the registers', of y and of dy, within the cap.
                rest = -(-cols // 4 // p["split"]) * 16 - p["threads"] * limit("SPLIT_HYBRID_REGS_BYTES")
                assert 2 * rest <= p["smem_bytes"] <= limit("SPLIT_HYBRID_REGS_SMEM_BYTES") + 128, p
            else:
                assert p["smem_bytes"] == 0, p
            assert p["split"] == -(-cols * 4 // slice_bytes), p
        out, agreements = run_and_check(Target("cuda", op, "split_hybrid"), y, dy=dy)
        assert out is not None and agreements, "split_hybrid declined a row its plan serves"


@pytest.mark.parametrize("op", OPS + BACKWARD_OPS)
def test_split_hybrid_declines_rows_past_its_slices(op):
    """A row that SPLIT_HYBRID_MAX_SLICES of its largest CTAs (one per SM, about 290 KB of
    the row each) cannot hold is declined with the reason, not launched."""
    if not _is_hopper(0):
        pytest.skip("split_hybrid needs sm_90 (TMA bulk copies)")
    cols = 40 * 2 ** 20 // 4  # 40 MB of fp32: more than 128 x 290 KB
    x = make_rows(1, cols, torch.float32, "cuda", seed=37)
    dy = make_gradient(1, cols, torch.float32, "cuda", seed=38) if op in BACKWARD_OPS else None
    p = cuda_softmax.plan(x, op, "split_hybrid", dy=dy) if dy is not None else cuda_softmax.plan(x, op, "split_hybrid")
    assert p["status"] == "too_many_chunks", p
    support = BACKEND.supports(x, op, "split_hybrid")
    assert not support and "SPLIT_HYBRID_MAX_SLICES" in support.reason, support.reason
    check_declined(Target("cuda", op, "split_hybrid"), support, x, -1, dy=dy)


@pytest.mark.parametrize("op", OPS)
def test_split_declines_rows_with_more_chunks_than_the_gpu_holds(op):
    """split's CTAs wait for each other, so a row may have no more chunks (of 32 KB at
    most: 256 threads x 128 bytes) than CTAs fit the GPU at once; a row past that is
    declined with the reason (a cooperative launch would refuse it anyway)."""
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    cols = 8 * sms * 256 * 32  # 32 KB chunks: 8 per SM, more than fit
    x = make_rows(2, cols, torch.float32, "cuda", seed=31)
    p = cuda_softmax.plan(x, op, "split")
    assert p["status"] == "too_many_chunks" and p["split"] > p["resident_per_sm"] * sms, p
    check_declined(Target("cuda", op, "split"), BACKEND.supports(x, op, "split"), x, -1)
    assert "resident at once" in BACKEND.supports(x, op, "split").reason


@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dtype, cols", [(torch.float32, 65536), (torch.bfloat16, 131072), (torch.float32, 70001)],
                         ids=str)
def test_cluster_exchange_slots_are_reused_over_many_rows(op, dtype, cols):
    """cluster_tma's persistent clusters take several rows each, so its exchange reuses
    its two ClusterSlots by row parity and each slot's mbarrier completes a phase every
    second row (common/cluster.cuh): with four rows or more per cluster, and an odd count
    that ends on either slot, every row agrees with float64. 70001 columns: scalar packs
    (cp.async per pack instead of bulk copies)."""
    probe = torch.empty(1, cols, dtype=dtype, device="cuda")
    p = cuda_softmax.plan(probe, op, "cluster_tma")
    if p["status"] != "ok":
        pytest.skip(f"cluster_tma declines {cols} columns here: {p['status']}")
    assert p["cluster_size"] > 1, p
    rows = 4 * p["active_clusters"] + 1
    x = make_rows(rows, cols, dtype, "cuda", seed=cols)
    p = cuda_softmax.plan(x, op, "cluster_tma")
    assert p["blocks"] == p["cluster_size"] * p["active_clusters"] < p["cluster_size"] * rows, p
    run_and_check(Target("cuda", op, "cluster_tma"), x)


@pytest.mark.parametrize("cols", [4096, 131072])
@pytest.mark.parametrize("variant", VARIANTS)
def test_calls_captured_in_a_cuda_graph_replay_on_new_inputs(variant, cols):
    """A call captured in a CUDA graph gives the right answer on every replay with new
    values in its input: nothing of one launch (split's workspace, set to all ones
    before each launch, is a captured memset) leaks into the next."""
    dtype = torch.float32
    x = make_rows(8, cols, dtype, "cuda", seed=cols)
    if declines(variant, x):
        pytest.skip(f"{variant} declines {cols} columns")
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm-up outside the capture: plans made, extension built
        comparison.softmax(x, backend="cuda", variant=variant)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        y = comparison.softmax(x, backend="cuda", variant=variant)
    for seed in (1, 2, 3):
        source = make_rows(8, cols, dtype, "cuda", seed=seed)
        x.copy_(source)
        y.fill_(math.nan)
        graph.replay()
        torch.cuda.synchronize()
        check_result("softmax", source, y, f"replay {seed}:")


# cluster_regs holds at most 16 CTAs x 512 threads x 128 bytes of a row (32 fp32 values
# each; one CTA without clusters): a row one pack wider is declined with the reason.
CLUSTER_REGS_MAX_FP32_COLS = 16 * 512 * 32


@pytest.mark.parametrize("op", OPS)
def test_cluster_regs_declines_rows_past_its_registers(op):
    x = make_rows(2, CLUSTER_REGS_MAX_FP32_COLS + 4, torch.float32, "cuda", seed=29)
    p = cuda_softmax.plan(x, op, "cluster_regs")
    assert p["status"] == "row_exceeds_registers", p
    check_declined(Target("cuda", op, "cluster_regs"), BACKEND.supports(x, op, "cluster_regs"), x, -1)
    assert "registers" in BACKEND.supports(x, op, "cluster_regs").reason


def test_cluster_regs_says_why_its_fp32_clusters_decline_a_16bit_row():
    # On GPUs of REGS_UNPACK_MIN_SM_BANDWIDTH per SM the clusters holding 16-bit values as
    # fp32 hold rows past the packed register limit where a shape fills its slices: bf16
    # 737280 (16 CTAs of 384 threads, 120 values each, whole) is served; 655360 is not (no
    # shape fills its slices), and the refusal says so rather than only the packed limit.
    props = cuda_softmax.gpu_properties(0)
    if not _is_hopper(0) or _sm_bandwidth(props) < limit("REGS_UNPACK_MIN_SM_BANDWIDTH"):
        pytest.skip("the fp32 clusters serve 16-bit rows on sm_90 GPUs of REGS_UNPACK_MIN_SM_BANDWIDTH per SM")
    served = torch.empty(2, 737280, dtype=torch.bfloat16, device="cuda")
    p = cuda_softmax.plan(served, "softmax", "cluster_regs")
    assert p["status"] == "ok" and p["unpacked"], p
    declined = torch.empty(2, 655360, dtype=torch.bfloat16, device="cuda")
    assert cuda_softmax.plan(declined, "softmax", "cluster_regs")["status"] == "row_exceeds_registers"
    reason = BACKEND.supports(declined, "softmax", "cluster_regs").reason
    assert "exceed it" in reason and "whole or nearly" in reason and "up to 737280 values" in reason, reason
    fp32 = torch.empty(2, CLUSTER_REGS_MAX_FP32_COLS + 4, dtype=torch.float32, device="cuda")
    assert "whole or nearly" not in BACKEND.supports(fp32, "softmax", "cluster_regs").reason


@pytest.mark.parametrize("dtype", DTYPES.values(), ids=DTYPES.keys())
@pytest.mark.parametrize("cols", [1025, 2048, 4096, 16384, 65536, 131072])
def test_cluster_regs_keeps_a_modest_slice_per_thread(dtype, cols):
    """Every thread holds at most 128 bytes of its row (32 registers of data) in blocks of
    at most 512 threads, two or more resident per SM, or in one block of up to 1024 (rows
    of 64-128 KB); narrow rows share a block (8 KB or more per block); wider rows are
    split over a cluster (sm_90)."""
    if not _is_hopper(torch.device("cuda")):
        pytest.skip("without clusters a row must fit one block's registers")
    x = make_rows(64, cols, dtype, "cuda", seed=cols)
    p = cuda_softmax.plan(x, "softmax", "cluster_regs")
    assert p["status"] == "ok", p
    assert p["cols_per_thread"] * x.element_size() <= 128, p
    wide_block = 512 * 128 < cols * x.element_size() <= 1024 * 128
    if p["unpacked"]:  # 16-bit rows past 64 KB on fast SMs: CTAs of 128-256 threads holding fp32, 3-6 per SM
        assert x.element_size() == 2 and cols * 2 > 512 * 128 and p["cluster_size"] >= 2, p
        assert p["cols_per_thread"] == 64 and p["resident_per_sm"] * p["threads"] >= limit("REGS_UNPACK_SM_THREADS"), p
    elif wide_block:
        assert p["cluster_size"] == 1 and 512 < p["threads"] <= 1024 and p["resident_per_sm"] == 1, p
    else:
        assert p["threads"] <= 512 and p["resident_per_sm"] >= 2, p
    assert p["rows_per_access"] * cols * x.element_size() >= 8192 or p["threads"] == 512, p
    for op in OPS:
        run_and_check(Target("cuda", op, "cluster_regs"), x)


def _unpack_full_enough(row_bytes: int, slice_packs: int, per_cta: int) -> bool:
    """Whether slices of slice_packs packs, of per_cta a CTA holds, are full enough for the
    unpacked clusters (cluster_regs.cuh, unpack_slices_full_enough): whole, or in rows past
    REGS_UNPACK_PARTIAL_MIN_ROW_BYTES at least REGS_UNPACK_MIN_FILL / REGS_UNPACK_MIN_FILL_OF
    full, or in rows to REGS_UNPACK_NARROW_MAX_ROW_BYTES at least REGS_UNPACK_NARROW_MIN_FILL
    / REGS_UNPACK_MIN_FILL_OF."""
    of = limit("REGS_UNPACK_MIN_FILL_OF")
    return (slice_packs == per_cta
            or (row_bytes > limit("REGS_UNPACK_PARTIAL_MIN_ROW_BYTES")
                and slice_packs * of >= per_cta * limit("REGS_UNPACK_MIN_FILL"))
            or (row_bytes <= limit("REGS_UNPACK_NARROW_MAX_ROW_BYTES")
                and slice_packs * of >= per_cta * limit("REGS_UNPACK_NARROW_MIN_FILL")))


def _unpack_shapes(cols: int) -> dict[int, int]:
    """The unpacked clusters' candidate shapes for an aligned 16-bit row, {threads: K}:
    CTAs of REGS_UNPACK_MIN_THREADS to REGS_UNPACK_THREADS threads (multiples of 64), each
    with the smallest cluster (2-16) that holds the row, where each CTA's slice is whole,
    or in rows past REGS_UNPACK_PARTIAL_MIN_ROW_BYTES at least REGS_UNPACK_MIN_FILL /
    REGS_UNPACK_MIN_FILL_OF full, or in rows to REGS_UNPACK_NARROW_MAX_ROW_BYTES at least
    REGS_UNPACK_NARROW_MIN_FILL / REGS_UNPACK_MIN_FILL_OF; and CTAs of
    REGS_UNPACK_WHOLE_THREADS where their slices are whole in rows to 512 KB (cluster_regs.cuh,
    unpack_shape)."""
    packs, per_thread, row_bytes = cols // 8, limit("REGS_UNPACK_BYTES") // 16, cols * 2
    shapes = {}
    whole_only = limit("REGS_UNPACK_WHOLE_THREADS")  # two per SM: whole slices in rows to 512 KB only
    for threads in (*range(limit("REGS_UNPACK_MIN_THREADS"), limit("REGS_UNPACK_THREADS") + 1, 64), whole_only):
        per_cta = threads * per_thread
        k = max(2, -(-packs // per_cta))
        slice_packs = -(-packs // k)
        full_enough = _unpack_full_enough(row_bytes, slice_packs, per_cta)
        register_max = limit("MAX_CLUSTER_SIZE") * limit("REGS_UNPACK_THREADS") * limit("REGS_UNPACK_BYTES")
        if threads == whole_only and (packs != k * per_cta or row_bytes > register_max):
            continue
        if k <= limit("MAX_CLUSTER_SIZE") and full_enough:
            shapes[threads] = k
    return shapes


def _unpack_smem_slices_full(cols: int, threads: int, slice_packs: int, per_cta: int) -> bool:
    """Whether slices of a shape with shared memory are as full as _unpack_shapes asks of
    register-only ones (REGS_UNPACK_WHOLE_THREADS: whole)."""
    if threads == limit("REGS_UNPACK_WHOLE_THREADS"):
        return slice_packs == per_cta
    return _unpack_full_enough(cols * 2, slice_packs, per_cta)


def _unpack_smem_full_shape_exists(cols: int) -> bool:
    """Whether some shape with shared memory holds an aligned 16-bit row in slices that full
    (_unpack_smem_slices_full): CTAs of _unpack_shapes' widths, 2-16 a cluster, each thread
    1 to REGS_UNPACK_MAX_SMEM_PACKS packs past its registers' share."""
    packs, per_thread = cols // 8, limit("REGS_UNPACK_BYTES") // 16
    widths = (*range(limit("REGS_UNPACK_MIN_THREADS"), limit("REGS_UNPACK_THREADS") + 1, 64),
              limit("REGS_UNPACK_WHOLE_THREADS"))
    for threads in widths:
        for k in range(2, limit("MAX_CLUSTER_SIZE") + 1):
            slice_packs = -(-packs // k)
            smem_packs = -(-slice_packs // threads) - per_thread
            if (1 <= smem_packs <= limit("REGS_UNPACK_MAX_SMEM_PACKS")
                    and _unpack_smem_slices_full(cols, threads, slice_packs, threads * (per_thread + smem_packs))):
                return True
    return False


def _unpack_smem_shape_ok(cols: int, p: dict, sm_count: int) -> bool:
    """Whether a plan's unpacked clusters with shared memory hold an aligned 16-bit row as
    unpack_shape builds them: K CTAs of its threads, each thread the packs of its slice past
    its registers' share in shared memory (1 to REGS_UNPACK_MAX_SMEM_PACKS), the slices as
    full as _unpack_shapes asks of register-only ones (REGS_UNPACK_WHOLE_THREADS: whole),
    or, where no shape of slices that full serves the row (_unpack_shapes,
    _unpack_smem_full_shape_exists), REGS_UNPACK_MIN_FILL /
    REGS_UNPACK_MIN_FILL_OF full with the co-resident clusters' CTAs filling
    REGS_UNPACK_SMEM_BUSY_NUM / _DEN of the GPU's CTA slots."""
    packs, per_thread = cols // 8, limit("REGS_UNPACK_BYTES") // 16
    threads, k = p["threads"], p["cluster_size"]
    smem_packs = p["smem_bytes"] // (threads * limit("REGS_UNPACK_SMEM_PACK_BYTES"))
    slice_packs = -(-packs // k)
    per_cta = threads * (per_thread + smem_packs)
    busy = p["active_clusters"] * k * limit("REGS_UNPACK_SMEM_BUSY_DEN") >= (
        sm_count * p["resident_per_sm"] * limit("REGS_UNPACK_SMEM_BUSY_NUM"))
    nearly = (not _unpack_shapes(cols) and not _unpack_smem_full_shape_exists(cols) and busy
              and slice_packs * limit("REGS_UNPACK_MIN_FILL_OF") >= per_cta * limit("REGS_UNPACK_MIN_FILL"))
    full_enough = _unpack_smem_slices_full(cols, threads, slice_packs, per_cta) or (
        threads != limit("REGS_UNPACK_WHOLE_THREADS") and nearly)
    return (p["smem_bytes"] == smem_packs * threads * limit("REGS_UNPACK_SMEM_PACK_BYTES")
            and 1 <= smem_packs <= limit("REGS_UNPACK_MAX_SMEM_PACKS")
            and smem_packs == -(-slice_packs // threads) - per_thread and full_enough
            and 2 <= k <= limit("MAX_CLUSTER_SIZE"))


@pytest.mark.parametrize("dtype, cols", [(torch.bfloat16, 65536), (torch.float16, 139264), (torch.bfloat16, 151936),
                                         (torch.bfloat16, 262144), (torch.float16, 40000), (torch.bfloat16, 73728),
                                         (torch.bfloat16, 49152), (torch.bfloat16, 196608), (torch.float16, 151936),
                                         (torch.bfloat16, 153600), (torch.bfloat16, 200000),
                                         (torch.bfloat16, 128256), (torch.float16, 100000), (torch.bfloat16, 78848),
                                         (torch.bfloat16, 37888)],
                         ids=str)
def test_cluster_regs_unpacks_16_bit_rows_past_one_cta_on_fast_sm_gpus(dtype, cols):
    """On sm_90 GPUs of REGS_UNPACK_MIN_SM_BANDWIDTH or more of DRAM bandwidth per SM, a
    16-bit row past one 512-thread CTA (64 KB) goes over a cluster of CTAs of 128, 192,
    256 or 384 threads, each thread 64 values held as fp32, of the shapes whose slices are
    full enough (_unpack_shapes: 73728 in 6 whole slices of 192 threads, 40000 in 5 of 128
    threads 98% full, 49152 in 2 of 384; 139264 none) the one with the most clusters
    co-resident; where that one fills the GPU's CTA slots poorly (or none serves), threads
    may hold packs in shared memory too (_unpack_smem_shape_ok: bf16 151936 in 5 CTAs of
    256 threads, 7 packs each; 153600 the same, whole; 200000 in 9 of 192 threads; where no
    register-only shape serves, slices nearly full: bf16 128256 in 6 of 192 threads, 99%);
    `auto` takes it (rule 0c). Misaligned views and rows read in three parts keep their
    values packed. Every element against float64, special rows included."""
    if not _is_hopper(0):
        pytest.skip("clusters need sm_90")
    props = cuda_softmax.gpu_properties(0)
    fast = _sm_bandwidth(props) >= limit("REGS_UNPACK_MIN_SM_BANDWIDTH")
    base = make_rows(5, cols + 64, dtype, "cuda", seed=cols)
    x = base[:, :cols]  # aligned rows, a row stride past the width
    p = cuda_softmax.plan(x, "softmax", "cluster_regs")
    assert p["status"] == "ok", p
    shapes = _unpack_shapes(cols)
    smem = p["unpacked"] and p["smem_bytes"] > 0
    assert bool(p["unpacked"]) == (fast and (bool(shapes) or smem)), (p, shapes)
    if cols in (151936, 153600, 200000):  # register-only shapes fill an H200's CTA slots poorly
        assert smem == fast, p
    if p["unpacked"]:
        threads = p["threads"]
        smem_packs = p["smem_bytes"] // (threads * limit("REGS_UNPACK_SMEM_PACK_BYTES"))
        assert (_unpack_smem_shape_ok(cols, p, props["sm_count"]) if smem
                else shapes.get(threads) == p["cluster_size"]), (p, shapes)
        assert (p["cols_per_thread"], p["pack"]) == (64 + 8 * smem_packs, 8) and p["active_clusters"] >= 1, p
        assert p["resident_per_sm"] * threads >= limit("REGS_UNPACK_SM_THREADS"), p  # 80 registers a thread
        full = cols == p["cluster_size"] * threads * (64 + 8 * smem_packs)  # every slice whole
        tail = f", smem_packs={smem_packs}" if smem else ""
        assert p["kernel"].endswith(f", full={'true' if full else 'false'}{tail}>"), p
        many = x[:1].expand(264, cols)  # as many rows as an H200's SMs twice: rule 0b leaves them
        a = cuda_softmax.plan(many, "softmax", "auto")
        if not _takes_unpacked_clusters(many):  # clusters of 9 or more CTAs give way to block_hybrid's
            assert (a["variant"], a["reason_code"]) == ("block_hybrid", "cluster_hybrid"), a
            assert p["cluster_size"] >= limit("UNPACK_YIELD_MIN_CTAS"), p
        else:
            assert (a["variant"], a["reason_code"]) == ("cluster_regs", "unpacked_clusters"), a
            assert f"over a cluster of {p['cluster_size']} {threads}-thread CTAs" in a["reason"], a
            assert (f"and {p['smem_bytes']} B of shared memory" in a["reason"]) == smem, a
    for view in (base[:, 1:cols + 1], make_rows(3, cols + 1, dtype, "cuda", seed=3)):
        assert not cuda_softmax.plan(view, "softmax", "cluster_regs")["unpacked"], view.shape
    specials = special_rows(cols, dtype, "cuda", seed=cols)
    for rows in (x, specials):
        for op in OPS:
            run_and_check(Target("cuda", op, "cluster_regs"), rows)
            run_and_check(Target("cuda", op, "auto"), rows)


# -- the planner's answers: auto, refusals, the cache ---------------------------------------

@pytest.mark.parametrize("cols", [128, 4096, 16384, 65536])
@pytest.mark.parametrize("dtype", DTYPES.values(), ids=DTYPES.keys())
def test_alignment_never_changes_the_auto_choice(dtype, cols):
    """auto decides on the width, dtype, rows and GPU; a misaligned view only narrows the
    pack inside the chosen kernel (the plan is cached per alignment class)."""
    base = make_rows(9, cols + 8, dtype, "cuda", seed=cols)
    aligned = cuda_softmax.plan(base[:8, :cols], "softmax", "auto")
    for view in (base[:8, 1:cols + 1], base.view(-1)[3:3 + 8 * cols].view(8, cols)):
        p = cuda_softmax.plan(view, "softmax", "auto")
        assert (p["variant"], p["reason_code"], p["reason"]) == (aligned["variant"], aligned["reason_code"],
                                                                   aligned["reason"])
        assert p["pack"] <= aligned["pack"] and p["pack"] == _max_pack(view), p
    assert cuda_softmax.plan(base[:8, :cols], "softmax", "auto") == aligned, "a cached plan answers the same"


def test_explicit_plans_say_requested():
    x = make_rows(4, 2048, torch.float32, "cuda")
    for variant in cuda_softmax.LADDER:
        p = cuda_softmax.plan(x, "softmax", variant)
        assert (p["variant"], p["reason_code"], p["reason"]) == (variant, "requested", "requested")


@pytest.mark.parametrize(("variant", "cols", "kernel"), [
    ("naive", 100, "softmax_naive_kernel<float>"),
    ("coalesced", 100, "softmax_ladder_kernel<float, coalesced=true, shuffle=false>"),
    ("warp_per_row", 512, "softmax_warp_per_row_kernel<float, pack=4, cols_per_thread=16, rows_per_access=1>"),
    ("warp_per_row", 128, "softmax_warp_per_row_kernel<float, pack=4, cols_per_thread=8, rows_per_access=1>"),
    ("warp_per_row", 4, "softmax_warp_per_row_kernel<float, pack=4, cols_per_thread=4, rows_per_access=4>"),
    ("block_smem", 4096, "softmax_block_smem_kernel<float, pack=4>"),
    ("cluster_regs", 16384, "softmax_cluster_regs_kernel<float, pack=4, bytes_per_thread=128, max_threads=512>"),
    ("cluster_regs", 32768, "softmax_cluster_regs_kernel<float, pack=4, bytes_per_thread=128, max_threads=1024>"),
])
def test_plan_names_the_kernel_instance(variant, cols, kernel):
    assert cuda_softmax.plan(make_rows(4, cols, torch.float32, "cuda"), "softmax", variant)["kernel"] == kernel


@pytest.mark.parametrize(("dtype", "cols", "geometry"), [
    (torch.float32, 128, (16, 8, 1)),    # two packs per lane (kWarpRowLanePacks32)
    (torch.float32, 1024, (32, 32, 1)),  # the widest: a warp of 8 packs each
    (torch.bfloat16, 128, (4, 32, 1)),   # four packs per lane: a group loads 64 B of a row
    (torch.float16, 64, (4, 16, 1)),     # four would leave 2 lanes loading 32 B: two packs
    (torch.bfloat16, 8, (1, 8, 4)),      # a row of one pack: four rows per access
    (torch.bfloat16, 129, (4, 32, 1)),   # 4 lanes of four packs, read in three parts: one row
    (torch.bfloat16, 136, (8, 24, -1)),  # 8 lanes of three packs, whole: kWarpRowRows16Narrow
    (torch.bfloat16, 197, (8, 24, 1)),   # 8 lanes of three packs, in three parts: one row
    (torch.float16, 384, (16, 24, -1)),  # 16 lanes of three packs: kWarpRowRows16Narrow
    (torch.bfloat16, 511, (16, 32, 1)),  # 16 lanes of four packs, in three parts, 63 of 64: one row
    (torch.bfloat16, 457, (16, 32, -1)),  # 57 of 64, in three parts: kWarpRowRows16Narrow
    (torch.float16, 801, (32, 32, 0)),   # 100 of 128, in three parts: kWarpRowRows16Wide
    (torch.bfloat16, 512, (16, 32, 1)),  # 16 lanes of four packs, full: one row per group
    (torch.bfloat16, 392, (16, 32, -1)),  # 49 of 64 four packs full: kWarpRowRows16Narrow
    (torch.float16, 800, (32, 32, 0)),   # 100 of 128: kWarpRowRows16Wide
    (torch.float16, 577, (32, 24, 0)),   # 32 lanes of three packs: kWarpRowRows16Wide rows (0)
    (torch.bfloat16, 1024, (32, 32, 1)),  # four packs: one row per group
    (torch.float32, 4, (1, 4, 4)),
    (torch.float32, 200, (32, 8, -2)),   # fp32, 32 lanes of two packs: kWarpRowRows32
    (torch.float32, 232, (32, 8, -2)),   # 58 of 64 two packs full: still two rows
    (torch.float32, 263, (32, 12, -2)),  # 32 lanes of three packs, in three parts
    (torch.float32, 384, (32, 12, 1)),   # every lane's three packs full: one row
    (torch.float32, 520, (32, 24, 1)),   # five packs (the instance of 24): one row
])
def test_warp_per_row_lane_packs(dtype, cols, geometry):
    """The forward's lane group is the fewest lanes that hold the row at the dtype's packs
    per lane (warp_per_row.cuh: kWarpRowLanePacks16/32, kWarpRowMinGroupBytes); 16-bit
    rows of three packs (and of four, whole and at most 4/5 full) take WARP_ROW_ROWS16_WIDE
    rows per group on 32 lanes (0 above) and WARP_ROW_ROWS16_NARROW on 16, and on 8 for rows
    not read in three parts (-1 above; rows of four packs read in three parts at most 15/16
    full on 16 and 32 lanes too), fp32
    rows of two packs on 32 lanes that fill at most 15/16 of them, or of three that fill at
    most 4/5, WARP_ROW_ROWS32 (-2 above), on GPUs of
    WARP_ROW_TWO_ROWS_MIN_SM_BANDWIDTH of DRAM bandwidth per SM (the H200's 37 GB/s, not
    the H100's 25), one elsewhere. test_cuda_compile.py checks the same rule at every
    width without a GPU."""
    p = cuda_softmax.plan(make_rows(4, cols, dtype, "cuda"), "softmax", "warp_per_row")
    if geometry[2] <= 0:
        two = _sm_bandwidth(cuda_softmax.gpu_properties(0)) >= limit("WARP_ROW_TWO_ROWS_MIN_SM_BANDWIDTH")
        rows = limit({0: "WARP_ROW_ROWS16_WIDE", -1: "WARP_ROW_ROWS16_NARROW", -2: "WARP_ROW_ROWS32"}[geometry[2]])
        geometry = (*geometry[:2], rows if two else 1)
    assert (p["group_width"], p["cols_per_thread"], p["rows_per_access"]) == geometry, p


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
@pytest.mark.parametrize("cols", [136, 197, 199, 264, 300, 391, 520, 577, 768, 200, 216, 408, 401, 457, 800, 801,
                                  816, 897, 1024])
def test_warp_per_row_three_and_four_pack_rows(dtype, cols):
    """16-bit rows of three packs a lane (several rows per group on GPUs of
    WARP_ROW_TWO_ROWS_MIN_SM_BANDWIDTH) on 8, 16 and 32 lanes, whole (136, 264, 520, 768)
    and read in three parts (197, 199, 300, 391, 577), and of four (several rows where
    whole and at most 4/5 full: 200, 408, 800, 816; in three parts and at most 15/16 full:
    401, 457, 801, 897; one: 216, 1024), at row counts
    that leave a group part of its rows (3, 65, 1001), every value against float64."""
    for rows in (1, 3, 65, 1001):
        x = make_rows(rows, cols, dtype, "cuda", seed=cols + rows)
        for op in OPS:
            run_and_check(Target("cuda", op, "warp_per_row"), x)


@pytest.mark.parametrize("cols", [132, 155, 192, 195, 196])
def test_warp_per_row_fp32_rows_of_33_to_48_packs_take_16_lanes(cols):
    """fp32 rows of 33 to WARP_ROW_NARROW32_MAX_PACKS 16-byte packs (132-195 columns) take
    16 lanes of three packs, WARP_ROW_ROWS32 rows a group, on GPUs of
    WARP_ROW_TWO_ROWS_MIN_SM_BANDWIDTH of DRAM bandwidth per SM; elsewhere, and past the
    limit (196: 49 packs), 32 lanes of two packs (two rows a group there where they fill at
    most 15/16 of them)."""
    assert limit("WARP_ROW_NARROW32_MAX_PACKS") == 48
    p = cuda_softmax.plan(make_rows(4, cols, torch.float32, "cuda"), "softmax", "warp_per_row")
    fast = _sm_bandwidth(cuda_softmax.gpu_properties(0)) >= limit("WARP_ROW_TWO_ROWS_MIN_SM_BANDWIDTH")
    rows32 = limit("WARP_ROW_ROWS32") if fast else 1
    expected = (16, 12, rows32) if fast and cols // 4 <= 48 else (32, 8, rows32)
    assert (p["group_width"], p["cols_per_thread"], p["rows_per_access"]) == expected, p


@pytest.mark.parametrize("cols", [132, 136, 155, 176, 192, 195, 201, 216, 233, 240, 256, 263, 288, 300, 384])
def test_warp_per_row_fp32_rows_of_two_and_three_packs(cols):
    """fp32 rows of two or three packs a lane on 32 lanes (two rows per group on GPUs of
    WARP_ROW_TWO_ROWS_MIN_SM_BANDWIDTH where they fill at most 15/16 of two packs or 4/5 of
    three) or on 16 lanes (132-195 on those GPUs), whole (132, 136, 176, 192, 216, 240,
    256, 300, 384) and read in three parts (155, 195, 201, 233, 263), at row counts that
    leave a group part of its rows (3, 65, 1001), every value against float64."""
    for rows in (1, 3, 65, 1001):
        x = make_rows(rows, cols, torch.float32, "cuda", seed=cols + rows)
        for op in OPS:
            run_and_check(Target("cuda", op, "warp_per_row"), x)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_backward_16bit_rows_over_8kb_take_64_bytes_per_thread(dtype):
    """cluster_regs.cuh's kGradRegsMinBytes16: a 16-bit row of 8192 (16 KB) in one CTA of
    256 threads at 64 B of y and of dy each, not 512 at 32 B; 4096 (8 KB) keeps 32 B."""
    for cols, threads, bytes_per_thread in ((8192, 256, 64), (4096, 256, 32)):
        y = make_rows(4, cols, dtype, "cuda")
        p = cuda_softmax.plan(y, "softmax_backward", "cluster_regs", dy=y)
        assert p["cluster_size"] == 1 and p["group_width"] == threads, p
        assert p["cols_per_thread"] * y.element_size() == bytes_per_thread, p


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_warp_per_row_holds_16_bit_rows_in_16_byte_packs_to_twice_the_width(dtype):
    """kWarpRowMaxCols16: the forward's 16-bit rows read in 16-byte packs, whole or
    realigned (odd widths), up to WARP_PER_ROW_MAX_COLS_16BIT at 40-64 values per lane,
    and `auto` takes them there; past it, or in narrower packs (a view off its 8-byte
    boundary), the variant declines and says why, and `auto` takes the block paths.
    Every element against float64, outputs poisoned first (run_and_check)."""
    widest = limit("WARP_PER_ROW_MAX_COLS_16BIT")
    assert widest == 2 * limit("WARP_PER_ROW_MAX_COLS")
    for cols, values in ((1040, 40), (1500, 48), (2047, 64), (widest, 64)):
        x = make_rows(7, cols, dtype, "cuda", seed=cols)
        p = cuda_softmax.plan(x, "softmax", "warp_per_row")
        assert (p["status"], p["pack"], p["group_width"], p["cols_per_thread"]) == ("ok", 8, 32, values), p
        assert cuda_softmax.plan(x, "softmax", "auto")["variant"] == "warp_per_row"
        for op in OPS:
            run_and_check(Target("cuda", op, "warp_per_row"), x)
            run_and_check(Target("cuda", op, "auto"), x)
    x = make_rows(2, widest + 1, dtype, "cuda")
    assert "WARP_PER_ROW_MAX_COLS_16BIT = " + str(widest) in cuda_softmax.why_unsupported(x, "softmax", "warp_per_row")
    narrow = make_rows(3, 1040 * 3 + 2, dtype, "cuda").view(-1)[1:1 + 3 * 1040].view(3, 1040)   # 2-byte aligned
    why = cuda_softmax.why_unsupported(narrow, "softmax", "warp_per_row")
    assert why is not None and "16-byte packs" in why, why
    assert cuda_softmax.plan(narrow, "softmax", "auto")["variant"] != "warp_per_row"
    run_and_check(Target("cuda", "softmax", "auto"), narrow)
    y = make_rows(2, 1040, dtype, "cuda")
    assert cuda_softmax.plan(y, "softmax_backward", "warp_per_row", dy=y)["status"] == "too_wide_for_warp"


@pytest.mark.parametrize(("variant", "limit_name"), [("naive", "NAIVE_MAX_COLS"),
                                                      ("warp_per_row", "WARP_PER_ROW_MAX_COLS")])
def test_static_limits_are_the_planners(variant, limit_name):
    """The planner refuses exactly past its constant; why_unsupported and run say why."""
    cols = limit(limit_name)
    assert cuda_softmax.plan(make_rows(2, cols, torch.float32, "cuda"), "softmax", variant)["status"] == "ok"
    x = make_rows(2, cols + 1, torch.float32, "cuda")
    p = cuda_softmax.plan(x, "softmax", variant)
    assert p["status"] == {"naive": "too_wide_for_naive", "warp_per_row": "too_wide_for_warp"}[variant]
    why = cuda_softmax.why_unsupported(x, "softmax", variant)
    assert f"{limit_name} = {cols}" in why and str(cols + 1) in why
    with pytest.raises(ValueError, match=re.escape(why)):
        cuda_softmax.run(x, "softmax", variant)


@pytest.mark.parametrize("shape", [(0, 7), (7, 0), (0, 0)])
def test_the_op_module_serves_empty_inputs(shape):
    """The public API answers empty tensors without a launch (the matrix's empty cases);
    the op module, called directly, must too: no variant declines them, and run returns
    the empty result without launching a grid of 0 blocks."""
    x = torch.empty(shape, device="cuda")
    for variant in VARIANTS:
        assert cuda_softmax.why_unsupported(x, "softmax", variant) is None
        assert cuda_softmax.run(x, "softmax", variant).shape == shape


# -- gradients recorded in C++ (bindings.cpp SoftmaxWithGrad) --------------------------------

def _node_name(y: torch.Tensor) -> str:
    return type(y.grad_fn).__name__ + " " + y.grad_fn.name()


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
@pytest.mark.parametrize("shape, dim", [((7, 3000), -1), ((3, 70000), 1), ((4, 5, 129), 1), ((1000,), 0),
                                        ((2, 6, 40), -1)])
@pytest.mark.parametrize("backend", ["cuda", "auto"])
def test_eager_gradients_are_recorded_in_cpp_and_agree(op, dtype, shape, dim, backend):
    """`auto` forwards on the cuda backend record their gradient in C++ (no Python
    autograd.Function), through any view the dim makes, and agree with float64 autograd."""
    if backend == "auto" and comparison.dispatch.route("auto", torch.empty(1, 1, dtype=dtype, device="cuda"),
                                                       op, "auto")[0] is not BACKEND:
        pytest.skip("auto does not choose cuda for this dtype here")
    d = dim % len(shape)

    def laid_out(rows2d: torch.Tensor) -> torch.Tensor:  # rows of the tensor along `dim`
        return rows2d.reshape(*shape[:d], *shape[d + 1:], shape[d]).movedim(-1, d)
    x = laid_out(make_rows(math.prod(shape) // shape[d], shape[d], dtype, "cuda", seed=5)).requires_grad_(True)
    y = getattr(comparison, op)(x, dim, backend=backend)
    nodes, node = set(), y.grad_fn
    while node is not None:  # the kernel's node sits under the views that undo dim's layout
        nodes.add(node.name())
        node = node.next_functions[0][0] if node.next_functions else None
    assert any("SoftmaxWithGrad" in name for name in nodes), nodes
    dy = laid_out(make_gradient(math.prod(shape) // shape[d], shape[d], dtype, "cuda", seed=6))
    (dx,) = torch.autograd.grad(y, x, dy)
    assert dx.shape == x.shape and dx.dtype == dtype
    result = gradient_agreement(op, x.detach(), dy, dx, dim)
    assert result.ok, result.summary()


@pytest.mark.parametrize("op", OPS)
def test_cpp_gradient_takes_expanded_and_other_dtype_gradients(op):
    x = make_rows(5, 777, torch.float32, "cuda", seed=8).requires_grad_(True)
    y = getattr(comparison, op)(x, backend="cuda")
    (dx,) = torch.autograd.grad(y.sum(), x)  # dy: ones expanded, strides (0, 0)
    x64 = x.detach().double().requires_grad_(True)
    (ref,) = torch.autograd.grad(getattr(torch, op)(x64, -1).sum(), x64)
    torch.testing.assert_close(dx.double(), ref, atol=2e-6, rtol=1e-5)
    xh = make_rows(5, 777, torch.float16, "cuda", seed=9).requires_grad_(True)
    yh = getattr(comparison, op)(xh, backend="cuda")
    (dxh,) = torch.autograd.grad(yh.float().sum(), xh)  # dy arrives as fp16 from the cast's node
    assert dxh.dtype == torch.float16 and torch.isfinite(dxh).all()


@pytest.mark.parametrize("op", OPS)
def test_cpp_gradient_refuses_double_backward_only_when_asked(op):
    check_double_backward_refused(op, "cuda", "cuda", "cannot be differentiated again")


@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs a second CUDA GPU")
@pytest.mark.parametrize("op", OPS)
def test_cpp_gradient_on_a_second_device(op):
    """The node's backward runs on autograd's thread for cuda:1: on y's device and stream."""
    x = make_rows(9, 3000, torch.bfloat16, "cuda:1", seed=12).requires_grad_(True)
    current = torch.cuda.current_device()
    y = getattr(comparison, op)(x, backend="cuda")
    dy = make_gradient(9, 3000, torch.bfloat16, "cuda:1", seed=13)
    (dx,) = torch.autograd.grad(y, x, dy)
    assert dx.device == x.device and torch.cuda.current_device() == current
    result = gradient_agreement(op, x.detach(), dy, dx, -1)
    assert result.ok, result.summary()


def test_named_variants_and_no_grad_keep_their_paths():
    x = make_rows(3, 500, torch.float32, "cuda", seed=11).requires_grad_(True)
    assert "SoftmaxFunction" in type(comparison.softmax(x, backend="cuda", variant="online").grad_fn).__name__
    with torch.no_grad():
        assert comparison.softmax(x, backend="cuda").grad_fn is None
    assert comparison.softmax(x.detach(), backend="cuda").grad_fn is None
