"""16-bit rows held as pairs: two fp16/bf16 values in each 32-bit word, widened on use.

Triton widens a loaded fp16/bf16 tensor to fp32 once and keeps the fp32 copy live, so a
thread holding 64 values of a row needs 64 registers for them (a 16-bit row costs the
registers of an fp32 row twice as wide). Loading the row as uint32 words instead keeps
it at 32 registers, and each pass over the row re-widens the words it needs: a shift
for bf16, a cvt for fp16, one instruction per value.

That only saves registers if the compiler does not merge the passes' widenings into one
value (common-subexpression elimination) and keep it live across the block reductions
between them. So each pass can use its own `form` of the same conversion: form 0 is
plain Triton, forms 1 and 2 are inline PTX that LLVM cannot see through. ptxas still
merges forms that compile to the same instructions (bf16's form 1 is form 0's shift and
mask; every fp16 form ends in the same conversion), so where a kernel holds its words
across more than a reduction, its passes also read words `apart`: ORed with a zero the
compiler cannot prove. Under Triton's CPU interpreter, which has no inline PTX (and no
registers to save), every form is form 0: callers pass their INTERPRETER constexpr.

A word holds values 2k (low half) and 2k + 1 (high half) of the row: the little-endian
layout of the 16-bit tensor itself, so loads and stores move the same bytes.
"""
import triton
import triton.language as tl

from . import downcast, softmax_rows
from .softmax_rows import LN2, LOG2E

# Two -inf halves: the padding of masked words (never wins a max; exp gives 0).
NEG_INF_PAIR_BF16 = tl.constexpr(0xFF80FF80)
NEG_INF_PAIR_FP16 = tl.constexpr(0xFC00FC00)


@triton.jit
def neg_inf_pair(BF16: tl.constexpr):
    if BF16:
        return NEG_INF_PAIR_BF16
    else:
        return NEG_INF_PAIR_FP16


@triton.jit
def _asm_f32(w, asm: tl.constexpr):
    return tl.inline_asm_elementwise(asm, "=r,r", [w], dtype=tl.float32, is_pure=True, pack=1)


@triton.jit
def low(w, BF16: tl.constexpr, FORM: tl.constexpr, INTERPRETER: tl.constexpr):
    """fp32 of the low halves of uint32 words `w`."""
    if INTERPRETER or FORM == 0:
        if BF16:
            return (w << 16).to(tl.float32, bitcast=True)
        else:
            return (w & 0xFFFF).to(tl.uint16).to(tl.float16, bitcast=True).to(tl.float32)
    elif FORM == 1:
        if BF16:
            return _asm_f32(w, "shl.b32 $0, $1, 16;")
        else:
            return _asm_f32(w, "{ .reg .b16 l, h; mov.b32 {l, h}, $1; cvt.f32.f16 $0, l; }")
    else:
        if BF16:
            return _asm_f32(w, "prmt.b32 $0, $1, $1, 0x1044; and.b32 $0, $0, 0xFFFF0000;")
        else:
            return _asm_f32(w, "{ .reg .b16 l; cvt.u16.u32 l, $1; cvt.f32.f16 $0, l; }")


@triton.jit
def high(w, BF16: tl.constexpr, FORM: tl.constexpr, INTERPRETER: tl.constexpr):
    """fp32 of the high halves of uint32 words `w`."""
    if INTERPRETER or FORM == 0:
        if BF16:
            return (w & 0xFFFF0000).to(tl.float32, bitcast=True)
        else:
            return (w >> 16).to(tl.uint16).to(tl.float16, bitcast=True).to(tl.float32)
    elif FORM == 1:
        if BF16:
            return _asm_f32(w, "and.b32 $0, $1, 0xFFFF0000;")
        else:
            return _asm_f32(w, "{ .reg .b16 l, h; mov.b32 {l, h}, $1; cvt.f32.f16 $0, h; }")
    else:
        if BF16:
            return _asm_f32(w, "prmt.b32 $0, $1, $1, 0x3244; and.b32 $0, $0, 0xFFFF0000;")
        else:
            return _asm_f32(w, "{ .reg .b32 t; .reg .b16 h; shr.b32 t, $1, 16; cvt.u16.u32 h, t; cvt.f32.f16 $0, h; }")


@triton.jit
def pack(lo, hi, BF16: tl.constexpr, INTERPRETER: tl.constexpr):
    """uint32 words of fp32 `lo` and `hi` rounded to 16 bits (nearest even): one
    cvt.rn.{bf16x2,f16x2}.f32 per word on the GPU; under the interpreter bf16 is rounded
    in the fp32 bits (downcast.py: its conversion truncates), fp16 by numpy."""
    if INTERPRETER:
        if BF16:
            lo16 = downcast.bf16_bits(lo)
            hi16 = downcast.bf16_bits(hi)
        else:
            lo16 = lo.to(tl.float16).to(tl.uint16, bitcast=True).to(tl.uint32)
            hi16 = hi.to(tl.float16).to(tl.uint16, bitcast=True).to(tl.uint32)
        return lo16 | (hi16 << 16)
    else:
        if BF16:
            return tl.inline_asm_elementwise("cvt.rn.bf16x2.f32 $0, $2, $1;", "=r,r,r", [lo, hi],
                                             dtype=tl.uint32, is_pure=True, pack=1)
        else:
            return tl.inline_asm_elementwise("cvt.rn.f16x2.f32 $0, $2, $1;", "=r,r,r", [lo, hi],
                                             dtype=tl.uint32, is_pure=True, pack=1)



