#include "kiln/scalar.hpp"

#include <cmath>
#include <complex>
#include <cstring>
#include <string>

#include "kiln/error.hpp"
#include "kiln/float16.hpp"

namespace kiln {
namespace {

template <class T>
void put(void* out, T v) {
  std::memcpy(out, &v, sizeof(T));
}

// Converts a value held as V into dtype `dt` with C++ conversion rules; the
// callers have already rejected values that would be out of range for ints
// where NumPy raises.
template <class V>
void store_value(DType dt, V v, void* out) {
  auto real = [&] {
    if constexpr (std::is_same_v<V, std::complex<double>>) return v.real();
    else return v;
  }();
  switch (dt) {
    case DType::Bool: {
      bool nz;
      if constexpr (std::is_same_v<V, std::complex<double>>) nz = v != std::complex<double>(0);
      else nz = v != V(0);
      put<bool>(out, nz);
      break;
    }
    case DType::Int8: put<int8_t>(out, static_cast<int8_t>(static_cast<int64_t>(real))); break;
    case DType::UInt8: put<uint8_t>(out, static_cast<uint8_t>(static_cast<int64_t>(real))); break;
    case DType::Int16: put<int16_t>(out, static_cast<int16_t>(static_cast<int64_t>(real))); break;
    case DType::UInt16: put<uint16_t>(out, static_cast<uint16_t>(static_cast<int64_t>(real))); break;
    case DType::Int32: put<int32_t>(out, static_cast<int32_t>(static_cast<int64_t>(real))); break;
    case DType::UInt32: put<uint32_t>(out, static_cast<uint32_t>(static_cast<int64_t>(real))); break;
    case DType::Int64: put<int64_t>(out, static_cast<int64_t>(real)); break;
    case DType::UInt64: put<uint64_t>(out, static_cast<uint64_t>(real)); break;
    case DType::Float16: put<float16>(out, static_cast<float16>(static_cast<float>(real))); break;
    case DType::Float32: put<float>(out, static_cast<float>(real)); break;
    case DType::Float64: put<double>(out, static_cast<double>(real)); break;
    case DType::Complex64: {
      std::complex<float> c;
      if constexpr (std::is_same_v<V, std::complex<double>>) c = std::complex<float>(v);
      else c = std::complex<float>(static_cast<float>(v), 0.f);
      put(out, c);
      break;
    }
    case DType::Complex128: {
      std::complex<double> c;
      if constexpr (std::is_same_v<V, std::complex<double>>) c = v;
      else c = std::complex<double>(static_cast<double>(v), 0.0);
      put(out, c);
      break;
    }
  }
}

}  // namespace

bool Scalar::fits(DType dt) const {
  if (kind != ScalarKind::Int || !weak || !is_integer(dt)) return true;
  IInfo info = iinfo(dt);
  return is_unsigned_big ? u <= info.max
                         : (i >= info.min && (i < 0 || static_cast<uint64_t>(i) <= info.max));
}

void Scalar::check_fits(DType dt) const {
  if (!fits(dt)) {
    std::string value = is_unsigned_big ? std::to_string(u) : std::to_string(i);
    throw OverflowError("Python integer " + value + " out of bounds for " + std::string(name(dt)));
  }
}

void Scalar::store(DType dt, void* out) const {
  switch (kind) {
    case ScalarKind::Bool: store_value<int64_t>(dt, b ? 1 : 0, out); break;
    case ScalarKind::Int:
      if (is_unsigned_big) {
        if (is_inexact(dt)) store_value<double>(dt, static_cast<double>(u), out);
        else store_value<int64_t>(dt, static_cast<int64_t>(u), out);
      } else if (is_inexact(dt)) {
        store_value<double>(dt, static_cast<double>(i), out);
      } else {
        store_value<int64_t>(dt, i, out);
      }
      break;
    case ScalarKind::Float:
      if (is_integer(dt) && !std::isfinite(f)) {
        // NumPy gives an implementation-defined value here; keep it defined.
        store_value<int64_t>(dt, 0, out);
      } else {
        store_value<double>(dt, f, out);
      }
      break;
    case ScalarKind::Complex:
      if (is_complex(dt)) store_value<std::complex<double>>(dt, c, out);
      else store_value<double>(dt, c.real(), out);
      break;
  }
}

}  // namespace kiln
