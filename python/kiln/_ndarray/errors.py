"""NumPy's exception types for kiln's Python layer, made when raised (so
that ``import kiln`` does not load NumPy)."""


def linalg_error(message):
    """NumPy's LinAlgError (a ValueError) with ``message``, as CuPy raises."""
    from numpy.linalg import LinAlgError

    return LinAlgError(message)


def axis_error(message):
    """NumPy's AxisError (both a ValueError and an IndexError) with ``message``."""
    from numpy.exceptions import AxisError

    return AxisError(message)
