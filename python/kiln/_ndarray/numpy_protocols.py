"""NumPy's dispatch protocols on kiln arrays. A NumPy ufunc (``np.add(x, y)``,
``np.add.reduce(x)``, ``np.multiply.accumulate(x)``) or array function
(``np.concatenate``, ``np.sum``, ...) given a kiln array runs in kiln and
returns kiln arrays; what kiln lacks answers NotImplemented, so NumPy raises
its TypeError. NumPy arrays among the arguments are viewed as kiln arrays on
the CPU (with a kiln array on a GPU that is an error, as in CuPy)."""
import numbers

from . import public_namespace as _public_namespace



def _operand(x, kiln):
    import numpy as np

    if isinstance(x, kiln.ndarray) or isinstance(x, (numbers.Number, np.generic)):
        return x
    if isinstance(x, np.ndarray) and x.ndim == 0:
        # A NumPy scalar compared with a kiln array reaches here as a 0-d
        # array (np.float64(1) == a): a typed scalar, on every device, as in CuPy.
        return x[()]
    if isinstance(x, np.ndarray):
        return kiln.asarray(x, device="cpu")
    return None


def _ufunc_namespace(ufunc, kiln):
    """Where kiln keeps its counterpart of `ufunc`: kiln.scipy.special for
    SciPy's special functions (scipy.special.erf(kiln_array)), else kiln."""
    import sys

    special = sys.modules.get("scipy.special")  # a SciPy ufunc means SciPy is loaded
    if special is not None and getattr(special, ufunc.__name__, None) is ufunc:
        return kiln.scipy.special
    return kiln


def array_ufunc(self, ufunc, method, *inputs, **kwargs):
    """NumPy's ufunc (any of its methods), or SciPy's, handed to kiln's ufunc of the same name."""
    kiln = _public_namespace.get()
    target = getattr(_ufunc_namespace(ufunc, kiln), ufunc.__name__, None)
    if target is None or not (hasattr(target, method) if isinstance(target, kiln.ufunc) else
                              method == "__call__" and callable(target)):
        return NotImplemented
    args = [_operand(x, kiln) for x in inputs]
    if any(a is None for a in args):
        return NotImplemented
    out = kwargs.get("out")
    outs = out if isinstance(out, tuple) else () if out is None else (out,)
    if any(o is not None and not isinstance(o, kiln.ndarray) for o in outs):
        return NotImplemented
    if out is not None and method != "__call__":
        kwargs["out"] = outs[0]
    try:
        return (target if method == "__call__" else getattr(target, method))(*args, **kwargs)
    except TypeError as e:
        if "unexpected keyword" in str(e):
            return NotImplemented
        raise


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
