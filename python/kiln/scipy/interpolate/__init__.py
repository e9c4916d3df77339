"""kiln.scipy.interpolate: scipy.interpolate's interpolants for code ported
from ``cupyx.scipy.interpolate``. Evaluation runs on the data's device
(PPoly, BPoly and the cubic interpolants built on PPoly, BSpline, interp1d,
RegularGridInterpolator's linear and nearest methods); fitting coefficients
and the operations on them are SciPy's on the host (see each module);
the rest (_on_host.py) SciPy builds and evaluates on the host, kiln arrays
in and out. Needs SciPy for those."""
from ._bspline import BSpline, make_interp_spline, make_lsq_spline, make_smoothing_spline, splantider, splder
from ._cubic import Akima1DInterpolator, CubicHermiteSpline, CubicSpline, PchipInterpolator, pchip_interpolate
from ._interp1d import interp1d
from ._on_host import CLASSES as _ON_HOST_CLASSES, FUNCTIONS as _ON_HOST_FUNCTIONS, made as _made
from ._ppoly import BPoly, PPoly
from ._rgi import RegularGridInterpolator, interpn

globals().update(_made)

__all__ = _ON_HOST_CLASSES + _ON_HOST_FUNCTIONS + [
           "Akima1DInterpolator", "BPoly", "BSpline", "CubicHermiteSpline", "CubicSpline", "PPoly", "PchipInterpolator", "RegularGridInterpolator", "interp1d", "interpn", "make_interp_spline",
           "make_lsq_spline", "make_smoothing_spline", "pchip_interpolate", "splantider", "splder"]
