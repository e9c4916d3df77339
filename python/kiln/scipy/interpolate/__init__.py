"""kiln.scipy.interpolate: scipy.interpolate's interpolants for code ported
from ``cupyx.scipy.interpolate``. Evaluation runs on the data's device
(PPoly, BPoly and the cubic interpolants built on PPoly, BSpline, interp1d,
RegularGridInterpolator's linear and nearest methods); fitting coefficients
and the operations on them are SciPy's on the host (see each module).
Needs SciPy for those."""
from ._bspline import BSpline, make_interp_spline, make_lsq_spline, make_smoothing_spline, splantider, splder
from ._cubic import Akima1DInterpolator, CubicHermiteSpline, CubicSpline, PchipInterpolator, pchip_interpolate
from ._interp1d import interp1d
from ._ppoly import BPoly, PPoly
from ._rgi import RegularGridInterpolator, interpn

__all__ = ["Akima1DInterpolator", "BPoly", "BSpline", "CubicHermiteSpline", "CubicSpline", "PPoly",
           "PchipInterpolator", "RegularGridInterpolator", "interp1d", "interpn", "make_interp_spline",
           "make_lsq_spline", "make_smoothing_spline", "pchip_interpolate", "splantider", "splder"]
