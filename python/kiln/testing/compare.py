"""The decorators that run a test body twice, once with ``xp`` as kiln and
once as NumPy (and ``sp``/``scp`` as kiln.scipy.sparse/kiln.scipy against
SciPy's), and judge the two results against each other: CuPy's
``numpy_cupy_*`` rules.

What is compared, in order: both raised (then the errors must be of the
same public kinds and accepted by ``accept_error``) or neither did; the
results, as tuples, have the same length; each pair's dtypes agree (with
``type_check``), C/F contiguity where NumPy's result has it (with
``contiguous_check``) and shapes; then the values, by the decorator's own
check. Where a dtype loop mixes unsigned and signed or float dtypes,
elements that the signed counterpart computes as negative are left out: a
negative value cast to an unsigned type differs between devices."""
import functools
import inspect
import traceback
import unittest

import numpy

from . import assertions

try:
    import pytest

    _SKIPS = (unittest.SkipTest, pytest.skip.Exception)
except ImportError:  # pytest is optional: unittest's skip only
    _SKIPS = (unittest.SkipTest,)

# The public error classes whose membership kiln's and NumPy's errors must share.
_PUBLIC_ERRORS = (AttributeError, Exception, IndexError, TypeError, ValueError, NotImplementedError,
                  DeprecationWarning, numpy.exceptions.AxisError, numpy.linalg.LinAlgError)
_UNSIGNED = tuple(numpy.dtype(c).type for c in "BHILQ")
_SIGNED_OR_FLOAT = tuple(numpy.dtype(c).type for c in "bhilqefd")


def _modules(use_kiln, name, sp_name, scipy_name):
    """The keyword arguments that give the test body its array modules."""
    import kiln

    given = {name: kiln if use_kiln else numpy}
    if sp_name is not None:
        if use_kiln:
            import kiln.scipy.sparse as sparse
        else:
            import scipy.sparse as sparse
        given[sp_name] = sparse
    if scipy_name is not None:
        if use_kiln:
            import kiln.scipy as scipy
        else:
            import scipy
        given[scipy_name] = scipy
    return given


def _call(impl, args, kw, use_kiln, name, sp_name, scipy_name):
    """(result, None) or (None, the exception) of one run of the body."""
    try:
        return impl(*args, **kw, **_modules(use_kiln, name, sp_name, scipy_name)), None
    except Exception as error:  # the comparison judges the error
        return None, error


def _fail(message, error):
    raise AssertionError(message).with_traceback(error.__traceback__ if error is not None else None)


def _describe(error):
    return "".join(traceback.format_exception(type(error), error, error.__traceback__)) if error else "(none)"


def _judge_errors(kiln_error, numpy_error, accept_error):
    if isinstance(kiln_error, _SKIPS) and isinstance(numpy_error, _SKIPS):
        if type(kiln_error) is not type(numpy_error) or kiln_error.args != numpy_error.args:
            raise AssertionError("kiln and NumPy were both skipped, for different reasons")
        raise numpy_error
    accepted = Exception if accept_error is True else (accept_error or ())
    if kiln_error is None:
        _fail(f"only NumPy raised:\n\n{_describe(numpy_error)}", numpy_error)
    if numpy_error is None:
        _fail(f"only kiln raised:\n\n{_describe(kiln_error)}", kiln_error)
    if not all(isinstance(kiln_error, e) == isinstance(numpy_error, e) for e in _PUBLIC_ERRORS):
        _fail(f"kiln and NumPy raised different kinds of error\n\nkiln\n{_describe(kiln_error)}\n"
              f"numpy\n{_describe(numpy_error)}", kiln_error)
    if not (isinstance(kiln_error, accepted) and isinstance(numpy_error, accepted)):
        _fail(f"both kiln and NumPy raised\n\nkiln\n{_describe(kiln_error)}\nnumpy\n{_describe(numpy_error)}",
              kiln_error)


def _as_arrays(k, n, sp_name, check_sparse_format):
    """The pair of one kiln result and one NumPy result as arrays to compare."""
    import kiln

    if sp_name is not None:
        import kiln.scipy.sparse as ksparse

        if ksparse.issparse(k):
            import scipy.sparse

            assert scipy.sparse.issparse(n), f"kiln returned a sparse matrix, NumPy's side {type(n).__name__}"
            if check_sparse_format:
                assert k.format == n.format, f"sparse formats differ: {k.format} and {n.format}"
            return k.toarray(), n.toarray()
    if isinstance(k, kiln.ndarray) and isinstance(n, (numpy.ndarray, numpy.generic)):
        return k, n
    if isinstance(k, kiln.poly1d) and isinstance(n, numpy.poly1d):
        assert k.variable == n.variable
        return k.coeffs, n.coeffs
    if isinstance(k, numpy.generic) and isinstance(n, numpy.generic):
        return k, n
    if numpy.isscalar(k) and numpy.isscalar(n):
        return kiln.array(k), numpy.array(n)
    raise AssertionError(f"kiln and NumPy returned different kinds of value:\nkiln: {type(k)}\nnumpy: {type(n)}")


