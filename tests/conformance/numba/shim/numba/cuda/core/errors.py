"""Numba's error names, mapped to kiln's."""
from kiln.cuda import TypingError, UnsupportedError  # noqa: F401
from kiln.cuda import PerformanceWarning as NumbaPerformanceWarning  # noqa: F401

NumbaTypeError = TypingError


class NumbaInvalidConfigWarning(UserWarning):
    """Numba warns with it for debug=True with optimisation (NVVM cannot do
    both). kiln has no such warning (its debug mode runs optimised): a class
    of the shim's own, which kiln never raises."""


# Numba's CPU compiler's error and warning classes its tests name, which
# kiln does not raise (it raises TypingError or UnsupportedError where
# Numba's lowering or its checks of arguments would fail): classes of the
# shim's own, so that the tests naming them run and fail where they expect one.
class NumbaValueError(TypingError, ValueError):
    pass


class LoweringError(Exception):
    pass


class ForbiddenConstruct(LoweringError):
    pass


class NumbaNotImplementedError(NotImplementedError):
    pass


class NumbaWarning(Warning):
    pass


class NumbaDeprecationWarning(NumbaWarning, DeprecationWarning):
    pass


class NumbaPendingDeprecationWarning(NumbaWarning, PendingDeprecationWarning):
    pass


class NumbaExperimentalFeatureWarning(NumbaWarning):
    pass
