"""NumPy's ``out=`` argument: a result written into the array given, which
is then what the call returns."""


def into(result, out):
    """``result`` itself when ``out`` is None, else ``out`` holding it."""
    if out is None:
        return result
    out[...] = result
    return out
