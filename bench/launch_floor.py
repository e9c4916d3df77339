"""Host time of cuLaunchKernel alone on the legacy null stream, the per-thread
default stream and a created stream, beside kiln's RawKernel on each: what a
launch can cost at best on this machine and driver.

    python bench/launch_floor.py
"""
import cupy
import numpy as np

import kiln
from launch_ab import host_time

NOOP = r'extern "C" __global__ void noop(float* x, int n) {}'


def main():
    sync = cupy.cuda.Device().synchronize
    function = cupy.RawKernel(r'extern "C" __global__ void noop0() {}', "noop0").kernel.ptr
    created = kiln.cuda.Stream(non_blocking=True)
    streams = {"legacy null stream": 0, "per-thread default stream": 2, "created non-blocking stream": created.ptr}
    kernel = kiln.RawKernel(NOOP, "noop")
    x = kiln.zeros(4, dtype="float32", device="cuda")
    for name, handle in streams.items():
        driver = host_time(lambda: cupy.cuda.driver.launchKernel(function, 1, 1, 1, 32, 1, 1, 0, handle, 0, 0), sync)
        ours = host_time(lambda: kernel((1,), (32,), (x, np.int32(4)), stream=handle), sync)
        print(f"{name:30s} cuLaunchKernel {driver * 1e6:5.2f} us   kiln RawKernel {ours * 1e6:5.2f} us")


if __name__ == "__main__":
    main()
