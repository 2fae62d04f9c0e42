// The element types as run-time codes: the launchers' dtype argument. The codes are
// written once, in dtypes.def, which kernels_cuda/codes.py reads too.
//
// Plain C++ (no CUDA headers), like softmax/plan.cuh and reduce/plan.cuh, so that
// tests/test_cuda_compile.py can compile the code tables on their own.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace sk {

// The code tables are enums scoped by a struct: names as DType::float32, values plain
// int64_t, the currency of the bindings.
struct DType {
  enum Code : int64_t {
#define SK_DTYPE(name, code, ctype) name = code,
#include "common/dtypes.def"
#undef SK_DTYPE
  };
};

inline int dtype_size(int64_t dtype) {
  switch (dtype) {
    case DType::float32: return 4;
    case DType::float16: return 2;
    case DType::bfloat16: return 2;
    default: throw std::invalid_argument("unknown dtype code " + std::to_string(dtype));
  }
}

// The C++ element type of a dtype code, as kernel instance names spell it.
inline const char* dtype_name(int64_t dtype) {
  switch (dtype) {
#define SK_DTYPE(name, code, ctype) \
  case DType::name:                 \
    return ctype;
#include "common/dtypes.def"
#undef SK_DTYPE
    default: throw std::invalid_argument("unknown dtype code " + std::to_string(dtype));
  }
}

}  // namespace sk
