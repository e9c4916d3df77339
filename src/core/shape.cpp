#include "kiln/shape.hpp"

#include <algorithm>
#include <string>

#include "kiln/error.hpp"

namespace kiln {

int64_t shape_size(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

Strides contiguous_strides(const Shape& shape, int64_t itemsize) {
  Strides strides(shape.size());
  int64_t s = itemsize;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = s;
    s *= shape[i] > 0 ? shape[i] : 1;
  }
  return strides;
}

std::string shape_str(const Shape& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

Shape broadcast_shapes(const Shape& a, const Shape& b) {
  if (a == b) return a;
  size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t i = 0; i < n; ++i) {
    int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da != db && da != 1 && db != 1)
      throw ValueError("operands could not be broadcast together with shapes " + shape_str(a) +
                       " and " + shape_str(b));
    out[i] = da == 1 ? db : da;
  }
  return out;
}

Strides broadcast_strides(const Shape& shape, const Strides& strides, const Shape& target) {
  if (shape.size() > target.size())
    throw ValueError("cannot broadcast an array of shape " + shape_str(shape) + " to shape " +
                     shape_str(target));
  size_t lead = target.size() - shape.size();
  Strides out(target.size(), 0);
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == target[lead + i]) {
      out[lead + i] = strides[i];
    } else if (shape[i] != 1) {
      throw ValueError("cannot broadcast an array of shape " + shape_str(shape) + " to shape " +
                       shape_str(target));
    }
  }
  return out;
}

int normalize_axis(int64_t axis, int ndim, const char* arg) {
  if (axis < -ndim || axis >= ndim)
    throw AxisError(std::string(arg) + " " + std::to_string(axis) +
                     " is out of bounds for array of dimension " + std::to_string(ndim));
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

namespace {
// An empty array is contiguous both ways, whatever its strides (as NumPy's flags say).
bool is_empty(const Shape& shape) { return std::find(shape.begin(), shape.end(), int64_t{0}) != shape.end(); }
}  // namespace

bool is_c_contiguous(const Shape& shape, const Strides& strides, int64_t itemsize) {
  if (is_empty(shape)) return true;
  int64_t expected = itemsize;
  for (size_t i = shape.size(); i-- > 0;) {
    if (shape[i] != 1 && strides[i] != expected) return false;
    expected *= shape[i];
  }
  return true;
}

bool is_f_contiguous(const Shape& shape, const Strides& strides, int64_t itemsize) {
  if (is_empty(shape)) return true;
  int64_t expected = itemsize;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] != 1 && strides[i] != expected) return false;
    expected *= shape[i];
  }
  return true;
}

bool reshape_strides(const Shape& old_shape, const Strides& old_strides, const Shape& new_shape,
                     Strides* new_strides) {
  // Drop length-1 axes of the old layout; they constrain nothing.
  Shape os;
  Strides ost;
  for (size_t i = 0; i < old_shape.size(); ++i) {
    if (old_shape[i] != 1) {
      os.push_back(old_shape[i]);
      ost.push_back(old_strides[i]);
    }
  }
  new_strides->assign(new_shape.size(), 0);
  size_t oi = 0, oj = 1, ni = 0, nj = 1;
  const size_t on = os.size(), nn = new_shape.size();
  // Walk matching groups of axes whose products agree; within a group the old
  // axes must be contiguous with each other for a view to exist.
  while (ni < nn && oi < on) {
    int64_t np = new_shape[ni], op = os[oi];
    while (np != op) {
      if (np < op) {
        np *= new_shape[nj++];
      } else {
        op *= os[oj++];
      }
    }
    for (size_t k = oi; k + 1 < oj; ++k)
      if (ost[k] != os[k + 1] * ost[k + 1]) return false;
    (*new_strides)[nj - 1] = ost[oj - 1];
    for (size_t k = nj - 1; k > ni; --k) (*new_strides)[k - 1] = (*new_strides)[k] * new_shape[k];
    ni = nj++;
    oi = oj++;
  }
  // Trailing length-1 axes of the new shape get any stride; use the item size
  // pattern of the last axis so contiguity flags stay true.
  int64_t last = ni > 0 ? (*new_strides)[ni - 1] : 0;
  for (size_t k = ni; k < nn; ++k) (*new_strides)[k] = last;
  return true;
}

void coalesce_dims(Shape& shape, Strides* const* strides, int count) {
  const size_t n = shape.size();
  if (n <= 1) return;
  size_t out = 0;
  for (size_t i = 1; i < n; ++i) {
    bool mergeable = true;
    if (shape[out] != 1 && shape[i] != 1) {
      for (int k = 0; k < count; ++k)
        if ((*strides[k])[out] != (*strides[k])[i] * shape[i]) {
          mergeable = false;
          break;
        }
    }
    if (mergeable) {
      // Keep the stride of whichever axis actually moves.
      for (int k = 0; k < count; ++k) {
        Strides& s = *strides[k];
        s[out] = shape[i] == 1 ? s[out] : s[i];
      }
      shape[out] *= shape[i];
    } else {
      ++out;
      shape[out] = shape[i];
      for (int k = 0; k < count; ++k) (*strides[k])[out] = (*strides[k])[i];
    }
  }
  shape.resize(out + 1);
  for (int k = 0; k < count; ++k) strides[k]->resize(out + 1);
}

}  // namespace kiln
