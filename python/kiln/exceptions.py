"""NumPy's exception and warning classes, which kiln raises and warns with
(``kiln.exceptions.AxisError`` is ``numpy.exceptions.AxisError``), so that
code catching either library's catches both. Loaded from NumPy on first use."""
_NAMES = ("AxisError", "ComplexWarning", "DTypePromotionError", "ModuleDeprecationWarning", "RankWarning",
          "TooHardError", "VisibleDeprecationWarning")
__all__ = list(_NAMES)


def __getattr__(name):
    if name in _NAMES:
        import numpy.exceptions

        return getattr(numpy.exceptions, name)
    raise AttributeError(f"module 'kiln.exceptions' has no attribute {name!r}")
