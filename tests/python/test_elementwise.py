"""Every elementwise function against NumPy: all dtypes, mixed dtypes, broadcasting,
non-contiguous views, 0-d and empty arrays, weak Python scalars, NaN and inf."""
import warnings

import numpy as np
import pytest

import kiln
from conftest import (ALL_DTYPES, COMPLEX_DTYPES, FLOAT_DTYPES, INT_DTYPES, assert_matches,
                      random_array)

UNARY = {
    "abs": np.abs, "negative": np.negative, "positive": np.positive, "sign": np.sign,
    "reciprocal": np.reciprocal, "square": np.square, "sqrt": np.sqrt, "cbrt": np.cbrt,
    "exp": np.exp, "exp2": np.exp2, "expm1": np.expm1, "log": np.log, "log1p": np.log1p,
    "log2": np.log2, "log10": np.log10, "sin": np.sin, "cos": np.cos, "tan": np.tan,
    "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan, "sinh": np.sinh, "cosh": np.cosh,
    "tanh": np.tanh, "asinh": np.arcsinh, "acosh": np.arccosh, "atanh": np.arctanh,
    "deg2rad": np.deg2rad, "rad2deg": np.rad2deg, "floor": np.floor, "ceil": np.ceil,
    "trunc": np.trunc, "rint": np.rint, "isnan": np.isnan, "isinf": np.isinf,
    "isfinite": np.isfinite, "signbit": np.signbit, "logical_not": np.logical_not,
    "bitwise_invert": np.invert, "conj": np.conj,
}

BINARY = {
    "add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.divide,
    "floor_divide": np.floor_divide, "remainder": np.remainder, "fmod": np.fmod,
    "power": np.power, "equal": np.equal, "not_equal": np.not_equal, "less": np.less,
    "less_equal": np.less_equal, "greater": np.greater, "greater_equal": np.greater_equal,
    "logical_and": np.logical_and, "logical_or": np.logical_or, "logical_xor": np.logical_xor,
    "bitwise_and": np.bitwise_and, "bitwise_or": np.bitwise_or, "bitwise_xor": np.bitwise_xor,
    "bitwise_left_shift": np.left_shift, "bitwise_right_shift": np.right_shift,
    "minimum": np.minimum, "maximum": np.maximum, "fmin": np.fmin, "fmax": np.fmax,
    "atan2": np.arctan2, "hypot": np.hypot, "logaddexp": np.logaddexp,
    "copysign": np.copysign, "nextafter": np.nextafter,
}

# Ops whose results only make sense on a restricted domain in exact (integer) arithmetic.
NONZERO_DIVISOR = {"reciprocal"}
SHIFTS = {"bitwise_left_shift", "bitwise_right_shift"}
COMPLEX_NEAR_BRANCH_CUT = {"sign"}


