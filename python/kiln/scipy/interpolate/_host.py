"""SciPy's interpolate module, for the coefficient-sized work that
kiln.scipy.interpolate leaves to the host (the arrays move through
kiln/scipy/_host_arrays.py)."""


def scipy_interpolate():
    try:
        import scipy.interpolate
    except ImportError:
        raise ImportError("kiln.scipy.interpolate builds its coefficients with SciPy on the host: "
                          "pip install scipy") from None
    return scipy.interpolate
