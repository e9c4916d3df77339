"""kiln.testing, CuPy's public testing module for kiln: its decorators run a
body with kiln and with NumPy and judge the two, its assertions take kiln
arrays, its loops and makers give what CuPy's do."""
import unittest

import numpy as np
import pytest

import kiln
from kiln import testing


def test_assertions_take_kiln_and_numpy_arrays(device):
    a = kiln.arange(6, dtype="float32", device=device)
    testing.assert_array_equal(a, np.arange(6, dtype="float32"))
    testing.assert_allclose(a + 1e-9, np.arange(6), atol=1e-6)
    testing.assert_array_almost_equal(a, np.arange(6) + 1e-8)
    testing.assert_array_less(a, a + 1)
    testing.assert_array_list_equal([a, a], [np.arange(6)] * 2)
    testing.assert_array_max_ulp(a, a, maxulp=0)
    with pytest.raises(AssertionError):
        testing.assert_array_equal(a, np.arange(1, 7))
    with pytest.raises(AssertionError, match="strides"):
        testing.assert_array_equal(a[::2], kiln.ascontiguousarray(a[::2]), strides_check=True)


def test_numpy_cupy_allclose_judges_kiln_against_numpy():
    @testing.numpy_cupy_allclose(rtol=1e-6)
    def agrees(xp):
        return xp.sin(xp.arange(10, dtype="float32"))

    @testing.numpy_cupy_allclose()
    def disagrees(xp):
        return xp.arange(3) + (xp is kiln)

    @testing.numpy_cupy_array_equal()
    def dtype_differs(xp):
        return xp.arange(3, dtype="int32" if xp is kiln else "int64")

    agrees()
    with pytest.raises(AssertionError):
        disagrees()
    with pytest.raises(AssertionError, match="dtypes"):
        dtype_differs()


def test_tolerances_per_dtype():
    @testing.for_float_dtypes(no_float16=True)
    @testing.numpy_cupy_allclose(rtol={np.float32: 1e-5, "default": 1e-12})
    def close(xp, dtype):
        return xp.exp(xp.linspace(0, 1, 7, dtype=dtype))

    close()
    with pytest.raises(TypeError):
        testing.numpy_cupy_allclose(rtol={"float32": 1e-5})


def test_errors_must_match():
    @testing.numpy_cupy_allclose(accept_error=ValueError)
    def both_raise(xp):
        return xp.ones(3).reshape(2, 2)

    @testing.numpy_cupy_allclose(accept_error=ValueError)
    def only_kiln_raises(xp):
        if xp is kiln:
            raise ValueError("kiln's")
        return xp.ones(1)

    @testing.numpy_cupy_raises()
    def raises(xp):
        xp.zeros((2, 3)) + xp.zeros((4,))

    both_raise()
    raises()
    with pytest.raises(AssertionError, match="only kiln raised"):
        only_kiln_raises()


def test_dtype_loops_pass_each_dtype():
    seen = []

    @testing.for_all_dtypes(no_float16=True)
    def record(dtype):
        seen.append(np.dtype(dtype))

    record()
    assert np.dtype("float16") not in seen and np.dtype("bool") in seen and np.dtype("complex128") in seen
    pairs = []

    @testing.for_dtypes_combination(["int8", "float32", "float64"], names=("a", "b"))
    def pair(a, b):
        pairs.append((a, b))

    pair()
    assert {a for a, _ in pairs} == {b for _, b in pairs} == {"int8", "float32", "float64"}

    @testing.for_int_dtypes()
    def fails_at_one(dtype):
        assert dtype != np.uint16

    with pytest.raises(AssertionError) as info:
        fails_at_one()
    assert "dtype=uint16" in "".join(getattr(info.value, "__notes__", []))


def test_unsigned_results_are_compared_where_the_signed_ones_are_not_negative():
    # -3.0 cast to uint8 differs between devices: the loop leaves it out.
    @testing.for_dtypes_combination([np.float32, np.int8, np.uint8], names=("src", "dst"), full=True)
    @testing.numpy_cupy_array_equal()
    def cast(xp, src, dst):
        return xp.array([-3.0, 2, 5]).astype(src).astype(dst)

    cast()


