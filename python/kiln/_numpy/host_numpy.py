"""NumPy's functions that exist to read, write or print: they run through
NumPy on the host, with kiln arrays copied there and results brought back
to kiln's default device (``load``, ``loadtxt``, ``fromfile``...)."""
import functools

from .._core import ndarray
from .creation import asarray


def _host(value):
    return value.get() if isinstance(value, ndarray) else value


def _numpy_function(name, to_kiln):
    """NumPy's ``name`` with kiln arrays among its arguments copied to the
    host; ``to_kiln``: its result comes back as a kiln array."""
    import numpy as np

    function = getattr(np, name)

    @functools.wraps(function)
    def call(*args, **kwargs):
        result = function(*[_host(a) for a in args], **{k: _host(v) for k, v in kwargs.items()})
        return asarray(result) if to_kiln and isinstance(result, np.ndarray) else result

    return call


# Results that are arrays come back as kiln arrays; the others (strings,
# None, NumPy's options) as NumPy gives them.
TO_KILN = ["load", "loadtxt", "genfromtxt", "fromfile", "frombuffer", "fromstring", "fromiter", "fromregex"]
AS_IS = ["save", "savez", "savez_compressed", "savetxt", "base_repr", "binary_repr", "array2string", "array_repr",
         "array_str", "format_float_positional", "format_float_scientific", "set_printoptions", "get_printoptions",
         "printoptions", "typename", "mintypecode"]


def __getattr__(name):
    if name in TO_KILN or name in AS_IS:
        function = _numpy_function(name, name in TO_KILN)
        globals()[name] = function
        return function
    raise AttributeError(f"module 'kiln._numpy.host_numpy' has no attribute {name!r}")
