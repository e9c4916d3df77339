"""The interpolants kiln does not yet evaluate on a GPU (Krogh and
barycentric polynomials, FITPACK's smoothing splines, tensor-product
NdPPoly/NdBSpline, scattered-data interpolants, radial basis functions):
SciPy's classes, built and evaluated on the host, taking kiln arrays and
answering kiln arrays on the device the data came from. Correct on every
device; on a GPU each call pays two copies."""
import functools

from .._host_arrays import device_of, to_host, to_kiln
from ._host import scipy_interpolate


class _SciPyOnHost:
    _scipy_name = None

    def __init__(self, *args, **kwargs):
        self._device = device_of((args, tuple(kwargs.values())))
        self._host = getattr(scipy_interpolate(), self._scipy_name)(*to_host(args), **to_host(kwargs))

    def __call__(self, *args, **kwargs):
        return to_kiln(self._host(*to_host(args), **to_host(kwargs)), self._device)

    def __getattr__(self, name):
        if name.startswith("__") or name in ("_host", "_device"):
            raise AttributeError(name)
        value = getattr(self._host, name)
        if not callable(value):
            return to_kiln(value, self._device)

        @functools.wraps(value)
        def method(*args, **kwargs):
            result = value(*to_host(args), **to_host(kwargs))
            if type(result).__name__ == self._scipy_name:  # derivative(), antiderivative()...: the same class
                wrapped = object.__new__(type(self))
                wrapped._host, wrapped._device = result, self._device
                return wrapped
            return to_kiln(result, self._device)

        return method


def _on_host_class(name):
    return type(name, (_SciPyOnHost,), {"_scipy_name": name, "__doc__": f"scipy.interpolate.{name}, on the host "
                                        "(kiln arrays in and out)."})


def _on_host_function(name):
    def function(*args, **kwargs):
        device = device_of((args, tuple(kwargs.values())))
        return to_kiln(getattr(scipy_interpolate(), name)(*to_host(args), **to_host(kwargs)), device)

    function.__name__ = name
    function.__doc__ = f"scipy.interpolate.{name}, on the host (kiln arrays in and out)."
    return function


CLASSES = ["KroghInterpolator", "BarycentricInterpolator", "UnivariateSpline", "InterpolatedUnivariateSpline",
           "LSQUnivariateSpline", "NdPPoly", "NdBSpline", "LinearNDInterpolator", "NearestNDInterpolator",
           "CloughTocher2DInterpolator", "RBFInterpolator"]
FUNCTIONS = ["krogh_interpolate", "barycentric_interpolate", "griddata"]
made = {name: _on_host_class(name) for name in CLASSES}
made.update({name: _on_host_function(name) for name in FUNCTIONS})
