// What a softmax plan is: the code tables shared with Python (the .def files beside this
// one), the problem a plan is made for, the plan (every launch-geometry number, the
// kernel, why it runs), and the cache that keeps plans.
//
// Plain C++ (no CUDA headers), so that tests/test_cuda_compile.py can compile the code
// tables on their own and compare them with what kernels_cuda/codes.py reads.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common/dtypes.cuh"

namespace sk {
namespace softmax {

// Variant codes (variants.def); kAuto asks the planner to choose (`auto` is a C++ keyword).
struct Variant {
  enum Code : int64_t {
#define SK_SOFTMAX_VARIANT(name, code, doc) name = code,
#define SK_SOFTMAX_AUTO(name, code, doc) kAuto = code,
#include "softmax/variants.def"
#undef SK_SOFTMAX_AUTO
#undef SK_SOFTMAX_VARIANT
  };
};

struct PlanStatus {
  enum Code : int64_t {
#define SK_PLAN_STATUS(name, code, doc) name = code,
#include "softmax/plan_status.def"
#undef SK_PLAN_STATUS
  };
};

struct AutoReason {
  enum Code : int64_t {
#define SK_AUTO_REASON(name, code, doc) name = code,
#include "softmax/auto_reasons.def"
#undef SK_AUTO_REASON
  };
};

// The names of the codes, for messages and kernel names.
inline std::string variant_name(int64_t variant) {
  switch (variant) {
#define SK_SOFTMAX_VARIANT(name, code, doc) \
  case Variant::name:                       \
    return #name;
#define SK_SOFTMAX_AUTO(name, code, doc) \
  case Variant::kAuto:                   \
    return #name;
#include "softmax/variants.def"
#undef SK_SOFTMAX_AUTO
#undef SK_SOFTMAX_VARIANT
    default: return "variant " + std::to_string(variant);
  }
}

inline std::string status_name(int64_t status) {
  switch (status) {
#define SK_PLAN_STATUS(name, code, doc) \
  case PlanStatus::name:                \
    return #name;
#include "softmax/plan_status.def"
#undef SK_PLAN_STATUS
    default: return "status " + std::to_string(status);
  }
}

// Device memory a launch needs beside its input and output (a plan's workspace_bytes):
// bytes -> address, allocated by the caller on the launch's stream.
using Workspace = std::function<uint64_t(int64_t bytes)>;

// The input a plan is made for: x (rows, cols) with row stride `stride` elements and
// unit column stride, y contiguous. Only the pointers' alignment matters to a plan.
// Backward plans: x is the forward output y, y the gradient dx, and g the incoming
// gradient dy with its own row stride (zero in forward problems, where nothing reads it).
struct Problem {
  uint64_t x;
  uint64_t y;
  int64_t rows;
  int64_t cols;
  int64_t stride;
  int device;
  uint64_t g = 0;
  int64_t g_stride = 0;
};

// Every launch decision for one problem (fields from plan_fields.def), the kernel, and
// why it is the one.
struct Plan {
#define SK_PLAN_FIELD(name, code, doc) int64_t name = 0;
#include "softmax/plan_fields.def"
#undef SK_PLAN_FIELD
  const void* kernel = nullptr;      // the kernel instance to launch (status ok)
  const void* log_kernel = nullptr;  // log-softmax's instance where the mode is compiled in (else kernel)
  std::string kernel_name;           // that instance with its template arguments, for plan()
  std::string reason = "requested";  // why auto chose the variant, with the numbers

  static constexpr size_t kFieldCount = 0
#define SK_PLAN_FIELD(name, code, doc) +1
#include "softmax/plan_fields.def"
#undef SK_PLAN_FIELD
      ;

  // The fields laid out by their codes (0..n-1): what softmax_plan returns.
  std::vector<int64_t> fields() const {
    std::vector<int64_t> out(kFieldCount);
#define SK_PLAN_FIELD(name, code, doc) out.at(code) = name;
#include "softmax/plan_fields.def"
#undef SK_PLAN_FIELD
    return out;
  }
};

// Plans by everything that changes them: device, dtype, the variant requested (kAuto
// included), rows, cols, row strides and the 16-byte alignment class of x, y and g (the
// pack width depends on nothing else). A hit costs one map lookup, where planning costs
// occupancy lookups and, for auto, up to four trial plans. Bounded: when full, it starts
// over (a workload that cycles through more shapes than that pays planning again).
class PlanCache {
 public:
  static constexpr size_t kCapacity = 4096;

  template <typename Make>
  std::shared_ptr<const Plan> get(int64_t dtype, int64_t variant, const Problem& p, Make&& make) {
    const Key key{p.device, dtype, variant, p.rows, p.cols, p.stride, static_cast<int>(p.x % 16),
                  static_cast<int>(p.y % 16), static_cast<int>(p.g % 16), p.g_stride};
    {
      std::lock_guard<std::mutex> lock(mutex_);
      const auto it = plans_.find(key);
      if (it != plans_.end()) return it->second;
    }
    auto plan = std::make_shared<const Plan>(make());
    std::lock_guard<std::mutex> lock(mutex_);
    if (plans_.size() >= kCapacity) plans_.clear();
    plans_.emplace(key, plan);
    return plan;
  }

 private:
  using Key = std::tuple<int, int64_t, int64_t, int64_t, int64_t, int64_t, int, int, int, int64_t>;
  std::mutex mutex_;
  std::map<Key, std::shared_ptr<const Plan>> plans_;
};

}  // namespace softmax
}  // namespace sk
