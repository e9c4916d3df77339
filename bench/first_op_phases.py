"""Where a fresh process's time goes before its first GPU result: import,
context, the first transfer, the first op (kernel load from the disk cache or
NVRTC) and a second new op. Run it twice: the second run shows a warm cache.

    python bench/first_op_phases.py
"""
import time

start = time.perf_counter()
import numpy as np  # noqa: E402

import kiln  # noqa: E402

phases = {"import": time.perf_counter()}
kiln.cuda.Device(0).synchronize()
phases["context"] = time.perf_counter()
a = kiln.asarray(np.arange(1000, dtype=np.float32), device="cuda")
kiln.cuda.synchronize()
phases["asarray"] = time.perf_counter()
b = a + a
kiln.cuda.synchronize()
phases["first add"] = time.perf_counter()
c = a * a
kiln.cuda.synchronize()
phases["first multiply"] = time.perf_counter()
d = a * a
kiln.cuda.synchronize()
phases["multiply again"] = time.perf_counter()

before = start
for name, at in phases.items():
    print(f"{name} {1e3 * (at - before):.2f} ms", end=", " if name != "multiply again" else "\n")
    before = at
