"""NumPy's dispatch protocols on kiln arrays. A NumPy ufunc (``np.add(x, y)``,
``np.add.reduce(x)``, ``np.multiply.accumulate(x)``) or array function
(``np.concatenate``, ``np.sum``, ...) given a kiln array runs in kiln and
returns kiln arrays; what kiln lacks answers NotImplemented, so NumPy raises
its TypeError. NumPy arrays among the arguments are viewed as kiln arrays on
the CPU (with a kiln array on a GPU that is an error, as in CuPy)."""
import numbers

from . import _public_namespace

_REDUCE = {"add": "sum", "multiply": "prod", "minimum": "min", "maximum": "max", "logical_and": "all",
           "logical_or": "any"}
_ACCUMULATE = {"add": "cumsum", "multiply": "cumprod"}
_TAKES_DTYPE = {"sum", "prod", "cumsum", "cumprod"}
# Ufunc keywords kiln follows at their defaults only.
_DEFAULTS = {"where": True, "casting": "same_kind", "order": "K", "subok": True, "dtype": None, "signature": None}


def _at_default(key, value):
    if key not in _DEFAULTS:
        return False
    default = _DEFAULTS[key]
    return value is default or (isinstance(value, (str, bool)) and value == default)


def _operand(x, kiln):
    import numpy as np

    if isinstance(x, kiln.ndarray) or isinstance(x, (numbers.Number, np.generic)):
        return x
    if isinstance(x, np.ndarray):
        return kiln.asarray(x, device="cpu")
    return None


def array_ufunc(self, ufunc, method, *inputs, **kwargs):
    kiln = _public_namespace.get()

    out = kwargs.pop("out", None)
    axis = kwargs.pop("axis", 0)
    keepdims = kwargs.pop("keepdims", False)
    dtype = kwargs.pop("dtype", None) if method in ("reduce", "accumulate") else None
    if not all(_at_default(k, v) for k, v in kwargs.items()):
        return NotImplemented
    args = [_operand(x, kiln) for x in inputs]
    if any(a is None for a in args):
        return NotImplemented
    outs = () if out is None else out
    if any(not isinstance(o, kiln.ndarray) for o in outs):
        return NotImplemented
    name = ufunc.__name__
    if method == "__call__":
        fn = getattr(kiln, name, None)
        if fn is None:
            return NotImplemented
        if not outs:
            return fn(*args)
        return fn(*args, out=outs[0] if len(outs) == 1 else outs)
    table = {"reduce": _REDUCE, "accumulate": _ACCUMULATE}.get(method, {})
    if name not in table or len(args) != 1:
        return NotImplemented
    fn_name = table[name]
    options = {"dtype": dtype} if fn_name in _TAKES_DTYPE and dtype is not None else {}
    if method == "reduce":
        result = getattr(kiln, fn_name)(args[0], axis=axis, keepdims=keepdims, **options)
    else:
        result = getattr(kiln, fn_name)(args[0], axis=axis, **options)
    if outs:
        outs[0][...] = result
        return outs[0]
    return result


def _namespace(module, kiln):
    """kiln's counterpart of a NumPy module ("numpy", "numpy.linalg", ...), or None."""
    if module == "numpy":
        return kiln
    if module.startswith("numpy."):
        return getattr(kiln, module.split(".", 1)[1], None)
    return None


def array_function(self, func, types, args, kwargs):
    import numpy as np

    kiln = _public_namespace.get()
    if not all(issubclass(t, (kiln.ndarray, np.ndarray)) for t in types):
        return NotImplemented
    namespace = _namespace(getattr(func, "__module__", "") or "", kiln)
    fn = getattr(namespace, func.__name__, None) if namespace is not None else None
    if fn is None or not callable(fn) or fn is func or getattr(fn, "__module__", "").startswith("numpy"):
        return NotImplemented
    return fn(*args, **kwargs)
