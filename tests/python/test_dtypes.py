"""dtype objects, promotion (NumPy 2 / NEP 50), casting rules and limits against NumPy."""
import itertools
import subprocess
import sys

import numpy as np
import pytest

import kiln
from conftest import ALL_DTYPES, FLOAT_DTYPES, INT_DTYPES


@pytest.mark.parametrize("name", ALL_DTYPES)
def test_dtype_objects_equal_numpy(name):
    d = kiln.dtype(name)
    assert d == np.dtype(name) and np.dtype(name) == d
    assert d == getattr(np, name) and getattr(np, name) == d
    assert d == name and d.itemsize == np.dtype(name).itemsize and d.kind == np.dtype(name).kind
    assert np.dtype(d) == np.dtype(name)
    assert np.zeros(2, dtype=d).dtype == np.dtype(name)
    assert d != ("float32" if name != "float32" else "float64")
    scalar = d(1)
    assert isinstance(scalar, np.generic) and scalar.dtype == np.dtype(name)
    # a dtype passes for a NumPy dtype where Python code asks (SciPy's output=)
    assert isinstance(d, np.dtype) and isinstance(d, kiln.dtype) and not isinstance(d, type)


@pytest.mark.parametrize("name", ALL_DTYPES)
def test_scalar_types_are_numpys(name):
    """kiln.float32 and friends are NumPy's scalar types, as CuPy's are:
    dictionaries keyed by them, issubclass and SciPy's dtype arguments work."""
    t = getattr(kiln, name if name != "bool" else "bool_")
    assert t is np.dtype(name).type and kiln.dtype(name).type is t
    assert kiln.dtype(t) == name and kiln.zeros(2, dtype=t).dtype == t
    assert {t: 1}.get(kiln.zeros(1, dtype=name).dtype.type) == 1


def test_python_types_and_aliases():
    assert kiln.asarray([1, 2], dtype=float).dtype == kiln.float64
    assert kiln.asarray([1, 2], dtype=int).dtype == kiln.int64
    assert kiln.asarray([1, 2], dtype=complex).dtype == kiln.complex128
    assert kiln.asarray([1, 0], dtype=bool).dtype == kiln.bool
    assert kiln.asarray([1], dtype="f4").dtype == kiln.float32
    assert kiln.bool is kiln.bool_
    with pytest.raises(TypeError, match="dtype"):
        kiln.zeros(3, dtype="float128")
    with pytest.raises(TypeError, match="dtype"):
        kiln.zeros(3, dtype=object)


@pytest.mark.parametrize("a,b", list(itertools.product(ALL_DTYPES, repeat=2)))
def test_promote_types_matches_numpy(a, b):
    assert kiln.promote_types(a, b) == np.promote_types(a, b)


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
def test_can_cast_matches_numpy(casting):
    for a, b in itertools.product(ALL_DTYPES, repeat=2):
        assert kiln.can_cast(a, b, casting) == np.can_cast(a, b, casting), (a, b, casting)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("scalar", [True, 1, 2.0, 1j])
def test_result_type_with_weak_scalars(dtype, scalar):
    arr = np.zeros(1, dtype)
    assert kiln.result_type(kiln.asarray(arr), scalar) == np.result_type(arr, scalar)
    assert kiln.result_type(dtype, scalar) == np.result_type(np.dtype(dtype), scalar)


@pytest.mark.parametrize("name", FLOAT_DTYPES + ["complex64", "complex128"])
def test_finfo(name):
    ours, theirs = kiln.finfo(name), np.finfo(name)
    assert ours.bits == theirs.bits
    assert ours.eps == float(theirs.eps)
    assert ours.max == float(theirs.max) and ours.min == float(theirs.min)
    assert ours.smallest_normal == float(theirs.smallest_normal)
    assert ours.dtype == theirs.dtype
    with pytest.raises(TypeError, match="floating"):
        kiln.finfo(kiln.int32)


@pytest.mark.parametrize("name", INT_DTYPES)
def test_iinfo(name):
    ours, theirs = kiln.iinfo(name), np.iinfo(name)
    assert (ours.bits, ours.min, ours.max) == (theirs.bits, theirs.min, theirs.max)
    with pytest.raises(TypeError, match="integer"):
        kiln.iinfo(kiln.float32)


def test_isdtype():
    assert kiln.isdtype(kiln.int8, "signed integer")
    assert kiln.isdtype(kiln.uint8, ("integral", "bool"))
    assert not kiln.isdtype(kiln.float32, "integral")
    assert kiln.isdtype(kiln.complex64, "numeric")
    assert kiln.isdtype(kiln.float64, kiln.float64)
    with pytest.raises(ValueError, match="kind"):
        kiln.isdtype(kiln.float64, "real")


def test_import_does_not_load_numpy():
    """`import kiln` stays fast: NumPy is imported only when first needed."""
    code = "import sys, kiln; a = kiln.ones(3) + 1; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_array_api_version():
    assert kiln.__array_api_version__ == "2024.12"
    assert kiln.ones(2).__array_namespace__() is kiln
    with pytest.raises(ValueError, match="api_version"):
        kiln.ones(2).__array_namespace__(api_version="1999.01")


@pytest.mark.parametrize("name", ["copysign", "arctan2", "hypot", "logaddexp", "nextafter", "heaviside", "divide"])
def test_float_loops_of_mixed_integer_inputs_follow_numpy(name):
    """NumPy runs a float-only ufunc in the first loop every input casts to
    safely: int8 with uint8 in float16, though they promote to int16."""
    names = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint64", "float16"]
    for a in names:
        for b in names:
            x, y = np.ones(3, dtype=a), np.ones(3, dtype=b)
            want = getattr(np, name)(x, y)
            assert getattr(kiln, name)(kiln.asarray(x), kiln.asarray(y)).dtype == want.dtype, (a, b)


def test_dtype_names_keep_their_meaning_past_the_remembered_few():
    """kiln remembers the last 16 names (strings, NumPy's types) it was given
    for a dtype; more names than that, each asked again, still name theirs."""
    names = ["float32", "f4", "<f4", "float64", "f8", "int8", "i1", "int16", "i2", "int32", "i4", "int64", "i8",
             "uint8", "u1", "uint16", "u2", "uint32", "bool", "?", "complex64", "c8", "float16", "e",
             np.float32, np.int8, np.uint64, float, int, bool, complex]
    for _ in range(3):
        for name in names:
            assert kiln.empty(2, dtype=name).dtype == np.dtype(name), name
