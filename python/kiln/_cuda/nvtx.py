"""CuPy's ``cupy.cuda.nvtx``: NVTX marks and ranges that Nsight Systems shows
(no-ops when no profiler is attached, and on a machine without one).
``kiln.profiler.range`` is the context-manager form."""
from .. import _core

# CuPy's palette for id_color (ARGB): green, blue, yellow, purple, cyan, red, white.
_COLORS = (0xFF00FF00, 0xFF0000FF, 0xFFFFFF00, 0xFFFF00FF, 0xFF00FFFF, 0xFFFF0000, 0xFFFFFFFF)


def _palette(id_color):
    return 0 if id_color < 0 else _COLORS[id_color % len(_COLORS)]


def Mark(message, id_color=-1):
    _core._mark(str(message), _palette(id_color))


def MarkC(message, color=0):
    _core._mark(str(message), int(color))


def RangePush(message, id_color=-1):
    _core._range_push(str(message), _palette(id_color))


def RangePushC(message, color=0):
    _core._range_push(str(message), int(color))


def RangePop():
    _core._range_pop()
