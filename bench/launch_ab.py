"""Host time per call of kiln's launch paths, for comparing two builds of
kiln on one machine in one run (a change's "no slower" check): a built-in op
(a + b of 1000 float32), a RawKernel launch, a cuda.jit launch with 1 and
with 4 array arguments. Each is the median of 50 samples of 100 queued calls.

    PYTHONPATH=<build A> python bench/launch_ab.py --label A   # prints one JSON line
    PYTHONPATH=<build B> python bench/launch_ab.py --label B

Run the builds alternately a few times: the spread between runs of one build
is the noise the difference has to beat.
"""
import argparse
import json
import statistics
import time

import numpy as np

import kiln
from kiln import cuda

QUEUED = 100
NOOP = r'extern "C" __global__ void noop(float* x, int n) {}'


def host_time(call, sync, samples=50):
    times = []
    for _ in range(samples + 2):
        sync()
        start = time.perf_counter()
        for _ in range(QUEUED):
            call()
        times.append((time.perf_counter() - start) / QUEUED)
    sync()
    return statistics.median(times[2:])


@cuda.jit
def touch1(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] += 1


@cuda.jit
def touch4(a, b, c, d):
    i = cuda.grid(1)
    if i < a.size:
        a[i] += b[i] + c[i] + d[i]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--label", default="kiln")
    parser.add_argument("--device", default="cuda" if cuda.is_available() else "cpu")
    options = parser.parse_args()
    device, label = options.device, options.label
    sync = cuda.synchronize
    a, b = (kiln.ones(1000, dtype="float32", device=device) for _ in range(2))
    kernel = kiln.RawKernel(NOOP, "noop")
    x = kiln.zeros(32, dtype="float32", device=device)
    one, four = touch1[1, 32], touch4[1, 32]
    for warm in (lambda: a + b, lambda: kernel((1,), (32,), (x, np.int32(32))), lambda: one(x),
                 lambda: four(x, x, x, x)):
        warm()
    rows = {
        "a + b, 1000 float32": host_time(lambda: a + b, sync),
        "RawKernel launch": host_time(lambda: kernel((1,), (32,), (x, np.int32(32))), sync),
        "jit launch, 1 array": host_time(lambda: one(x), sync),
        "jit launch, 4 arrays": host_time(lambda: four(x, x, x, x), sync),
    }
    print(json.dumps({"label": label, "device": device, "us": {k: round(v * 1e6, 3) for k, v in rows.items()}}))


if __name__ == "__main__":
    main()