def numpy_or_error(fn, *args):
    """NumPy's answer, or the exception type NumPy raises."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(*args), None
        except TypeError as e:
            return None, TypeError
        except (ValueError, OverflowError) as e:
            return None, type(e)


def check(kiln_fn, np_fn, np_args, kiln_args, rtol=None):
    expected, error = numpy_or_error(np_fn, *np_args)
    if error is not None:
        with pytest.raises(error):
            kiln_fn(*kiln_args)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = kiln_fn(*kiln_args)
    assert_matches(result, expected, rtol)


def unary_data(name, dtype, rng, shape=(7, 33)):
    nonzero = name in NONZERO_DIVISOR
    return random_array(shape, dtype, rng, low=-3, high=3, nonzero=nonzero)


def binary_data(name, dtype, rng, shape=(5, 31)):
    if name in SHIFTS and np.dtype(dtype).kind in "iu":
        return random_array(shape, dtype, rng, -20, 20), random_array(shape, dtype, rng, 0, 10)
    if name == "power" and np.dtype(dtype).kind in "iu":
        return random_array(shape, dtype, rng, -4, 5), random_array(shape, dtype, rng, 0, 4)
    a = random_array(shape, dtype, rng, -10, 10)
    b = random_array(shape, dtype, rng, -10, 10)
    return a, b


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_all_dtypes(name, dtype, device, rng):
    x = unary_data(name, dtype, rng)
    check(getattr(kiln, name), UNARY[name], (x,), (kiln.asarray(x, device=device),))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_all_dtypes(name, dtype, device, rng):
    a, b = binary_data(name, dtype, rng)
    check(getattr(kiln, name), BINARY[name], (a, b),
          (kiln.asarray(a, device=device), kiln.asarray(b, device=device)))


@pytest.mark.parametrize("name", ["add", "multiply", "divide", "less", "maximum", "power", "bitwise_or"])
@pytest.mark.parametrize("dtype1", ALL_DTYPES)
@pytest.mark.parametrize("dtype2", ALL_DTYPES)
def test_binary_mixed_dtypes(name, dtype1, dtype2, device, rng):
    a = random_array((4, 6), dtype1, rng, 0, 4)
    b = random_array((4, 6), dtype2, rng, 0, 4)
    check(getattr(kiln, name), BINARY[name], (a, b),
          (kiln.asarray(a, device=device), kiln.asarray(b, device=device)))


@pytest.mark.parametrize("shapes", [((3, 1), (1, 4)), ((2, 3, 4), (4,)), ((5,), ()), ((), ()),
                                    ((0, 3), (1, 3)), ((2, 0), (2, 1)), ((1, 1, 5), (3, 1))])
@pytest.mark.parametrize("name", ["add", "subtract", "atan2", "greater", "where"])
def test_broadcasting_0d_and_empty(name, shapes, device, rng):
    a = random_array(shapes[0], "float64", rng)
    b = random_array(shapes[1], "float32", rng)
    if name == "where":
        c = random_array(shapes[0], "bool", rng)
        check(kiln.where, np.where, (c, a, b),
              (kiln.asarray(c, device=device), kiln.asarray(a, device=device), kiln.asarray(b, device=device)))
        return
    check(getattr(kiln, name), BINARY[name], (a, b),
          (kiln.asarray(a, device=device), kiln.asarray(b, device=device)))


@pytest.mark.parametrize("dtype", ["int16", "float32", "complex128", "bool"])
def test_non_contiguous_views(dtype, device, rng):
    base = random_array((8, 10, 6), dtype, rng)
    views = [lambda x: x[::-1], lambda x: x[:, ::3, ::-2], lambda x: x.transpose(2, 0, 1),
             lambda x: x[1:7:2, ..., 3], lambda x: x[:, None, 2]]
    k = kiln.asarray(base, device=device)
    for view in views:
        kv, nv = view(k), view(base)
        check(kiln.add, np.add, (nv, nv), (kv, kv))
        check(kiln.abs, np.abs, (nv,), (kv,))
        check(kiln.multiply, np.multiply, (nv, nv.T), (kv, kv.T))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("scalar", [True, 3, -2, 300, 2.5, 1.5 - 2j])
@pytest.mark.parametrize("name", ["add", "multiply", "greater", "maximum", "divide"])
def test_weak_python_scalars(name, dtype, scalar, device, rng):
    """NEP 50: a Python scalar takes the array's dtype unless its kind is higher."""
    a = random_array((9,), dtype, rng, 0, 5)
    k = kiln.asarray(a, device=device)
    check(getattr(kiln, name), BINARY[name], (a, scalar), (k, scalar))
    check(getattr(kiln, name), BINARY[name], (scalar, a), (scalar, k))


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "float16", "float32", "float64", "complex64",
                                   "complex128"])
def test_scalars_go_by_value_in_every_layout(dtype, device, rng):
    """A scalar operand reaches the eager kernel as a value, not as a device
    array: every position (where's three included), every memory layout the
    GPU picks (dense vectors with a tail, a 2-d and an n-d strided walk), out=."""
    a = random_array((1031,), dtype, rng, 1, 5)
    k = kiln.asarray(a, device=device)
    grid = random_array((4, 6, 5), dtype, rng, 1, 5)
    kg = kiln.asarray(grid, device=device)
    cond = np.arange(1031) % 3 == 0
    kcond = kiln.asarray(cond, device=device)
    with kiln.fusion.disabled():
        for x, kx in ((a, k), (a[1:], k[1:]), (grid[:, ::2, 1:], kg[:, ::2, 1:]), (grid.transpose(2, 0, 1),
                                                                                   kg.transpose(2, 0, 1))):
            check(kiln.add, np.add, (x, 3), (kx, 3))
            check(kiln.subtract, np.subtract, (2, x), (2, kx))
            check(kiln.maximum, np.maximum, (x, 2.5), (kx, 2.5))
            check(kiln.multiply, np.multiply, (1.5 - 2j, x), (1.5 - 2j, kx))
        check(kiln.where, np.where, (cond, a, 0), (kcond, k, 0))
        check(kiln.where, np.where, (cond, 1, a), (kcond, 1, k))
        check(kiln.where, np.where, (cond, 2, 7), (kcond, 2, 7))
        check(kiln.where, np.where, (True, a, 2), (True, k, 2))
        out = kiln.empty(a.shape, dtype="complex128", device=device)
        kiln.add(k, 1, out=out)
        np.testing.assert_array_equal(out.get(), np.add(a, 1, out=np.empty(a.shape, "complex128")))
        assert kiln.add(kiln.asarray(np.array(2, dtype), device=device), 3).shape == ()


