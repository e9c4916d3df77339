"""CUDA streams; operations run on the current stream. This module is CuPy's
``cupy.cuda.stream`` (``Stream``, ``ExternalStream``, ``Event``,
``get_current_stream``, ``get_elapsed_time``), and calling it is Numba's
``cuda.stream()`` (see callable_module.py)."""
import contextlib

from . import host_runtime
from .backend import core
from .callable_module import make_callable
from .device import _index, is_available
from .event import Event, get_elapsed_time  # noqa: F401  (cupy.cuda.stream has them too)


class _NullStreamDescriptor:
    def __get__(self, obj, cls):
        return cls(null=True)


class Stream:
    """A CUDA stream; ``with stream:`` makes it current for this thread."""

    null = _NullStreamDescriptor()
    external = False  # Numba's flag (see ExternalStream)

    def __init__(self, null=False, non_blocking=False, ptr=0, device_id=None):
        self._previous = []
        if not is_available():  # the CPU's work is done when each call returns
            self._stream = host_runtime.NULL_STREAM if null else host_runtime.HostStream(handle=ptr or None)
            return
        dev = _index(device_id)
        if null:
            self._stream = core()._Stream.null(dev)
        elif ptr:
            self._stream = core()._Stream.external(dev, ptr)
        else:
            self._stream = core()._Stream.create(dev, non_blocking)

    @classmethod
    def _wrap(cls, stream):
        self = cls.__new__(cls)
        self._stream, self._previous = stream, []
        return self

    @property
    def ptr(self):
        return self._stream.handle

    @property
    def handle(self):
        """Numba's spelling of ``ptr``."""
        return self.ptr

    @property
    def device_id(self):
        return self._stream.device

    def use(self):
        if is_available():
            core()._set_current_stream(self._stream)
        return self

    def __enter__(self):
        if is_available():
            self._previous.append(core()._current_stream(self.device_id))
        return self.use()

    def __exit__(self, *exc):
        if is_available():
            core()._set_current_stream(self._previous.pop())

    def synchronize(self):
        self._stream.synchronize()

    @contextlib.contextmanager
    def auto_synchronize(self):
        """Numba's spelling: the block's work is finished when it ends."""
        yield self
        self.synchronize()

    @property
    def done(self):
        return self._stream.done()

    def record(self, event=None):
        event = Event() if event is None else event
        event.record(self)
        return event

    def wait_event(self, event):
        self._stream.wait(event._event)

    def launch_host_func(self, callback, arg):
        """``callback(arg)`` once the work queued so far is done (on the GPU,
        from the driver's thread; later work on the stream waits for it).
        Synchronising and moving arrays to the host let the callback run
        while they wait; other calls that wait for the GPU hold Python's
        lock, so synchronize the stream before them."""
        self._stream.launch_host_func(callback, arg)

    def __eq__(self, other):
        return isinstance(other, Stream) and self._stream == other._stream

    def __hash__(self):
        return hash((self.ptr, self.device_id))

    def __repr__(self):
        return f"<kiln.cuda.Stream {self.ptr:#x} on cuda:{self.device_id}>"


class ExternalStream(Stream):
    """A stream created elsewhere (PyTorch, CuPy, Numba), given by its handle."""

    external = True  # Numba's flag: kiln neither made it nor destroys it

    def __init__(self, ptr, device_id=None):
        super().__init__(ptr=ptr, device_id=device_id)


def get_current_stream(device_id=None):
    if not is_available():
        return Stream._wrap(host_runtime.NULL_STREAM)
    return Stream._wrap(core()._current_stream(_index(device_id)))


def _from_interchange(value, device_id):
    """The stream an interchange protocol names (``__cuda_array_interface__``'s
    "stream", ``__dlpack__``'s stream=): 1 the legacy default stream, 2 the
    per-thread default stream, otherwise a stream handle; 0 is not allowed."""
    if value == 0:
        raise ValueError("stream: 0 is ambiguous and not allowed; use 1 for the legacy default stream "
                         "or 2 for the per-thread default stream")
    if value == 1:
        return Stream(null=True, device_id=device_id)
    return ExternalStream(value, device_id=device_id)


def _to_interchange(stream):
    """``stream`` as an interchange protocol spells it (the null stream is 1)."""
    return stream.ptr or 1


def _wait(consumer, producer):
    """Orders work queued on ``consumer`` after the work queued so far on ``producer``."""
    if _to_interchange(consumer) == _to_interchange(producer):  # one stream (the null stream is 1)
        return
    event = Event(disable_timing=True, device_id=producer.device_id)
    event.record(producer)
    consumer.wait_event(event)


def stream():
    """Numba's ``cuda.stream()``: a new stream of the current device."""
    return Stream()


def default_stream():
    """Numba's ``cuda.default_stream()`` and ``legacy_default_stream()``: the null stream."""
    return Stream.null


def per_thread_default_stream():
    """Numba's ``cuda.per_thread_default_stream()``: CUDA's per-thread
    default stream, by its reserved handle (CU_STREAM_PER_THREAD, 0x2)."""
    return ExternalStream(0x2)


def external_stream(ptr):
    """Numba's ``cuda.external_stream(ptr)``: a stream created elsewhere."""
    return ExternalStream(ptr)


make_callable(__name__, stream)
