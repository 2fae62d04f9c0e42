// What a reduction plan is: the code tables shared with Python (the .def files beside
// this one), the plan's numbers, and the steps both forms take (the variant `auto`
// runs, the pack width). The layouts' own rules are in reduce/rows.cuh and
// reduce/whole.cuh.
//
// Plain C++ (no CUDA headers), so that tests/test_cuda_compile.py can compile the code
// tables on their own and compare them with what kernels_cuda/codes.py reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sk_reduce {

// Variant codes (variants.def); kAuto asks the planner to choose (`auto` is a C++ keyword).
struct Variant {
  enum Code : int64_t {
#define SK_REDUCE_VARIANT(name, code, doc) name = code,
#define SK_REDUCE_AUTO(name, code, doc) kAuto = code,
#include "reduce/variants.def"
#undef SK_REDUCE_AUTO
#undef SK_REDUCE_VARIANT
  };
};

struct ReduceOp {
  enum Code : int64_t {
#define SK_REDUCE_OP(name, code, doc) name = code,
#include "reduce/ops.def"
#undef SK_REDUCE_OP
  };
};

struct Layout {
  enum Code : int64_t {
#define SK_REDUCE_LAYOUT(name, code, doc) name = code,
#include "reduce/layouts.def"
#undef SK_REDUCE_LAYOUT
  };
};

struct Plan {
#define SK_REDUCE_PLAN_FIELD(name, code, doc) int64_t name = 0;
#include "reduce/plan_fields.def"
#undef SK_REDUCE_PLAN_FIELD

  static constexpr size_t kFieldCount = 0
#define SK_REDUCE_PLAN_FIELD(name, code, doc) +1
#include "reduce/plan_fields.def"
#undef SK_REDUCE_PLAN_FIELD
      ;

  // The fields laid out by their codes (0..n-1): what reduce_plan returns.
  std::vector<int64_t> fields() const {
    std::vector<int64_t> out(kFieldCount);
#define SK_REDUCE_PLAN_FIELD(name, code, doc) out.at(code) = name;
#include "reduce/plan_fields.def"
#undef SK_REDUCE_PLAN_FIELD
    return out;
  }
};

// The input of either form: `rows` rows of `cols` elements `stride` apart (the whole
// tensor: one row of all its elements).
struct Problem {
  uint64_t x;
  int64_t rows;
  int64_t cols;
  int64_t stride;
  bool whole;
  int elem;  // bytes per element
};

// Threads per block at most (the block reductions and smem_tree's scratch are sized for it).
constexpr int kMaxThreads = 1024;
// Grids are persistent: as many blocks as stay resident, counting this many threads per
// SM (2048 on every GPU from sm_50 to sm_90).
constexpr int64_t kMaxThreadsPerSm = 2048;
constexpr int kPackBytes = 16;

// Whether `variant` is a Variant code (kAuto included).
inline bool is_variant(int64_t variant) {
  switch (variant) {
#define SK_REDUCE_VARIANT(name, code, doc) case Variant::name:
#define SK_REDUCE_AUTO(name, code, doc) case Variant::kAuto:
#include "reduce/variants.def"
#undef SK_REDUCE_AUTO
#undef SK_REDUCE_VARIANT
      return true;
    default:
      return false;
  }
}

// `auto` runs vectorized: with pack width 1 it is warp_xor, so it is never worse, and
// wide packs cut load instructions 4-8x.
inline int64_t resolve_variant(int64_t variant) { return variant == Variant::kAuto ? Variant::vectorized : variant; }

// Elements per load: 16 bytes' worth for `vectorized` when the data allow, else the
// widest power of two dividing the pointer offset, row stride and width (in elements;
// the whole tensor: the pointer only, its tail is handled in-kernel).
inline int pack_width(const Problem& p, int64_t variant) {
  if (variant != Variant::vectorized) return 1;
  int pack = kPackBytes / p.elem;
  while (pack > 1) {
    bool aligned = p.x % static_cast<uint64_t>(pack * p.elem) == 0;
    if (!p.whole) aligned = aligned && p.cols % pack == 0 && (p.rows == 1 || p.stride % pack == 0);
    if (aligned) break;
    pack /= 2;
  }
  return pack;
}

}  // namespace sk_reduce
