// Module-level functions of kiln._core: elementwise ops, reductions, counting, creation
// and dtype utilities.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "convert.hpp"
#include "without_gil.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace kiln::python {
namespace {

Operand operand(nb::handle h, const char* arg) {
  Operand o(0);
  if (!to_operand(h, &o))
    throw TypeError(std::string(arg) + " must be an array or a scalar, got " +
                    nb::cast<std::string>(nb::str(h.type().attr("__name__"))));
  return o;
}

// The result object: `out` itself when one was given, as NumPy returns it.
nb::object result_object(const Array& result, nb::handle out) {
  return out.is_none() ? nb::cast(result) : nb::borrow(out);
}

const Array* out_array(nb::handle out) {
  if (out.is_none()) return nullptr;
  if (!nb::isinstance<Array>(out))
    throw TypeError("out must be a kiln.ndarray, got " + nb::cast<std::string>(nb::str(out.type().attr("__name__"))));
  return &nb::cast<const Array&>(out);
}

Scalar scalar_arg(nb::handle h, const char* arg) {
  Scalar s;
  if (!to_scalar(h, &s))
    throw TypeError(std::string(arg) + " must be a Python or NumPy scalar, got " +
                    nb::cast<std::string>(nb::str(h.type().attr("__name__"))));
  return s;
}

Casting to_casting(const std::string& s) {
  if (s == "no") return Casting::No;
  if (s == "equiv") return Casting::Equiv;
  if (s == "safe") return Casting::Safe;
  if (s == "same_kind") return Casting::SameKind;
  if (s == "unsafe") return Casting::Unsafe;
  throw ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind' or 'unsafe', got '" + s + "'");
}

void bind_elementwise(nb::module_& m) {
#define KILN_BIND_1(name)                                                                          \
  m.def(#name, [](nb::handle x, nb::handle out) { return result_object(apply(OpId::name, {operand(x, "x")}, out_array(out)), out); }, \
        "x"_a, nb::kw_only(), "out"_a = nb::none());
#define KILN_BIND_2(name)                                                                  \
  m.def(#name,                                                                             \
        [](nb::handle x1, nb::handle x2, nb::handle out) {                                 \
          return result_object(apply(OpId::name, {operand(x1, "x1"), operand(x2, "x2")}, out_array(out)), out); \
        },                                                                                 \
        "x1"_a, "x2"_a, nb::kw_only(), "out"_a = nb::none());
#define KILN_BIND_3(name)                                                                           \
  m.def("_" #name,                                                                                  \
        [](nb::handle x1, nb::handle x2, nb::handle x3, nb::handle out) {                           \
          return result_object(apply(OpId::name, {operand(x1, "x1"), operand(x2, "x2"), operand(x3, "x3")}, out_array(out)), out); \
        },                                                                                          \
        "x1"_a, "x2"_a, "x3"_a, nb::kw_only(), "out"_a = nb::none());
#define KILN_BIND(name, arity) KILN_BIND_##arity(name)
  KILN_ELEMENTWISE_OPS(KILN_BIND)
#undef KILN_BIND
#undef KILN_BIND_1
#undef KILN_BIND_2
#undef KILN_BIND_3
  m.def("round", [](nb::handle x, int decimals, nb::handle out) {
          return result_object(round(operand(x, "x"), decimals, out_array(out)), out);
        },
        "x"_a, "decimals"_a = 0, nb::kw_only(), "out"_a = nb::none());
}

void bind_reductions(nb::module_& m) {
#define KILN_BIND_SUM_LIKE(name)                                                                  \
  m.def(#name,                                                                                    \
        [](nb::handle x, nb::handle axis, nb::handle dtype, bool keepdims) {                      \
          return name(to_array(x), to_axes(axis), keepdims, to_optional_dtype(dtype));            \
        },                                                                                        \
        "x"_a, "axis"_a = nb::none(), "dtype"_a = nb::none(), "keepdims"_a = false);
  KILN_BIND_SUM_LIKE(sum)
  KILN_BIND_SUM_LIKE(prod)
  KILN_BIND_SUM_LIKE(mean)
#undef KILN_BIND_SUM_LIKE
#define KILN_BIND_PLAIN(name)                                                                       \
  m.def(#name, [](nb::handle x, nb::handle axis, bool keepdims) { return name(to_array(x), to_axes(axis), keepdims); }, \
        "x"_a, "axis"_a = nb::none(), "keepdims"_a = false);
  KILN_BIND_PLAIN(min)
  KILN_BIND_PLAIN(max)
  KILN_BIND_PLAIN(any)
  KILN_BIND_PLAIN(all)
#undef KILN_BIND_PLAIN
#define KILN_BIND_ARG(name)                                                                        \
  m.def(#name, [](nb::handle x, std::optional<int64_t> axis, bool keepdims) { return name(to_array(x), axis, keepdims); }, \
        "x"_a, "axis"_a = nb::none(), "keepdims"_a = false);
  KILN_BIND_ARG(argmin)
  KILN_BIND_ARG(argmax)
#undef KILN_BIND_ARG
#define KILN_BIND_VAR(name)                                                                         \
  m.def("_" #name,                                                                                  \
        [](nb::handle x, nb::handle axis, double correction, bool keepdims, nb::handle dtype) {     \
          return name(to_array(x), to_axes(axis), correction, keepdims, to_optional_dtype(dtype));  \
        },                                                                                          \
        "x"_a, "axis"_a.none(), "correction"_a, "keepdims"_a, "dtype"_a.none());
  KILN_BIND_VAR(var)
  KILN_BIND_VAR(std)
#undef KILN_BIND_VAR
#define KILN_BIND_SCAN(name)                                                                           \
  m.def(#name,                                                                                         \
        [](nb::handle x, std::optional<int64_t> axis, nb::handle dtype, bool include_initial) {        \
          return name(to_array(x), axis, to_optional_dtype(dtype), include_initial);                   \
        },                                                                                             \
        "x"_a, "axis"_a = nb::none(), "dtype"_a = nb::none(), "include_initial"_a = false);
  KILN_BIND_SCAN(cumulative_sum)
  KILN_BIND_SCAN(cumulative_prod)
#undef KILN_BIND_SCAN
  m.def("bincount", [](nb::handle x, nb::handle weights, int64_t minlength) {
    std::optional<Array> w;
    if (!weights.is_none()) w = to_array(weights);
    return bincount(to_array(x), w, minlength);
  }, "x"_a, "weights"_a = nb::none(), "minlength"_a = 0);
  m.def("_flatnonzero", [](nb::handle x) { return flatnonzero(to_array(x)); }, "x"_a);
  m.def("_extract", [](const Array& condition, const Array& x) { return extract(condition, x); }, "condition"_a,
        "x"_a);
  m.def("_csr_matvec", [](const Array& row_starts, const Array& columns, const Array& values, const Array& x,
                          int64_t rows, int64_t cols, bool transpose) {
    return without_gil({row_starts, columns, values, x},
                       [&] { return csr_matvec(row_starts, columns, values, x, rows, cols, transpose); });
  }, "row_starts"_a, "columns"_a, "values"_a, "x"_a, "rows"_a, "cols"_a, "transpose"_a = false);
  m.def("matmul", [](nb::handle a, nb::handle b) {
    const Array x = to_array(a, "x1"), y = to_array(b, "x2");
    return without_gil({x, y}, [&] { return matmul(x, y); });
  }, "x1"_a, "x2"_a);
  m.def("_fft", [](const Array& x, int rank, int kind, bool inverse, int64_t last_length) {
    if (kind < 0 || kind > 2) throw ValueError("_fft: kind must be 0, 1 or 2");
    return without_gil({x}, [&] { return fft(x, rank, static_cast<FftKind>(kind), inverse, last_length); });
  }, "x"_a, "rank"_a, "kind"_a, "inverse"_a, "last_length"_a);
  m.def("_fft_library_path", &fft_library_path);
  m.def("_solve", [](const Array& a, const Array& b) { return without_gil({a, b}, [&] { return solve(a, b); }); },
        "a"_a, "b"_a);
  m.def("_inv", [](const Array& a) { return without_gil({a}, [&] { return inv(a); }); }, "a"_a);
  m.def("_lu_factor", [](const Array& a) {
    LuFactors f = without_gil({a}, [&] { return lu_factor(a); });
    return nb::make_tuple(f.lu, f.pivots);
  }, "a"_a);
  m.def("_det", [](const Array& a) { return without_gil({a}, [&] { return det(a); }); }, "a"_a);
  m.def("_slogdet", [](const Array& a) {
    SignLogDet s = without_gil({a}, [&] { return slogdet(a); });
    return nb::make_tuple(s.sign, s.logabsdet);
  }, "a"_a);
  m.def("_cholesky", [](const Array& a, bool upper) { return without_gil({a}, [&] { return cholesky(a, upper); }); },
        "a"_a, "upper"_a);
  m.def("_qr", [](const Array& a, int mode) {
    if (mode < 0 || mode > 2) throw ValueError("_qr: mode must be 0, 1 or 2");
    QR r = without_gil({a}, [&] { return qr(a, static_cast<QrMode>(mode)); });
    return nb::make_tuple(r.q, r.r);
  }, "a"_a, "mode"_a);
  m.def("_eigh", [](const Array& a, bool upper, bool vectors) {
    Eigh e = without_gil({a}, [&] { return eigh(a, upper, vectors); });
    return nb::make_tuple(e.eigenvalues, e.eigenvectors);
  }, "a"_a, "upper"_a, "vectors"_a);
  m.def("_eig", [](const Array& a, bool vectors) {
    Eig e = without_gil({a}, [&] { return eig(a, vectors); });
    return nb::make_tuple(e.eigenvalues, e.eigenvectors);
  }, "a"_a, "vectors"_a);
  m.def("_svd", [](const Array& a, bool full_matrices, bool compute_uv) {
    SVD r = without_gil({a}, [&] { return svd(a, full_matrices, compute_uv); });
    return nb::make_tuple(r.u, r.s, r.vh);
  }, "a"_a, "full_matrices"_a, "compute_uv"_a);
  m.def("_add_blas_library_candidate", &add_blas_library_candidate, "path"_a);
  m.def("_blas_library_path", &blas_library_path);
  m.def("_sort", [](const Array& x, int axis) { return without_gil({x}, [&] { return sort(x, axis); }); }, "x"_a,
        "axis"_a);
  m.def("_argsort", [](const Array& x, int axis) { return without_gil({x}, [&] { return argsort(x, axis); }); },
        "x"_a, "axis"_a);
  m.def("_searchsorted", [](const Array& a, const Array& v, bool right) { return searchsorted(a, v, right); },
        "a"_a, "v"_a, "right"_a);
  m.def("_unique_values", [](const Array& x, bool equal_nan) { return unique_values(x, equal_nan); }, "x"_a,
        "equal_nan"_a);
  m.def("_unique_all", [](const Array& x, bool equal_nan) {
    UniqueAll u = unique_all(x, equal_nan);
    return nb::make_tuple(u.values, u.indices, u.inverse, u.counts);
  }, "x"_a, "equal_nan"_a);
  m.def("_put", [](const Array& a, const Array& indices, const Array& values) { put(a, indices, values); },
        "a"_a, "indices"_a, "values"_a);
  m.def("_take", [](const Array& a, const Array& indices, std::optional<int64_t> axis) {
    return take(a, indices, axis);
  }, "a"_a, "indices"_a, "axis"_a.none());
  m.def("_fill_random", [](const Array& out, int kind, uint64_t key, uint64_t first_block) {
    if (kind < 0 || kind > 2) throw ValueError("_fill_random: kind must be 0, 1 or 2");
    return fill_random(out, static_cast<RandomKind>(kind), key, first_block);
  }, "out"_a, "kind"_a, "key"_a, "first_block"_a);
}

void bind_creation(nb::module_& m) {
  m.def("_empty", [](nb::handle shape, nb::handle dtype, nb::handle device) {
    return empty(to_shape(shape), to_optional_dtype(dtype).value_or(kDefaultFloat), to_device(device));
  }, "shape"_a, "dtype"_a.none(), "device"_a.none());
  m.def("_full", [](nb::handle shape, nb::handle value, nb::handle dtype, nb::handle device) {
    std::optional<DType> dt = to_optional_dtype(dtype);
    Scalar s = scalar_arg(value, "fill_value");
    if (dt) s.check_fits(*dt);
    return full(to_shape(shape), s, dt, to_device(device));
  }, "shape"_a, "fill_value"_a, "dtype"_a.none(), "device"_a.none());
  m.def("_arange", [](nb::handle start, nb::handle stop, nb::handle step, nb::handle dtype, nb::handle device) {
    return arange(scalar_arg(start, "start"), scalar_arg(stop, "stop"), scalar_arg(step, "step"),
                  to_optional_dtype(dtype), to_device(device));
  }, "start"_a, "stop"_a, "step"_a, "dtype"_a.none(), "device"_a.none());
  m.def("_linspace", [](nb::handle start, nb::handle stop, int64_t num, bool endpoint, nb::handle dtype,
                        nb::handle device) {
    return linspace(scalar_arg(start, "start"), scalar_arg(stop, "stop"), num, endpoint, to_optional_dtype(dtype),
                    to_device(device));
  }, "start"_a, "stop"_a, "num"_a, "endpoint"_a, "dtype"_a.none(), "device"_a.none());
  m.def("_eye", [](int64_t n_rows, std::optional<int64_t> n_cols, int64_t k, nb::handle dtype, nb::handle device) {
    return eye(n_rows, n_cols, k, to_optional_dtype(dtype).value_or(kDefaultFloat), to_device(device));
  }, "n_rows"_a, "n_cols"_a.none(), "k"_a, "dtype"_a.none(), "device"_a.none());
  // Memory owned by a Python object (a NumPy array, a PyCUDA-style
  // allocation), viewed without a copy. `shared`: the caller can reach the
  // memory through the owner (not a private copy kiln made).
  m.def("_wrap_memory", [](uintptr_t ptr, nb::handle dtype, nb::handle shape, nb::handle strides, nb::object owner,
                           bool writeable, nb::handle device, bool shared) {
    DType dt = to_dtype(dtype);
    Shape sh = to_shape(shape);
    Strides st = strides.is_none() ? contiguous_strides(sh, itemsize(dt)) : to_shape(strides, "strides");
    PyObject* keep = owner.release().ptr();
    auto release = [keep](void*) {
      if (!Py_IsInitialized()) return;
      nb::gil_scoped_acquire gil;
      Py_DECREF(keep);
    };
    Array a = view_memory(reinterpret_cast<void*>(ptr), dt, sh, st, to_device(device), release, writeable);
    if (shared) a.buffer()->mark_shared();
    return a;
  }, "ptr"_a, "dtype"_a, "shape"_a, "strides"_a.none(), "owner"_a, "writeable"_a, "device"_a, "shared"_a = true);
  // Any device's caching allocator (CuPy's MemoryPool numbers).
  m.def("_pool_stats", [](nb::handle device) {
    PoolStats s = pool_stats(to_device(device));
    return nb::make_tuple(s.used_bytes, s.total_bytes, s.limit);
  });
  m.def("_free_all_blocks", [](nb::handle device) { free_all_blocks(to_device(device)); });
  m.def("_set_pool_limit", [](nb::handle device, size_t bytes) { set_pool_limit(to_device(device), bytes); });
  m.def("_broadcast_shapes", [](nb::handle a, nb::handle b) {
    Shape s = broadcast_shapes(to_shape(a), to_shape(b));
    nb::list l;
    for (int64_t d : s) l.append(d);
    return nb::tuple(l);
  });
}

void bind_dtypes(nb::module_& m) {
  m.def("_dtype_info", [](int i) {
    DType dt = static_cast<DType>(i);
    static const char kinds[] = {'b', 'u', 'i', 'f', 'c'};
    return nb::make_tuple(std::string(name(dt)), std::string(1, type_char(dt)), itemsize(dt),
                          std::string(1, kinds[static_cast<int>(kind(dt))]));
  });
  m.def("_dtype_from_name", [](const std::string& s) {
    DType dt;
    return dtype_from_name(s, &dt) ? static_cast<int>(dt) : -1;
  });
  m.def("_num_dtypes", [] { return kNumDTypes; });
  m.def("promote_types", [](nb::handle a, nb::handle b) {
    return dtype_object(promote_types(to_dtype(a, "type1"), to_dtype(b, "type2")));
  }, "type1"_a, "type2"_a);
  m.def("can_cast", [](nb::handle from, nb::handle to, const std::string& casting) {
    DType f = nb::isinstance<Array>(from) ? nb::cast<const Array&>(from).dtype() : to_dtype(from, "from_");
    return can_cast(f, to_dtype(to, "to"), to_casting(casting));
  }, "from_"_a, "to"_a, "casting"_a = "safe");
  m.def("result_type", [](nb::args args) {
    std::vector<DType> dtypes;
    std::vector<Scalar> scalars;
    for (nb::handle h : args) {
      Scalar s;
      if (nb::isinstance<Array>(h)) dtypes.push_back(nb::cast<const Array&>(h).dtype());
      else if (to_scalar(h, &s)) scalars.push_back(s);
      else dtypes.push_back(to_dtype(h, "arrays_and_dtypes"));
    }
    return dtype_object(result_type(dtypes, scalars));
  });
  m.def("_finfo", [](nb::handle dtype) {
    FInfo f = finfo(to_dtype(dtype));
    return nb::make_tuple(f.bits, f.eps, f.max, f.min, f.smallest_normal, f.resolution, f.precision,
                          dtype_object(f.dtype));
  });
  m.def("_iinfo", [](nb::handle dtype) {
    IInfo i = iinfo(to_dtype(dtype));
    return nb::make_tuple(i.bits, i.min, nb::steal(PyLong_FromUnsignedLongLong(i.max)), dtype_object(i.dtype));
  });
}

}  // namespace

void bind_functions(nb::module_& m) {
  bind_elementwise(m);
  bind_reductions(m);
  bind_creation(m);
  bind_dtypes(m);
}

}  // namespace kiln::python
