"""Streams and events on a machine without a GPU, so that programs written
for CuPy, Numba or PyCUDA run unchanged on the CPU: kiln's CPU work is done
when each call returns, so a host stream has nothing to wait for, and an
event records the host's clock when it is recorded. They have the methods
of the C++ streams and events (kiln._core._Stream and _Event) that
stream.py and event.py call."""
import time


class HostStream:
    """A stream of the host: the null stream's handle is 0, an external
    stream's the handle it was given, another's its id."""

    device = 0

    def __init__(self, null=False, handle=None):
        self.handle = 0 if null else handle if handle is not None else id(self)

    def synchronize(self):
        """Nothing to wait for: the CPU's work is done when its call returns."""

    def done(self):
        return True

    def wait(self, event):
        """Nothing to order: work on the CPU runs in program order."""

    def launch_host_func(self, callback, arg):
        """The work queued so far is done, so the callback runs now."""
        callback(arg)



class HostEvent:
    """An event of the host's clock (time.perf_counter)."""

    device = 0

    def __init__(self):
        self._seconds = None

    @property
    def handle(self):
        return id(self)

    def record(self, stream):
        self._seconds = time.perf_counter()

    def synchronize(self):
        """Recorded events are complete: nothing to wait for."""

    def done(self):
        return True

    def elapsed_ms_since(self, start):
        if self._seconds is None or start._seconds is None:
            raise RuntimeError("elapsed time: both events must have been recorded")
        return (self._seconds - start._seconds) * 1000.0


NULL_STREAM = HostStream(null=True)
