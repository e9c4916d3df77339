"""CUDA events. CuPy spells them ``cuda.Event(...)`` (also found in
``cupy.cuda.stream``), Numba ``cuda.event(timing=True)``: this module is the
class, and calling the module is Numba's function (see callable_module.py)."""
from . import host_runtime
from .backend import core
from .callable_module import make_callable
from .device import _index, is_available


class Event:
    """A CUDA event. ``timing=False`` (or CuPy's ``disable_timing=True``) makes it lighter."""

    def __init__(self, timing=True, block=False, disable_timing=None, device_id=None):
        if disable_timing is not None:
            timing = not disable_timing
        if not is_available():  # an event of the host's clock
            self._event = host_runtime.HostEvent()
            return
        self._event = core()._Event.create(_index(device_id), timing, block)

    def _stream(self, stream):
        """The core stream `stream` names: None (or Numba's 0) is the current one."""
        if stream is None or (isinstance(stream, int) and stream == 0):
            return core()._current_stream(self._event.device) if is_available() else host_runtime.NULL_STREAM
        return stream._stream

    def record(self, stream=None):
        self._event.record(self._stream(stream))

    def wait(self, stream=0):
        """Numba's spelling: work queued later on `stream` waits for this event."""
        self._stream(stream).wait(self._event)

    def synchronize(self):
        self._event.synchronize()

    def query(self):
        return self._event.done()

    @property
    def done(self):
        return self._event.done()

    @property
    def ptr(self):
        return self._event.handle

    @property
    def device_id(self):
        return self._event.device

    def elapsed_time(self, end):
        """Milliseconds from this event to ``end``."""
        return end._event.elapsed_ms_since(self._event)


def get_elapsed_time(start_event, end_event):
    """Milliseconds between two recorded events (CuPy's ``cupy.cuda.get_elapsed_time``)."""
    return end_event._event.elapsed_ms_since(start_event._event)


def event(timing=True):
    """Numba's ``cuda.event(timing=True)``."""
    return Event(timing=timing)


make_callable(__name__, event)
