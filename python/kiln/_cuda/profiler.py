"""CuPy's ``cupy.cuda.profiler``: start and stop the CUDA profiler's
collection on the current device (what Nsight Systems' capture range
``cudaProfilerApi`` follows). Without a GPU there is no CUDA profiler, so
both do nothing. ``kiln.cuda.profile()`` is the context-manager form."""
from .backend import core
from .device import get_device_id, host_mode


def start():
    if not host_mode():
        core()._profiler_start(get_device_id())


def stop():
    if not host_mode():
        core()._profiler_stop(get_device_id())
