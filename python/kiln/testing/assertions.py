"""numpy.testing's array assertions over kiln arrays: each argument is
brought to the host (kiln.asnumpy) and NumPy's assertion judges, so the
messages and tolerances are NumPy's."""
import numpy
import numpy.testing


def _host(value):
    """`value` as NumPy sees it: kiln arrays (and anything with .get()) copied
    to the host, sequences of them elementwise, the rest as it is."""
    from .. import ndarray, asnumpy

    if isinstance(value, ndarray):
        return asnumpy(value)
    if isinstance(value, (list, tuple)) and any(isinstance(v, ndarray) for v in value):
        return type(value)(_host(v) for v in value)
    return value


def assert_allclose(actual, desired, rtol=1e-7, atol=0, err_msg="", verbose=True):
    numpy.testing.assert_allclose(_host(actual), _host(desired), rtol=rtol, atol=atol, err_msg=err_msg,
                                  verbose=verbose)


def assert_array_almost_equal(x, y, decimal=6, err_msg="", verbose=True):
    numpy.testing.assert_array_almost_equal(_host(x), _host(y), decimal=decimal, err_msg=err_msg, verbose=verbose)


def assert_array_almost_equal_nulp(x, y, nulp=1):
    numpy.testing.assert_array_almost_equal_nulp(_host(x), _host(y), nulp=nulp)


def assert_array_max_ulp(a, b, maxulp=1, dtype=None):
    numpy.testing.assert_array_max_ulp(_host(a), _host(b), maxulp=maxulp, dtype=dtype)


def assert_array_equal(x, y, err_msg="", verbose=True, strides_check=False, **kwargs):
    """NumPy's assert_array_equal; with ``strides_check`` the two must also
    have the same strides (where both are arrays)."""
    if strides_check and hasattr(x, "strides") and hasattr(y, "strides") and x.strides != y.strides:
        raise AssertionError(f"strides differ: {x.strides} and {y.strides}"
                             + (f"\n{err_msg}" if err_msg else ""))
    numpy.testing.assert_array_equal(_host(x), _host(y), err_msg=err_msg, verbose=verbose, **kwargs)


def assert_array_list_equal(xlist, ylist, err_msg="", verbose=True):
    """Two sequences of arrays, equal in length and element by element."""
    if len(xlist) != len(ylist):
        raise AssertionError(f"lengths differ: {len(xlist)} and {len(ylist)}"
                             + (f"\n{err_msg}" if err_msg else ""))
    for x, y in zip(xlist, ylist):
        numpy.testing.assert_array_equal(_host(x), _host(y), err_msg=err_msg, verbose=verbose)


def assert_array_less(x, y, err_msg="", verbose=True):
    numpy.testing.assert_array_less(_host(x), _host(y), err_msg=err_msg, verbose=verbose)
