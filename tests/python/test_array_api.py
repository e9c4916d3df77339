"""kiln as an array API 2024.12 namespace: property tests on arrays drawn by
hypothesis.extra.array_api for kiln itself (special values, broadcast
shapes, every standard dtype), checked against NumPy on every device
present, plus the standard's type-promotion table and inspection API."""
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import array_api

import kiln

xps = array_api.make_strategies_namespace(kiln, api_version="2024.12")
# Derandomised: the same examples every run, so CI cannot pass or fail by luck.
EXAMPLES = settings(max_examples=40, deadline=None, derandomize=True)
STANDARD = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64",
            "complex64", "complex128"]

UNARY = {
    "numeric": ["abs", "negative", "positive", "square", "sign"],
    "floating": ["sqrt", "exp", "expm1", "log", "log1p", "log2", "log10", "sin", "cos", "tan", "asin", "acos", "atan",
                 "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "reciprocal", "isnan", "isinf", "isfinite"],
    "real": ["floor", "ceil", "trunc", "round", "signbit"],
    "integral": ["bitwise_invert"],
}
BINARY = {
    "numeric": ["add", "subtract", "multiply", "equal", "not_equal"],
    "real": ["less", "less_equal", "greater", "greater_equal", "maximum", "minimum"],
    "floating": ["divide", "pow", "atan2", "hypot", "logaddexp", "copysign", "nextafter"],
    "integral": ["bitwise_and", "bitwise_or", "bitwise_xor"],
}
NUMPY_NAMES = {"pow": "power", "bitwise_invert": "invert"}
DTYPES = {
    "numeric": xps.numeric_dtypes(), "floating": xps.floating_dtypes() | xps.complex_dtypes(),
    "real": xps.real_dtypes(),
    "integral": xps.integer_dtypes() | xps.unsigned_integer_dtypes(),
}
REAL_ONLY = {"atan2", "hypot", "logaddexp", "copysign", "nextafter", "floor", "ceil", "trunc", "signbit"}


def _check(got, want, dtype_name):
    g = kiln.asnumpy(got)
    assert g.dtype == want.dtype and g.shape == want.shape, (g.dtype, want.dtype, g.shape, want.shape)
    if want.dtype.kind in "biu":
        np.testing.assert_array_equal(g, want)
    else:
        # A few ulps: transcendental functions differ between libms (and CUDA's) in the last bits.
        tol = 8 * np.finfo(want.dtype).eps
        # Complex parts one at a time: an infinite part would make the difference NaN.
        for part in (np.real, np.imag) if want.dtype.kind == "c" else (np.asarray,):
            np.testing.assert_allclose(part(g), part(want), rtol=tol, atol=tol, equal_nan=True)


def _cases(table):
    return [(kind, name) for kind, names in table.items() for name in names]


@pytest.mark.parametrize("kind, name", _cases(UNARY))
def test_unary_functions(device, kind, name):
    _check_unary(device, name, xps.floating_dtypes() if name in REAL_ONLY else DTYPES[kind])


def _complex_elements(dtype, name):
    """The complex values drawn: all of them, except where noted below."""
    width = 64 if dtype == kiln.complex64 else 128
    if name == "prod":
        # Products of finite values that stay finite, on every device: NumPy's
        # complex product is no oracle for infinite parts (prod([0 + inf j]) is
        # nan + nan j where its cumprod gives nan + inf j), and near the
        # largest value the GPU's and NumPy's orders of multiplication round
        # to inf and to the largest value respectively.
        limit = {64: 1e7, 128: 1e60}[width]
        return st.complex_numbers(max_magnitude=limit, allow_nan=False, allow_infinity=False, width=width)
    if name == "square":
        # Finite parts whose squares stay far from overflow, or infinite and
        # NaN parts: NumPy's SIMD loops fuse re*re - im*im where the CPU has
        # FMA, so a square at overflow's edge is inf or the largest value
        # depending on the machine.
        limit = {64: 1e18, 128: 1e150}[width]
        return (st.complex_numbers(max_magnitude=limit, allow_nan=False, allow_infinity=False, width=width)
                | st.complex_numbers(width=width).filter(lambda z: not (math.isfinite(z.real) and math.isfinite(z.imag))))
    if name == "sign":  # NumPy's own scalar and array loops disagree on sign(inf + nan j)
        return st.complex_numbers(allow_nan=False, width=width)
    return None


def _check_unary(device, name, dtypes):
    @EXAMPLES
    @given(data=st.data())
    def run(data):
        dtype = data.draw(dtypes)
        complex_type = dtype in (kiln.complex64, kiln.complex128)
        elements = _complex_elements(dtype, name) if complex_type else None
        x = data.draw(xps.arrays(dtype=dtype, shape=xps.array_shapes(min_dims=0, max_dims=3, max_side=4),
                                 elements=elements))
        want = getattr(np, NUMPY_NAMES.get(name, name))(kiln.asnumpy(x))
        with np.errstate(all="ignore"):
            _check(getattr(kiln, name)(kiln.asarray(x, device=device)), np.asarray(want), want.dtype)

    with np.errstate(all="ignore"):
        run()


@pytest.mark.parametrize("kind, name", _cases(BINARY))
def test_binary_functions_broadcast_and_promote(device, kind, name):
    dtypes = xps.floating_dtypes() if name in REAL_ONLY else DTYPES[kind]

    @EXAMPLES
    @given(data=st.data())
    def run(data):
        dtype = data.draw(dtypes)
        shapes = data.draw(xps.mutually_broadcastable_shapes(2, max_dims=3, max_side=4))
        x1 = data.draw(xps.arrays(dtype=dtype, shape=shapes.input_shapes[0]))
        x2 = data.draw(xps.arrays(dtype=data.draw(st.sampled_from([dtype]) | xps.scalar_dtypes()
                                                  .filter(lambda d: _promotable(dtype, d, kind, name))),
                                  shape=shapes.input_shapes[1]))
        a, b = kiln.asnumpy(x1), kiln.asnumpy(x2)
        with np.errstate(all="ignore"):
            want = np.asarray(getattr(np, NUMPY_NAMES.get(name, name))(a, b))
            _check(getattr(kiln, name)(kiln.asarray(x1, device=device), kiln.asarray(x2, device=device)), want,
                   want.dtype)

    run()


def _promotable(d1, d2, kind, name):
    """Pairs the standard defines a promotion for, and the function takes."""
    n1, n2 = np.dtype(d1), np.dtype(d2)
    if (n1.kind == "b") != (n2.kind == "b"):
        return False
    if {n1.kind, n2.kind} == {"i", "u"} and "uint64" in (n1.name, n2.name):
        return False  # uint64 with a signed integer: left to implementations
    if (n1.kind in "iub") != (n2.kind in "iub"):
        return False  # integer with floating: left to implementations
    if (kind == "real" or name in REAL_ONLY) and "c" in (n1.kind, n2.kind):
        return False
    if kind == "integral" and n2.kind not in "iu":
        return False
    return True


@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "mean", "std", "var", "all", "any"])
def test_reductions(device, name):
    dtypes = {"mean": xps.floating_dtypes(), "std": xps.floating_dtypes(), "var": xps.floating_dtypes(),
              "max": xps.real_dtypes(), "min": xps.real_dtypes(), "all": xps.boolean_dtypes(),
              "any": xps.boolean_dtypes()}.get(name, xps.numeric_dtypes())

    @EXAMPLES
    @given(data=st.data())
    def run(data):
        dtype = data.draw(dtypes)
        complex_type = dtype in (kiln.complex64, kiln.complex128)
        x = data.draw(xps.arrays(dtype=dtype, shape=xps.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5),
                                 elements=_complex_elements(dtype, name) if complex_type
                                 else None))
        axis = data.draw(st.none() | st.integers(-x.ndim, x.ndim - 1))
        keepdims = data.draw(st.booleans())
        a = kiln.asnumpy(x)
        with np.errstate(all="ignore"):
            want = np.asarray(getattr(np, name)(a, axis=axis, keepdims=keepdims))
            got = getattr(kiln, name)(kiln.asarray(x, device=device), axis=axis, keepdims=keepdims)
        if want.dtype.kind in "fc" and name not in ("max", "min"):
            g = kiln.asnumpy(got)
            assert g.dtype == want.dtype and g.shape == want.shape
            # Summation orders differ (pairwise, per device): compare on the scale of the terms.
            with np.errstate(all="ignore"):
                if name in ("sum", "prod"):
                    scale = np.max(np.asarray(getattr(np, name)(np.abs(a), axis=axis, keepdims=keepdims)), initial=0)
                else:
                    scale = np.max(np.abs(a), initial=0) ** (2 if name == "var" else 1)
                tol = 64 * np.finfo(want.dtype).eps
                for part in (np.real, np.imag) if want.dtype.kind == "c" else (np.asarray,):
                    np.testing.assert_allclose(part(g), part(want), rtol=tol, atol=np.nan_to_num(tol * scale),
                                               equal_nan=True)
        else:
            _check(got, want, want.dtype)

    run()