@pytest.mark.parametrize("dtype", ["float32", "int8"])
def test_numpy_scalars_are_strong(dtype, device):
    k = kiln.ones(3, dtype=dtype, device=device)
    a = np.ones(3, dtype=dtype)
    for s in (np.float64(2.0), np.int64(3), np.float32(1.5)):
        check(kiln.add, np.add, (a, s), (k, s))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES + COMPLEX_DTYPES)
@pytest.mark.parametrize("name", ["sqrt", "exp", "log", "sin", "tanh", "isnan", "isinf", "isfinite", "sign",
                                  "floor", "rint", "abs", "reciprocal", "expm1", "log1p"])
def test_special_values(name, dtype, device):
    vals = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-30, -1.5, 2.5, 1e30], dtype=np.float64)
    x = vals.astype(dtype) if np.dtype(dtype).kind == "f" else (vals + 1j * vals[::-1]).astype(dtype)
    if np.dtype(dtype).kind == "c" and name in {"sqrt", "exp", "log", "sin", "tanh", "expm1", "log1p",
                                                 "reciprocal", "sign"}:
        x = x[np.isfinite(x)]  # C99 Annex G infinities differ between libm implementations
    check(getattr(kiln, name), UNARY[name], (x,), (kiln.asarray(x, device=device),))


@pytest.mark.parametrize("name", ["minimum", "maximum", "fmin", "fmax", "add", "less", "copysign", "nextafter",
                                  "logaddexp", "atan2", "hypot", "floor_divide", "remainder", "fmod"])
def test_binary_special_values(name, device):
    v = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -2.5], dtype=np.float64)
    a, b = np.meshgrid(v, v)
    check(getattr(kiln, name), BINARY[name], (a, b), (kiln.asarray(a, device=device), kiln.asarray(b, device=device)))


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_integer_division_by_zero_and_overflow(dtype, device, rng):
    info = np.iinfo(dtype)
    a = np.array([info.min, info.max, 7, -7 if info.min < 0 else 7, 0], dtype=dtype)
    b = np.array([-1 if info.min < 0 else 1, 2, 0, 2, 0], dtype=dtype)
    for name in ("floor_divide", "remainder", "fmod", "add", "multiply", "subtract"):
        check(getattr(kiln, name), BINARY[name], (a, b), (kiln.asarray(a, device=device), kiln.asarray(b, device=device)))
    check(kiln.abs, np.abs, (a,), (kiln.asarray(a, device=device),))
    check(kiln.negative, np.negative, (a,), (kiln.asarray(a, device=device),))


def test_integer_negative_power_raises(device):
    a = kiln.asarray(np.array([2, 3]), device=device)
    with pytest.raises(ValueError, match="negative integer powers"):
        kiln.power(a, kiln.asarray(np.array([1, -1]), device=device))
    with pytest.raises(ValueError):
        a ** -1


@pytest.mark.parametrize("dtype", ["float32", "int32", "complex64", "bool"])
def test_clip_where_round(dtype, device, rng):
    x = random_array((6, 7), dtype, rng, -10, 10)
    k = kiln.asarray(x, device=device)
    if dtype != "complex64":
        check(lambda v: kiln.clip(v, -3, 4), lambda v: np.clip(v, -3, 4), (x,), (k,))
        check(lambda v: kiln.clip(v, max=2), lambda v: np.clip(v, None, 2), (x,), (k,))
    c = random_array((6, 1), "bool", rng)
    check(kiln.where, np.where, (c, x, 0), (kiln.asarray(c, device=device), k, 0))
    for decimals in (0, 1, -1):
        check(lambda v: kiln.round(v, decimals=decimals), lambda v: np.round(v, decimals), (x,), (k,))


def test_numpy_aliases():
    assert kiln.arctan2 is kiln.atan2 and kiln.absolute is kiln.abs and kiln.pow is kiln.power
    assert kiln.invert is kiln.bitwise_invert and kiln.left_shift is kiln.bitwise_left_shift


