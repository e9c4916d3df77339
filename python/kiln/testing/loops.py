"""Decorators that run a test once per dtype, dtype combination, memory
order or axis set, passing each as a keyword argument (CuPy's ``for_*``).
A failure names the value it failed at."""
import functools
import inspect
import itertools
import os

import numpy

from .compare import _SKIPS

_COMPLEX = (numpy.complex64, numpy.complex128)
_REGULAR_FLOAT = (numpy.float64, numpy.float32)
_FLOAT = _REGULAR_FLOAT + (numpy.float16,)
_SIGNED = tuple(numpy.dtype(c).type for c in "bhilq")
_UNSIGNED = tuple(numpy.dtype(c).type for c in "BHILQ")
_INT = _SIGNED + _UNSIGNED


def _loop(cases, names):
    """A decorator running the test once for each of `cases` (dicts of
    keyword arguments named `names`). A case the test skips is skipped
    alone; the test is skipped only if every case is."""
    def decorator(impl):
        @functools.wraps(impl)
        def test(*args, **kw):
            skipped = None
            for case in cases:
                try:
                    impl(*args, **kw, **case)
                except _SKIPS as skip:
                    skipped = skip
                except Exception as error:
                    error.add_note("(at " + ", ".join(f"{k}={_describe(v)}" for k, v in case.items()) + ")")
                    raise
                else:
                    skipped = False
            if skipped:
                raise skipped
        _drop_parameters(test, impl, names)
        return test
    return decorator


def _each(values, name):
    return _loop([{name: v} for v in values], [name])


def _describe(value):
    if isinstance(value, type) and issubclass(value, numpy.generic) or isinstance(value, numpy.dtype):
        return numpy.dtype(value).name
    return repr(value)


def _drop_parameters(wrapper, impl, names):
    """The signature pytest reads: `impl`'s, less the arguments the loop fills."""
    try:
        signature = inspect.signature(impl)
    except (TypeError, ValueError):
        return
    wrapper.__signature__ = signature.replace(
        parameters=[p for p in signature.parameters.values() if p.name not in names])


def for_dtypes(dtypes, name="dtype"):
    """Runs the test once for each dtype of `dtypes`, passed as `name`."""
    return _each(tuple(dtypes), name)


def _all_dtypes(no_float16, no_bool, no_complex):
    return ((_REGULAR_FLOAT if no_float16 else _FLOAT) + _INT + (() if no_bool else (numpy.bool_,))
            + (() if no_complex else _COMPLEX))


def for_all_dtypes(name="dtype", no_float16=False, no_bool=False, no_complex=False):
    """Every dtype kiln computes in: the floats, the signed and unsigned
    integers, bool and the complex types."""
    return for_dtypes(_all_dtypes(no_float16, no_bool, no_complex), name)


def for_float_dtypes(name="dtype", no_float16=False):
    return for_dtypes(_REGULAR_FLOAT if no_float16 else _FLOAT, name)


def for_signed_dtypes(name="dtype"):
    return for_dtypes(_SIGNED, name)


def for_unsigned_dtypes(name="dtype"):
    return for_dtypes(_UNSIGNED, name)


def for_int_dtypes(name="dtype", no_bool=False):
    return for_dtypes(_INT if no_bool else _INT + (numpy.bool_,), name)


def for_complex_dtypes(name="dtype"):
    return for_dtypes(_COMPLEX, name)


def _combinations(types, names, full):
    """Every assignment of dtypes from `types` to `names` (full), else a set
    in which each dtype stands at each name at least once: the loop CuPy's
    tests run unless CUPY_TEST_FULL_COMBINATION asks for all of them."""
    if full is None:
        full = int(os.environ.get("CUPY_TEST_FULL_COMBINATION", "0")) != 0
    if full:
        return [dict(zip(names, combo)) for combo in itertools.product(types, repeat=len(names))]
    n = len(types)
    rows = {tuple(types[(i + shift * position) % n] for position in range(len(names)))
            for shift in (0, 1) for i in range(n)}
    return [dict(zip(names, row)) for row in sorted(rows, key=lambda row: [types.index(t) for t in row])]


def for_dtypes_combination(types, names=("dtype",), full=None):
    """Runs the test once for each combination of dtypes from `types`, one per name of `names`."""
    names = tuple(names)
    return _loop(_combinations(tuple(types), names, full), names)


def for_all_dtypes_combination(names=("dtype",), no_float16=False, no_bool=False, full=None, no_complex=False):
    return for_dtypes_combination(_all_dtypes(no_float16, no_bool, no_complex), names, full)


def for_signed_dtypes_combination(names=("dtype",), full=None):
    return for_dtypes_combination(_SIGNED, names, full)


def for_unsigned_dtypes_combination(names=("dtype",), full=None):
    return for_dtypes_combination(_UNSIGNED, names, full)


def for_int_dtypes_combination(names=("dtype",), no_bool=False, full=None):
    return for_dtypes_combination(_INT if no_bool else _INT + (numpy.bool_,), names, full)


def for_orders(orders, name="order"):
    """Runs the test once for each memory order of `orders`, passed as `name`."""
    return _each(tuple(orders), name)


def for_CF_orders(name="order"):  # noqa: N802  (CuPy's name)
    return for_orders([None, "C", "F", "c", "f"], name)


def for_contiguous_axes(name="axis"):
    """Runs a test taking ``shape`` and ``order`` keyword arguments once for
    each tuple of axes over which an array of that shape and order is
    contiguous: the trailing axes in C order, the leading ones in F order."""
    def decorator(impl):
        @functools.wraps(impl)
        def test(self, *args, **kw):
            ndim, order = len(kw["shape"]), kw["order"]
            if order not in ("c", "C", "f", "F"):
                raise ValueError("for_contiguous_axes: the test's order must be 'C' or 'F'")
            for i in range(ndim):
                axes = tuple(range(ndim - 1 - i, ndim)) if order in "cC" else tuple(range(i + 1))
                try:
                    impl(self, *args, **{**kw, name: axes})
                except Exception as error:
                    error.add_note(f"(at {name}={axes}, shape {kw['shape']}, order {order})")
                    raise
        _drop_parameters(test, impl, [name])
        return test
    return decorator