@triton.jit
def max2(a, b, BF16: tl.constexpr):
    """Words of the halfwise maxima of words `a` and `b`, without widening either: one
    max.{bf16x2,f16x2} per word (inline PTX: GPU only). Where one half is NaN it may
    give the other; callers get NaN rows from their sums instead."""
    if BF16:
        return tl.inline_asm_elementwise("max.bf16x2 $0, $1, $2;", "=r,r,r", [a, b],
                                         dtype=tl.uint32, is_pure=True, pack=1)
    else:
        return tl.inline_asm_elementwise("max.f16x2 $0, $1, $2;", "=r,r,r", [a, b],
                                         dtype=tl.uint32, is_pure=True, pack=1)


# -- what the softmax kernels compute on words ------------------------------------------------
# The forward widens its words in form 1 for the max, form 0 for the sum of exps and form 2
# for the output; the backward in form 0 for the sum and form 2 for dx (form 1's shift and
# mask are the very instructions form 0 compiles to, which ptxas merges, then spills the
# widened values across the sum's reduction: 52 bytes at 64 registers in `fused`).

@triton.jit
def apart(w, zero):
    """Words `w` OR-ed with `zero`: 0 at run time wherever the result depends on the
    words (a ticket's sign bit; a NaN test of the row's max or sum, whose row is NaN
    whatever the words), but not provably 0 to the compiler, so a pass over these words
    widens them anew instead of reusing another pass's widened values, which would then
    stay live across whatever lies between the passes. Forms alone did not prevent that in `split_oneshot` (sm_90,
    the bf16 forward: 168 registers, 3 programs per SM, against 115 and 4 with its sum's
    and its output's words apart, Triton 3.6; 221 against 139, Triton 3.9; the fp16
    softmax backward of one chunk a row, Triton 3.9: 255 registers and 64-80 bytes
    spilled, against 172-176 and none)."""
    return w | zero.to(tl.uint32)


@triton.jit
def maxima(w, BF16: tl.constexpr, INTERPRETER: tl.constexpr):
    """fp32 of the larger half of each word (form 1)."""
    return tl.maximum(low(w, BF16, 1, INTERPRETER), high(w, BF16, 1, INTERPRETER))


@triton.jit
def exps(w, m, BF16: tl.constexpr, INTERPRETER: tl.constexpr):
    """exp(lo - m) + exp(hi - m) of each word (form 0)."""
    return (tl.exp2((low(w, BF16, 0, INTERPRETER) - m) * LOG2E)
            + tl.exp2((high(w, BF16, 0, INTERPRETER) - m) * LOG2E))


@triton.jit
def output(w, m, d, LOG_SOFTMAX: tl.constexpr, BF16: tl.constexpr, INTERPRETER: tl.constexpr):
    """Output words of words `w` from the row's max m and sum d (form 2). Softmax puts
    the normaliser inside the exponent, so that no exp is computed before the sum's
    reduction and kept live across it (under 1e-6 relative error: far below 16-bit
    precision)."""
    if LOG_SOFTMAX:
        ln_d = tl.log2(d) * LN2
        y_lo = (low(w, BF16, 2, INTERPRETER) - m) - ln_d
        y_hi = (high(w, BF16, 2, INTERPRETER) - m) - ln_d
    else:
        log2_d = tl.log2(d)
        y_lo = tl.exp2((low(w, BF16, 2, INTERPRETER) - m) * LOG2E - log2_d)
        y_hi = tl.exp2((high(w, BF16, 2, INTERPRETER) - m) * LOG2E - log2_d)
    return pack(y_lo, y_hi, BF16, INTERPRETER)


@triton.jit
def grad_terms(wy, wg, LOG_SOFTMAX: tl.constexpr, BF16: tl.constexpr, INTERPRETER: tl.constexpr):
    """What each word pair of y and dy adds to the row's sum (softmax_rows.grad_term, form 0)."""
    return (softmax_rows.grad_term(low(wy, BF16, 0, INTERPRETER), low(wg, BF16, 0, INTERPRETER), LOG_SOFTMAX)
            + softmax_rows.grad_term(high(wy, BF16, 0, INTERPRETER), high(wg, BF16, 0, INTERPRETER), LOG_SOFTMAX))


@triton.jit
def grad_halves(wy, wg, s, LOG_SOFTMAX: tl.constexpr, BF16: tl.constexpr, INTERPRETER: tl.constexpr):
    """fp32 dx of the low and of the high halves, from words of y and dy and the row's
    sum s (softmax_rows.grad_out, form 2); `pack` makes them words."""
    lo = softmax_rows.grad_out(low(wy, BF16, 2, INTERPRETER), low(wg, BF16, 2, INTERPRETER), s, LOG_SOFTMAX)
    hi = softmax_rows.grad_out(high(wy, BF16, 2, INTERPRETER), high(wg, BF16, 2, INTERPRETER), s, LOG_SOFTMAX)
    return lo, hi