@pytest.mark.parametrize("dtype", ["float64", "int32", "complex128"])
def test_out_argument(dtype, device, rng):
    a = random_array((4, 5), dtype, rng)
    k = kiln.asarray(a, device=device)
    out = kiln.empty((4, 5), dtype=dtype, device=device)
    r = kiln.add(k, k, out=out)
    assert r is out
    assert_matches(out, a + a)
    # Broadcast into a larger out, and a same-kind downcast into float32.
    out2 = kiln.zeros((3, 4, 5), dtype="complex128", device=device)
    kiln.multiply(k, 2, out=out2)
    assert_matches(out2, np.broadcast_to(a * 2, (3, 4, 5)).astype("complex128"))
    if dtype == "float64":
        out3 = kiln.empty((4, 5), dtype="float32", device=device)
        kiln.sin(k, out=out3)
        assert_matches(out3, np.sin(a).astype("float32"))
    with pytest.raises(ValueError, match="out"):
        kiln.add(k, k, out=kiln.empty((5, 4), dtype=dtype, device=device))
    with pytest.raises(TypeError, match="same_kind"):
        kiln.add(k, 1.5j, out=kiln.empty((4, 5), dtype="int64", device=device))


def test_in_place_overlapping(device):
    a = np.arange(10.0)
    k = kiln.asarray(a.copy(), device=device)
    k[1:] += k[:-1]
    a[1:] += a[:-1].copy()
    assert_matches(k, a)


@pytest.mark.parametrize("dtype", ["float32", "int64", "uint8", "bool", "complex64"])
def test_operators(dtype, device, rng):
    a = random_array((3, 4), dtype, rng, 1, 6)
    b = random_array((3, 4), dtype, rng, 1, 6)
    ka, kb = kiln.asarray(a, device=device), kiln.asarray(b, device=device)
    import operator as op

    ops = [op.add, op.sub, op.mul, op.truediv, op.floordiv, op.mod, op.pow, op.and_, op.or_, op.xor,
           op.lshift, op.rshift, op.eq, op.ne, op.lt, op.le, op.gt, op.ge]
    for fn in ops:
        check(fn, fn, (a, b), (ka, kb))
        # NumPy turns `bool_array ** 2` into square() (int8) instead of power()
        # with a weak int (int64); kiln follows the promotion rules.
        if not (fn is op.pow and dtype == "bool"):
            check(fn, fn, (a, 2), (ka, 2))
        check(fn, fn, (3, b), (3, kb))
    for fn in (op.neg, op.pos, op.abs, op.invert):
        check(fn, fn, (a,), (ka,))



class _EqualsTwoOrFour:
    # Defines == only: != reaches it through Python's default __ne__.
    def __eq__(self, other):
        return (other == 2) | (other == 4)


class _Defers:
    __array_ufunc__ = None  # asks arrays' operators to return NotImplemented

    def __eq__(self, other):
        return "deferred"

    __ne__ = __eq__


@pytest.mark.parametrize("dtype", ["float64", "int32", "bool", "complex64"])
@pytest.mark.parametrize("shape", [(2, 3), (), (0, 3)])
def test_comparison_with_any_object_is_elementwise(dtype, shape, device):
    # NumPy compares each element with an object it cannot make a number of
    # (its object loop) and returns a bool array, where Python's fallback
    # would give one bool for the whole array.
    import operator as op

    a = np.arange(1, 1 + int(np.prod(shape))).reshape(shape).astype(dtype)
    ka = kiln.asarray(a, device=device)
    forward = [(op.eq, op.eq), (op.ne, op.ne)]
    # value == array tries value.__eq__ first; for these objects that gives
    # NotImplemented, and Python falls back to the array's operator.
    reflected = [(lambda x, v: v == x, op.eq), (lambda x, v: v != x, op.ne)]
    for value in (None, Ellipsis, object(), "abc", _EqualsTwoOrFour()):
        for fn, numpy_fn in forward if isinstance(value, _EqualsTwoOrFour) else forward + reflected:
            want = numpy_fn(a, value)
            got = fn(ka, value)
            assert isinstance(got, kiln.ndarray) and got.device == ka.device
            assert got.dtype == np.bool_ and got.shape == want.shape
            np.testing.assert_array_equal(kiln.asnumpy(got), want)
    assert (ka == _Defers()) == "deferred" and (ka != _Defers()) == "deferred"

