#pragma once
#include <optional>

#include "kiln/array.hpp"

namespace kiln {

Array empty(const Shape& shape, DType dtype = kDefaultFloat, Device device = Device::cpu());
Array zeros(const Shape& shape, DType dtype = kDefaultFloat, Device device = Device::cpu());
Array ones(const Shape& shape, DType dtype = kDefaultFloat, Device device = Device::cpu());
Array full(const Shape& shape, const Scalar& value, std::optional<DType> dtype = std::nullopt,
           Device device = Device::cpu());
// Values start, start+step, ... below stop (NumPy's length rule).
Array arange(const Scalar& start, const Scalar& stop, const Scalar& step,
             std::optional<DType> dtype = std::nullopt, Device device = Device::cpu());
Array linspace(const Scalar& start, const Scalar& stop, int64_t num, bool endpoint = true,
               std::optional<DType> dtype = std::nullopt, Device device = Device::cpu());
Array eye(int64_t n_rows, std::optional<int64_t> n_cols = std::nullopt, int64_t k = 0,
          DType dtype = kDefaultFloat, Device device = Device::cpu());

}  // namespace kiln