def test_sorting_and_searching_properties(device):
    @EXAMPLES
    @given(x=xps.arrays(dtype=xps.real_dtypes(), shape=xps.array_shapes(min_dims=1, max_dims=3, max_side=6)))
    def run(x):
        a = kiln.asnumpy(x)
        k = kiln.asarray(x, device=device)
        _check(kiln.sort(k), np.sort(a, kind="stable"), a.dtype)
        _check(kiln.argsort(k, stable=True), np.argsort(a, kind="stable"), np.int64)
        assert kiln.unique_values(k).size == np.unique_values(a).size

    run()


def test_type_promotion_table():
    """Every pair the standard's table defines promotes as it says (NumPy 2
    follows the table for these pairs)."""
    for a in STANDARD:
        for b in STANDARD:
            na, nb = np.dtype(a), np.dtype(b)
            if (na.kind == "b") != (nb.kind == "b") or (na.kind in "iu") != (nb.kind in "iu"):
                continue
            if {na.kind, nb.kind} == {"i", "u"} and "uint64" in (a, b):
                continue
            assert kiln.result_type(a, b).name == np.result_type(a, b).name, (a, b)


def test_inspection_api():
    info = kiln.__array_namespace_info__()
    assert kiln.__array_api_version__ == "2024.12"
    assert set(info.capabilities()) == {"boolean indexing", "data-dependent shapes", "max dimensions"}
    assert info.default_dtypes()["real floating"] == kiln.float64
    assert set(info.dtypes(kind="numeric")) == set(STANDARD) - {"bool"}
    assert kiln.Device("cpu") in info.devices()
    for name in ["unstack", "searchsorted", "take_along_axis", "cumulative_prod", "diff", "nextafter"]:
        assert hasattr(kiln, name), name
    assert math.isclose(kiln.e, math.e) and kiln.newaxis is None
