// sort/argsort move the axis last and hand the backend C-contiguous rows;
// unique is built from a stable sort: a value starts a run where it differs
// from the one before it.
#include "kiln/sorting.hpp"

#include <numeric>
#include <string>

#include "kiln/counting.hpp"
#include "kiln/creation.hpp"
#include "kiln/error.hpp"
#include "kiln/gather.hpp"
#include "kiln/ops.hpp"
#include "kiln/reductions.hpp"
#include "kiln/registry.hpp"

namespace kiln {
namespace {

struct Sorted {
  Array keys, indices;  // either may be empty when not asked for
};

SortKernel sort_kernel(const Array& x, const char* function) {
  SortKernel kernel = kernel_table(x.device().kind).sort[static_cast<int>(x.dtype())];
  if (!kernel) throw TypeError(std::string(function) + " does not support " + std::string(name(x.dtype())) + " on " +
                               x.device().str());
  return kernel;
}

Sorted sort_along(const Array& x, int axis, bool want_keys, bool want_indices, const char* function) {
  const int ax = normalize_axis(axis, x.ndim());
  std::vector<int> to_last(x.ndim());
  std::iota(to_last.begin(), to_last.end(), 0);
  to_last.erase(to_last.begin() + ax);
  to_last.push_back(ax);
  std::vector<int> back(x.ndim());
  for (int i = 0; i < x.ndim(); ++i) back[to_last[i]] = i;

  const Array rows = x.permute_dims(to_last).as_contiguous(x.dtype());
  Sorted out;
  if (want_keys) out.keys = Array::empty(rows.shape(), x.dtype(), x.device());
  if (want_indices) out.indices = Array::empty(rows.shape(), DType::Int64, x.device());
  if (x.size() > 0) {
    SortArgs args;
    args.device = x.device().index;
    args.keys = rows.data();
    args.sorted = want_keys ? out.keys.data() : nullptr;
    args.indices = want_indices ? reinterpret_cast<int64_t*>(out.indices.data()) : nullptr;
    args.n = x.shape()[ax];
    args.rows = x.size() / args.n;
    sort_kernel(x, function)(args);
  }
  if (want_keys) out.keys = out.keys.permute_dims(back);
  if (want_indices) out.indices = out.indices.permute_dims(back);
  return out;
}

// Whether each element of the 1-D sorted s starts a new value: s[0], and
// every s[i] that differs from s[i - 1] (NaNs equal to each other with equal_nan).
Array run_start_mask(const Array& s, bool equal_nan) {
  const int64_t n = s.size();
  Array starts = Array::empty({n}, DType::Bool, s.device());
  starts.index({Slice{0, 1, {}}}).assign(Scalar::from_bool(true));
  const Array next = s.index({Slice{1, {}, {}}}), previous = s.index({Slice{{}, n - 1, {}}});
  Array differs = not_equal(next, previous);
  if (equal_nan && is_inexact(s.dtype())) differs = logical_and(differs, logical_not(logical_and(isnan(next), isnan(previous))));
  starts.index({Slice{1, {}, {}}}).assign(differs);
  return starts;
}

}  // namespace

Array sort(const Array& x, int axis) { return sort_along(x, axis, true, false, "kiln.sort").keys; }

Array argsort(const Array& x, int axis) { return sort_along(x, axis, false, true, "kiln.argsort").indices; }

Array searchsorted(const Array& sorted, const Array& values, bool right) {
  if (sorted.ndim() != 1)
    throw ValueError("kiln.searchsorted: a must be 1-D, got " + std::to_string(sorted.ndim()) + " dimensions");
  if (sorted.device() != values.device())
    throw TypeError("kiln.searchsorted: v is on " + values.device().str() + " but a is on " + sorted.device().str());
  const DType common = result_type({sorted.dtype(), values.dtype()});
  const Array keys = sorted.as_contiguous(common), probes = values.as_contiguous(common);
  Array out = Array::empty(values.shape(), DType::Int64, values.device());
  if (values.size() == 0) return out;
  SearchKernel kernel = kernel_table(values.device().kind).search[static_cast<int>(common)];
  if (!kernel)
    throw TypeError("kiln.searchsorted does not support " + std::string(name(common)) + " on " + values.device().str());
  SearchArgs args;
  args.device = values.device().index;
  args.sorted = keys.data();
  args.n = keys.size();
  args.values = probes.data();
  args.count = probes.size();
  args.out = reinterpret_cast<int64_t*>(out.data());
  args.right = right;
  kernel(args);
  return out;
}

Array unique_values(const Array& x, bool equal_nan) {
  const Array flat = x.reshape({x.size()});
  if (x.size() == 0) return flat.copy();
  const Array s = sort(flat);
  return take(s, flatnonzero(run_start_mask(s, equal_nan)));
}

UniqueAll unique_all(const Array& x, bool equal_nan) {
  const int64_t n = x.size();
  const Array flat = x.reshape({n});
  UniqueAll u;
  if (n == 0) {
    u.values = flat.copy();
    u.indices = u.counts = zeros({0}, DType::Int64, x.device());
    u.inverse = zeros(x.shape(), DType::Int64, x.device());
    return u;
  }
  const Sorted s = sort_along(flat, 0, true, true, "kiln.unique_all");
  const Array mask = run_start_mask(s.keys, equal_nan);
  const Array starts = flatnonzero(mask);
  const int64_t k = starts.size();
  u.values = take(s.keys, starts);
  u.indices = take(s.indices, starts);
  u.counts = Array::empty({k}, DType::Int64, x.device());
  u.counts.index({Slice{{}, k - 1, {}}}).assign(subtract(starts.index({Slice{1, {}, {}}}), starts.index({Slice{{}, k - 1, {}}})));
  u.counts.index({Slice{k - 1, {}, {}}}).assign(subtract(Operand(n), starts.index({Slice{k - 1, {}, {}}})));
  // The sorted element i belongs to value (number of run starts at or before i) - 1.
  const Array run_of_sorted = subtract(cumulative_sum(mask, int64_t{0}, DType::Int64), Operand(1));
  Array inverse = Array::empty({n}, DType::Int64, x.device());
  put(inverse, s.indices, run_of_sorted);
  u.inverse = inverse.reshape(x.shape());
  return u;
}

}  // namespace kiln