def _mixes_signedness(kw):
    def is_dtype(v):
        return isinstance(v, (numpy.dtype, str)) or (isinstance(v, type) and issubclass(v, numpy.number))

    given = {v for v in kw.values() if is_dtype(v)}
    return any(d in given for d in _UNSIGNED) and any(d in given for d in _SIGNED_OR_FLOAT)


def _nonnegative_masks(impl, args, kw, name, sp_name, scipy_name):
    """Where the body, rerun with each unsigned dtype made signed, gives
    elements >= 0: the elements an unsigned result may be compared at."""
    import kiln

    signed = {k: (numpy.dtype(numpy.dtype(v).char.lower()).type if v in _UNSIGNED else v) for k, v in kw.items()}
    result, error = _call(impl, args, signed, True, name, sp_name, scipy_name)
    assert error is None, error
    if not isinstance(result, (tuple, list)):
        result = (result,)
    return [kiln.asnumpy(r) >= 0 for r in result]


def _with_signature(impl, names):
    """`impl`'s name and docs, with the arguments the decorator fills removed
    from its signature (pytest reads it to find fixtures)."""
    def decorate(wrapper):
        wrapper = functools.wraps(impl)(wrapper)
        wrapper.__signature__ = inspect.signature(functools.partial(impl, **{n: None for n in names}))
        return wrapper
    return decorate


def _comparison(check, name, type_check, contiguous_check, accept_error, sp_name=None, scipy_name=None,
                check_sparse_format=True):
    if not isinstance(name, str):
        raise TypeError(f"name: expected the argument's name as a str, got {type(name).__name__}")

    def judge(kiln_result, numpy_result, impl, args, kw):
        import kiln

        if not isinstance(kiln_result, (tuple, list)):
            kiln_result = (kiln_result,)
        if not isinstance(numpy_result, (tuple, list)):
            numpy_result = (numpy_result,)
        assert len(kiln_result) == len(numpy_result), \
            f"kiln returned {len(kiln_result)} values, NumPy {len(numpy_result)}"
        pairs = [_as_arrays(k, n, sp_name, check_sparse_format) for k, n in zip(kiln_result, numpy_result)]
        if type_check:
            for k, n in pairs:
                if k.dtype != n.dtype:
                    raise AssertionError(f"arrays of different dtypes were returned.\nkiln: {k.dtype}\n"
                                         f"numpy: {n.dtype}")
        if contiguous_check:
            for k, n in zip(kiln_result, numpy_result):
                if isinstance(n, numpy.ndarray):
                    for flag in ("c_contiguous", "f_contiguous"):
                        if getattr(n.flags, flag) and not getattr(k.flags, flag):
                            raise AssertionError(f"NumPy's result is {flag}, kiln's is not")
        for k, n in pairs:
            assert k.shape == n.shape, f"shapes differ: kiln {k.shape}, numpy {n.shape}"
        masks = [None] * len(pairs)
        if _mixes_signedness(kw):
            unsigned = [k.dtype.type in _UNSIGNED for k, _ in pairs]
            if any(unsigned):
                found = _nonnegative_masks(impl, args, kw, name, sp_name, scipy_name)
                masks = [m if u else None for m, u in zip(found, unsigned)]
        for (k, n), mask in zip(pairs, masks):
            if mask is not None:
                if k.shape == ():
                    if not mask.all():
                        continue
                else:
                    k, n = kiln.asnumpy(k)[mask], n[mask]
            check(k, n)

    return _results(judge, name, sp_name, scipy_name, accept_error)


def _tolerance(tol, dtype):
    """A tolerance given per dtype (a dict keyed by scalar types and 'default') for `dtype`."""
    if not isinstance(tol, dict):
        return tol
    found = tol.get(dtype.type, tol.get("default"))
    if found is None:
        raise TypeError(f"no tolerance given for {dtype.type}")
    return found


def _check_tolerance_keys(*tolerances):
    for tol in tolerances:
        if isinstance(tol, dict):
            for key in tol:
                if not (type(key) is type or key == "default"):
                    raise TypeError("the keys of a tolerance dict must be scalar types (numpy.float32, "
                                    "kiln.float32) or 'default'")


