#pragma once
// Reductions and scans over any axes.
#include <optional>
#include <vector>

#include "kiln/array.hpp"
#include "kiln/op_list.hpp"

namespace kiln {

enum class ReduceOp : uint8_t {
#define KILN_REDUCE_ENUM(name) name,
  KILN_REDUCE_OPS(KILN_REDUCE_ENUM)
#undef KILN_REDUCE_ENUM
  count_
};
inline constexpr int kNumReduceOps = static_cast<int>(ReduceOp::count_);

enum class ScanOp : uint8_t {
#define KILN_SCAN_ENUM(name) name,
  KILN_SCAN_OPS(KILN_SCAN_ENUM)
#undef KILN_SCAN_ENUM
  count_
};
inline constexpr int kNumScanOps = static_cast<int>(ScanOp::count_);

// The reduction's name as kiln spells it ("sum", "argmax", ...).
const char* reduce_name(ReduceOp op);

// Axes to reduce; nullopt means all of them.
using Axes = std::optional<std::vector<int64_t>>;

Array sum(const Array& x, const Axes& axis = std::nullopt, bool keepdims = false,
          std::optional<DType> dtype = std::nullopt);
Array prod(const Array& x, const Axes& axis = std::nullopt, bool keepdims = false,
           std::optional<DType> dtype = std::nullopt);
Array min(const Array& x, const Axes& axis = std::nullopt, bool keepdims = false);
Array max(const Array& x, const Axes& axis = std::nullopt, bool keepdims = false);
Array any(const Array& x, const Axes& axis = std::nullopt, bool keepdims = false);
Array all(const Array& x, const Axes& axis = std::nullopt, bool keepdims = false);
Array mean(const Array& x, const Axes& axis = std::nullopt, bool keepdims = false,
           std::optional<DType> dtype = std::nullopt);
Array var(const Array& x, const Axes& axis = std::nullopt, double correction = 0.0,
          bool keepdims = false, std::optional<DType> dtype = std::nullopt);
Array std(const Array& x, const Axes& axis = std::nullopt, double correction = 0.0,
          bool keepdims = false, std::optional<DType> dtype = std::nullopt);
// Index of the first extreme (the first NaN when there is one) over one axis or
// the flattened array; int64.
Array argmin(const Array& x, std::optional<int64_t> axis = std::nullopt, bool keepdims = false);
Array argmax(const Array& x, std::optional<int64_t> axis = std::nullopt, bool keepdims = false);

// Inclusive scans along one axis (the array API's cumulative_sum/prod; axis may
// be omitted for 1-D input). include_initial prepends the identity.
Array cumulative_sum(const Array& x, std::optional<int64_t> axis = std::nullopt,
                     std::optional<DType> dtype = std::nullopt, bool include_initial = false);
Array cumulative_prod(const Array& x, std::optional<int64_t> axis = std::nullopt,
                      std::optional<DType> dtype = std::nullopt, bool include_initial = false);

}  // namespace kiln
