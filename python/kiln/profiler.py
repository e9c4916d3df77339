"""Timing and profiling, in cupyx.profiler's spellings.

- ``benchmark(func, args, kwargs, n_repeat, ...)``: CPU and GPU time a call,
  with mean, std, min and max; ``pipelined=True`` queues the calls without a
  synchronisation between them (the throughput of a stream of calls).
- ``range(message)``: an NVTX range, as a context manager or a decorator,
  shown by Nsight Systems (a no-op when no profiler is attached).
"""
import builtins
import functools
import math
import time

from . import _core

__all__ = ["benchmark", "range"]


class _PerfCaseResult:
    """What ``benchmark`` measured: ``cpu_times`` (seconds, one per call) and
    ``gpu_times`` (seconds, a row per device in ``devices``)."""

    def __init__(self, name, cpu_times, gpu_times, devices, pipelined):
        self.name = name
        self.cpu_times = cpu_times
        self.gpu_times = gpu_times
        self.devices = devices
        self.pipelined = pipelined

    @staticmethod
    def _line(label, times):
        import numpy as np

        us = np.asarray(times) * 1e6
        return (f"    {label}:{us.mean():>10.3f} us   +/- {us.std():>8.3f} "
                f"(min:{us.min():>10.3f} / max:{us.max():>10.3f}) us")

    def to_str(self, show_gpu=True):
        text = f"{self.name:<20s}:" + self._line("CPU", self.cpu_times)
        if show_gpu:
            for device, times in zip(self.devices, self.gpu_times):
                text += self._line(f"GPU-{device}", times)
        return text + ("   (pipelined)" if self.pipelined else "")

    def __str__(self):
        return self.to_str()

    __repr__ = __str__


def benchmark(func, args=(), kwargs=None, n_repeat=10000, *, name=None, n_warmup=10, max_duration=math.inf,
              devices=None, pipelined=False):
    """Times ``func(*args, **kwargs)``: ``n_warmup`` untimed calls, then up to
    ``n_repeat`` timed ones (fewer once ``max_duration`` seconds have passed).

    CPU time is the host's wall time of a call; GPU time is between events
    recorded on each device's current stream before and after it (``devices``:
    CUDA device ids, default the current one where there is a GPU). Without
    ``pipelined``, each call waits for the GPU, as cupyx's benchmark does;
    with it the calls are queued back to back and the events waited for at the
    end, so the GPU times are each call's share of a busy stream."""
    import numpy as np

    from . import cuda

    kwargs = {} if kwargs is None else kwargs
    if n_repeat < 1:
        raise ValueError(f"n_repeat must be at least 1, got {n_repeat}")
    if devices is None:
        devices = (cuda.get_device_id(),) if cuda.is_available() else ()
    devices = tuple(devices)

    def synchronize():
        for d in devices:
            cuda.Device(d).synchronize()

    for _ in builtins.range(n_warmup):
        func(*args, **kwargs)
    synchronize()
    cpu, events = [], []
    started = time.perf_counter()
    for _ in builtins.range(n_repeat):
        marks = [cuda.Event(device_id=d) for d in devices for _ in (0, 1)]
        for k, d in enumerate(devices):
            marks[2 * k].record(cuda.get_current_stream(d))
        t0 = time.perf_counter()
        func(*args, **kwargs)
        t1 = time.perf_counter()
        for k, d in enumerate(devices):
            marks[2 * k + 1].record(cuda.get_current_stream(d))
        if not pipelined:
            for m in marks[1::2]:
                m.synchronize()
            t1 = time.perf_counter()
        cpu.append(t1 - t0)
        events.append(marks)
        if t1 - started >= max_duration:
            break
    synchronize()
    gpu = np.array([[cuda.get_elapsed_time(m[2 * k], m[2 * k + 1]) * 1e-3 for m in events]
                    for k in builtins.range(len(devices))]).reshape(len(devices), len(events))
    return _PerfCaseResult(name or getattr(func, "__name__", "function"), np.array(cpu), gpu, devices, pipelined)


# cupyx.profiler's colour palette order, as ARGB.
_COLORS = (0xFF76B900, 0xFF1F77B4, 0xFFFF7F0E, 0xFF2CA02C, 0xFFD62728, 0xFF9467BD, 0xFF8C564B, 0xFFE377C2)


class range:  # noqa: A001  (cupyx.profiler.range's name)
    """An NVTX range named ``message``: ``with kiln.profiler.range("step"):``
    or ``@kiln.profiler.range("step")``. ``color_id`` picks a colour from a
    palette, ``argb_color`` gives one (0xAARRGGBB)."""

    def __init__(self, message, color_id=None, argb_color=None):
        if not isinstance(message, str):
            raise TypeError(f"message must be a str, got {type(message).__name__}")
        if argb_color is not None:
            self._argb = int(argb_color) & 0xFFFFFFFF
        elif color_id is not None:
            self._argb = _COLORS[int(color_id) % len(_COLORS)]
        else:
            self._argb = 0
        self.message = message

    def __enter__(self):
        _core._range_push(self.message, self._argb)
        return self

    def __exit__(self, *exc):
        _core._range_pop()
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def wrapped(*args, **kwargs):
            with self:
                return func(*args, **kwargs)

        return wrapped
