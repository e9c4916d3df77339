import time, ctypes, sys, os
t0 = time.perf_counter()
import numpy as np
import kiln
t1 = time.perf_counter()
kiln.cuda.Device(0).synchronize()
t2 = time.perf_counter()
x = np.arange(1000, dtype=np.float32)
a = kiln.asarray(x, device="cuda"); kiln.cuda.synchronize()
t3 = time.perf_counter()
b = a + a; kiln.cuda.synchronize()
t4 = time.perf_counter()
c = a * a; kiln.cuda.synchronize()
t5 = time.perf_counter()
d = a * a; kiln.cuda.synchronize()
t6 = time.perf_counter()
print(f"import {1e3*(t1-t0):.2f} ms, context {1e3*(t2-t1):.2f}, asarray {1e3*(t3-t2):.2f}, first add {1e3*(t4-t3):.2f}, first multiply {1e3*(t5-t4):.2f}, again {1e3*(t6-t5):.2f}")
