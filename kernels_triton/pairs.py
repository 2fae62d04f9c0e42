"""16-bit rows held as pairs: two fp16/bf16 values in each 32-bit word, widened on use.

Triton widens a loaded fp16/bf16 tensor to fp32 once and keeps the fp32 copy live, so a
thread holding 64 values of a row needs 64 registers for them (a 16-bit row costs the
registers of an fp32 row twice as wide). Loading the row as uint32 words instead keeps
it at 32 registers, and each pass over the row re-widens the words it needs: a shift
for bf16, a cvt for fp16, one instruction per value.

That only saves registers if the compiler does not merge the passes' widenings into one
value (common-subexpression elimination) and keep it live across the block reductions
between them. So each pass can use its own `form` of the same conversion: form 0 is
plain Triton, forms 1 and 2 are inline PTX that the compiler cannot see through, hence
cannot merge with each other or with form 0. Under Triton's CPU interpreter, which has
no inline PTX (and no registers to save), every form is form 0: callers pass their
INTERPRETER constexpr.

A word holds values 2k (low half) and 2k + 1 (high half) of the row: the little-endian
layout of the 16-bit tensor itself, so loads and stores move the same bytes.
"""
import triton
import triton.language as tl

from . import downcast

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