def test_orders_and_axes():
    orders = []
    testing.for_CF_orders()(lambda order: orders.append(order))()
    assert orders == [None, "C", "F", "c", "f"]
    axes = []

    class Case:
        @testing.for_contiguous_axes()
        def run(self, shape, order, axis):
            axes.append(axis)

    Case().run(shape=(2, 3, 4), order="C")
    Case().run(shape=(2, 3, 4), order="F")
    assert axes == [(2,), (1, 2), (0, 1, 2), (0,), (0, 1), (0, 1, 2)]


def test_makers(device):
    a = testing.shaped_arange((2, 3), kiln, "float64")
    np.testing.assert_array_equal(kiln.asnumpy(a), np.arange(1, 7).reshape(2, 3))
    np.testing.assert_array_equal(kiln.asnumpy(testing.shaped_reverse_arange((3,), kiln, "int32")), [3, 2, 1])
    np.testing.assert_array_equal(testing.shaped_arange((4,), np, bool), [False, True, False, True])
    np.testing.assert_array_equal(testing.shaped_arange((2,), np, "complex64"), [1 + 1j, 2 + 2j])
    r = testing.shaped_random((50,), kiln, "float32", scale=3, seed=4)
    assert r.dtype == np.float32 and 0 <= float(r.min()) and float(r.max()) < 3
    np.testing.assert_array_equal(kiln.asnumpy(r), testing.shaped_random((50,), np, "float32", scale=3, seed=4))
    f = testing.shaped_arange((2, 3), kiln, order="F")
    assert f.flags.f_contiguous
    np.testing.assert_array_equal(testing.shaped_linspace(-2, 5, (4,), np, "uint8"), np.linspace(0, 5, 4).astype("uint8"))
    m = testing.generate_matrix((3, 5, 4), kiln, "float64", singular_values=[3.0, 2.0, 1.0, 0.5])
    np.testing.assert_allclose(np.linalg.svd(kiln.asnumpy(m), compute_uv=False), [[3, 2, 1, 0.5]] * 3, rtol=1e-12)
    with pytest.raises(TypeError):
        testing.generate_matrix((3, 3), kiln, "int32", singular_values=[1, 1, 1])


def test_sparse_maker_and_sparse_comparisons():
    pytest.importorskip("scipy")

    @testing.numpy_cupy_allclose(sp_name="sp")
    def to_dense(xp, sp):
        return sp.csr_matrix(testing.shaped_sparse_random((5, 4), sp, density=0.5, seed=1))

    to_dense()


@testing.parameterize(*testing.product({"n": [1, 3], "kind": ["a"]}))
class TestParameterizedPytestClass:
    def test_attributes_are_set(self):
        assert self.n in (1, 3) and self.kind == "a"


@testing.parameterize({"value": 2}, {"value": 5})
class TestParameterizedUnittestCase(unittest.TestCase):
    def test_value(self):
        self.assertIn(self.value, (2, 5))


def test_parameterize_made_one_case_per_set():
    cases = [name for name in globals() if name.startswith("TestParameterizedUnittestCase_param_")]
    assert len(cases) == 2
    assert testing.product_dict([{"a": 1}, {"a": 2}], [{"b": 3}]) == [{"a": 1, "b": 3}, {"a": 2, "b": 3}]


def test_fixed_random_states_repeat_and_are_restored():
    before = np.random.get_state()[1].copy()

    @testing.fix_random()
    def draw():
        return np.random.rand(3), kiln.asnumpy(kiln.random.rand(3)), testing.generate_seed()

    first, second = draw(), draw()
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(np.random.get_state()[1], before)
    with pytest.raises(RuntimeError):
        testing.generate_seed()


def test_helpers():
    import warnings

    with testing.assert_warns(UserWarning):
        warnings.warn("x")
    with pytest.raises(AssertionError):
        with testing.assert_warns(UserWarning):
            pass
    with testing.AssertFunctionIsCalled("kiln.testing.makers.math.prod", return_value=4):
        testing.shaped_arange((2, 2), np)
    assert testing.installed("numpy") and not testing.installed("numpy<1")
    assert testing.numpy_satisfies(">=1.20")


def test_kiln_testing_is_reached_as_cupy_testing_is():
    import importlib

    kiln_module = importlib.import_module("kiln")
    assert kiln_module.testing is testing