@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_in_place_operators(dtype, device, rng):
    a = random_array((3, 4), dtype, rng, 1, 6)
    k = kiln.asarray(a.copy(), device=device)
    ident = id(k)
    k += 2
    k *= 3
    k -= 1
    a = (a + 2) * 3 - 1
    assert id(k) == ident
    assert_matches(k, a)
    if dtype == "int32":
        with pytest.raises(TypeError):
            k += 1.5  # NumPy refuses float64 -> int32 under same_kind


def test_python_int_out_of_range_raises(device):
    k = kiln.asarray(np.array([1, 2], dtype=np.uint8), device=device)
    with pytest.raises(OverflowError, match="uint8"):
        k + 300
    with pytest.raises(OverflowError):
        k + (-1)


def test_bool_negative_and_subtract_raise(device):
    k = kiln.asarray(np.array([True, False]), device=device)
    with pytest.raises(TypeError, match="negative"):
        -k
    with pytest.raises(TypeError, match="subtract"):
        k - k


def test_mixed_devices_and_bad_operands(device):
    k = kiln.ones(3, device=device)
    with pytest.raises(TypeError, match="x2"):
        kiln.add(k, object())
    with pytest.raises(ValueError, match="broadcast"):
        kiln.add(k, kiln.ones(4, device=device))
    with pytest.raises(TypeError):
        k + "a"


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int64", "float16", "float32", "float64", "complex64"])
def test_power_operator_takes_numpy_fast_paths(device, dtype):
    """``a ** 2`` is square, ``a ** 0.5`` sqrt and ``a ** -1`` reciprocal for
    the dtypes NumPy's operator takes them, with NumPy's result dtypes."""
    x = np.array([1, 2, 3, 7], dtype=dtype)
    k = kiln.asarray(x, device=device)
    for e in (2, 2.0, 0.5, -1.0, 3):
        with np.errstate(all="ignore"):
            want = x ** e
        got = kiln.asnumpy(k ** e)
        assert got.dtype == want.dtype, (e, got.dtype, want.dtype)
        np.testing.assert_allclose(got, want, rtol=1e-3 if dtype == "float16" else 1e-6)
    y = k.copy()
    y **= 2
    np.testing.assert_array_equal(kiln.asnumpy(y), x ** 2)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128"])
def test_sign_of_a_zero_of_either_sign_is_positive_zero(dtype, device):
    a = np.array([-0.0, 0.0, np.nan, -2.5, 3.0], dtype)
    got = kiln.sign(kiln.asarray(a, device=device))
    np.testing.assert_array_equal(kiln.asnumpy(got), np.sign(a))
    np.testing.assert_array_equal(kiln.asnumpy(kiln.signbit(got.real)), np.signbit(np.sign(a).real))


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int16", "uint32", "int64", "float16", "float32", "float64",
                                   "complex64"])
def test_angle_is_numpys_in_dtype_and_at_infinities(dtype, device):
    # atan2 of a weak 0: NumPy's loop for the dtype (float16 for 8-bit
    # integers), 180 degrees for negative reals, 0 and 180 at +-inf.
    a = np.array([1, 0, 3, 1]).astype(dtype) if dtype in ("bool", "uint8", "uint32") else \
        np.array([1, -2, 0, 5]).astype(dtype)
    if dtype[0] in "fc":
        a = np.array([1.5, -2.0, np.inf, -np.inf, np.nan, -0.0]).astype(dtype)
    for deg in (False, True):
        got, want = kiln.angle(kiln.asarray(a, device=device), deg), np.angle(a, deg)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(kiln.asnumpy(got), want, rtol=1e-3)


def test_real_of_a_real_array_is_the_array(device):
    x = kiln.arange(6.0, device=device).reshape(2, 3)
    assert x.real is x and kiln.real(x) is x
    z = x.astype("complex64")
    assert z.real is not z and z.real.dtype == np.float32


def test_nan_to_num_replacements_broadcast_into_xs_shape(device):
    x = kiln.asarray([0.0, 1.0, np.nan, np.inf], device=device)
    for name in ("nan", "posinf", "neginf"):
        with pytest.raises(ValueError, match=name):
            kiln.nan_to_num(x, **{name: kiln.zeros((2, 4), device=device)})
    got = kiln.nan_to_num(x, nan=kiln.full(4, 7.0, device=device), posinf=kiln.asarray(9.0, device=device))
    np.testing.assert_array_equal(kiln.asnumpy(got), [0.0, 1.0, 7.0, 9.0])
