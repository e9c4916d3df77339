"""The public ``kiln`` namespace, for the protocols that hand it out
(``x.__array_namespace__()``, NumPy's ``__array_ufunc__`` and
``__array_function__``). kiln/__init__.py registers itself here once it is
complete, so those modules need not import their own package (which would
be an import circle)."""
_namespace = None


def register(namespace):
    global _namespace
    _namespace = namespace


def get():
    """The kiln module."""
    return _namespace
