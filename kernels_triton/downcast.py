"""fp32 results stored as fp32, fp16 or bf16, rounded to nearest even on every device.

Compiled for a GPU, ``.to(dtype)`` is a cvt.rn (round to nearest, ties to even), as torch
rounds. Triton's CPU interpreter converts fp16 through numpy (also round to nearest
even) but fp32 -> bf16 by truncation (it ignores ``fp_downcast_rounding="rtne"``), which
biases about half of all values by one unit in the last place and every softmax row sum
with them. So kernels take an INTERPRETER constexpr and, under the interpreter, round
bf16 in the fp32 bits first (`bf16_bits`); compiled, the code is the plain ``.to``.
"""
import triton
import triton.language as tl


@triton.jit
def bf16_bits(y):
    """uint32 words whose low halves are the bfloat16 bits of fp32 `y` rounded to nearest
    even, from y's bits: add 0x7FFF plus the lowest bit kept (a tie rounds to the even
    neighbour), keep the high half. Exact for all finite values, subnormals included;
    inf stays inf and values past the largest bf16 round to inf, as cvt.rn does. A NaN
    could round into the exponent (0x7F800001 + 0x7FFF is inf), so NaN gives the quiet
    NaN 0x7FC0 (NaN payloads differ between devices anyway: cvt.rn gives 0x7FFF)."""
    u = y.to(tl.uint32, bitcast=True)
    r = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    return tl.where(y != y, 0x7FC0, r)


@triton.jit
def rounded(y, dtype: tl.constexpr, INTERPRETER: tl.constexpr):
    """fp32 `y` as `dtype`, rounded to nearest even: ``y.to(dtype)``, except bf16 under
    the interpreter (see the module docstring)."""
    if INTERPRETER and dtype == tl.bfloat16:
        return bf16_bits(y).to(tl.uint16).to(tl.bfloat16, bitcast=True)
    else:
        return y.to(dtype)