def numpy_cupy_allclose(rtol=1e-7, atol=0, err_msg="", verbose=True, name="xp", type_check=True,
                        accept_error=False, sp_name=None, scipy_name=None, contiguous_check=True, *,
                        _check_sparse_format=True):
    """Kiln's and NumPy's results agree within ``rtol``/``atol`` (each a number
    or a dict by dtype); without ``type_check`` a tolerance dict is read at the
    wider of the two dtypes."""
    _check_tolerance_keys(rtol, atol)
    if not type_check and (isinstance(rtol, dict) or isinstance(atol, dict)):
        raise TypeError("a tolerance dict needs type_check=True")

    def check(k, n):
        dtype = numpy.promote_types(k.dtype, n.dtype) if not type_check else k.dtype
        assertions.assert_allclose(k, n, _tolerance(rtol, dtype), _tolerance(atol, dtype), err_msg, verbose)

    return _comparison(check, name, type_check, contiguous_check, accept_error, sp_name, scipy_name,
                       _check_sparse_format)


def numpy_cupy_array_almost_equal(decimal=6, err_msg="", verbose=True, name="xp", type_check=True,
                                  accept_error=False, sp_name=None, scipy_name=None):
    return _comparison(lambda k, n: assertions.assert_array_almost_equal(k, n, decimal, err_msg, verbose),
                       name, type_check, False, accept_error, sp_name, scipy_name)


def numpy_cupy_array_almost_equal_nulp(nulp=1, name="xp", type_check=True, accept_error=False, sp_name=None,
                                       scipy_name=None):
    return _comparison(lambda k, n: assertions.assert_array_almost_equal_nulp(k, n, nulp),
                       name, type_check, False, accept_error, sp_name, scipy_name)


def numpy_cupy_array_max_ulp(maxulp=1, dtype=None, name="xp", type_check=True, accept_error=False,
                             sp_name=None, scipy_name=None):
    return _comparison(lambda k, n: assertions.assert_array_max_ulp(k, n, maxulp, dtype),
                       name, type_check, False, accept_error, sp_name, scipy_name)


def numpy_cupy_array_equal(err_msg="", verbose=True, name="xp", type_check=True, accept_error=False,
                           sp_name=None, scipy_name=None, strides_check=False):
    return _comparison(lambda k, n: assertions.assert_array_equal(k, n, err_msg, verbose, strides_check),
                       name, type_check, False, accept_error, sp_name, scipy_name)


def _results(judge, name, sp_name, scipy_name, accept_error=False):
    """A decorator running the body with kiln and with NumPy: errors are
    judged (_judge_errors), results go to ``judge(kiln_result,
    numpy_result, impl, args, kw)``."""
    def decorator(impl):
        @_with_signature(impl, [n for n in (name, sp_name, scipy_name) if n is not None])
        def test(*args, **kw):
            kiln_result, kiln_error = _call(impl, args, kw, True, name, sp_name, scipy_name)
            numpy_result, numpy_error = _call(impl, args, kw, False, name, sp_name, scipy_name)
            if kiln_error is not None or numpy_error is not None:
                _judge_errors(kiln_error, numpy_error, accept_error)
                return
            judge(kiln_result, numpy_result, impl, args, kw)
        return test
    return decorator


def numpy_cupy_array_list_equal(err_msg="", verbose=True, name="xp", sp_name=None, scipy_name=None):
    """The body returns a sequence of arrays; kiln's and NumPy's are equal element by element."""
    return _results(lambda k, n, *_: assertions.assert_array_list_equal(k, n, err_msg, verbose),
                    name, sp_name, scipy_name)


def numpy_cupy_array_less(err_msg="", verbose=True, name="xp", type_check=True, accept_error=False,
                          sp_name=None, scipy_name=None):
    return _comparison(lambda k, n: assertions.assert_array_less(k, n, err_msg, verbose),
                       name, type_check, False, accept_error, sp_name, scipy_name)


def numpy_cupy_equal(name="xp", sp_name=None, scipy_name=None):
    """The body returns plain Python values; kiln's and NumPy's are ``==``."""
    def check(k, n, *_):
        if k != n:
            raise AssertionError(f"results differ:\nkiln: {k}\nnumpy: {n}")

    return _results(check, name, sp_name, scipy_name)


def numpy_cupy_raises(name="xp", sp_name=None, scipy_name=None, accept_error=Exception):
    """Both kiln and NumPy raise, errors of the same public kinds."""
    def decorator(impl):
        @_with_signature(impl, [n for n in (name, sp_name, scipy_name) if n is not None])
        def test(*args, **kw):
            _, kiln_error = _call(impl, args, kw, True, name, sp_name, scipy_name)
            _, numpy_error = _call(impl, args, kw, False, name, sp_name, scipy_name)
            if kiln_error is None and numpy_error is None:
                raise AssertionError("kiln and NumPy were both expected to raise, and neither did")
            _judge_errors(kiln_error, numpy_error, accept_error)
        return test
    return decorator

