"""kiln.scipy.ndimage: scipy.ndimage for code ported from
``cupyx.scipy.ndimage``, on every device: the filters (_filters.py),
spline interpolation and geometric transforms (_interpolation.py),
mathematical morphology (_morphology.py), the distance transform
(_distance_transform.py), the Fourier filters (_fourier.py), labelling of
connected components (_label.py) and the measurements by label
(_measurements.py); _util.py holds the rules for
the output and fill-value arguments they share."""
from ._distance_transform import *  # noqa: F401,F403
from ._distance_transform import __all__ as _distance_names
from ._filters import *  # noqa: F401,F403
from ._filters import __all__ as _filter_names
from ._fourier import *  # noqa: F401,F403
from ._fourier import __all__ as _fourier_names
from ._interpolation import *  # noqa: F401,F403
from ._interpolation import __all__ as _interpolation_names
from ._label import *  # noqa: F401,F403
from ._label import __all__ as _label_names
from ._measurements import *  # noqa: F401,F403
from ._measurements import __all__ as _measurement_names
from ._morphology import *  # noqa: F401,F403
from ._morphology import __all__ as _morphology_names

__all__ = sorted(_distance_names + _filter_names + _fourier_names + _interpolation_names + _label_names
                 + _measurement_names + _morphology_names)
