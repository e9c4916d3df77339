"""NumPy's exception types for kiln's Python layer, made when raised (so
that ``import kiln`` does not load NumPy)."""


def axis_error(message):
    """NumPy's AxisError (both a ValueError and an IndexError) with ``message``."""
    from numpy.exceptions import AxisError

    return AxisError(message)
