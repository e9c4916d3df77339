"""kiln's ufunc objects and the elementwise functions kiln composes, against
NumPy, on every device."""
import numpy as np
import pytest

import kiln

RNG = np.random.default_rng(7)


def _k(a, device):
    return kiln.asarray(a, device=device)


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "subtract", "logical_or", "bitwise_xor",
                                  "fmax", "hypot"])
def test_reduce_accumulate_outer(device, name):
    k_ufunc, n_ufunc = getattr(kiln, name), getattr(np, name)
    a = RNG.integers(0, 7, (4, 5)).astype(np.int64 if name in ("bitwise_xor", "logical_or") else np.float64)
    x = _k(a, device)
    for axis in (0, 1, -1):
        np.testing.assert_allclose(k_ufunc.reduce(x, axis=axis).get(), n_ufunc.reduce(a, axis=axis))
        np.testing.assert_allclose(k_ufunc.accumulate(x, axis=axis).get(), n_ufunc.accumulate(a, axis=axis))
    if name not in ("subtract",):
        np.testing.assert_allclose(k_ufunc.reduce(x, axis=None).get(), n_ufunc.reduce(a, axis=None))
        np.testing.assert_allclose(k_ufunc.reduce(x, axis=(0, 1), keepdims=True).get(),
                                   n_ufunc.reduce(a, axis=(0, 1), keepdims=True))
    np.testing.assert_allclose(k_ufunc.outer(x[0], x[:, 1]).get(), n_ufunc.outer(a[0], a[:, 1]))
    np.testing.assert_allclose(k_ufunc.reduceat(x, [0, 3, 1], axis=1).get(), n_ufunc.reduceat(a, [0, 3, 1], axis=1))


def test_reduce_of_empty_and_initial(device):
    empty = _k(np.zeros((0, 3)), device)
    np.testing.assert_array_equal(kiln.add.reduce(empty).get(), np.add.reduce(np.zeros((0, 3))))
    with pytest.raises(ValueError, match="identity"):
        kiln.maximum.reduce(empty)
    x = _k(np.arange(6.0).reshape(2, 3), device)
    assert float(kiln.add.reduce(x, axis=None, initial=10)) == 25.0
    assert float(kiln.maximum.reduce(x, axis=None, where=kiln.asarray([[True, False, True]] * 2, device=device),
                                     initial=-1)) == 5.0


def test_at_applies_repeated_indices_again(device):
    a = np.zeros(6)
    idx = np.array([0, 1, 1, 3, 3, 3])
    np.add.at(a, idx, np.arange(6.0))
    x = kiln.zeros(6, device=device)
    kiln.add.at(x, _k(idx, device), _k(np.arange(6.0), device))
    np.testing.assert_array_equal(x.get(), a)
    b = np.arange(12.0).reshape(3, 4)
    y = _k(b, device)
    np.negative.at(b, (np.array([0, 2]), np.array([1, 3])))
    kiln.negative.at(y, (_k([0, 2], device), _k([1, 3], device)))
    np.testing.assert_array_equal(y.get(), b)
    z = _k(np.arange(12.0).reshape(3, 4), device).T  # not contiguous
    ref = np.arange(12.0).reshape(3, 4).T.copy()
    np.multiply.at(ref, (slice(None), 1), 3.0)
    kiln.multiply.at(z, (slice(None), 1), 3.0)
    np.testing.assert_array_equal(z.get(), ref)


def test_call_keywords(device):
    x = _k(np.arange(4.0), device)
    out = kiln.zeros(4, device=device)
    assert kiln.add(x, 1, out) is out
    np.testing.assert_array_equal(out.get(), [1, 2, 3, 4])
    kiln.multiply(x, 10, out=out, where=_k([True, False, True, False], device))
    np.testing.assert_array_equal(out.get(), [0, 2, 20, 4])
    assert kiln.add(x, 1, dtype="float32").dtype == kiln.float32
    assert kiln.add.nin == 2 and kiln.add.nout == 1 and kiln.add.identity == 0 and "dd->d" in kiln.add.types
    assert kiln.arccos is kiln.acos and repr(kiln.abs) == "<ufunc 'absolute'>"
    with pytest.raises(ValueError, match="binary"):
        kiln.sin.reduce(x)


def test_composed_functions_match_numpy(device):
    ints_a, ints_b = RNG.integers(-50, 50, 40), RNG.integers(-50, 50, 40)
    floats = np.concatenate([RNG.normal(0, 100, 40), [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-310, 3.5]])
    for name in ("gcd", "lcm"):
        np.testing.assert_array_equal(getattr(kiln, name)(_k(ints_a, device), _k(ints_b, device)).get(),
                                      getattr(np, name)(ints_a, ints_b))
    for k_part, n_part in zip(kiln.frexp(_k(floats, device)), np.frexp(floats)):
        np.testing.assert_array_equal(k_part.get(), n_part)
    for k_part, n_part in zip(kiln.modf(_k(floats, device)), np.modf(floats)):
        np.testing.assert_array_equal(k_part.get(), n_part)
    for k_part, n_part in zip(kiln.divmod(_k(ints_a, device), 7), np.divmod(ints_a, 7)):
        np.testing.assert_array_equal(k_part.get(), n_part)
    exps = RNG.integers(-20, 20, floats.size)
    np.testing.assert_array_equal(kiln.ldexp(_k(floats, device), _k(exps, device)).get(), np.ldexp(floats, exps))
    finite = floats[np.isfinite(floats)]
    cases = {
        "heaviside": ((floats, 0.5), {}), "float_power": ((np.abs(finite[:10]), 1.5), {}),
        "logaddexp2": ((finite, finite[::-1]), {}), "i0": ((finite / 100,), {}), "sinc": ((finite / 50,), {}),
        "fix": ((floats,), {}), "angle": ((finite + 1j * finite[::-1],), {"deg": True}),
        "nan_to_num": ((floats,), {}), "isposinf": ((floats,), {}), "isneginf": ((floats,), {}),
        "fabs": ((floats,), {}),
    }
    for name, (args, kwargs) in cases.items():
        expected = getattr(np, name)(*args, **kwargs)
        got = getattr(kiln, name)(*[_k(a, device) if isinstance(a, np.ndarray) else a for a in args], **kwargs)
        np.testing.assert_allclose(got.get(), expected, rtol=1e-13, atol=0, err_msg=name)
    z = _k(np.array([1 + 0j, 2 + 1e-20j, 3 + 1j]), device)
    np.testing.assert_array_equal(kiln.iscomplex(z).get(), [False, True, True])
    assert kiln.iscomplexobj(z) and not kiln.isrealobj(z) and kiln.isscalar(3.0) and not kiln.isscalar(z)
